-- The consumed-mistake matching of the shared task for every gold mistake: what candidate_matches decides
-- for those with candidates; the others took nothing.
-- Grain: one row per (submission, scope, gold mistake).
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   scope: ALL, or the category both lists are filtered to (scopes.scope).
--   text_id: The text (texts.text_id).
--   gold_mistake_id: The gold mistake (mistakes.mistake_id).
--   candidate_count: How many submitted mistakes intersect it (0 for a gold mistake without candidates).
--   submitted_mistake_id: The submitted mistake it took; NULL when it took none.
SELECT
    gold.submission_id,
    gold.scope,
    gold.text_id,
    gold.mistake_id AS gold_mistake_id,
    coalesce(matches.candidate_count, 0) AS candidate_count,
    matches.submitted_mistake_id
FROM scoped_gold_mistakes AS gold
LEFT JOIN candidate_matches AS matches
    ON matches.submission_id = gold.submission_id
    AND matches.scope = gold.scope
    AND matches.gold_mistake_id = gold.mistake_id
