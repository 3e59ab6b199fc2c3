-- Pairs of a gold mistake and a submitted mistake whose token ranges intersect, for each submission.
-- Materialized: incremental (a table; a submission's rows are computed when it is loaded, removed with it).
-- Grain: one row per (submission, gold mistake, submitted mistake) with at least one token in common.
-- Columns: submission_id, text_id, gold_mistake_id, submitted_mistake_id, gold_category,
-- submitted_category, gold_start, gold_end, submitted_start, submitted_end (the first and last token of
-- each), overlap_tokens.
-- Spans within one list never overlap (the loader refuses such lists), so the overlaps of one
-- list's spans with the other's are disjoint and overlap_tokens add up to a token-level intersection.
SELECT
    evaluations.submission_id,
    gold.text_id,
    gold.mistake_id AS gold_mistake_id,
    submitted.mistake_id AS submitted_mistake_id,
    gold.category AS gold_category,
    submitted.category AS submitted_category,
    gold.doc_token_start AS gold_start,
    gold.doc_token_end AS gold_end,
    submitted.doc_token_start AS submitted_start,
    submitted.doc_token_end AS submitted_end,
    least(gold.doc_token_end, submitted.doc_token_end)
        - greatest(gold.doc_token_start, submitted.doc_token_start) + 1 AS overlap_tokens
FROM evaluations
JOIN mistakes AS submitted
    ON submitted.set_id = evaluations.submission_id
JOIN mistakes AS gold
    ON gold.set_id = evaluations.gold_id
    AND gold.text_id = submitted.text_id
    AND gold.doc_token_start <= submitted.doc_token_end
    AND submitted.doc_token_start <= gold.doc_token_end
