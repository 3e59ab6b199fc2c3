-- The mushroom scheme's figures of resampled texts: replicate_figures for the scheme whose figures are means over
-- texts, computed from the sums of a bootstrap replicate or a permutation trial of mushroom_text_scores.
-- Materialized: query (not a view of the database: it reads trial_sums, the sums accuracy_db/stats/resampling.py
-- computes from mushroom_text_scores, and is created as the temporary view replicate_figures for the run, which
-- bootstrap_intervals and paired_tests read).
-- Grain: one row per (list, scope, kind, trial, figure).
-- Key: submission_id, partner_id, scope, kind, trial, figure
-- Columns:
--   submission_id: The list whose figures they are (annotation_sets.set_id).
--   partner_id: In a paired test, the submission it is compared with; else NULL.
--   scope: ALL: the scheme scores every label.
--   kind: observed, bootstrap or permutation.
--   trial: The replicate or trial, from 1; 0 for the observed sums.
--   figure: iou or cor.
--   value: The figure's mean over the trial's texts (each text drawn as often as the trial draws it): the sum of
--     its per-text values over the number of texts.
-- A replicate draws as many texts as the split has, so the mean is never undefined; the per-text values are
-- averaged, as the task's scorer averages them, not computed again from summed characters.
SELECT
    trial_sums.submission_id,
    trial_sums.partner_id,
    trial_sums.scope,
    trial_sums.kind,
    trial_sums.trial,
    names.figure,
    CASE names.figure
        WHEN 'iou' THEN ratio(trial_sums.iou, trial_sums.texts)
        WHEN 'cor' THEN ratio(trial_sums.cor, trial_sums.texts)
    END AS value
FROM trial_sums
CROSS JOIN (VALUES ('iou'), ('cor')) AS names (figure)
