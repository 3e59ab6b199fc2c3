-- The mistakes listed by submissions.
-- Grain: one row per submitted mistake. Columns: mistake_id, submission_id (its annotation set),
-- submission (its name), split, text_id, doc_token_start, doc_token_end, category, tokens, correction,
-- comment, line_number.
SELECT
    mistakes.mistake_id,
    mistakes.set_id AS submission_id,
    annotation_sets.name AS submission,
    annotation_sets.split,
    mistakes.text_id,
    mistakes.doc_token_start,
    mistakes.doc_token_end,
    mistakes.category,
    mistakes.tokens,
    mistakes.correction,
    mistakes.comment,
    mistakes.line_number
FROM mistakes
JOIN annotation_sets USING (set_id)
WHERE annotation_sets.kind = 'submission'
