-- nervaluate's counts under its four schemes: each submitted mistake that took a gold mistake (scheme_pairings)
-- is correct, incorrect or partial by the scheme's rule; the rest of the submitted mistakes are spurious, the gold
-- mistakes none took are missed. They are the sums of text_scheme_statistics over the texts (which gives the rules).
-- Grain: one row per (scheme, submission, scope), schemes strict, exact, partial, ent_type.
-- Key: scheme, submission_id, scope
-- Columns:
--   scheme: strict, exact, partial or ent_type.
--   submission_id: The submission (annotation_sets.set_id).
--   scope: ALL, or the category both lists are filtered to (scopes.scope).
--   correct: COR: pairs that count as correct.
--   incorrect: INC: pairs that count as incorrect.
--   partial: PAR: pairs that count as partial (only under partial).
--   missed: MIS: gold mistakes that no submitted mistake took.
--   spurious: SPU: submitted mistakes that took no gold mistake.
--   possible: POS = COR + INC + PAR + MIS: the gold mistakes of the scope.
--   actual: ACT = COR + INC + PAR + SPU: the submitted mistakes of the scope.
--   matched: The numerator of recall and precision: COR (strict, exact) or COR + 0.5 PAR (partial, ent_type).
-- The four schemes are rows of one join, not a UNION ALL branch each: a query for one scheme still computes only
-- its pairing (the scheme reaches text_scheme_statistics's branches through the join, and text_sums reads only
-- these four schemes), and text_scheme_statistics is planned once, not once a branch (four inlined copies made
-- planning take five times as long as the query). A submission and scope without a mistake on either side has no
-- text there, and zeros here.
WITH text_sums AS (
    SELECT
        scheme,
        submission_id,
        scope,
        sum(correct) AS correct,
        sum(incorrect) AS incorrect,
        sum(partial) AS partial,
        sum(missed) AS missed,
        sum(spurious) AS spurious,
        sum(gold_total) AS possible,
        sum(submitted_total) AS actual,
        sum(matched) AS matched
    FROM text_scheme_statistics
    WHERE scheme IN ('strict', 'exact', 'partial', 'ent_type')
    GROUP BY scheme, submission_id, scope
),

-- every scheme, submission and scope that is scored, with or without texts
scored AS (
    SELECT schemes.scheme, evaluations.submission_id, scopes.scope
    FROM evaluations
    JOIN scopes USING (corpus)
    CROSS JOIN (VALUES ('strict'), ('exact'), ('partial'), ('ent_type')) AS schemes (scheme)
)

SELECT
    scored.scheme,
    scored.submission_id,
    scored.scope,
    coalesce(sums.correct, 0)::BIGINT AS correct,
    coalesce(sums.incorrect, 0)::BIGINT AS incorrect,
    coalesce(sums.partial, 0)::BIGINT AS partial,
    coalesce(sums.missed, 0)::BIGINT AS missed,
    coalesce(sums.spurious, 0)::BIGINT AS spurious,
    coalesce(sums.possible, 0)::BIGINT AS possible,
    coalesce(sums.actual, 0)::BIGINT AS actual,
    coalesce(sums.matched, 0)::DOUBLE AS matched
FROM scored
LEFT JOIN text_sums AS sums
    ON sums.scheme = scored.scheme AND sums.submission_id = scored.submission_id AND sums.scope = scored.scope
