-- Which tokens are most often inside gold mistakes, in each category (the ten most frequent)?
-- Counted over the gold lists of both splits: a token marked by a gold mistake counts once per occurrence.
-- Grain: one row per (corpus, category, token) among the ten most frequent tokens of the category (ties broken
-- by the token).
-- Key: corpus, category, token
-- Columns: corpus, category, rank, token, occurrences, mistakes (gold mistakes whose span has it).
-- The counts are gold_token_counts (queries/marts), computed when the database is built.
SELECT corpus, category, rank, token, occurrences, mistakes
FROM (
    SELECT
        counts.corpus,
        counts.category,
        categories.position,
        row_number() OVER (
            PARTITION BY counts.corpus, counts.category ORDER BY counts.occurrences DESC, counts.token
        ) AS rank,
        counts.token,
        counts.occurrences,
        counts.mistakes
    FROM gold_token_counts AS counts
    JOIN categories ON categories.corpus = counts.corpus AND categories.category = counts.category
) AS ranked
WHERE rank <= 10
ORDER BY corpus <> 'shared-task', corpus, position, rank
