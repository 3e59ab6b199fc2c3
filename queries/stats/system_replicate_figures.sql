-- The systems' figure in resampled inputs: replicate_figures for the ranking of generating systems
-- (accuracy_db/stats/system_ranking.py), computed from the sums of a bootstrap replicate or a permutation trial of
-- system_text_scores.
-- Materialized: query (not a view of the database: it reads trial_sums, the sums accuracy_db/stats/resampling.py
-- computes from system_text_scores, and is created as the temporary view replicate_figures for the run, which
-- bootstrap_intervals and paired_tests read).
-- Grain: one row per (system, partner, scope, kind, trial, figure).
-- Key: submission_id, partner_id, scope, kind, trial, figure
-- Columns:
--   submission_id: The system, numbered from 0 in the order of their names.
--   partner_id: In a paired test, the system it is compared with; else NULL.
--   scope: ALL.
--   kind: observed, bootstrap or permutation.
--   trial: The replicate or trial, from 1; 0 for the observed sums.
--   figure: score.
--   value: The system's mean score per text over the trial's texts (each drawn as often as the trial draws its
--     input); NULL when the trial draws none of its texts.
SELECT
    submission_id,
    partner_id,
    scope,
    kind,
    trial,
    'score' AS figure,
    ratio(score, texts) AS value
FROM trial_sums
