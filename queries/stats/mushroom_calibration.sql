-- The reliability diagram of each list's soft labels against the gold's hard labels: the characters of its split
-- (mushroom_characters) in ten bins of equal width by the probability the list gives them, [0, 0.1), [0.1, 0.2) …
-- [0.9, 1] (1 in the last), and in each the mean probability against the share of characters the gold marks. A
-- calibrated list's points lie on the diagonal; mushroom_soft_label_quality weighs the gaps into the expected
-- calibration error. A bin no character falls in has no row.
-- Grain: one row per (submission read with character labels, bin holding at least one of its characters).
-- Key: submission_id, bin
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   bin: The bin, from 1 (probabilities from 0 to 0.1) to 10 (from 0.9 to 1, 1 included).
--   low: The bin's lowest probability.
--   high: The probability the bin ends before (the last bin: 1, which it holds).
--   characters: Characters whose probability falls in the bin.
--   mean_probability: Their mean probability (the list's confidence in the bin).
--   observed_rate: The share of them the gold's hard labels mark (the bin's accuracy).
--   gap: observed_rate - mean_probability (positive: the list is underconfident there).
SELECT
    submission_id,
    bin,
    (bin - 1) / 10.0 AS low,
    bin / 10.0 AS high,
    count(*) AS characters,
    avg(predicted_soft) AS mean_probability,
    avg(CASE WHEN gold_hard THEN 1.0 ELSE 0.0 END) AS observed_rate,
    avg(CASE WHEN gold_hard THEN 1.0 ELSE 0.0 END) - avg(predicted_soft) AS gap
FROM (
    SELECT submission_id, gold_hard, predicted_soft, least(floor(predicted_soft * 10), 9)::INTEGER + 1 AS bin
    FROM mushroom_characters
) AS binned
GROUP BY submission_id, bin
