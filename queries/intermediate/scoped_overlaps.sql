-- Span overlaps within each scope: in ALL every overlap counts; in a category scope both mistakes
-- must be of that category (both lists are filtered to the category first).
-- Grain: one row per (submission, scope, gold mistake, submitted mistake).
-- Key: submission_id, scope, gold_mistake_id, submitted_mistake_id
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   scope: ALL, or the category both lists are filtered to (scopes.scope).
--   gold_mistake_id: The gold mistake (mistakes.mistake_id).
--   submitted_mistake_id: The submitted mistake (mistakes.mistake_id).
--   gold_start: The first token of the gold mistake (doc_token_start).
--   submitted_start: The first token of the submitted mistake (doc_token_start).
--   overlap_tokens: How many tokens the two spans share.
--   one_to_one: As in span_overlaps: neither mistake intersects any other mistake of the other list (a pair that
--     is one to one among all mistakes is one to one in its category too).
SELECT
    submission_id, 'ALL' AS scope, gold_mistake_id, submitted_mistake_id, gold_start, submitted_start, overlap_tokens,
    one_to_one
FROM span_overlaps
UNION ALL
SELECT
    submission_id, shared_category AS scope, gold_mistake_id, submitted_mistake_id, gold_start, submitted_start,
    overlap_tokens, one_to_one
FROM span_overlaps
WHERE shared_category IS NOT NULL
