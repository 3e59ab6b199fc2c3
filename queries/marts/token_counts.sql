-- Token-level counts behind token recall and precision: sets of (text, token) marked by each list.
-- Grain: one row per (submission, scope) with gold or submitted mistakes in it. Columns: submission_id,
-- scope, gold_tokens, submitted_tokens, token_matched (tokens marked by both).
-- Spans within one list are disjoint, so span lengths and overlap lengths add up to set sizes.
WITH gold AS (
    SELECT submission_id, scope, sum(doc_token_end - doc_token_start + 1) AS gold_tokens
    FROM scoped_gold_mistakes
    GROUP BY submission_id, scope
),

submitted AS (
    SELECT submission_id, scope, sum(doc_token_end - doc_token_start + 1) AS submitted_tokens
    FROM scoped_submitted_mistakes
    GROUP BY submission_id, scope
),

both_marked AS (
    SELECT submission_id, scope, sum(overlap_tokens) AS token_matched
    FROM scoped_overlaps
    GROUP BY submission_id, scope
)

SELECT
    submission_id,
    scope,
    coalesce(gold.gold_tokens, 0)::BIGINT AS gold_tokens,
    coalesce(submitted.submitted_tokens, 0)::BIGINT AS submitted_tokens,
    coalesce(both_marked.token_matched, 0)::BIGINT AS token_matched
FROM gold
FULL JOIN submitted USING (submission_id, scope)
LEFT JOIN both_marked USING (submission_id, scope)
