-- Pairs of a gold mistake and a submitted mistake whose token ranges intersect, for each submission.
-- Grain: one row per (submission, gold mistake, submitted mistake) with at least one token in common.
-- Columns: submission_id, text_id, gold_mistake_id, submitted_mistake_id, gold_category,
-- submitted_category, submitted_start (doc_token_start of the submitted mistake), overlap_tokens.
-- Spans within one list never overlap (the loader refuses such lists), so the overlaps of one
-- list's spans with the other's are disjoint and overlap_tokens add up to a token-level intersection.
SELECT
    evaluations.submission_id,
    gold.text_id,
    gold.mistake_id AS gold_mistake_id,
    submitted.mistake_id AS submitted_mistake_id,
    gold.category AS gold_category,
    submitted.category AS submitted_category,
    submitted.doc_token_start AS submitted_start,
    count(*) AS overlap_tokens
FROM evaluations
JOIN mistake_tokens AS gold_tokens
    ON gold_tokens.set_id = evaluations.gold_id
JOIN mistake_tokens AS submitted_tokens
    ON submitted_tokens.set_id = evaluations.submission_id
    AND submitted_tokens.text_id = gold_tokens.text_id
    AND submitted_tokens.doc_token = gold_tokens.doc_token
JOIN mistakes AS gold
    ON gold.mistake_id = gold_tokens.mistake_id
JOIN mistakes AS submitted
    ON submitted.mistake_id = submitted_tokens.mistake_id
GROUP BY ALL
