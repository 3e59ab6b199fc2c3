-- How many mistakes does each submission mark in each text, against the gold list, in each scope?
-- The counts the validity command correlates (text_statistics), with the system that generated the text.
-- Grain: one row per (submission, scope, text of the submission's split); a text without mistakes on either
-- side counts with zeros. Columns: submission, split, scope, text_id, system (NULL where nlg_systems does not
-- know it), gold (the gold list's mistakes in the text), submitted (the submission's).
SELECT
    stats.submission,
    stats.split,
    stats.scope,
    stats.text_id,
    nlg_systems.system,
    stats.gold,
    stats.submitted
FROM text_statistics AS stats
LEFT JOIN nlg_systems USING (text_id)
ORDER BY stats.split DESC, stats.submission, stats.position, stats.text_id
