-- How many mistakes each list (a gold list or a submission) marks in each text it covers (list_texts), in each
-- scope of its corpus (ALL and each category): 0 for a text it marks nothing in. Agreement correlates two lists' counts
-- (accuracy_db/stats/agreement.py hands them to scipy.stats); a submission's counts make it a metric that gives each
-- text a number (metric_scores); a gold list's are what a metric is set against (metric_targets).
-- Grain: one row per (list, scope of its corpus, text the list covers).
-- Key: set_id, scope, text_id
-- Columns:
--   set_id: The list (annotation_sets.set_id).
--   kind: gold or submission (annotation_sets.kind).
--   name: The list's name: gold for a gold list, the file stem for a submission (annotation_sets.name).
--   corpus: The corpus of the list and of the text (corpora.corpus).
--   split: The split of the list and of the text.
--   scope: ALL, or the category counted (scopes.scope).
--   position: The scope's report order: ALL 0, NAME 1 … OTHER 6.
--   text_id: The text (texts.text_id).
--   mistakes: How many of the list's mistakes of the scope are in the text (0 when none).
WITH counts AS (
    SELECT set_id, text_id, coalesce(category, 'ALL') AS scope, count(*) AS mistakes
    FROM thresholded_mistakes AS mistakes
    GROUP BY GROUPING SETS ((set_id, text_id), (set_id, text_id, category))
)

SELECT
    lists.set_id,
    lists.kind,
    lists.name,
    lists.corpus,
    lists.split,
    scopes.scope,
    scopes.position,
    texts.text_id,
    coalesce(counts.mistakes, 0) AS mistakes
FROM annotation_sets AS lists
JOIN list_texts AS texts ON texts.set_id = lists.set_id
JOIN scopes ON scopes.corpus = lists.corpus
LEFT JOIN counts ON counts.set_id = lists.set_id AND counts.text_id = texts.text_id AND counts.scope = scopes.scope
