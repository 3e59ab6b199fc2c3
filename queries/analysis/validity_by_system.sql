-- How many mistakes per text does each submission mark in the texts of each generating system, and the gold list?
-- (The methodology paper's Table 2 tabulates the gold list's mistakes per text by system.)
-- Only texts whose system nlg_systems knows; texts without mistakes count with zeros.
-- Grain: one row per (submission, scope, system).
-- Key: submission, split, scope, system
-- Columns: submission, split, scope, system, texts, gold (the gold list's mistakes per text), submitted (the
-- submission's mistakes per text).
SELECT
    stats.submission,
    stats.split,
    stats.scope,
    nlg_systems.system,
    count(*) AS texts,
    avg(stats.gold::DOUBLE) AS gold,
    avg(stats.submitted::DOUBLE) AS submitted
FROM text_statistics AS stats
JOIN nlg_systems USING (text_id)
GROUP BY stats.submission, stats.split, stats.scope, stats.position, nlg_systems.system
ORDER BY stats.split DESC, stats.submission, stats.position, nlg_systems.system
