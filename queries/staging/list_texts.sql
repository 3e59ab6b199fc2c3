-- The texts each list covers: those it is scored on, and where a text it names nothing in counts as a text with
-- no mistake. A list that covers its split (annotation_sets.covers_split: a gold list, a submission file, a
-- prediction file) covers every text of its corpus and split; a list of one annotator who labelled some of the
-- texts (a Mu-SHROOM file's annotations, a factgenie campaign's annotator) covers those alone (list_coverage).
-- Grain: one row per (list, text it covers).
-- Key: set_id, text_id
-- Columns:
--   set_id: The list (annotation_sets.set_id).
--   text_id: A text of its corpus and split that it covers (texts.text_id).
SELECT lists.set_id, texts.text_id
FROM annotation_sets AS lists
JOIN texts ON texts.corpus = lists.corpus AND texts.split = lists.split
WHERE lists.covers_split
UNION ALL
SELECT coverage.set_id, coverage.text_id
FROM list_coverage AS coverage
JOIN annotation_sets AS lists ON lists.set_id = coverage.set_id AND NOT lists.covers_split
