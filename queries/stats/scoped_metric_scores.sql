-- Every metric's score of every text in every scope of its corpus, as the metric's validity in a scope is measured:
-- a submission's number of mistakes of the scope's category in the text (all of them in ALL); an imported or a
-- built-in metric's one score, the same in every scope.
-- Grain: one row per (corpus, split, scope, metric, text scored).
-- Key: corpus, split, scope, metric, text_id
-- Columns:
--   corpus: The corpus of the text (corpora.corpus).
--   split: The split of the text.
--   scope: ALL, or a category of the corpus (scopes.scope).
--   metric: The metric's name (metric_scores.metric).
--   kind: import, builtin or submission (metric_scores.kind).
--   text_id: The text (texts.text_id).
--   score: The metric's score of the text in the scope.
--   higher_is_better: Whether a higher score means a better text (false for a submission).
SELECT
    metric_scores.corpus,
    metric_scores.split,
    scopes.scope,
    metric_scores.metric,
    metric_scores.kind,
    metric_scores.text_id,
    metric_scores.score,
    metric_scores.higher_is_better
FROM metric_scores
JOIN scopes USING (corpus)
WHERE metric_scores.kind <> 'submission'
UNION ALL
SELECT
    corpus,
    split,
    scope,
    name AS metric,
    'submission' AS kind,
    text_id,
    mistakes::DOUBLE AS score,
    false AS higher_is_better
FROM list_text_counts
WHERE kind = 'submission'
