-- Does each submission find the gold mistakes all three annotators saw, and the ones fewer of them did?
-- Recall over the gold mistakes marked by k of the three annotators (H_FOUND_ERR of the curation exports;
-- recall_by_difficulty); NULL gathers the gold mistakes that no curated mistake covers.
-- Grain: one row per (submission, k). Columns: split, submission, annotators (k), gold (gold mistakes marked by k
-- annotators), matched (how many of them this submission found), recall.
SELECT split, submission, level AS annotators, gold, matched, recall
FROM recall_by_difficulty
WHERE measure = 'annotators'
ORDER BY split DESC, submission, annotators DESC NULLS LAST
