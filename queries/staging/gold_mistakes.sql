-- The gold-standard mistakes of each split.
-- Grain: one row per gold mistake.
-- Key: mistake_id
-- Columns:
--   gold_id: The gold list the mistake belongs to (annotation_sets.set_id).
--   split: train or test: the split of the gold list.
--   (the other columns are those of mistakes)
SELECT
    mistake_id,
    set_id AS gold_id,
    line_number,
    text_id,
    annotation_id,
    tokens,
    sentence_id,
    sent_token_start,
    sent_token_end,
    doc_token_start,
    doc_token_end,
    category,
    correction,
    comment,
    previous_end,
    next_start,
    split
FROM listed_mistakes
WHERE kind = 'gold'
