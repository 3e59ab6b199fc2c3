-- Every listed mistake with the list it belongs to.
-- Grain: one row per mistake of any loaded list. Columns: every column of mistakes, and kind (gold or
-- submission), name and split of its annotation set.
SELECT
    mistakes.mistake_id,
    mistakes.set_id,
    mistakes.line_number,
    mistakes.text_id,
    mistakes.annotation_id,
    mistakes.tokens,
    mistakes.sentence_id,
    mistakes.sent_token_start,
    mistakes.sent_token_end,
    mistakes.doc_token_start,
    mistakes.doc_token_end,
    mistakes.category,
    mistakes.correction,
    mistakes.comment,
    mistakes.previous_end,
    mistakes.next_start,
    annotation_sets.kind,
    annotation_sets.name,
    annotation_sets.split
FROM mistakes
JOIN annotation_sets ON annotation_sets.set_id = mistakes.set_id
