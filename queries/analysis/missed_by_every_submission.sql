-- Which gold mistakes did every submission of their split miss?
-- The gold mistakes found by none of them (found_by = 0 in gold_mistake_difficulty: a gold mistake is found when it
-- took a submitted mistake in the ALL scope). Only splits with at least one scored submission are listed.
-- Grain: one row per gold mistake missed by all of its split's submissions.
-- Key: gold_mistake_id
-- Columns: split, text_id, gold_mistake_id, doc_token_start, doc_token_end, category, tokens, correction, submissions
-- (how many submissions missed it: all of that split's).
SELECT split, text_id, gold_mistake_id, doc_token_start, doc_token_end, category, tokens, correction, submissions
FROM gold_mistake_difficulty
WHERE found_by = 0
ORDER BY split, text_id, doc_token_start
