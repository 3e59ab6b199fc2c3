-- The gold mistakes each submission is scored against, in each scope they count in (ALL and their category):
-- those of the texts it covers (list_texts; a submission covering its split covers them all).
-- Grain: one row per (submission, scope, gold mistake).
-- Key: submission_id, scope, mistake_id
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   scope: ALL, or the category both lists are filtered to (scopes.scope).
--   mistake_id: The gold mistake (mistakes.mistake_id).
--   text_id: The text (texts.text_id).
--   doc_token_start: The first marked token, counted in the document.
--   doc_token_end: The last marked token, counted in the document (inclusive).
WITH covered AS (
    SELECT
        evaluations.submission_id,
        gold.mistake_id,
        gold.text_id,
        gold.category,
        gold.doc_token_start,
        gold.doc_token_end
    FROM evaluations
    JOIN gold_mistakes AS gold ON gold.gold_id = evaluations.gold_id
    LEFT JOIN list_coverage AS coverage
        ON coverage.set_id = evaluations.submission_id AND coverage.text_id = gold.text_id
    WHERE evaluations.covers_split OR coverage.text_id IS NOT NULL
)

SELECT submission_id, 'ALL' AS scope, mistake_id, text_id, doc_token_start, doc_token_end
FROM covered
UNION ALL
SELECT submission_id, category, mistake_id, text_id, doc_token_start, doc_token_end
FROM covered
