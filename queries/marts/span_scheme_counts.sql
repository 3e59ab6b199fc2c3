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
-- Each scheme is a branch of its own with its name as a constant, so that a query for one scheme computes only
-- its pairing (the constant reaches text_scheme_statistics's branches through the join). A submission and scope
-- without a mistake on either side has no text there, and zeros here.
WITH text_sums AS NOT MATERIALIZED (
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
    GROUP BY scheme, submission_id, scope
),

scored AS NOT MATERIALIZED (
    SELECT evaluations.submission_id, scopes.scope
    FROM evaluations
    JOIN scopes USING (corpus)
),

counts AS (
    SELECT
        'strict' AS scheme,
        scored.submission_id,
        scored.scope,
        sums.correct,
        sums.incorrect,
        sums.partial,
        sums.missed,
        sums.spurious,
        sums.possible,
        sums.actual,
        sums.matched
    FROM scored
    LEFT JOIN text_sums AS sums
        ON sums.scheme = 'strict' AND sums.submission_id = scored.submission_id AND sums.scope = scored.scope
    UNION ALL
    SELECT
        'exact' AS scheme,
        scored.submission_id,
        scored.scope,
        sums.correct,
        sums.incorrect,
        sums.partial,
        sums.missed,
        sums.spurious,
        sums.possible,
        sums.actual,
        sums.matched
    FROM scored
    LEFT JOIN text_sums AS sums
        ON sums.scheme = 'exact' AND sums.submission_id = scored.submission_id AND sums.scope = scored.scope
    UNION ALL
    SELECT
        'partial' AS scheme,
        scored.submission_id,
        scored.scope,
        sums.correct,
        sums.incorrect,
        sums.partial,
        sums.missed,
        sums.spurious,
        sums.possible,
        sums.actual,
        sums.matched
    FROM scored
    LEFT JOIN text_sums AS sums
        ON sums.scheme = 'partial' AND sums.submission_id = scored.submission_id AND sums.scope = scored.scope
    UNION ALL
    SELECT
        'ent_type' AS scheme,
        scored.submission_id,
        scored.scope,
        sums.correct,
        sums.incorrect,
        sums.partial,
        sums.missed,
        sums.spurious,
        sums.possible,
        sums.actual,
        sums.matched
    FROM scored
    LEFT JOIN text_sums AS sums
        ON sums.scheme = 'ent_type' AND sums.submission_id = scored.submission_id AND sums.scope = scored.scope
)

SELECT
    scheme,
    submission_id,
    scope,
    coalesce(correct, 0)::BIGINT AS correct,
    coalesce(incorrect, 0)::BIGINT AS incorrect,
    coalesce(partial, 0)::BIGINT AS partial,
    coalesce(missed, 0)::BIGINT AS missed,
    coalesce(spurious, 0)::BIGINT AS spurious,
    coalesce(possible, 0)::BIGINT AS possible,
    coalesce(actual, 0)::BIGINT AS actual,
    coalesce(matched, 0)::DOUBLE AS matched
FROM counts
