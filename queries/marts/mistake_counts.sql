-- Mistake-level counts behind recall and precision.
-- Grain: one row per (submission, scope) with gold or submitted mistakes in it. Columns: submission_id,
-- scope, gold_total, submitted_total, matched (gold mistakes that took a submitted mistake).
WITH gold AS (
    SELECT submission_id, scope, count(*) AS gold_total
    FROM scoped_gold_mistakes
    GROUP BY submission_id, scope
),

submitted AS (
    SELECT submission_id, scope, count(*) AS submitted_total
    FROM scoped_submitted_mistakes
    GROUP BY submission_id, scope
),

-- only gold mistakes with candidates can take one (mistake_matches: the others took nothing)
matched AS (
    SELECT submission_id, scope, count(submitted_mistake_id) AS matched
    FROM candidate_matches
    GROUP BY submission_id, scope
)

SELECT
    submission_id,
    scope,
    coalesce(gold.gold_total, 0) AS gold_total,
    coalesce(submitted.submitted_total, 0) AS submitted_total,
    coalesce(matched.matched, 0) AS matched
FROM gold
FULL JOIN submitted USING (submission_id, scope)
LEFT JOIN matched USING (submission_id, scope)
