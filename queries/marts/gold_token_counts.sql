-- How often each token is inside the gold mistakes of each category: what frequent_mistaken_tokens ranks.
-- Materialized: table (computed again whenever submissions are scored or removed. Counted on every read, the
-- 1.8 million token positions of the gold mistakes, each looked up among the 20 million tokens, took 0.9 s at
-- scale 1000, and the SQL page's child process as much again.)
-- Counted over the gold lists of every split of a corpus: a token marked by a gold mistake counts once per
-- occurrence.
-- Grain: one row per (corpus, category, token) inside at least one gold mistake of the category.
-- Columns:
--   corpus: The corpus of the gold lists (annotation_sets.corpus).
--   category: The gold mistakes' category (mistakes.category).
--   token: The token, as the text has it (tokens.token).
--   occurrences: How many times it is inside a gold mistake of the category (twice in one span counts twice).
--   mistakes: How many gold mistakes of the category have it in their span.
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

-- how often each token is in each mistake's span
in_mistake AS (
    SELECT marked.corpus, marked.category, marked.mistake_id, tokens.token, count(*) AS occurrences
    FROM marked_positions AS marked
    JOIN tokens ON tokens.text_id = marked.text_id AND tokens.doc_token = marked.doc_token
    GROUP BY marked.corpus, marked.category, marked.mistake_id, tokens.token
)

SELECT corpus, category, token, sum(occurrences)::BIGINT AS occurrences, count(*) AS mistakes
FROM in_mistake
GROUP BY corpus, category, token
