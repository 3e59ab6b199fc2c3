-- Which gold mistakes did one of two submissions ($first, $second: their names) find and the other miss?
-- Matching in the ALL scope (mistake_matches); both submissions must be of the same split.
-- Grain: one row per gold mistake matched by exactly one of the two.
-- Key: gold_mistake_id
-- Columns: text_id, gold_mistake_id, doc_token_start, category, tokens (the gold span), correction, found_by, missed_by
-- (submission names), found_as (the tokens of the submitted mistake that matched it), found_category (its category).
WITH pair AS (
    SELECT
        first.submission_id AS first_id,
        second.submission_id AS second_id
    FROM evaluations AS first
    JOIN evaluations AS second ON second.corpus = first.corpus AND second.split = first.split
    WHERE first.submission = $first AND second.submission = $second
),

-- the gold rows of scored_mistakes: the ALL scope of mistake_matches
outcomes AS (
    SELECT
        first.mistake_id AS gold_mistake_id,
        first.counterpart_id AS first_found,
        second.counterpart_id AS second_found
    FROM pair
    JOIN scored_mistakes AS first ON first.submission_id = pair.first_id AND first.side = 'gold'
    JOIN scored_mistakes AS second
        ON second.submission_id = pair.second_id
        AND second.side = 'gold'
        AND second.mistake_id = first.mistake_id
    WHERE (first.counterpart_id IS NULL) <> (second.counterpart_id IS NULL)
)

SELECT
    gold.text_id,
    gold.mistake_id AS gold_mistake_id,
    gold.doc_token_start,
    gold.category,
    gold.tokens,
    gold.correction,
    CASE WHEN outcomes.first_found IS NULL THEN $second ELSE $first END AS found_by,
    CASE WHEN outcomes.first_found IS NULL THEN $first ELSE $second END AS missed_by,
    found.tokens AS found_as,
    found.category AS found_category
FROM outcomes
JOIN mistakes AS gold ON gold.mistake_id = outcomes.gold_mistake_id
JOIN mistakes AS found ON found.mistake_id = coalesce(outcomes.first_found, outcomes.second_found)
ORDER BY gold.text_id, gold.doc_token_start
