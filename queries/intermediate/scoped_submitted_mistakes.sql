-- The mistakes of each submission, in each scope they count in (ALL and their category).
-- Grain: one row per (scope, submitted mistake).
-- Columns:
--   scope: ALL, or the category both lists are filtered to (scopes.scope).
--   (the other columns are those of submitted_mistakes)
SELECT submission_id, 'ALL' AS scope, * EXCLUDE (submission_id)
FROM submitted_mistakes
UNION ALL
SELECT submission_id, category AS scope, * EXCLUDE (submission_id)
FROM submitted_mistakes
