-- How well each list's soft labels find the gold's hard labels at every threshold: precision and recall over the
-- characters of its split (mushroom_characters, pooled over the texts), a character taken as marked when the
-- list's probability for it is at or above the threshold, as scikit-learn's precision_recall_curve takes a score.
-- The thresholds are the probabilities the list gives (0 among them: the characters it leaves unmarked). The
-- points in order of the threshold, from the highest, are the precision-recall curve; mushroom_soft_label_quality
-- sums them into the average precision.
-- Grain: one row per (submission read with character labels, distinct probability it gives a character).
-- Key: submission_id, threshold
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   threshold: A probability the submission gives a character (0 for a character it does not mark).
--   true_positives: Characters of probability >= threshold that the gold's hard labels mark.
--   false_positives: Characters of probability >= threshold that they do not.
--   gold_characters: Characters the gold's hard labels mark, over the split.
--   precision: true_positives / (true_positives + false_positives).
--   recall: true_positives / gold_characters; NULL when the gold marks no character.
WITH counts AS (
    SELECT
        submission_id,
        predicted_soft AS threshold,
        count(*) FILTER (WHERE gold_hard) AS marked,
        count(*) FILTER (WHERE NOT gold_hard) AS unmarked
    FROM mushroom_characters
    GROUP BY submission_id, predicted_soft
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
