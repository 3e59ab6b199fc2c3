-- Where the curation exports and the gold list disagree, on the texts that have an export: a mistake one of them
-- lists and the other does not (by text and exact token span), or a mistake both list with another category.
-- Nothing is guessed: a curated span that only overlaps a gold span is listed on both sides.
-- Grain: one row per such mistake.
-- Key: text_id, kind, doc_token_start
-- Columns:
--   split: train or test: the split of the text.
--   text_id: The text (texts.text_id).
--   kind: curation_only (only the curation export lists the span), gold_only (only the gold list does) or
--     other_category (both do, with other categories).
--   doc_token_start: The first marked token, counted in the document.
--   doc_token_end: The last marked token, counted in the document (inclusive).
--   tokens: The marked tokens of the text, joined by spaces.
--   gold_category: The gold list's category; NULL for curation_only.
--   curated_category: The curation's category (J_Corrected_Type where set, else A_Type); NULL for gold_only.
--   gold_mistake_id: The gold mistake (mistakes.mistake_id); NULL for curation_only.
--   line_number: The line of the mistake in the export; NULL for gold_only.
--   source_file: The curation export; NULL for gold_only.
WITH curated AS (
    SELECT
        curated.text_id,
        curated.doc_token_start,
        curated.doc_token_end,
        curated.line_number,
        coalesce(curated.corrected_category, curated.category) AS curated_category,
        exports.source_file
    FROM curated_mistakes AS curated
    JOIN curation_exports AS exports ON exports.text_id = curated.text_id
),

gold AS (
    SELECT
        gold.mistake_id,
        gold.text_id,
        gold.doc_token_start,
        gold.doc_token_end,
        gold.category,
        exports.source_file
    FROM gold_mistakes AS gold
    JOIN curation_exports AS exports ON exports.text_id = gold.text_id
),

paired AS (
    SELECT
        coalesce(gold.text_id, curated.text_id) AS text_id,
        CASE
            WHEN gold.mistake_id IS NULL THEN 'curation_only'
            WHEN curated.text_id IS NULL THEN 'gold_only'
            ELSE 'other_category'
        END AS kind,
        coalesce(gold.doc_token_start, curated.doc_token_start) AS doc_token_start,
        coalesce(gold.doc_token_end, curated.doc_token_end) AS doc_token_end,
        gold.category AS gold_category,
        curated.curated_category,
        gold.mistake_id AS gold_mistake_id,
        curated.line_number,
        coalesce(gold.source_file, curated.source_file) AS source_file
    FROM gold
    FULL JOIN curated
        ON curated.text_id = gold.text_id
        AND curated.doc_token_start = gold.doc_token_start
        AND curated.doc_token_end = gold.doc_token_end
    WHERE gold.mistake_id IS NULL OR curated.text_id IS NULL OR gold.category <> curated.curated_category
)

SELECT
    texts.split,
    paired.text_id,
    paired.kind,
    paired.doc_token_start,
    paired.doc_token_end,
    string_agg(tokens.token, ' ' ORDER BY tokens.doc_token) AS tokens,
    paired.gold_category,
    paired.curated_category,
    paired.gold_mistake_id,
    paired.line_number,
    paired.source_file
FROM paired
JOIN texts USING (text_id)
JOIN tokens
    ON tokens.text_id = paired.text_id AND tokens.doc_token BETWEEN paired.doc_token_start AND paired.doc_token_end
GROUP BY
    texts.split,
    paired.text_id,
    paired.kind,
    paired.doc_token_start,
    paired.doc_token_end,
    paired.gold_category,
    paired.curated_category,
    paired.gold_mistake_id,
    paired.line_number,
    paired.source_file
ORDER BY texts.split, paired.text_id, paired.doc_token_start, paired.kind
