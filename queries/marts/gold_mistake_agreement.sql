-- How far the three annotators agreed on each gold mistake, from the curation exports (curated_mistakes): the
-- curated mistake of the same text and the same token span, never a guess from a near one (curation_mismatches
-- lists those).
-- Grain: one row per gold mistake that a curated mistake covers exactly. Columns: gold_mistake_id, split, text_id,
-- doc_token_start, doc_token_end, category (the gold list's), curated_category (the curator's: J_Corrected_Type
-- where set, else A_Type), annotators (H_FOUND_ERR: how many of the three marked it), spans_match (I_Spans_Match),
-- types_match (J_Types_Match: how many gave it the curated category), types_agreed (every annotator who marked it
-- gave it that category: types_match >= annotators; NULL when types_match is not given).
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
