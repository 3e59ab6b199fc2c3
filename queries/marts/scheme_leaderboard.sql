-- Submissions ranked within each scheme, corpus, split and scope as leaderboard ranks them under the shared
-- task's scheme: by recall, then precision (higher first; undefined last).
-- Grain: one row per (scheme, submission, scope).
-- Key: scheme, submission_id, scope
-- Columns:
--   rank: The submission's place within its scheme, corpus, split and scope, from 1; submissions with the same
--     recall and precision share a place.
--   (the other columns are those of scheme_scores)
SELECT
    rank() OVER (
        PARTITION BY scheme, corpus, split, scope
        ORDER BY recall DESC NULLS LAST, precision DESC NULLS LAST
    ) AS rank,
    *
FROM scheme_scores
