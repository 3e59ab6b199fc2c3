-- Which gold list each submission is scored against: the gold list of its corpus and split (the pairs of
-- esa_evaluations, which scores every list). A list the shared-task scheme refuses (scheme_refusals: spans that
-- overlap within it) is not scored, nor is a submission against a refused gold list.
-- Grain: one row per submission that has a gold list.
-- Key: submission_id
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   submission: The submission's name (the file stem).
--   split: train or test: the split of the submission and of its gold list.
--   gold_id: The gold list it is scored against (annotation_sets.set_id).
--   submission_sha256: The SHA-256 of the submission's content (annotation_sets.content_sha256).
--   gold_sha256: The SHA-256 of the gold list's content.
--   corpus: The corpus of the submission and of its gold list (corpora.corpus).
--   covers_split: Whether the submission covers every text of its split; when not, it is scored on the texts it
--     covers alone (list_texts), and the gold's mistakes in the other texts are not counted.
SELECT
    pair.submission_id,
    submission.name AS submission,
    pair.split,
    pair.gold_id,
    submission.content_sha256 AS submission_sha256,
    gold.content_sha256 AS gold_sha256,
    pair.corpus,
    pair.covers_split
FROM esa_evaluations AS pair
JOIN annotation_sets AS submission ON submission.set_id = pair.submission_id
JOIN annotation_sets AS gold ON gold.set_id = pair.gold_id
WHERE pair.submission_id NOT IN (SELECT set_id FROM scheme_refusals)
    AND pair.gold_id NOT IN (SELECT set_id FROM scheme_refusals)
