-- Which tokens are most often inside gold mistakes, in each category (the ten most frequent)?
-- Counted over the gold lists of both splits: a token marked by a gold mistake counts once per occurrence.
-- Grain: one row per (category, token) among the ten most frequent tokens of the category (ties broken by
-- the token). Columns: category, rank, token, occurrences, mistakes (gold mistakes whose span has it).
WITH marked AS (
    SELECT lists.corpus, gold.category, gold.mistake_id, tokens.token
    FROM gold_mistakes AS gold
    JOIN annotation_sets AS lists ON lists.set_id = gold.gold_id
    JOIN tokens
        ON tokens.text_id = gold.text_id
        AND tokens.doc_token BETWEEN gold.doc_token_start AND gold.doc_token_end
),

counts AS (
    SELECT corpus, category, token, count(*) AS occurrences, count(DISTINCT mistake_id) AS mistakes
    FROM marked
    GROUP BY corpus, category, token
)

SELECT category, rank, token, occurrences, mistakes
FROM (
    SELECT
        counts.category,
        categories.position,
        row_number() OVER (
            PARTITION BY counts.corpus, counts.category ORDER BY counts.occurrences DESC, counts.token
        ) AS rank,
        counts.token,
        counts.occurrences,
        counts.mistakes
    FROM counts
    JOIN categories ON categories.corpus = counts.corpus AND categories.category = counts.category
) AS ranked
WHERE rank <= 10
ORDER BY position, rank
