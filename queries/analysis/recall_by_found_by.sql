-- How does each submission's recall change with how many submissions of its split found a gold mistake?
-- Found-by-k: k of the split's scored submissions found the gold mistake (0: missed by all; recall_by_difficulty).
-- Grain: one row per (submission, k).
-- Key: corpus, split, submission, found_by
-- Columns: corpus, split, submission, found_by (k), gold (gold mistakes found by k submissions), matched (how many of
-- them this submission found), recall.
SELECT evaluations.corpus, difficulty.split, difficulty.submission, difficulty.level AS found_by, difficulty.gold,
    difficulty.matched, difficulty.recall
FROM recall_by_difficulty AS difficulty
JOIN evaluations USING (submission_id)
WHERE difficulty.measure = 'found_by'
ORDER BY
    evaluations.corpus <> 'shared-task', evaluations.corpus, difficulty.split DESC, difficulty.submission,
    found_by
