-- Which gold list each submission is scored against: the gold list of its split.
-- Grain: one row per submission that has a gold list.
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   submission: The submission's name (the file stem).
--   split: train or test: the split of the submission and of its gold list.
--   gold_id: The gold list it is scored against (annotation_sets.set_id).
--   submission_sha256: The SHA-256 of the file the submission was loaded from.
--   gold_sha256: The SHA-256 of the file the gold list was loaded from.
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
