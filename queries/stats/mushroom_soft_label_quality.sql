-- How good each list's probabilities are, over the characters of its split, beyond the mushroom scheme's iou and
-- cor (which none of the task's tools report): the average precision of its soft labels at finding the gold's
-- hard labels (the area under mushroom_precision_recall's curve, summed as scikit-learn's average_precision_score
-- sums it: each point's precision weighted by the recall it adds), and the expected calibration error of its
-- reliability diagram (mushroom_calibration: each bin's |gap| weighted by its share of the characters).
-- Grain: one row per submission read with character labels that has such a gold list.
-- Key: submission_id
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   submission: Its name.
--   corpus: Its corpus (corpora.corpus).
--   split: Its split, and its gold list's.
--   characters: The characters of the split's texts.
--   gold_characters: Those the gold's hard labels mark.
--   average_precision: Sum over the thresholds, from the highest, of (recall - the previous recall) * precision;
--     NULL when the gold marks no character.
--   calibration_error: The expected calibration error: sum over the bins of characters / all characters * |gap|.
WITH curve AS (
    SELECT
        submission_id,
        sum((recall - coalesce(previous_recall, 0)) * precision) AS average_precision
    FROM (
        SELECT
            submission_id,
            precision,
            recall,
            lag(recall) OVER (PARTITION BY submission_id ORDER BY threshold DESC) AS previous_recall
        FROM mushroom_precision_recall
    ) AS points
    GROUP BY submission_id
),
calibration AS (
    SELECT
        submission_id,
        sum(characters) AS characters,
        sum(characters * abs(gap)) / sum(characters) AS calibration_error
    FROM mushroom_calibration
    GROUP BY submission_id
)
SELECT
    pairs.submission_id,
    submission.name AS submission,
    pairs.corpus,
    pairs.split,
    coalesce(calibration.characters, 0)::BIGINT AS characters,
    coalesce(gold.gold_characters, 0)::BIGINT AS gold_characters,
    curve.average_precision,
    calibration.calibration_error
FROM mushroom_evaluations AS pairs
JOIN annotation_sets AS submission ON submission.set_id = pairs.submission_id
LEFT JOIN curve USING (submission_id)
LEFT JOIN calibration USING (submission_id)
LEFT JOIN (
    SELECT submission_id, max(gold_characters) AS gold_characters FROM mushroom_precision_recall GROUP BY submission_id
) AS gold USING (submission_id)
