-- Submissions ranked within each corpus, split and scope the way the shared task's results table is ordered:
-- by mistake-level recall, then precision (higher first; undefined last), then name.
-- Grain: one row per (submission, scope).
-- Key: submission_id, scope
-- Columns:
--   rank: The submission's place within its corpus, split and scope, from 1; submissions with the same recall and
--     precision share a place.
--   (the other columns are those of scores)
SELECT
    rank() OVER (
        PARTITION BY corpus, split, scope
        ORDER BY recall DESC NULLS LAST, precision DESC NULLS LAST
    ) AS rank,
    *
FROM scores
