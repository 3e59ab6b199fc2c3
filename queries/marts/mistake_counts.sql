-- Mistake-level counts behind recall and precision.
-- Grain: one row per (submission, scope), scopes as in scopes. Columns: submission_id, scope, gold_total,
-- submitted_total, matched (gold mistakes that took a submitted mistake).
WITH matched AS (
    SELECT submission_id, scope, count(submitted_mistake_id) AS matched
    FROM candidate_matches
    GROUP BY submission_id, scope
)

SELECT
    evaluations.submission_id,
    scopes.scope,
    coalesce(gold.mistakes, 0) AS gold_total,
    coalesce(submitted.mistakes, 0) AS submitted_total,
    coalesce(matched.matched, 0) AS matched
FROM evaluations
CROSS JOIN scopes
LEFT JOIN scoped_list_sizes AS gold ON gold.set_id = evaluations.gold_id AND gold.scope = scopes.scope
LEFT JOIN scoped_list_sizes AS submitted
    ON submitted.set_id = evaluations.submission_id AND submitted.scope = scopes.scope
LEFT JOIN matched ON matched.submission_id = evaluations.submission_id AND matched.scope = scopes.scope
