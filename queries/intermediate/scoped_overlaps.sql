-- Span overlaps within each scope: in ALL every overlap counts; in a category scope both mistakes
-- must be of that category (both lists are filtered to the category first).
-- Grain: one row per (submission, scope, gold mistake, submitted mistake). Columns: submission_id,
-- scope, text_id, gold_mistake_id, submitted_mistake_id, gold_start, gold_end, submitted_start,
-- submitted_end, overlap_tokens.
SELECT
    submission_id, 'ALL' AS scope, text_id, gold_mistake_id, submitted_mistake_id, gold_start, gold_end,
    submitted_start, submitted_end, overlap_tokens
FROM span_overlaps
UNION ALL
SELECT
    submission_id, gold_category AS scope, text_id, gold_mistake_id, submitted_mistake_id, gold_start, gold_end,
    submitted_start, submitted_end, overlap_tokens
FROM span_overlaps
WHERE gold_category = submitted_category
