-- How well each list's probabilities find its gold list's characters at every threshold: precision and recall over
-- the characters of its split (probability_characters, pooled over the texts), a character taken as marked when the
-- list's probability for it is at or above the threshold, as scikit-learn's precision_recall_curve takes a score.
-- The thresholds are the probabilities the list gives (0 among them: the characters it leaves unmarked). The
-- points in order of the threshold, from the highest, are the precision-recall curve; probability_quality
-- sums them into the average precision.
-- Grain: one row per (submission with probabilities, distinct probability it gives a character).
-- Key: submission_id, threshold
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   threshold: A probability the submission gives a character (0 for a character it does not mark).
--   true_positives: Characters of probability >= threshold that the gold marks.
--   false_positives: Characters of probability >= threshold that the gold does not mark.
--   gold_characters: Characters the gold marks, over the split.
--   precision: true_positives / (true_positives + false_positives).
--   recall: true_positives / gold_characters; NULL when the gold marks no character.
WITH counts AS (
    SELECT
        submission_id,
        probability AS threshold,
        count(*) FILTER (WHERE gold_marked) AS marked,
        count(*) FILTER (WHERE NOT gold_marked) AS unmarked
    FROM probability_characters
    GROUP BY submission_id, probability
),
cumulative AS (
    SELECT
        submission_id,
        threshold,
        sum(marked) OVER (PARTITION BY submission_id ORDER BY threshold DESC ROWS UNBOUNDED PRECEDING) AS true_positives,
        sum(unmarked) OVER (PARTITION BY submission_id ORDER BY threshold DESC ROWS UNBOUNDED PRECEDING)
            AS false_positives,
        sum(marked) OVER (PARTITION BY submission_id) AS gold_characters
    FROM counts
)
SELECT
    submission_id,
    threshold,
    true_positives::BIGINT AS true_positives,
    false_positives::BIGINT AS false_positives,
    gold_characters::BIGINT AS gold_characters,
    true_positives::DOUBLE / (true_positives + false_positives) AS precision,
    ratio(true_positives::DOUBLE, gold_characters) AS recall
FROM cumulative
