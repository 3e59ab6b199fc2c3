-- How often each token is inside the gold mistakes of each category: what frequent_mistaken_tokens ranks.
-- Materialized: table of the gold lists (computed again when the gold lists have changed since it was computed, not
-- whenever submissions are scored, which it would lengthen. Counted on every read, the 1.8 million token positions
-- of the gold mistakes at scale 1000, each looked up among the 20 million tokens, would slow every read, the SQL
-- page's child process's too: benchmarks/results/code-timings.md.)
-- Counted over the gold lists of every split of a corpus: a token marked by a gold mistake counts once per
-- occurrence.
-- Grain: one row per (corpus, category, token) inside at least one gold mistake of the category.
-- Key: corpus, category, token
-- Columns:
--   corpus: The corpus of the gold lists (annotation_sets.corpus).
--   category: The gold mistakes' category (mistakes.category).
--   token: The token, as the text has it (tokens.token).
--   occurrences: How many times it is inside a gold mistake of the category (twice in one span counts twice).
--   mistakes: How many gold mistakes of the category have it in their span.
-- A gold mistake's span is unnested into its token positions, each looked up by (text, position): joined to the
-- tokens by range, each mistake meets every token of its sentence (or, by text alone, some 400 million pairs at
-- scale 1000). The counts are made by gold list and only then summed by corpus: the lists' corpus joined before the
-- lookup made DuckDB 2.0 fail inside its hash join ("dict-surviving join … build pipeline is not single-source",
-- duckdb/duckdb#24807) once a corpus had been loaded again.
WITH marked_positions AS (
    SELECT
        gold_id,
        category,
        mistake_id,
        text_id,
        unnest(range(doc_token_start, doc_token_end + 1)) AS doc_token
    FROM gold_mistakes
),

-- how often each token is in each mistake's span
in_mistake AS (
    SELECT marked.gold_id, marked.category, marked.mistake_id, tokens.token, count(*) AS occurrences
    FROM marked_positions AS marked
    JOIN tokens ON tokens.text_id = marked.text_id AND tokens.doc_token = marked.doc_token
    GROUP BY marked.gold_id, marked.category, marked.mistake_id, tokens.token
),

by_list AS (
    SELECT gold_id, category, token, sum(occurrences) AS occurrences, count(*) AS mistakes
    FROM in_mistake
    GROUP BY gold_id, category, token
)

SELECT
    lists.corpus,
    by_list.category,
    by_list.token,
    sum(by_list.occurrences)::BIGINT AS occurrences,
    sum(by_list.mistakes)::BIGINT AS mistakes
FROM by_list
JOIN annotation_sets AS lists ON lists.set_id = by_list.gold_id
GROUP BY lists.corpus, by_list.category, by_list.token
