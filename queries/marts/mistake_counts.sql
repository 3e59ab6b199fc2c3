-- Mistake-level counts behind recall and precision.
-- Materialized: incremental (a table; a submission's rows are computed when it is loaded, removed with it: the
-- rows of the submissions in $submission_ids. scores reads these few rows a submission: computed from the matching
-- on every read, the leaderboard page's figures by category were slow at scale 1000.)
-- Grain: one row per (submission, scope), scopes as in scopes.
-- Key: submission_id, scope
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   scope: ALL, or the category both lists are filtered to (scopes.scope).
--   gold_total: How many gold mistakes the scope has.
--   submitted_total: How many submitted mistakes the scope has.
--   matched: How many gold mistakes took a submitted mistake.
WITH matched AS (
    SELECT submission_id, scope, count(submitted_mistake_id) AS matched
    FROM candidate_matches
    WHERE submission_id = ANY($submission_ids)
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
WHERE sizes.submission_id = ANY($submission_ids)
