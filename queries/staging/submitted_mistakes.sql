-- The mistakes listed by submissions.
-- Grain: one row per submitted mistake.
-- Columns:
--   submission_id: The submission the mistake belongs to (annotation_sets.set_id).
--   submission: The submission's name (the file stem).
--   split: train or test: the split of the texts the submission names.
--   (the other columns are those of mistakes)
SELECT * EXCLUDE (kind) RENAME (set_id AS submission_id, name AS submission)
FROM listed_mistakes
WHERE kind = 'submission'
