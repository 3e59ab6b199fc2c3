-- The mistakes of each submission, in each scope they count in (ALL and their category).
-- Grain: one row per (scope, submitted mistake). Columns: submission_id, scope, mistake_id, text_id,
-- doc_token_start, doc_token_end.
SELECT submission_id, 'ALL' AS scope, mistake_id, text_id, doc_token_start, doc_token_end
FROM submitted_mistakes
UNION ALL
SELECT submission_id, category AS scope, mistake_id, text_id, doc_token_start, doc_token_end
FROM submitted_mistakes
