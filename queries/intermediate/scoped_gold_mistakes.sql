-- The gold mistakes each submission is scored against, in each scope they count in (ALL and their category).
-- Grain: one row per (submission, scope, gold mistake).
-- Key: submission_id, scope, mistake_id
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   scope: ALL, or the category both lists are filtered to (scopes.scope).
--   mistake_id: The gold mistake (mistakes.mistake_id).
--   text_id: The text (texts.text_id).
--   doc_token_start: The first marked token, counted in the document.
--   doc_token_end: The last marked token, counted in the document (inclusive).
SELECT evaluations.submission_id, 'ALL' AS scope, gold.mistake_id, gold.text_id, gold.doc_token_start, gold.doc_token_end
FROM evaluations
JOIN gold_mistakes AS gold USING (gold_id)
UNION ALL
SELECT evaluations.submission_id, gold.category, gold.mistake_id, gold.text_id, gold.doc_token_start, gold.doc_token_end
FROM evaluations
JOIN gold_mistakes AS gold USING (gold_id)
