"""Scoring lists against a gold list: the drop-in evaluate, the scores, the match schemes, signatures."""
