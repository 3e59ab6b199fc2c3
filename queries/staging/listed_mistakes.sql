-- Every listed mistake the match schemes score (thresholded_mistakes: a span with a probability below the
-- scoring threshold is not) with the list it belongs to.
-- Grain: one row per scored mistake of any loaded list.
-- Key: mistake_id
-- Columns:
--   kind: gold or submission: the kind of list the mistake belongs to (annotation_sets.kind).
--   name: The list's name: gold for a gold list, the file stem for a submission (annotation_sets.name).
--   split: train or test: the split of the texts the list names.
--   (the other columns are those of mistakes)
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
FROM thresholded_mistakes AS mistakes
JOIN annotation_sets ON annotation_sets.set_id = mistakes.set_id
