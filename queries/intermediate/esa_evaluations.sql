-- Which gold list each submission is scored against under the esa scheme: the gold list of its corpus and split.
-- Unlike evaluations, a list whose spans overlap is here: the scheme counts, character by character, how many
-- spans of each severity mark it, as WMT's error-span task does (an MQM gold list has every rater's errors).
-- evaluations, every other scheme's, is these pairs less the lists the shared-task scheme refuses.
-- Grain: one row per submission that has a gold list.
-- Key: submission_id
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   gold_id: The gold list it is scored against (annotation_sets.set_id).
--   corpus: The corpus of both (corpora.corpus).
--   split: The split of both.
--   covers_split: Whether the submission covers every text of its split; when not (a rater's list), it is scored
--     on the texts it covers alone (list_texts).
SELECT
    submission.set_id AS submission_id,
    gold.set_id AS gold_id,
    submission.corpus,
    submission.split,
    submission.covers_split
FROM annotation_sets AS submission
JOIN annotation_sets AS gold
    ON gold.kind = 'gold' AND gold.corpus = submission.corpus AND gold.split = submission.split
WHERE submission.kind = 'submission'
