-- Mistake-level counts behind recall and precision.
-- Grain: one row per (submission, scope), scopes as in scopes.
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   scope: ALL, or the category both lists are filtered to (scopes.scope).
--   gold_total: How many gold mistakes the scope has.
--   submitted_total: How many submitted mistakes the scope has.
--   matched: How many gold mistakes took a submitted mistake.
WITH matched AS (
    SELECT submission_id, scope, count(submitted_mistake_id) AS matched
    FROM candidate_matches
    GROUP BY submission_id, scope
)

SELECT
    sizes.submission_id,
    sizes.scope,
    sizes.gold_mistakes AS gold_total,
    sizes.submitted_mistakes AS submitted_total,
    coalesce(matched.matched, 0) AS matched
FROM scoped_list_sizes AS sizes
LEFT JOIN matched USING (submission_id, scope)
