-- The scopes a submission is scored in: ALL (every mistake) and each category of its corpus alone (the shared
-- task's seven: ALL, NAME, NUMBER, WORD, CONTEXT, NOT_CHECKABLE, OTHER).
-- Grain: one row per (corpus, scope).
-- Key: corpus, scope
-- Columns:
--   scope: ALL, or the category the scope keeps (categories.category).
--   position: Report order: ALL 0, then the categories' positions (shared task: NAME 1 … OTHER 6).
--   corpus: The corpus whose scope it is (corpora.corpus).
SELECT 'ALL' AS scope, 0 AS position, corpus
FROM corpora
UNION ALL
SELECT category AS scope, position, corpus
FROM categories
