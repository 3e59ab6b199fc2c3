-- The consumed-mistake matching of the shared task where it is contested: inside each text, gold mistakes are
-- visited left to right; each takes the leftmost submitted mistake, not yet taken, whose token range intersects its
-- own. This model computes it for the gold mistakes whose overlaps are not one to one (span_overlaps); a gold
-- mistake whose overlap is one to one takes that submitted mistake (candidate_matches adds those).
-- Materialized: incremental (a table; a submission's rows are computed when it is loaded, removed with it: the
-- rows of the submissions in $submission_ids).
-- Grain: one row per (submission, scope, gold mistake whose overlaps are not one to one).
-- Key: submission_id, scope, gold_mistake_id
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   scope: ALL, or the category both lists are filtered to (scopes.scope).
--   gold_mistake_id: The gold mistake (mistakes.mistake_id).
--   candidate_count: How many submitted mistakes intersect it.
--   submitted_mistake_id: The submitted mistake it took; NULL when all were taken before it.
--
-- The visit is sequential, but within one list spans never overlap, and that makes it a closed form:
--  * a gold mistake's candidates are consecutive submitted mistakes. Only its first can be taken before it, and
--    only when that one intersects earlier gold mistakes too: it starts before the gold mistake, and it is their
--    last candidate. The gold mistake then takes its second candidate (the first that starts inside it), if any.
--  * Of those earlier gold mistakes, all but the first lie inside the shared candidate and have no other; so with
--    two or more, the one just before took it or found it taken. With one: that one took the shared candidate if
--    it was its only one, or its second while its first was taken; it left it free if it was its third or later.
-- "Taken before me" thus passes along a run of gold mistakes with two candidates each, like a carry. The run's
-- first gold mistake decides it, and a window over the runs alone (one gold mistake in hundreds) finds it.
-- tests/oracle.py runs the visit itself, and tests/test_matching_properties.py compares the two.
WITH contested_overlaps AS (
    SELECT
        submission_id,
        scope,
        gold_mistake_id,
        submitted_mistake_id,
        gold_start,
        submitted_start,
        -- the neighbouring candidates' starts, in order (distinct: spans within one list never overlap)
        lag(submitted_start) OVER (
            PARTITION BY submission_id, scope, gold_mistake_id ORDER BY submitted_start
        ) AS previous_candidate_start,
        lead(submitted_start) OVER (
            PARTITION BY submission_id, scope, gold_mistake_id ORDER BY submitted_start
        ) AS next_candidate_start
    FROM scoped_overlaps
    WHERE submission_id = ANY($submission_ids) AND NOT one_to_one
),

candidates AS (
    SELECT
        submission_id,
        scope,
        gold_mistake_id,
        gold_start,
        count(*) AS candidate_count,
        min(CASE WHEN previous_candidate_start IS NULL THEN submitted_mistake_id END) AS first_candidate_id,
        min(submitted_start) < gold_start AS first_starts_before,
        -- the second candidate when the first starts before the gold mistake
        min(
            CASE WHEN submitted_start >= gold_start AND coalesce(previous_candidate_start < gold_start, TRUE)
                THEN submitted_mistake_id END
        ) AS first_inside_id,
        min(CASE WHEN next_candidate_start IS NULL THEN submitted_mistake_id END) AS last_candidate_id
    FROM contested_overlaps
    GROUP BY submission_id, scope, gold_mistake_id, gold_start
),

-- The gold mistakes whose first candidate intersects earlier gold mistakes: how many candidates the earlier ones
-- had (the fewest), and which one it was (when there is one).
shared_first_candidates AS (
    SELECT
        later.submission_id,
        later.scope,
        later.gold_mistake_id,
        min(earlier.candidate_count) AS fewest_earlier_candidates,
        min(earlier.gold_mistake_id) AS earlier_gold_mistake_id
    FROM candidates AS later
    JOIN candidates AS earlier
        ON earlier.submission_id = later.submission_id
        AND earlier.scope = later.scope
        AND earlier.last_candidate_id = later.first_candidate_id
        AND earlier.gold_start < later.gold_start
    WHERE later.first_starts_before
    GROUP BY later.submission_id, later.scope, later.gold_mistake_id
),

-- Whether a gold mistake's first candidate was taken before it: TRUE, FALSE, or NULL when the earlier one had
-- two candidates and passes on what happened to its own first.
decided AS (
    SELECT
        candidates.submission_id,
        candidates.scope,
        candidates.gold_mistake_id,
        candidates.gold_start,
        candidates.candidate_count,
        candidates.first_candidate_id,
        candidates.first_inside_id,
        shared.earlier_gold_mistake_id,
        CASE shared.fewest_earlier_candidates WHEN 1 THEN TRUE WHEN 2 THEN NULL ELSE FALSE END AS first_taken
    FROM candidates
    LEFT JOIN shared_first_candidates AS shared
        ON shared.submission_id = candidates.submission_id
        AND shared.scope = candidates.scope
        AND shared.gold_mistake_id = candidates.gold_mistake_id
),

-- The runs a carry passes along: the gold mistakes it passes, and the earlier one each had it from.
runs AS (
    SELECT submission_id, scope, gold_mistake_id FROM decided WHERE first_taken IS NULL
    UNION
    SELECT submission_id, scope, earlier_gold_mistake_id FROM decided WHERE first_taken IS NULL
),

-- The runs' gold mistakes in text order, each numbered by the decisions (non-NULL first_taken) met so far: a
-- run's first and the gold mistakes its carry passes share a number.
run_members AS (
    SELECT
        decided.submission_id,
        decided.scope,
        decided.gold_mistake_id,
        decided.gold_start,
        gold.text_id,
        decided.first_taken,
        count(decided.first_taken) OVER (
            PARTITION BY decided.submission_id, decided.scope, gold.text_id
            ORDER BY decided.gold_start
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS decisions_so_far
    FROM runs
    JOIN decided
        ON decided.submission_id = runs.submission_id
        AND decided.scope = runs.scope
        AND decided.gold_mistake_id = runs.gold_mistake_id
    JOIN thresholded_mistakes AS gold ON gold.mistake_id = decided.gold_mistake_id
),

-- Each gold mistake a carry passes takes the decision of its run's first (the first of its number).
carried AS (
    SELECT
        submission_id,
        scope,
        gold_mistake_id,
        first_value(first_taken) OVER (
            PARTITION BY submission_id, scope, text_id, decisions_so_far
            ORDER BY gold_start
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS first_taken
    FROM run_members
)

SELECT
    decided.submission_id,
    decided.scope,
    decided.gold_mistake_id,
    decided.candidate_count,
    CASE WHEN coalesce(decided.first_taken, carried.first_taken) THEN decided.first_inside_id
        ELSE decided.first_candidate_id END AS submitted_mistake_id
FROM decided
LEFT JOIN carried
    ON carried.submission_id = decided.submission_id
    AND carried.scope = decided.scope
    AND carried.gold_mistake_id = decided.gold_mistake_id
