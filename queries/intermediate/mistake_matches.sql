-- The consumed-mistake matching of the shared task for every gold mistake: what candidate_matches decides
-- for those with candidates; the others took nothing. The gold half of scored_mistakes, a row per scope.
-- Grain: one row per (submission, scope, gold mistake).
-- Key: submission_id, scope, gold_mistake_id
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   scope: ALL, or the category both lists are filtered to (scopes.scope).
--   text_id: The text (texts.text_id).
--   gold_mistake_id: The gold mistake (mistakes.mistake_id).
--   candidate_count: How many submitted mistakes intersect it (0 for a gold mistake without candidates).
--   submitted_mistake_id: The submitted mistake it took; NULL when it took none.
SELECT submission_id, 'ALL' AS scope, text_id, mistake_id AS gold_mistake_id, candidate_count,
    counterpart_id AS submitted_mistake_id
FROM scored_mistakes
WHERE side = 'gold'
UNION ALL
SELECT submission_id, category, text_id, mistake_id, category_candidate_count, category_counterpart_id
FROM scored_mistakes
WHERE side = 'gold'
