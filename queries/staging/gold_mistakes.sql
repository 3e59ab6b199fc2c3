-- The gold-standard mistakes of each split.
-- Grain: one row per gold mistake.
-- Columns:
--   gold_id: The gold list the mistake belongs to (annotation_sets.set_id).
--   split: train or test: the split of the gold list.
--   (the other columns are those of mistakes)
SELECT * EXCLUDE (kind, name) RENAME (set_id AS gold_id)
FROM listed_mistakes
WHERE kind = 'gold'
