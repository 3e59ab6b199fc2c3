-- How many mistakes does each submission mark in each text, against the gold list, in each scope?
-- The counts the validity command correlates (text_statistics), with the system that generated the text.
-- Grain: one row per (submission, scope, text of the submission's split); a text without mistakes on either
-- side counts with zeros.
-- Key: submission, scope, text_id
-- Columns: submission, split, scope, text_id, system (NULL where nlg_systems does not know it), gold (the gold list's
-- mistakes in the text), submitted (the submission's).
-- The rows come by split (test first), submission, scope and text. text_statistics stores its rows in that order,
-- so the sort finds them sorted (sorted otherwise, by the names themselves, they were slow at scale 1000); the
-- submissions are ranked by an integer, and the texts come by their id, without a join with texts to rank them.
WITH submission_order AS (
    SELECT submission_id, dense_rank() OVER (ORDER BY split DESC, submission) AS submission_rank
    FROM evaluations
)

SELECT
    stats.submission,
    stats.split,
    stats.scope,
    stats.text_id,
    nlg_systems.system,
    stats.gold,
    stats.submitted
FROM text_statistics AS stats
JOIN submission_order ON submission_order.submission_id = stats.submission_id
LEFT JOIN nlg_systems ON nlg_systems.text_id = stats.text_id
ORDER BY submission_order.submission_rank, stats.position, stats.text_id
