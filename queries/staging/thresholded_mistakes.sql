-- The spans the match schemes score: every span of every list, but of the spans with a probability
-- (mistakes.probability) only those at or above the scoring threshold (scoring_threshold, 0.5 unless a command
-- is given another: evaluate, leaderboard and compare --threshold). A span without a probability is hard, and
-- always scored. Every model that scores reads spans from here, never from mistakes.
-- A span left out leaves its neighbours' previous_end and next_start pointing at it: they then bound the other
-- list's spans more tightly than the spans kept do, so span_overlaps takes fewer pairs for one to one, and the
-- others are settled by the matching of contested_matches, which gives any pair its outcome.
-- Grain: one row per scored mistake.
-- Key: mistake_id
-- Columns:
--   probability: How likely the span is a mistake, as its list gave it: NULL (a hard span) or at least the
--     threshold.
--   (the other columns are those of mistakes)
SELECT *
FROM mistakes
WHERE probability IS NULL OR probability >= (SELECT threshold FROM scoring_threshold)
