-- The gold-standard mistakes of each split.
-- Grain: one row per gold mistake. Columns: mistake_id, gold_id (its annotation set), line_number, text_id,
-- annotation_id, tokens, sentence_id, sent_token_start, sent_token_end, doc_token_start, doc_token_end,
-- category, correction, comment, split.
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
