-- The consumed-mistake matching for the gold mistakes that intersect submitted mistakes: a gold mistake whose
-- overlap is one to one takes that submitted mistake; contested_matches decides the others (mistake_matches adds
-- the gold mistakes without candidates, which take nothing).
-- Grain: one row per (submission, scope, gold mistake that intersects a submitted mistake).
-- Key: submission_id, scope, gold_mistake_id
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   scope: ALL, or the category both lists are filtered to (scopes.scope).
--   gold_mistake_id: The gold mistake (mistakes.mistake_id).
--   candidate_count: How many submitted mistakes intersect it.
--   submitted_mistake_id: The submitted mistake it took; NULL when all were taken before it.
SELECT submission_id, scope, gold_mistake_id, 1 AS candidate_count, submitted_mistake_id
FROM scoped_overlaps
WHERE one_to_one
UNION ALL
SELECT submission_id, scope, gold_mistake_id, candidate_count, submitted_mistake_id
FROM contested_matches
