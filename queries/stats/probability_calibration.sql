-- The reliability diagram of each list's probabilities against its gold list: the characters of its split
-- (probability_characters) in ten bins of equal width by the probability the list gives them, [0, 0.1), [0.1, 0.2) …
-- [0.9, 1] (1 in the last), and in each the mean probability against the share of characters the gold marks. A
-- calibrated list's points lie on the diagonal; probability_quality weighs the gaps into the expected
-- calibration error. A bin no character falls in has no row.
-- Grain: one row per (submission with probabilities, bin holding at least one of its characters).
-- Key: submission_id, bin
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   bin: The bin, from 1 (probabilities from 0 to 0.1) to 10 (from 0.9 to 1, 1 included).
--   low: The bin's lowest probability.
--   high: The probability the bin ends before (the last bin: 1, which it holds).
--   characters: Characters whose probability falls in the bin.
--   mean_probability: Their mean probability (the list's confidence in the bin).
--   observed_rate: The share of them the gold marks (the bin's accuracy).
--   gap: observed_rate - mean_probability (positive: the list is underconfident there).
SELECT
    submission_id,
    bin,
    (bin - 1)::DOUBLE / 10 AS low,
    bin::DOUBLE / 10 AS high,
    count(*) AS characters,
    avg(probability) AS mean_probability,
    avg((CASE WHEN gold_marked THEN 1 ELSE 0 END)::DOUBLE) AS observed_rate,
    avg((CASE WHEN gold_marked THEN 1 ELSE 0 END)::DOUBLE) - avg(probability) AS gap
FROM (
    SELECT submission_id, gold_marked, probability, least(floor(probability * 10), 9)::INTEGER + 1 AS bin
    FROM probability_characters
) AS binned
GROUP BY submission_id, bin
