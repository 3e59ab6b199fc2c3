-- Every metric's score of every text it scores: the imported metrics and the built-ins (metrics, text_scores), and
-- every submission, a metric that gives each text of its split the number of mistakes it lists in it (all
-- categories; 0 for a text it lists nothing in), where fewer is better.
-- Grain: one row per (corpus, metric, text scored).
-- Key: corpus, metric, text_id
-- Columns:
--   metric: The metric's name (metrics.metric; for a submission, its name, annotation_sets.name).
--   kind: import (a file of scores), builtin (bleu, chrf, length) or submission (a list of mistakes).
--   corpus: The corpus of the text (corpora.corpus).
--   split: The split of the text.
--   text_id: The text (texts.text_id).
--   score: The metric's score of the text (for a submission, how many mistakes it lists in the text).
--   higher_is_better: Whether a higher score means a better text (false for a submission).
SELECT
    metrics.metric,
    metrics.kind,
    metrics.corpus,
    metrics.split,
    scores.text_id,
    scores.score,
    metrics.higher_is_better
FROM metrics
JOIN text_scores AS scores USING (corpus, split, metric)
UNION ALL
SELECT
    name AS metric,
    'submission' AS kind,
    corpus,
    split,
    text_id,
    mistakes::DOUBLE AS score,
    false AS higher_is_better
FROM list_text_counts
WHERE kind = 'submission' AND scope = 'ALL'
