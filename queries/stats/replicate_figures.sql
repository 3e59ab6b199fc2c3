-- The figures of resampled statistics: what scores computes from a split's counts, computed from the sums of a
-- bootstrap replicate or a permutation trial.
-- Materialized: query (not a view of the database: it reads trial_sums, the sums accuracy_db/stats/resampling.py computes
-- from text_statistics, and is created as a temporary view for the run, which bootstrap_intervals and paired_tests
-- read).
-- Grain: one row per (list, scope, kind, trial, figure).
-- Key: submission_id, partner_id, scope, kind, trial, figure
-- Columns:
--   submission_id: The list whose figures they are (annotation_sets.set_id).
--   partner_id: In a paired test, the submission it is compared with; else NULL.
--   scope: ALL, or the category both lists are filtered to (scopes.scope).
--   kind: observed, bootstrap or permutation.
--   trial: The replicate or trial, from 1; 0 for the observed sums.
--   figure: recall, precision, f1, token_recall, token_precision or token_f1.
--   value: The figure computed from the trial's sums; NULL when undefined (nothing to divide by).
WITH ratios AS (
    SELECT
        submission_id,
        partner_id,
        scope,
        kind,
        trial,
        ratio(matched, gold) AS recall,
        ratio(matched, submitted) AS precision,
        ratio(token_matched, gold_tokens) AS token_recall,
        ratio(token_matched, submitted_tokens) AS token_precision
    FROM trial_sums
),

figures AS (
    SELECT
        submission_id,
        partner_id,
        scope,
        kind,
        trial,
        recall,
        precision,
        f1(recall, precision) AS f1,
        token_recall,
        token_precision,
        f1(token_recall, token_precision) AS token_f1
    FROM ratios
)

-- one row per figure (an unpivot that keeps the NULLs)
SELECT
    figures.submission_id,
    figures.partner_id,
    figures.scope,
    figures.kind,
    figures.trial,
    names.figure,
    CASE names.figure
        WHEN 'recall' THEN figures.recall
        WHEN 'precision' THEN figures.precision
        WHEN 'f1' THEN figures.f1
        WHEN 'token_recall' THEN figures.token_recall
        WHEN 'token_precision' THEN figures.token_precision
        WHEN 'token_f1' THEN figures.token_f1
    END AS value
FROM figures
CROSS JOIN (
    VALUES ('recall'), ('precision'), ('f1'), ('token_recall'), ('token_precision'), ('token_f1')
) AS names (figure)
