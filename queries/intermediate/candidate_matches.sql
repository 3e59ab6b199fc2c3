-- The consumed-mistake matching of the shared task: inside each text, gold mistakes are visited left to
-- right; each takes the leftmost submitted mistake, not yet taken, whose token range intersects its own.
-- This model computes it for the gold mistakes that have candidates (mistake_matches adds the others).
-- Materialized: incremental (a table; a submission's rows are computed when it is loaded, removed with it).
-- Grain: one row per (submission, scope, gold mistake that intersects a submitted mistake). Columns:
-- submission_id, scope, text_id, gold_mistake_id, candidate_count (the submitted mistakes that intersect
-- it), submitted_mistake_id (the one it took; NULL when all were taken before it).
--
-- The visit is sequential, but within one list spans never overlap, and that makes it a closed form:
--  * a gold mistake's candidates are consecutive submitted mistakes, and two consecutive gold mistakes
--    (among those with candidates) share at most one: the last candidate of the earlier one, when it is
--    the first candidate of the later one, a span that covers the gap between them;
--  * so a gold mistake takes its first candidate unless an earlier gold mistake took it, and then its
--    second candidate if it has one; everything after its first candidate is still free;
--  * its first candidate was taken iff the previous gold mistake with candidates shares it and either
--    had that one candidate only (it took it, or it was taken before), or had two and had its own first
--    candidate taken (so it took the second, the shared one). With any other count it left it free.
-- "Taken before me" thus passes along a run of such two-candidate gold mistakes like a carry, and is the
-- effect of the last gold mistake before it that did not pass it on: a window function, no recursion.
-- Disjoint spans also mean that a submitted mistake is known by where it starts, within its text. And a shared
-- candidate starts before the later gold mistake and ends after the earlier one: the windows need only the
-- gold mistakes whose candidates reach outside them ("contested"); the others take their first candidate.
-- tests/oracle.py runs the visit itself, and tests/test_matching_properties.py compares the two.
WITH candidates AS (
    SELECT
        submission_id,
        scope,
        text_id,
        gold_mistake_id,
        any_value(gold_start) AS gold_start,
        count(*) AS candidate_count,
        arg_min(submitted_mistake_id, submitted_start, 2) AS first_two_candidates,
        min(submitted_start) AS first_candidate_start,
        max(submitted_start) AS last_candidate_start,
        min(submitted_start) < any_value(gold_start) OR max(submitted_end) > any_value(gold_end) AS contested
    FROM scoped_overlaps
    GROUP BY submission_id, scope, text_id, gold_mistake_id
),

effects AS (
    SELECT
        *,
        -- What the previous gold mistake did to this one's first candidate: TRUE took it, FALSE left it
        -- free, NULL passed on whatever happened to its own first candidate.
        CASE
            WHEN lag(last_candidate_start) OVER text_order IS DISTINCT FROM first_candidate_start THEN FALSE
            WHEN lag(candidate_count) OVER text_order = 1 THEN TRUE
            WHEN lag(candidate_count) OVER text_order = 2 THEN NULL
            ELSE FALSE
        END AS effect_of_previous
    FROM candidates
    WHERE contested
    WINDOW text_order AS (PARTITION BY submission_id, scope, text_id ORDER BY gold_start)
),

taken AS (
    SELECT
        *,
        coalesce(
            last_value(effect_of_previous IGNORE NULLS) OVER (
                PARTITION BY submission_id, scope, text_id
                ORDER BY gold_start
                ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
            ),
            FALSE
        ) AS first_candidate_taken
    FROM effects
)

SELECT
    submission_id,
    scope,
    text_id,
    gold_mistake_id,
    candidate_count,
    first_two_candidates[CASE WHEN first_candidate_taken THEN 2 ELSE 1 END] AS submitted_mistake_id
FROM taken
UNION ALL
SELECT submission_id, scope, text_id, gold_mistake_id, candidate_count, first_two_candidates[1]
FROM candidates
WHERE NOT contested
