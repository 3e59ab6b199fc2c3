-- How many mistakes does each submission mark in each text, against the gold list, in each scope?
-- The counts the validity command correlates (text_statistics), with the system that generated the text.
-- Grain: one row per (submission, scope, text of the submission's split); a text without mistakes on either
-- side counts with zeros. Columns: submission, split, scope, text_id, system (NULL where nlg_systems does not
-- know it), gold (the gold list's mistakes in the text), submitted (the submission's).
-- The rows come by split (test first), submission, scope and text. They are sorted by integers that rank the
-- submissions and the texts in that order: sorting millions of rows by the names themselves took 2 s at scale 1000.
WITH submission_order AS (
    SELECT submission_id, dense_rank() OVER (ORDER BY split DESC, submission) AS submission_rank
    FROM evaluations
),

text_order AS (
    SELECT texts.text_id, row_number() OVER (ORDER BY texts.text_id) AS text_rank, nlg_systems.system
    FROM texts
    LEFT JOIN nlg_systems ON nlg_systems.text_id = texts.text_id
)

SELECT
    stats.submission,
    stats.split,
    stats.scope,
    stats.text_id,
    text_order.system,
    stats.gold,
    stats.submitted
FROM text_statistics AS stats
JOIN submission_order ON submission_order.submission_id = stats.submission_id
JOIN text_order ON text_order.text_id = stats.text_id
ORDER BY submission_order.submission_rank, stats.position, text_order.text_rank
