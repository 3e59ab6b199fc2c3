-- How many mistakes each list (a gold list or a submission) marks in each text of its split, in each scope of its
-- corpus (ALL and each category): 0 for a text it marks nothing in. A submission's counts make it a metric that
-- gives each text a number (metric_scores); a gold list's are what a metric is set against (metric_targets).
-- Grain: one row per (list, scope, text of the list's corpus and split).
-- Key: set_id, scope, text_id
-- Columns:
--   set_id: The list (annotation_sets.set_id).
--   kind: gold or submission (annotation_sets.kind).
--   name: The list's name (annotation_sets.name).
--   corpus: The corpus of the list and of the text (corpora.corpus).
--   split: The split of the list and of the text.
--   scope: ALL, or the category counted (scopes.scope).
--   text_id: The text (texts.text_id).
--   mistakes: How many of the list's mistakes of the scope are in the text (0 when none).
WITH scoped AS (
    SELECT set_id, 'ALL' AS scope, text_id FROM listed_mistakes
    UNION ALL
    SELECT set_id, category AS scope, text_id FROM listed_mistakes
),

counts AS (
    SELECT set_id, scope, text_id, count(*) AS mistakes
    FROM scoped
    GROUP BY set_id, scope, text_id
)

SELECT
    lists.set_id,
    lists.kind,
    lists.name,
    lists.corpus,
    lists.split,
    scopes.scope,
    texts.text_id,
    coalesce(counts.mistakes, 0) AS mistakes
FROM annotation_sets AS lists
JOIN texts ON texts.corpus = lists.corpus AND texts.split = lists.split
JOIN scopes ON scopes.corpus = lists.corpus
LEFT JOIN counts ON counts.set_id = lists.set_id AND counts.scope = scopes.scope AND counts.text_id = texts.text_id
