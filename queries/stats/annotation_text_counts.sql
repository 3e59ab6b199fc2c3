-- How many mistakes each annotation set marks in each text, in every scope: the per-text counts that agreement
-- correlates between two sets (accuracy_db/stats/agreement.py hands them to scipy.stats).
-- Grain: one row per (annotation set, scope of its corpus, text of its corpus and split); a text the set marks
-- nothing in is there with 0.
-- Key: set_id, scope, text_id
-- Columns:
--   set_id: The annotation set (annotation_sets.set_id).
--   name: The set's name: gold for a gold list, the file stem for a submission (annotation_sets.name).
--   kind: gold or submission (annotation_sets.kind).
--   split: train or test: the split of the texts the set names.
--   scope: ALL, or the category counted (scopes.scope).
--   position: The scope's report order: ALL 0, NAME 1 … OTHER 6.
--   text_id: The text (texts.text_id).
--   mistakes: How many of the set's mistakes in the scope lie in the text.
WITH counts AS (
    SELECT set_id, text_id, coalesce(category, 'ALL') AS scope, count(*) AS mistakes
    FROM thresholded_mistakes AS mistakes
    GROUP BY GROUPING SETS ((set_id, text_id), (set_id, text_id, category))
)

SELECT
    sets.set_id,
    sets.name,
    sets.kind,
    sets.split,
    scopes.scope,
    scopes.position,
    texts.text_id,
    coalesce(counts.mistakes, 0) AS mistakes
FROM annotation_sets AS sets
JOIN texts ON texts.corpus = sets.corpus AND texts.split = sets.split
JOIN scopes ON scopes.corpus = sets.corpus
LEFT JOIN counts ON counts.set_id = sets.set_id AND counts.text_id = texts.text_id AND counts.scope = scopes.scope
