-- Which tokens are most often inside gold mistakes, in each category (the ten most frequent)?
-- Counted over the gold lists of both splits: a token marked by a gold mistake counts once per occurrence.
-- Grain: one row per (corpus, category, token) among the ten most frequent tokens of the category (ties broken
-- by the token). Columns: corpus, category, rank, token, occurrences, mistakes (gold mistakes whose span has it).
-- A gold mistake's tokens are looked up in the sentence it names first (a text's tokens joined to each of its
-- mistakes by text alone are some 400 million pairs at scale 1000); a mistake whose span that sentence does not
-- hold whole, as one that runs into the next, has its tokens looked up in the whole text.
WITH gold AS (
    SELECT lists.corpus, gold.category, gold.mistake_id, gold.text_id, gold.sentence_id, gold.doc_token_start,
        gold.doc_token_end
    FROM gold_mistakes AS gold
    JOIN annotation_sets AS lists ON lists.set_id = gold.gold_id
),

in_sentence AS (
    SELECT gold.corpus, gold.category, gold.mistake_id, tokens.token
    FROM gold
    JOIN tokens
        ON tokens.text_id = gold.text_id
        AND tokens.sentence_id = gold.sentence_id
        AND tokens.doc_token BETWEEN gold.doc_token_start AND gold.doc_token_end
),

partly_found AS (
    SELECT gold.corpus, gold.category, gold.mistake_id, gold.text_id, gold.doc_token_start, gold.doc_token_end
    FROM gold
    LEFT JOIN (SELECT mistake_id, count(*) AS found FROM in_sentence GROUP BY mistake_id) AS found
        ON found.mistake_id = gold.mistake_id
    WHERE coalesce(found.found, 0) < gold.doc_token_end - gold.doc_token_start + 1
),

marked AS (
    SELECT corpus, category, mistake_id, token
    FROM in_sentence
    WHERE mistake_id NOT IN (SELECT mistake_id FROM partly_found)
    UNION ALL
    SELECT partly_found.corpus, partly_found.category, partly_found.mistake_id, tokens.token
    FROM partly_found
    JOIN tokens
        ON tokens.text_id = partly_found.text_id
        AND tokens.doc_token BETWEEN partly_found.doc_token_start AND partly_found.doc_token_end
),

counts AS (
    SELECT corpus, category, token, count(*) AS occurrences, count(DISTINCT mistake_id) AS mistakes
    FROM marked
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
