-- When a submission finds a gold mistake, does it give it the gold list's category? The agreement rate and
-- Cohen's kappa of the matched pairs of the ALL scope (candidate_matches, where categories need not agree; the
-- confusion itself is the saved analysis category_confusion).
-- Grain: one row per (submission, scope).
-- Key: submission_id, scope
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   submission: The submission's name (the file stem).
--   split: train or test: the split of the submission and of its gold list.
--   scope: ALL, or the category both lists are filtered to (scopes.scope).
--   position: The scope's report order: ALL 0, NAME 1 … OTHER 6.
--   pairs: How many matched pairs the ALL scope has: the pairs kappa is computed over.
--   category_pairs: How many matched pairs have the scope's category as their gold category (all of them in
--     ALL).
--   agreeing: How many of the category_pairs have the same submitted category.
--   agreement: agreeing / category_pairs; NULL without category_pairs.
--   kappa: Cohen's kappa of the pairs' gold and submitted categories (in a category's scope, that category
--     against the rest); NULL without pairs, or when both sides give every pair the same label.
-- kappa is Cohen's: (observed - expected) / (1 - expected), the expected agreement being the sum over labels of
-- (gold share x submitted share). In ALL the labels are the categories; in a category's scope they are "is it
-- this category?" (the two-class kappa of one category against the rest).
-- agreement is NULL without category_pairs; kappa is NULL without pairs, or when both sides give every pair the
-- same label (expected agreement 1: nothing to tell apart). tests/test_validity.py checks kappa against
-- scikit-learn's cohen_kappa_score and a worked example.
-- The matched pairs are read from candidate_matches, which has a row for every gold mistake that took a submitted one
-- (mistake_matches adds those that took none, from the table scored_mistakes, which agreement's scoring of pairs of
-- lists then need not fill).
WITH pairs AS (
    SELECT matches.submission_id, gold.category AS gold_category, submitted.category AS submitted_category
    FROM candidate_matches AS matches
    JOIN gold_mistakes AS gold ON gold.mistake_id = matches.gold_mistake_id
    JOIN submitted_mistakes AS submitted ON submitted.mistake_id = matches.submitted_mistake_id
    WHERE matches.scope = 'ALL'
),

-- How many pairs have each (gold, submitted) category: everything below is computed from these few counts (at
-- most 36 a submission), not from a row per pair and scope.
confusion AS (
    SELECT submission_id, gold_category, submitted_category, count(*) AS pairs
    FROM pairs
    GROUP BY submission_id, gold_category, submitted_category
),

-- Each cell labelled as the scope's kappa sees it: its category in ALL, whether it is the category otherwise.
labelled AS (
    SELECT
        pairs.submission_id,
        pairs.pairs,
        scopes.scope,
        CASE WHEN scopes.scope = 'ALL' THEN pairs.gold_category
            ELSE (pairs.gold_category = scopes.scope)::VARCHAR END AS gold_label,
        CASE WHEN scopes.scope = 'ALL' THEN pairs.submitted_category
            ELSE (pairs.submitted_category = scopes.scope)::VARCHAR END AS submitted_label,
        scopes.scope IN ('ALL', pairs.gold_category) AS in_scope,
        pairs.gold_category = pairs.submitted_category AS same_category
    FROM confusion AS pairs
    JOIN evaluations USING (submission_id)
    JOIN scopes USING (corpus)
),

observed AS (
    SELECT
        submission_id,
        scope,
        sum(pairs)::BIGINT AS pairs,
        coalesce(sum(pairs) FILTER (WHERE in_scope), 0)::BIGINT AS category_pairs,
        coalesce(sum(pairs) FILTER (WHERE in_scope AND same_category), 0)::BIGINT AS agreeing,
        coalesce(sum(pairs) FILTER (WHERE gold_label = submitted_label), 0) / sum(pairs) AS observed_agreement
    FROM labelled
    GROUP BY submission_id, scope
),

gold_shares AS (
    SELECT submission_id, scope, gold_label AS label, sum(pairs)::BIGINT AS gold_count
    FROM labelled
    GROUP BY submission_id, scope, gold_label
),

submitted_shares AS (
    SELECT submission_id, scope, submitted_label AS label, sum(pairs)::BIGINT AS submitted_count
    FROM labelled
    GROUP BY submission_id, scope, submitted_label
),

expected AS (
    SELECT
        observed.submission_id,
        observed.scope,
        -- a sum of integer products over an integer square: exactly 1.0 when both sides use one label only
        sum(gold_shares.gold_count * submitted_shares.submitted_count)::DOUBLE
        / min(observed.pairs * observed.pairs) AS expected_agreement
    FROM observed
    JOIN gold_shares USING (submission_id, scope)
    JOIN submitted_shares USING (submission_id, scope, label)
    GROUP BY observed.submission_id, observed.scope
)

SELECT
    evaluations.submission_id,
    evaluations.submission,
    evaluations.split,
    scopes.scope,
    scopes.position,
    coalesce(observed.pairs, 0) AS pairs,
    coalesce(observed.category_pairs, 0) AS category_pairs,
    coalesce(observed.agreeing, 0) AS agreeing,
    observed.agreeing / nullif(observed.category_pairs, 0) AS agreement,
    (observed.observed_agreement - coalesce(expected.expected_agreement, 0))
    / nullif(1 - coalesce(expected.expected_agreement, 0), 0) AS kappa
FROM evaluations
JOIN scopes USING (corpus)
LEFT JOIN observed USING (submission_id, scope)
LEFT JOIN expected USING (submission_id, scope)
