-- The mistakes of each submission, in each scope they count in (ALL and their category).
-- Grain: one row per (scope, submitted mistake). Columns: submission_id, scope, mistake_id, text_id,
-- doc_token_start, doc_token_end.
SELECT submitted.submission_id, scopes.scope, submitted.mistake_id, submitted.text_id,
    submitted.doc_token_start, submitted.doc_token_end
FROM submitted_mistakes AS submitted
JOIN scopes ON scopes.scope IN ('ALL', submitted.category)
