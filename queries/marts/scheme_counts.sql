-- The counts of every match scheme but the shared task's (whose counts are those of scores): the sums of
-- text_scheme_statistics over the texts, which defines them. nervaluate's four schemes count pairs of mistakes: each
-- submitted mistake that took a gold mistake (scheme_pairings) is correct, incorrect or partial by the scheme's
-- rule; the rest of the submitted mistakes are spurious, the gold mistakes none took are missed. The token and
-- character schemes count units (tokens, or characters as token_characters defines them): how many each list
-- marks, and how many both mark (hard: with the same category).
-- Grain: one row per (scheme, submission, scope), schemes strict, exact, partial, ent_type, token-hard, token-soft,
-- char-hard, char-soft.
-- Key: scheme, submission_id, scope
-- Columns:
--   scheme: strict, exact, partial, ent_type, token-hard, token-soft, char-hard or char-soft.
--   submission_id: The submission (annotation_sets.set_id).
--   scope: ALL, or the category both lists are filtered to (scopes.scope).
--   unit: What the scheme counts: mistake (nervaluate's schemes), token or character.
--   matched: The numerator of recall and precision: COR (strict, exact) or COR + 0.5 PAR (partial, ent_type), as
--     nervaluate computes them; the units both lists mark (token and character schemes).
--   gold_total: The gold mistakes of the scope (nervaluate's POS = COR + INC + PAR + MIS), or the units the gold
--     list marks.
--   submitted_total: The submitted mistakes of the scope (nervaluate's ACT = COR + INC + PAR + SPU), or the units
--     the submission marks.
--   correct: nervaluate's COR: pairs that count as correct; NULL for the token and character schemes.
--   incorrect: nervaluate's INC: pairs that count as incorrect; NULL for the token and character schemes.
--   partial: nervaluate's PAR: pairs that count as partial (only under partial); NULL for the token and character
--     schemes.
--   missed: nervaluate's MIS: gold mistakes that no submitted mistake took; NULL for the token and character schemes.
--   spurious: nervaluate's SPU: submitted mistakes that took no gold mistake; NULL for the token and character
--     schemes.
-- The schemes are rows of one join, not a UNION ALL branch each: a query for one scheme still computes only its
-- own counts (the scheme reaches text_scheme_statistics's branches through the join, and text_sums reads only
-- these schemes: the token schemes read no characters, the leftmost pairing is not computed for ent_type), and
-- text_scheme_statistics is planned once, not once a branch (four inlined copies made planning take five times as
-- long as the query). A submission and scope without a mistake on either side has no text there, and zeros here.
WITH text_sums AS (
    SELECT
        scheme,
        submission_id,
        scope,
        sum(matched) AS matched,
        sum(gold_total) AS gold_total,
        sum(submitted_total) AS submitted_total,
        sum(correct) AS correct,
        sum(incorrect) AS incorrect,
        sum(partial) AS partial,
        sum(missed) AS missed,
        sum(spurious) AS spurious
    FROM text_scheme_statistics
    WHERE scheme IN ('strict', 'exact', 'partial', 'ent_type', 'token-hard', 'token-soft', 'char-hard', 'char-soft')
    GROUP BY scheme, submission_id, scope
),

-- every scheme, submission and scope that is scored, with or without texts
scored AS (
    SELECT schemes.scheme, schemes.unit, evaluations.submission_id, scopes.scope
    FROM evaluations
    JOIN scopes USING (corpus)
    CROSS JOIN (
        VALUES
            ('strict', 'mistake'),
            ('exact', 'mistake'),
            ('partial', 'mistake'),
            ('ent_type', 'mistake'),
            ('token-hard', 'token'),
            ('token-soft', 'token'),
            ('char-hard', 'character'),
            ('char-soft', 'character')
    ) AS schemes (scheme, unit)
)

SELECT
    scored.scheme,
    scored.submission_id,
    scored.scope,
    scored.unit,
    coalesce(sums.matched, 0)::DOUBLE AS matched,
    coalesce(sums.gold_total, 0)::BIGINT AS gold_total,
    coalesce(sums.submitted_total, 0)::BIGINT AS submitted_total,
    -- nervaluate's counts: 0 where no text has a mistake; NULL under the token and character schemes
    CASE WHEN scored.unit = 'mistake' THEN coalesce(sums.correct, 0) END::BIGINT AS correct,
    CASE WHEN scored.unit = 'mistake' THEN coalesce(sums.incorrect, 0) END::BIGINT AS incorrect,
    CASE WHEN scored.unit = 'mistake' THEN coalesce(sums.partial, 0) END::BIGINT AS partial,
    CASE WHEN scored.unit = 'mistake' THEN coalesce(sums.missed, 0) END::BIGINT AS missed,
    CASE WHEN scored.unit = 'mistake' THEN coalesce(sums.spurious, 0) END::BIGINT AS spurious
FROM scored
LEFT JOIN text_sums AS sums
    ON sums.scheme = scored.scheme AND sums.submission_id = scored.submission_id AND sums.scope = scored.scope
