-- Which gold mistake each submitted mistake takes under nervaluate's schemes: inside each text the submitted
-- mistakes are visited left to right, and each takes its most preferred candidate (scheme_candidates) that no
-- earlier submitted mistake has taken. A submitted mistake that takes none is spurious; a gold mistake that none
-- takes is missed.
-- Grain: one row per (pairing, submission, scope, submitted mistake with at least one candidate).
-- Key: pairing, submission_id, scope, submitted_mistake_id
-- Columns:
--   pairing: leftmost or closest: the rule that orders the candidates (scheme_candidates.pairing).
--   submission_id: The submission (annotation_sets.set_id).
--   scope: ALL, or the category both lists are filtered to (scopes.scope).
--   submitted_mistake_id: The submitted mistake (mistakes.mistake_id).
--   text_id: The text it is in (texts.text_id).
--   gold_mistake_id: The gold mistake it took; NULL when every candidate was taken before it.
--   same_span: Whether the two mistakes mark the same tokens; NULL when it took none.
--   same_category: Whether the two mistakes have the same category; NULL when it took none.
--
-- The visit is sequential, but within one list spans never overlap, and that makes it a closed form (as in
-- contested_matches, the roles of the lists swapped): only a submitted mistake's first candidate (leftmost) can
-- have been taken before it, and only when it starts before it; the earlier submitted mistakes that share it have
-- it as their last candidate. After an earlier one with that sole candidate, it is taken (it took it, or found it
-- taken). After the one earlier one with more candidates, it is taken when that one took it, which that one does
-- always, never, or exactly when its own first candidate was taken (a carry: free then taken is impossible,
-- since dropping a candidate that was not chosen changes no choice). A carry passes along a run, and the run's
-- first decides it.
-- A one-to-one candidate (scheme_candidates.one_to_one) is the only one of its submitted mistake and no other
-- submitted mistake's: it is taken, and only the rest go through the closed form.
-- nervaluate itself is compared with it in tests/test_schemes.py.
WITH ordered AS (
    SELECT
        *,
        min(gold_start) OVER visit AS first_gold_start,
        max(gold_start) OVER visit AS last_gold_start
    FROM scheme_candidates
    WHERE NOT one_to_one
    WINDOW visit AS (PARTITION BY pairing, submission_id, scope, submitted_mistake_id)
),

ranked AS (
    SELECT
        *,
        -- the best candidate but the first: the choice when the first was taken before
        min(CASE WHEN gold_start > first_gold_start THEN preference END) OVER (
            PARTITION BY pairing, submission_id, scope, submitted_mistake_id
        ) AS preference_without_first
    FROM ordered
),

candidates AS (
    SELECT
        pairing,
        submission_id,
        scope,
        submitted_mistake_id,
        text_id,
        submitted_start,
        count(*) AS candidate_count,
        min(first_gold_start) < submitted_start AS first_starts_before,
        min(CASE WHEN gold_start = first_gold_start THEN gold_mistake_id END) AS first_candidate_id,
        min(CASE WHEN gold_start = last_gold_start THEN gold_mistake_id END) AS last_candidate_id,
        min(CASE WHEN preference = 1 THEN gold_mistake_id END) AS choice_if_first_free,
        min(CASE WHEN preference = preference_without_first THEN gold_mistake_id END) AS choice_if_first_taken,
        max(CASE WHEN preference = 1 AND same_span THEN 1 ELSE 0 END) = 1 AS same_span_if_first_free,
        max(CASE WHEN preference = preference_without_first AND same_span THEN 1 ELSE 0 END) = 1
            AS same_span_if_first_taken,
        max(CASE WHEN preference = 1 AND same_category THEN 1 ELSE 0 END) = 1 AS same_category_if_first_free,
        max(CASE WHEN preference = preference_without_first AND same_category THEN 1 ELSE 0 END) = 1
            AS same_category_if_first_taken
    FROM ranked
    GROUP BY pairing, submission_id, scope, submitted_mistake_id, text_id, submitted_start
),

-- Whether its last candidate is taken once it has been visited, when its first was free and when it was taken.
last_taken AS (
    SELECT
        *,
        choice_if_first_free = last_candidate_id AS last_taken_if_first_free,
        candidate_count = 1 OR coalesce(choice_if_first_taken = last_candidate_id, FALSE) AS last_taken_if_first_taken
    FROM candidates
),

-- The submitted mistakes whose first candidate is the last of earlier ones: whether any earlier one leaves it
-- taken whatever happened before, whether all leave it free, and which one it was (when there is one).
shared_first_candidates AS (
    SELECT
        later.pairing,
        later.submission_id,
        later.scope,
        later.submitted_mistake_id,
        max(CASE WHEN earlier.last_taken_if_first_free AND earlier.last_taken_if_first_taken THEN 1 ELSE 0 END)
            AS always_taken,
        min(CASE WHEN earlier.last_taken_if_first_free OR earlier.last_taken_if_first_taken THEN 0 ELSE 1 END)
            AS always_free,
        min(earlier.submitted_mistake_id) AS earlier_submitted_mistake_id
    FROM last_taken AS later
    JOIN last_taken AS earlier
        ON earlier.pairing = later.pairing
        AND earlier.submission_id = later.submission_id
        AND earlier.scope = later.scope
        AND earlier.last_candidate_id = later.first_candidate_id
        AND earlier.submitted_start < later.submitted_start
    WHERE later.first_starts_before
    GROUP BY later.pairing, later.submission_id, later.scope, later.submitted_mistake_id
),

-- Whether a submitted mistake's first candidate was taken before it: TRUE, FALSE, or NULL when the earlier one
-- passes on what happened to its own first.
decided AS (
    SELECT
        last_taken.pairing,
        last_taken.submission_id,
        last_taken.scope,
        last_taken.submitted_mistake_id,
        last_taken.text_id,
        last_taken.submitted_start,
        last_taken.choice_if_first_free,
        last_taken.choice_if_first_taken,
        last_taken.same_span_if_first_free,
        last_taken.same_span_if_first_taken,
        last_taken.same_category_if_first_free,
        last_taken.same_category_if_first_taken,
        shared.earlier_submitted_mistake_id,
        CASE
            WHEN shared.submitted_mistake_id IS NULL THEN FALSE
            WHEN shared.always_taken = 1 THEN TRUE
            WHEN shared.always_free = 1 THEN FALSE
        END AS first_taken
    FROM last_taken
    LEFT JOIN shared_first_candidates AS shared
        ON shared.pairing = last_taken.pairing
        AND shared.submission_id = last_taken.submission_id
        AND shared.scope = last_taken.scope
        AND shared.submitted_mistake_id = last_taken.submitted_mistake_id
),

-- The runs a carry passes along: the submitted mistakes it passes, and the earlier one each had it from.
runs AS (
    SELECT pairing, submission_id, scope, submitted_mistake_id FROM decided WHERE first_taken IS NULL
    UNION
    SELECT pairing, submission_id, scope, earlier_submitted_mistake_id FROM decided WHERE first_taken IS NULL
),

-- The runs' submitted mistakes in text order, each numbered by the decisions (non-NULL first_taken) met so far: a
-- run's first and the submitted mistakes its carry passes share a number.
run_members AS (
    SELECT
        decided.pairing,
        decided.submission_id,
        decided.scope,
        decided.submitted_mistake_id,
        decided.text_id,
        decided.submitted_start,
        decided.first_taken,
        count(decided.first_taken) OVER (
            PARTITION BY decided.pairing, decided.submission_id, decided.scope, decided.text_id
            ORDER BY decided.submitted_start
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS decisions_so_far
    FROM runs
    JOIN decided
        ON decided.pairing = runs.pairing
        AND decided.submission_id = runs.submission_id
        AND decided.scope = runs.scope
        AND decided.submitted_mistake_id = runs.submitted_mistake_id
),

-- Each submitted mistake a carry passes takes the decision of its run's first (the first of its number).
carried AS (
    SELECT
        pairing,
        submission_id,
        scope,
        submitted_mistake_id,
        first_value(first_taken) OVER (
            PARTITION BY pairing, submission_id, scope, text_id, decisions_so_far
            ORDER BY submitted_start
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS first_taken
    FROM run_members
),

taken AS (
    SELECT
        decided.*,
        coalesce(decided.first_taken, carried.first_taken) AS first_was_taken
    FROM decided
    LEFT JOIN carried
        ON carried.pairing = decided.pairing
        AND carried.submission_id = decided.submission_id
        AND carried.scope = decided.scope
        AND carried.submitted_mistake_id = decided.submitted_mistake_id
)

SELECT
    pairing,
    submission_id,
    scope,
    submitted_mistake_id,
    text_id,
    CASE WHEN first_was_taken THEN choice_if_first_taken ELSE choice_if_first_free END AS gold_mistake_id,
    CASE
        WHEN NOT first_was_taken THEN same_span_if_first_free
        WHEN choice_if_first_taken IS NOT NULL THEN same_span_if_first_taken
    END AS same_span,
    CASE
        WHEN NOT first_was_taken THEN same_category_if_first_free
        WHEN choice_if_first_taken IS NOT NULL THEN same_category_if_first_taken
    END AS same_category
FROM taken
UNION ALL
SELECT pairing, submission_id, scope, submitted_mistake_id, text_id, gold_mistake_id, same_span, same_category
FROM scheme_candidates
WHERE one_to_one
