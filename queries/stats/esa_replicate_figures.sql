-- The esa scheme's figures of resampled texts: replicate_figures for the scheme whose empty sides count as perfect
-- (esa_scores), computed from the sums of a bootstrap replicate or a permutation trial of esa_text_statistics.
-- Materialized: query (not a view of the database: it reads trial_sums, the sums accuracy_db/stats/resampling.py
-- computes from esa_text_statistics, and is created as the temporary view replicate_figures for the run, which
-- bootstrap_intervals and paired_tests read).
-- Grain: one row per (list, scope, kind, trial, figure).
-- Key: submission_id, partner_id, scope, kind, trial, figure
-- Columns:
--   submission_id: The list whose figures they are (annotation_sets.set_id).
--   partner_id: In a paired test, the submission it is compared with; else NULL.
--   scope: ALL.
--   kind: observed, bootstrap or permutation.
--   trial: The replicate or trial, from 1; 0 for the observed sums.
--   figure: f1, precision or recall.
--   value: The figure computed from the trial's sums as esa_scores computes it (never undefined).
WITH figures AS (
    SELECT
        submission_id,
        partner_id,
        scope,
        kind,
        trial,
        coalesce(ratio(matched, submitted), 1.0) AS precision,
        coalesce(ratio(matched, gold), 1.0) AS recall
    FROM trial_sums
)

SELECT
    figures.submission_id,
    figures.partner_id,
    figures.scope,
    figures.kind,
    figures.trial,
    names.figure,
    CASE names.figure
        WHEN 'f1' THEN coalesce(2 * figures.precision * figures.recall / nullif(figures.precision + figures.recall, 0), 0.0)
        WHEN 'precision' THEN figures.precision
        WHEN 'recall' THEN figures.recall
    END AS value
FROM figures
CROSS JOIN (VALUES ('f1'), ('precision'), ('recall')) AS names (figure)
