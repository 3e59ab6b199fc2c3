-- The gold mistakes each submission is scored against, in each scope they count in (ALL and their category).
-- Grain: one row per (submission, scope, gold mistake). Columns: submission_id, scope, mistake_id,
-- text_id, doc_token_start, doc_token_end.
SELECT evaluations.submission_id, scopes.scope, gold.mistake_id, gold.text_id, gold.doc_token_start, gold.doc_token_end
FROM evaluations
JOIN gold_mistakes AS gold ON gold.gold_id = evaluations.gold_id
JOIN scopes ON scopes.scope IN ('ALL', gold.category)
