-- The mistakes listed by submissions.
-- Grain: one row per submitted mistake. Columns: mistake_id, submission_id (its annotation set),
-- line_number, text_id, annotation_id, tokens, sentence_id, sent_token_start, sent_token_end,
-- doc_token_start, doc_token_end, category, correction, comment, submission (its name), split.
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
