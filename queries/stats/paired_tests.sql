-- Is the difference between two submissions real? For each pair scored against the same gold list, one figure
-- ($figure) of both, their difference, its bootstrap interval, and the p-value of a paired test ($test).
-- Materialized: query (run with $figure, $test (bootstrap or permutation) and $confidence over replicate_figures,
-- whose trials pair each submission with a partner: the same resampled texts, or the same swaps, for both).
-- Grain: one row per (submission, partner, scope).
-- Key: submission_id, partner_id, scope
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   partner_id: The submission it is compared with (annotation_sets.set_id).
--   scope: ALL, or the category both lists are filtered to (scopes.scope).
--   value: The observed figure of the submission.
--   partner_value: The observed figure of the partner.
--   difference: value - partner_value.
--   difference_low: The low end of the percentile interval of the difference over the bootstrap replicates
--     that define it.
--   difference_high: The high end of that interval.
--   p_value: The two-sided p-value of the paired test.
--   trials: How many trials of the test define the difference.
--   excluded: How many trials do not.
-- The p-value is two-sided and counts the observed difference among the trials, so it is never 0:
--  * permutation (approximate randomization; Riezler & Maxwell 2005, Noreen 1989): each trial swaps each text's
--    statistics between the two with probability 1/2; p = (c + 1) / (N + 1), c the trials whose |difference| is at
--    least the observed |difference|;
--  * bootstrap (paired; Koehn 2004, as sacreBLEU computes it): the replicates' differences, shifted to mean 0 (the
--    null hypothesis), c those whose |difference - mean| is at least the observed |difference|.
-- "At least" within rounding: a trial's figures come from sums added in another order than the observed ones (a
-- matrix product, accuracy_db/stats/resampling.py), so a trial whose difference equals the observed one can fall
-- short of it in the last bits; it counts when within 1e-12 of the two figures' size, as scipy's permutation_test
-- counts a statistic within 100 ε of the observed one (tests/test_mushroom_statistics.py: lists that differ on one
-- text differ by it in every trial, p = 1).
WITH differences AS (
    SELECT
        submission.submission_id,
        submission.partner_id,
        submission.scope,
        submission.kind,
        submission.trial,
        submission.value,
        partner.value AS partner_value,
        submission.value - partner.value AS difference
    FROM replicate_figures AS submission
    JOIN replicate_figures AS partner
        ON partner.submission_id = submission.partner_id
        AND partner.partner_id = submission.submission_id
        AND partner.scope = submission.scope
        AND partner.kind = submission.kind
        AND partner.trial = submission.trial
        AND partner.figure = submission.figure
    WHERE submission.figure = $figure
),

observed AS (
    SELECT submission_id, partner_id, scope, value, partner_value, difference
    FROM differences
    WHERE kind = 'observed'
),

bootstrap AS (
    SELECT
        submission_id,
        partner_id,
        scope,
        quantile_cont(difference, (1 - $confidence) / 2) AS difference_low,
        quantile_cont(difference, (1 + $confidence) / 2) AS difference_high,
        avg(difference) AS mean_difference
    FROM differences
    WHERE kind = 'bootstrap'
    GROUP BY submission_id, partner_id, scope
),

test AS (
    SELECT
        differences.submission_id,
        differences.partner_id,
        differences.scope,
        count(*) FILTER (
            WHERE abs(differences.difference - CASE WHEN $test = 'bootstrap' THEN bootstrap.mean_difference ELSE 0 END)
                >= abs(observed.difference) - 1e-12 * (abs(observed.value) + abs(observed.partner_value))
        ) AS at_least_as_extreme,
        count(differences.difference) AS trials,
        count(*) - count(differences.difference) AS excluded
    FROM differences
    JOIN observed USING (submission_id, partner_id, scope)
    LEFT JOIN bootstrap USING (submission_id, partner_id, scope)
    WHERE differences.kind = $test
    GROUP BY differences.submission_id, differences.partner_id, differences.scope
)

SELECT
    observed.submission_id,
    observed.partner_id,
    observed.scope,
    observed.value,
    observed.partner_value,
    observed.difference,
    bootstrap.difference_low,
    bootstrap.difference_high,
    CASE WHEN observed.difference IS NOT NULL AND test.trials > 0
        THEN (test.at_least_as_extreme + 1) / (test.trials + 1) END AS p_value,
    test.trials,
    test.excluded
FROM observed
LEFT JOIN bootstrap USING (submission_id, partner_id, scope)
JOIN test USING (submission_id, partner_id, scope)
