-- nervaluate's counts under its four schemes: each submitted mistake that took a gold mistake (scheme_pairings)
-- is correct, incorrect or partial by the scheme's rule; the rest of the submitted mistakes are spurious, the gold
-- mistakes none took are missed.
--  * strict: correct when the two have the same span and the same category, else incorrect;
--  * exact: correct when they have the same span, else incorrect (the category is not read);
--  * partial: correct when they have the same span, else partial (the category is not read);
--  * ent_type: correct when they have the same category, else incorrect (pairs taken by the closest rule).
-- Grain: one row per (scheme, submission, scope), schemes strict, exact, partial, ent_type.
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
WITH schemes AS (
    SELECT 'strict' AS scheme, 'leftmost' AS pairing
    UNION ALL
    SELECT 'exact' AS scheme, 'leftmost' AS pairing
    UNION ALL
    SELECT 'partial' AS scheme, 'leftmost' AS pairing
    UNION ALL
    SELECT 'ent_type' AS scheme, 'closest' AS pairing
),

pairs AS (
    SELECT
        schemes.scheme,
        pairings.submission_id,
        pairings.scope,
        count(pairings.gold_mistake_id) AS paired,
        sum(
            CASE
                WHEN pairings.gold_mistake_id IS NULL THEN 0
                WHEN schemes.scheme = 'strict' AND pairings.same_span AND pairings.same_category THEN 1
                WHEN schemes.scheme IN ('exact', 'partial') AND pairings.same_span THEN 1
                WHEN schemes.scheme = 'ent_type' AND pairings.same_category THEN 1
                ELSE 0
            END
        ) AS correct
    FROM scheme_pairings AS pairings
    JOIN schemes ON schemes.pairing = pairings.pairing
    GROUP BY schemes.scheme, pairings.submission_id, pairings.scope
)

SELECT
    schemes.scheme,
    sizes.submission_id,
    sizes.scope,
    coalesce(pairs.correct, 0)::BIGINT AS correct,
    (CASE WHEN schemes.scheme = 'partial' THEN 0 ELSE coalesce(pairs.paired - pairs.correct, 0) END)::BIGINT
        AS incorrect,
    (CASE WHEN schemes.scheme = 'partial' THEN coalesce(pairs.paired - pairs.correct, 0) ELSE 0 END)::BIGINT
        AS partial,
    (sizes.gold_mistakes - coalesce(pairs.paired, 0))::BIGINT AS missed,
    (sizes.submitted_mistakes - coalesce(pairs.paired, 0))::BIGINT AS spurious,
    sizes.gold_mistakes::BIGINT AS possible,
    sizes.submitted_mistakes::BIGINT AS actual
FROM scoped_list_sizes AS sizes
CROSS JOIN schemes
LEFT JOIN pairs
    ON pairs.scheme = schemes.scheme
    AND pairs.submission_id = sizes.submission_id
    AND pairs.scope = sizes.scope
