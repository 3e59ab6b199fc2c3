-- How far the three annotators agreed on each gold mistake, from the curation exports (curated_mistakes): the
-- curated mistake of the same text and the same token span, never a guess from a near one (curation_mismatches
-- lists those).
-- Grain: one row per gold mistake that a curated mistake covers exactly.
-- Key: gold_mistake_id
-- Columns:
--   gold_mistake_id: The gold mistake (mistakes.mistake_id).
--   split: train or test: the split of the gold list.
--   text_id: The text (texts.text_id).
--   doc_token_start: The first marked token, counted in the document.
--   doc_token_end: The last marked token, counted in the document (inclusive).
--   category: The gold list's category of the mistake.
--   curated_category: The curator's category: J_Corrected_Type where set, else A_Type.
--   annotators: How many of the three annotators marked the mistake (H_FOUND_ERR).
--   spans_match: How many of the annotators marked the same span (I_Spans_Match).
--   types_match: How many of the annotators gave it the curated category (J_Types_Match).
--   types_agreed: Whether every annotator who marked it gave it that category (types_match >= annotators);
--     NULL when types_match is not given.
SELECT
    gold.mistake_id AS gold_mistake_id,
    gold.split,
    gold.text_id,
    gold.doc_token_start,
    gold.doc_token_end,
    gold.category,
    coalesce(curated.corrected_category, curated.category) AS curated_category,
    curated.found_by AS annotators,
    curated.spans_match,
    curated.types_match,
    curated.types_match >= curated.found_by AS types_agreed
FROM gold_mistakes AS gold
JOIN curated_mistakes AS curated
    ON curated.text_id = gold.text_id
    AND curated.doc_token_start = gold.doc_token_start
    AND curated.doc_token_end = gold.doc_token_end
