-- Which gold list each submission is scored against: the gold list of its split.
-- Grain: one row per submission that has a gold list. Columns: submission_id, submission (its name),
-- split, gold_id.
SELECT
    submission.set_id AS submission_id,
    submission.name AS submission,
    submission.split,
    gold.set_id AS gold_id
FROM annotation_sets AS submission
JOIN annotation_sets AS gold
    ON gold.kind = 'gold' AND gold.split = submission.split
WHERE submission.kind = 'submission'
