"""Statistics on the scores: resampling, intervals, paired tests, ranking, validity and agreement."""
