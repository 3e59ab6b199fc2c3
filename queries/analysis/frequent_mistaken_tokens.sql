-- Which tokens are most often inside gold mistakes, in each category (the ten most frequent)?
-- Counted over the gold lists of both splits: a token marked by a gold mistake counts once per occurrence.
-- Grain: one row per (corpus, category, token) among the ten most frequent tokens of the category (ties broken
-- by the token). Columns: corpus, category, rank, token, occurrences, mistakes (gold mistakes whose span has it).
-- A gold mistake's span is unnested into its token positions, each looked up by (text, position): joined to the
-- tokens by range, each mistake meets every token of its sentence (or, by text alone, some 400 million pairs at
-- scale 1000).
WITH marked_positions AS (
    SELECT
        lists.corpus,
        gold.category,
        gold.mistake_id,
        gold.text_id,
        unnest(range(gold.doc_token_start, gold.doc_token_end + 1)) AS doc_token
    FROM gold_mistakes AS gold
    JOIN annotation_sets AS lists ON lists.set_id = gold.gold_id
),

-- how often each token is in each mistake's span (a token twice in a span counts twice)
in_mistake AS (
    SELECT marked.corpus, marked.category, marked.mistake_id, tokens.token, count(*) AS occurrences
    FROM marked_positions AS marked
    JOIN tokens ON tokens.text_id = marked.text_id AND tokens.doc_token = marked.doc_token
    GROUP BY marked.corpus, marked.category, marked.mistake_id, tokens.token
),

counts AS (
    SELECT corpus, category, token, sum(occurrences)::BIGINT AS occurrences, count(*) AS mistakes
    FROM in_mistake
    GROUP BY corpus, category, token
)

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
    FROM counts
    JOIN categories ON categories.corpus = counts.corpus AND categories.category = counts.category
) AS ranked
WHERE rank <= 10
ORDER BY corpus <> 'shared-task', corpus, position, rank
