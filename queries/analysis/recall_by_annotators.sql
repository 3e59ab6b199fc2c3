-- Does each submission find the gold mistakes all three annotators saw, and the ones fewer of them did?
-- Recall over the gold mistakes marked by k of the three annotators (H_FOUND_ERR of the curation exports;
-- recall_by_difficulty); NULL gathers the gold mistakes that no curated mistake covers.
-- Grain: one row per (submission, k).
-- Key: corpus, split, submission, annotators
-- Columns: corpus, split, submission, annotators (k), gold (gold mistakes marked by k annotators), matched (how many of
-- them this submission found), recall.
SELECT evaluations.corpus, difficulty.split, difficulty.submission, difficulty.level AS annotators, difficulty.gold,
    difficulty.matched, difficulty.recall
FROM recall_by_difficulty AS difficulty
JOIN evaluations USING (submission_id)
WHERE difficulty.measure = 'annotators'
ORDER BY
    evaluations.corpus <> 'shared-task', evaluations.corpus, difficulty.split DESC, difficulty.submission,
    annotators DESC NULLS LAST
