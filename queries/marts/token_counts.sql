-- Token-level counts behind token recall and precision: sets of (text, token) marked by each list.
-- Materialized: incremental (a table; a submission's rows are computed when it is loaded, removed with it: the
-- rows of the submissions in $submission_ids, read by scores as mistake_counts is).
-- Grain: one row per (submission, scope), scopes as in scopes.
-- Key: submission_id, scope
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   scope: ALL, or the category both lists are filtered to (scopes.scope).
--   gold_tokens: How many (text, token) pairs the gold list marks in the scope.
--   submitted_tokens: How many (text, token) pairs the submission marks in the scope.
--   token_matched: How many (text, token) pairs both lists mark in the scope.
-- Spans within one list are disjoint, so overlap lengths add up to the size of the intersection.
WITH both_marked AS (
    SELECT submission_id, scope, sum(overlap_tokens)::BIGINT AS token_matched
    FROM scoped_overlaps
    WHERE submission_id = ANY($submission_ids)
    GROUP BY submission_id, scope
)

SELECT
    sizes.submission_id,
    sizes.scope,
    sizes.gold_tokens,
    sizes.submitted_tokens,
    coalesce(both_marked.token_matched, 0) AS token_matched
FROM scoped_list_sizes AS sizes
LEFT JOIN both_marked USING (submission_id, scope)
WHERE sizes.submission_id = ANY($submission_ids)
