-- Every listed mistake with the list it belongs to.
-- Grain: one row per mistake of any loaded list. Columns: every column of mistakes, and kind (gold or
-- submission), name and split of its annotation set.
SELECT mistakes.*, annotation_sets.kind, annotation_sets.name, annotation_sets.split
FROM mistakes
JOIN annotation_sets USING (set_id)
