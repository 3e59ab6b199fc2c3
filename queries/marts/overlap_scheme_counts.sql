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
-- They are the sums of text_scheme_statistics over the texts (which defines them). The four schemes are rows of one
-- join, not a UNION ALL branch each: a query for one scheme still computes only its own counts (the scheme reaches
-- text_scheme_statistics's branches through the join, and text_sums reads only these four schemes: the token
-- schemes read no characters), and text_scheme_statistics is planned once, not once a branch. A submission and
-- scope without a mistake on either side has no text there, and zeros here.
WITH text_sums AS (
    SELECT
        scheme,
        submission_id,
        scope,
        sum(matched) AS matched,
        sum(gold_total) AS gold_total,
        sum(submitted_total) AS submitted_total
    FROM text_scheme_statistics
    WHERE scheme IN ('token-hard', 'token-soft', 'char-hard', 'char-soft')
    GROUP BY scheme, submission_id, scope
),

-- every scheme, submission and scope that is scored, with or without texts
scored AS (
    SELECT schemes.scheme, evaluations.submission_id, scopes.scope
    FROM evaluations
    JOIN scopes USING (corpus)
    CROSS JOIN (VALUES ('token-hard'), ('token-soft'), ('char-hard'), ('char-soft')) AS schemes (scheme)
)

SELECT
    scored.scheme,
    scored.submission_id,
    scored.scope,
    coalesce(sums.matched, 0)::BIGINT AS matched,
    coalesce(sums.gold_total, 0)::BIGINT AS gold_total,
    coalesce(sums.submitted_total, 0)::BIGINT AS submitted_total
FROM scored
LEFT JOIN text_sums AS sums
    ON sums.scheme = scored.scheme AND sums.submission_id = scored.submission_id AND sums.scope = scored.scope
