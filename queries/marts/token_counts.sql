-- Token-level counts behind token recall and precision: sets of (text, token) marked by each list.
-- Grain: one row per (submission, scope), scopes as in scopes. Columns: submission_id, scope, gold_tokens,
-- submitted_tokens, token_matched (tokens marked by both).
-- Spans within one list are disjoint, so overlap lengths add up to the size of the intersection.
WITH both_marked AS (
    SELECT submission_id, scope, sum(overlap_tokens)::BIGINT AS token_matched
    FROM scoped_overlaps
    GROUP BY submission_id, scope
)

SELECT
    evaluations.submission_id,
    scopes.scope,
    coalesce(gold.tokens, 0) AS gold_tokens,
    coalesce(submitted.tokens, 0) AS submitted_tokens,
    coalesce(both_marked.token_matched, 0) AS token_matched
FROM evaluations
CROSS JOIN scopes
LEFT JOIN scoped_list_sizes AS gold ON gold.set_id = evaluations.gold_id AND gold.scope = scopes.scope
LEFT JOIN scoped_list_sizes AS submitted
    ON submitted.set_id = evaluations.submission_id AND submitted.scope = scopes.scope
LEFT JOIN both_marked ON both_marked.submission_id = evaluations.submission_id AND both_marked.scope = scopes.scope
