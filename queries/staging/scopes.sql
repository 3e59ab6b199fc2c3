-- The seven scopes a submission is scored in: ALL (every mistake) and each category alone.
-- Grain: one row per scope.
-- Columns:
--   scope: ALL, or the category the scope keeps (categories.category).
--   position: Report order: ALL 0, NAME 1 … OTHER 6.
SELECT 'ALL' AS scope, 0 AS position
UNION ALL
SELECT category AS scope, position
FROM categories
