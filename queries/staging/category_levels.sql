-- The levels of every corpus's categories: an MQM category names its levels joined by / (Accuracy/Mistranslation:
-- top level Accuracy, sub-category Mistranslation); a category without / is a top level alone.
-- Grain: one row per (corpus, category).
-- Key: corpus, category
-- Columns:
--   corpus: The corpus (categories.corpus).
--   category: The category (categories.category).
--   position: Its report order (categories.position).
--   top_level: The text before its first / (the whole name when it has none).
--   sub_category: The text after its first / (Fluency/Punctuation: Punctuation); NULL for a top level alone.
SELECT
    corpus,
    category,
    position,
    CASE WHEN strpos(category, '/') > 0 THEN substr(category, 1, strpos(category, '/') - 1) ELSE category END
        AS top_level,
    CASE WHEN strpos(category, '/') > 0 THEN substr(category, strpos(category, '/') + 1) END AS sub_category
FROM categories
