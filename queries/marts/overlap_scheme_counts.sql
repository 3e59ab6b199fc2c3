-- The counts behind the character- and token-level schemes: how many units (tokens, or characters as
-- token_characters defines them) each list marks, and how many both mark. Hard: a unit counts as marked by both
-- only when the two mistakes that mark it have the same category; soft: whatever their categories. In a
-- category's scope both lists are filtered to the category first, so there hard and soft agree.
-- Grain: one row per (scheme, submission, scope), schemes token-hard, token-soft, char-hard, char-soft.
-- Key: scheme, submission_id, scope
-- Columns:
--   scheme: token-hard, token-soft, char-hard or char-soft.
--   submission_id: The submission (annotation_sets.set_id).
--   scope: ALL, or the category both lists are filtered to (scopes.scope).
--   matched: The units both lists mark (hard: with the same category).
--   gold_total: The units the gold list marks.
--   submitted_total: The units the submission marks.
-- They are the sums of text_scheme_statistics over the texts (which defines them). Each scheme is a branch of its
-- own with its name as a constant, so that a query for one scheme computes only its own counts (the constant
-- reaches text_scheme_statistics's branches through the join): the token schemes read no characters. A
-- submission and scope without a mistake on either side has no text there, and zeros here.
WITH text_sums AS NOT MATERIALIZED (
    SELECT
        scheme,
        submission_id,
        scope,
        sum(matched) AS matched,
        sum(gold_total) AS gold_total,
        sum(submitted_total) AS submitted_total
    FROM text_scheme_statistics
    GROUP BY scheme, submission_id, scope
),

scored AS NOT MATERIALIZED (
    SELECT evaluations.submission_id, scopes.scope
    FROM evaluations
    JOIN scopes USING (corpus)
),

counts AS (
    SELECT
        'token-hard' AS scheme,
        scored.submission_id,
        scored.scope,
        sums.matched,
        sums.gold_total,
        sums.submitted_total
    FROM scored
    LEFT JOIN text_sums AS sums
        ON sums.scheme = 'token-hard' AND sums.submission_id = scored.submission_id AND sums.scope = scored.scope
    UNION ALL
    SELECT
        'token-soft' AS scheme,
        scored.submission_id,
        scored.scope,
        sums.matched,
        sums.gold_total,
        sums.submitted_total
    FROM scored
    LEFT JOIN text_sums AS sums
        ON sums.scheme = 'token-soft' AND sums.submission_id = scored.submission_id AND sums.scope = scored.scope
    UNION ALL
    SELECT
        'char-hard' AS scheme,
        scored.submission_id,
        scored.scope,
        sums.matched,
        sums.gold_total,
        sums.submitted_total
    FROM scored
    LEFT JOIN text_sums AS sums
        ON sums.scheme = 'char-hard' AND sums.submission_id = scored.submission_id AND sums.scope = scored.scope
    UNION ALL
    SELECT
        'char-soft' AS scheme,
        scored.submission_id,
        scored.scope,
        sums.matched,
        sums.gold_total,
        sums.submitted_total
    FROM scored
    LEFT JOIN text_sums AS sums
        ON sums.scheme = 'char-soft' AND sums.submission_id = scored.submission_id AND sums.scope = scored.scope
)

SELECT
    scheme,
    submission_id,
    scope,
    coalesce(matched, 0)::BIGINT AS matched,
    coalesce(gold_total, 0)::BIGINT AS gold_total,
    coalesce(submitted_total, 0)::BIGINT AS submitted_total
FROM counts
