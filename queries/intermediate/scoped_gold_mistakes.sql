-- The gold mistakes each submission is scored against, in each scope they count in (ALL and their category).
-- Grain: one row per (submission, scope, gold mistake). Columns: submission_id, scope, mistake_id,
-- text_id, doc_token_start, doc_token_end.
WITH scored_gold AS (
    SELECT evaluations.submission_id, gold.*
    FROM evaluations
    JOIN gold_mistakes AS gold USING (gold_id)
)

SELECT submission_id, 'ALL' AS scope, mistake_id, text_id, doc_token_start, doc_token_end
FROM scored_gold
UNION ALL
SELECT submission_id, category AS scope, mistake_id, text_id, doc_token_start, doc_token_end
FROM scored_gold
