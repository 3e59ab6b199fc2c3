-- The mistakes listed by submissions.
-- Grain: one row per submitted mistake.
-- Key: mistake_id
-- Columns:
--   submission_id: The submission the mistake belongs to (annotation_sets.set_id).
--   submission: The submission's name (the file stem).
--   split: train or test: the split of the texts the submission names.
--   (the other columns are those of mistakes)
SELECT
    mistake_id,
    set_id AS submission_id,
    line_number,
    text_id,
    annotation_id,
    tokens,
    sentence_id,
    sent_token_start,
    sent_token_end,
    doc_token_start,
    doc_token_end,
    category,
    correction,
    comment,
    previous_end,
    next_start,
    name AS submission,
    split
FROM listed_mistakes
WHERE kind = 'submission'
