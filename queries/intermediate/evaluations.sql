-- Which gold list each submission is scored against: the gold list of its split.
-- Grain: one row per submission that has a gold list. Columns: submission_id, submission (its name),
-- split, gold_id, submission_sha256 and gold_sha256 (of the files the two lists were loaded from).
SELECT
    submission.set_id AS submission_id,
    submission.name AS submission,
    submission.split,
    gold.set_id AS gold_id,
    submission.sha256 AS submission_sha256,
    gold.sha256 AS gold_sha256
FROM annotation_sets AS submission
JOIN annotation_sets AS gold
    ON gold.kind = 'gold' AND gold.split = submission.split
WHERE submission.kind = 'submission'
