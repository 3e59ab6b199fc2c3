-- The mistakes of each submission, in each scope they count in (ALL and their category).
-- Grain: one row per (scope, submitted mistake).
-- Key: scope, mistake_id
-- Columns:
--   scope: ALL, or the category both lists are filtered to (scopes.scope).
--   (the other columns are those of submitted_mistakes)
SELECT
    submission_id, 'ALL' AS scope, mistake_id, line_number, text_id, annotation_id, tokens, sentence_id, sent_token_start,
    sent_token_end, doc_token_start, doc_token_end, category, correction, comment, previous_end, next_start,
    submission, split
FROM submitted_mistakes
UNION ALL
SELECT
    submission_id, category AS scope, mistake_id, line_number, text_id, annotation_id, tokens, sentence_id, sent_token_start,
    sent_token_end, doc_token_start, doc_token_end, category, correction, comment, previous_end, next_start,
    submission, split
FROM submitted_mistakes
