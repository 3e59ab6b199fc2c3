-- The consumed-mistake matching of the shared task: inside each text, gold mistakes are visited left to
-- right; each takes the leftmost submitted mistake, not yet taken, whose token range intersects its own.
-- Grain: one row per (submission, scope, gold mistake). Columns: submission_id, scope, text_id,
-- gold_mistake_id, candidate_count (submitted mistakes that intersect it), submitted_mistake_id (the one
-- it took; NULL when it took none).
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
-- tests/oracle.py runs the visit itself, and tests/test_matching_properties.py compares the two.
WITH candidates AS (
    SELECT
        submission_id,
        scope,
        gold_mistake_id,
        count(*) AS candidate_count,
        list(submitted_mistake_id ORDER BY submitted_start) AS candidate_ids
    FROM scoped_overlaps
    GROUP BY submission_id, scope, gold_mistake_id
),

contested AS (
    SELECT
        gold.submission_id,
        gold.scope,
        gold.text_id,
        gold.mistake_id AS gold_mistake_id,
        gold.doc_token_start,
        candidates.candidate_count,
        candidates.candidate_ids,
        lead(candidates.candidate_ids[1]) OVER text_order AS next_first_candidate
    FROM scoped_gold_mistakes AS gold
    JOIN candidates
        ON candidates.submission_id = gold.submission_id
        AND candidates.scope = gold.scope
        AND candidates.gold_mistake_id = gold.mistake_id
    WINDOW text_order AS (PARTITION BY gold.submission_id, gold.scope, gold.text_id ORDER BY gold.doc_token_start)
),

effects AS (
    SELECT
        *,
        -- What this gold mistake does to the next one's first candidate: TRUE takes it, FALSE leaves it
        -- free, NULL passes on whatever happened to its own first candidate.
        CASE
            WHEN next_first_candidate IS DISTINCT FROM candidate_ids[-1] THEN FALSE
            WHEN candidate_count = 1 THEN TRUE
            WHEN candidate_count = 2 THEN NULL
            ELSE FALSE
        END AS takes_next_first_candidate
    FROM contested
),

taken AS (
    SELECT
        *,
        coalesce(
            last_value(takes_next_first_candidate IGNORE NULLS) OVER (
                PARTITION BY submission_id, scope, text_id
                ORDER BY doc_token_start
                ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
            ),
            FALSE
        ) AS first_candidate_taken
    FROM effects
)

SELECT
    gold.submission_id,
    gold.scope,
    gold.text_id,
    gold.mistake_id AS gold_mistake_id,
    coalesce(taken.candidate_count, 0) AS candidate_count,
    CASE
        WHEN NOT taken.first_candidate_taken THEN taken.candidate_ids[1]
        ELSE taken.candidate_ids[2]
    END AS submitted_mistake_id
FROM scoped_gold_mistakes AS gold
LEFT JOIN taken
    ON taken.submission_id = gold.submission_id
    AND taken.scope = gold.scope
    AND taken.gold_mistake_id = gold.mistake_id
