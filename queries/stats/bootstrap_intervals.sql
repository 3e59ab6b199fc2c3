-- Bootstrap confidence intervals of every figure: the percentile interval of the figure over the replicates.
-- Materialized: query (run with $confidence, e.g. 0.95, over replicate_figures of the replicates drawn for the run).
-- Grain: one row per (submission, scope, figure).
-- Key: submission_id, scope, figure
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   scope: ALL, or the category both lists are filtered to (scopes.scope).
--   figure: recall, precision, f1, token_recall, token_precision or token_f1.
--   low: The (1 - $confidence) / 2 quantile of the figure over the replicates, interpolated linearly between the
--     order statistics as numpy's percentile does; NULL when no replicate defines the figure.
--   high: The (1 + $confidence) / 2 quantile, computed the same way.
--   replicates: How many replicates define the figure.
--   excluded: How many replicates were left out because the figure is undefined in them (nothing to divide by,
--     e.g. a precision when a resample holds no submitted mistake).
-- As sacreBLEU does with segment statistics, a replicate's figure is computed from the summed counts of its
-- resampled texts, never averaged from per-text figures.
SELECT
    submission_id,
    scope,
    figure,
    quantile_cont(value, (1 - $confidence) / 2) AS low,
    quantile_cont(value, (1 + $confidence) / 2) AS high,
    count(value) AS replicates,
    count(*) - count(value) AS excluded
FROM replicate_figures
WHERE kind = 'bootstrap'
GROUP BY submission_id, scope, figure
