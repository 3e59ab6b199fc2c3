-- Which gold mistakes did every submission of their split miss?
-- A gold mistake is missed when it took no submitted mistake in the ALL scope (mistake_matches). Only splits
-- with at least one scored submission are listed.
-- Grain: one row per gold mistake missed by all of its split's submissions. Columns: split, text_id,
-- gold_mistake_id, doc_token_start, doc_token_end, category, tokens, correction, submissions (how many
-- submissions missed it: all of that split's).
SELECT
    gold.split,
    gold.text_id,
    gold.mistake_id AS gold_mistake_id,
    gold.doc_token_start,
    gold.doc_token_end,
    gold.category,
    gold.tokens,
    gold.correction,
    count(*) AS submissions
FROM mistake_matches AS matches
JOIN gold_mistakes AS gold ON gold.mistake_id = matches.gold_mistake_id
WHERE matches.scope = 'ALL'
GROUP BY ALL
HAVING count(matches.submitted_mistake_id) = 0
ORDER BY gold.split, gold.text_id, gold.doc_token_start
