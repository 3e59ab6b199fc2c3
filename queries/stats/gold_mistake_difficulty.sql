-- How hard each gold mistake was to find: how many loaded submissions of its split found it (found-by-k: it took
-- a submitted mistake in the ALL scope, as mistake_matches decides; 0 = missed by all), and how many of the three
-- annotators had marked it (gold_mistake_agreement, where a curation export covers it). The finds are those of
-- gold_mistake_finds (a table: counted on every read, they slowed every page at scale 1000), the mistake's columns
-- joined to them.
-- Grain: one row per gold mistake of a split with at least one scored submission.
-- Key: gold_mistake_id
-- Columns:
--   split: train or test: the split of the gold list.
--   text_id: The text (texts.text_id).
--   gold_mistake_id: The gold mistake (mistakes.mistake_id).
--   doc_token_start: The first marked token, counted in the document.
--   doc_token_end: The last marked token, counted in the document (inclusive).
--   category: The gold list's category of the mistake.
--   tokens: The marked tokens joined by spaces, as the gold list gives them (TOKENS).
--   correction: The correction, as the gold list gives it (CORRECTION).
--   submissions: How many scored submissions the split has.
--   found_by: How many of them found the mistake, from 0 to submissions.
--   annotators: How many of the three annotators marked it (H_FOUND_ERR); NULL when no curated mistake has its
--     span.
--   types_agreed: Whether every annotator who marked it gave it the same category; NULL as annotators.
SELECT
    gold.split,
    gold.text_id,
    gold.mistake_id AS gold_mistake_id,
    gold.doc_token_start,
    gold.doc_token_end,
    gold.category,
    gold.tokens,
    gold.correction,
    finds.submissions,
    finds.found_by,
    agreement.annotators,
    agreement.types_agreed
FROM gold_mistake_finds AS finds
JOIN gold_mistakes AS gold ON gold.mistake_id = finds.gold_mistake_id
-- at most one row per gold mistake: curated_mistakes has one mistake per (text_id, doc_token_start)
LEFT JOIN gold_mistake_agreement AS agreement ON agreement.gold_mistake_id = gold.mistake_id
