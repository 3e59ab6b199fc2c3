-- How many submissions found each gold mistake: of the scored submissions of its gold list, how many took a
-- submitted mistake with it in the ALL scope (the gold rows of scored_mistakes, as mistake_matches decides).
-- gold_mistake_difficulty and recall_by_difficulty read it.
-- Materialized: table (computed again from every submission's rows whenever submissions are scored or removed: a
-- count over all the submissions of a split is no sum of per-submission rows that a page could add up cheaply.
-- Counted on every read, the 12 million gold rows of scored_mistakes at scale 1000 slowed every page.)
-- Grain: one row per gold mistake of a gold list with at least one scored submission.
-- Key: gold_mistake_id
-- Columns:
--   gold_mistake_id: The gold mistake (mistakes.mistake_id).
--   submissions: How many scored submissions its gold list has.
--   found_by: How many of them found it, from 0 to submissions.
SELECT mistake_id AS gold_mistake_id, count(*) AS submissions, count(counterpart_id) AS found_by
FROM scored_mistakes
WHERE side = 'gold'
GROUP BY mistake_id
