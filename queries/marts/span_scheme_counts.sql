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
-- Each scheme is a branch of its own with its name as a constant, so that a query for one scheme computes only
-- its pairing.
WITH leftmost_pairs AS NOT MATERIALIZED (
    SELECT
        submission_id,
        scope,
        count(gold_mistake_id) AS paired,
        count(CASE WHEN same_span AND same_category THEN 1 END) AS same_span_and_category,
        count(CASE WHEN same_span THEN 1 END) AS same_span
    FROM scheme_pairings
    WHERE pairing = 'leftmost'
    GROUP BY submission_id, scope
),

closest_pairs AS NOT MATERIALIZED (
    SELECT
        submission_id,
        scope,
        count(gold_mistake_id) AS paired,
        count(CASE WHEN same_category THEN 1 END) AS same_category
    FROM scheme_pairings
    WHERE pairing = 'closest'
    GROUP BY submission_id, scope
),

counts AS (
    SELECT
        'strict' AS scheme,
        sizes.submission_id,
        sizes.scope,
        coalesce(pairs.same_span_and_category, 0) AS correct,
        coalesce(pairs.paired - pairs.same_span_and_category, 0) AS incorrect,
        0 AS partial,
        coalesce(pairs.paired, 0) AS paired,
        sizes.gold_mistakes,
        sizes.submitted_mistakes
    FROM scoped_list_sizes AS sizes
    LEFT JOIN leftmost_pairs AS pairs ON pairs.submission_id = sizes.submission_id AND pairs.scope = sizes.scope
    UNION ALL
    SELECT
        'exact' AS scheme,
        sizes.submission_id,
        sizes.scope,
        coalesce(pairs.same_span, 0) AS correct,
        coalesce(pairs.paired - pairs.same_span, 0) AS incorrect,
        0 AS partial,
        coalesce(pairs.paired, 0) AS paired,
        sizes.gold_mistakes,
        sizes.submitted_mistakes
    FROM scoped_list_sizes AS sizes
    LEFT JOIN leftmost_pairs AS pairs ON pairs.submission_id = sizes.submission_id AND pairs.scope = sizes.scope
    UNION ALL
    SELECT
        'partial' AS scheme,
        sizes.submission_id,
        sizes.scope,
        coalesce(pairs.same_span, 0) AS correct,
        0 AS incorrect,
        coalesce(pairs.paired - pairs.same_span, 0) AS partial,
        coalesce(pairs.paired, 0) AS paired,
        sizes.gold_mistakes,
        sizes.submitted_mistakes
    FROM scoped_list_sizes AS sizes
    LEFT JOIN leftmost_pairs AS pairs ON pairs.submission_id = sizes.submission_id AND pairs.scope = sizes.scope
    UNION ALL
    SELECT
        'ent_type' AS scheme,
        sizes.submission_id,
        sizes.scope,
        coalesce(pairs.same_category, 0) AS correct,
        coalesce(pairs.paired - pairs.same_category, 0) AS incorrect,
        0 AS partial,
        coalesce(pairs.paired, 0) AS paired,
        sizes.gold_mistakes,
        sizes.submitted_mistakes
    FROM scoped_list_sizes AS sizes
    LEFT JOIN closest_pairs AS pairs ON pairs.submission_id = sizes.submission_id AND pairs.scope = sizes.scope
)

SELECT
    scheme,
    submission_id,
    scope,
    correct::BIGINT AS correct,
    incorrect::BIGINT AS incorrect,
    partial::BIGINT AS partial,
    (gold_mistakes - paired)::BIGINT AS missed,
    (submitted_mistakes - paired)::BIGINT AS spurious,
    gold_mistakes::BIGINT AS possible,
    submitted_mistakes::BIGINT AS actual
FROM counts
