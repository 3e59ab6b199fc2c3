-- How does each submission's recall change with how many submissions of its split found a gold mistake?
-- Found-by-k: k of the split's scored submissions found the gold mistake (0: missed by all; recall_by_difficulty).
-- Grain: one row per (submission, k). Columns: split, submission, found_by (k), gold (gold mistakes found by k
-- submissions), matched (how many of them this submission found), recall.
SELECT split, submission, level AS found_by, gold, matched, recall
FROM recall_by_difficulty
WHERE measure = 'found_by'
ORDER BY split DESC, submission, found_by
