-- How good each list's probabilities are, over the characters of its split (probability_characters): the average
-- precision of its probabilities at finding its gold list's characters (the area under
-- probability_precision_recall's curve, summed as scikit-learn's average_precision_score sums it: each point's
-- precision weighted by the recall it adds), and the expected calibration error of its reliability diagram
-- (probability_calibration: each bin's |gap| weighted by its share of the characters). For a Mu-SHROOM list these
-- are beyond the mushroom scheme's iou and cor (which none of the task's tools report).
-- Grain: one row per submission with probabilities that has a gold list (probability_evaluations).
-- Key: submission_id
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   submission: Its name.
--   corpus: Its corpus (corpora.corpus).
--   split: Its split, and its gold list's.
--   read_with: Where its probabilities come from: 'character labels' (its soft labels) or 'spans'.
--   characters: The characters of the split's texts.
--   gold_characters: Those the gold marks.
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
        FROM probability_precision_recall
    ) AS points
    GROUP BY submission_id
),
calibration AS (
    SELECT
        submission_id,
        sum(characters) AS characters,
        sum(characters * abs(gap)) / sum(characters) AS calibration_error
    FROM probability_calibration
    GROUP BY submission_id
)
SELECT
    pairs.submission_id,
    pairs.submission,
    pairs.corpus,
    pairs.split,
    pairs.read_with,
    coalesce(calibration.characters, 0)::BIGINT AS characters,
    coalesce(gold.gold_characters, 0)::BIGINT AS gold_characters,
    curve.average_precision,
    calibration.calibration_error
FROM probability_evaluations AS pairs
LEFT JOIN curve USING (submission_id)
LEFT JOIN calibration USING (submission_id)
LEFT JOIN (
    SELECT submission_id, max(gold_characters) AS gold_characters FROM probability_precision_recall GROUP BY submission_id
) AS gold USING (submission_id)
