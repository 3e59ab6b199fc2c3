-- The mistakes of each submission, in each scope they count in (ALL and their category).
-- Grain: one row per (scope, submitted mistake). Columns: submission_id, scope, and every column of
-- submitted_mistakes but submission_id.
SELECT submission_id, 'ALL' AS scope, * EXCLUDE (submission_id)
FROM submitted_mistakes
UNION ALL
SELECT submission_id, category AS scope, * EXCLUDE (submission_id)
FROM submitted_mistakes
