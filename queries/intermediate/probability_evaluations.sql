-- Which lists have probabilities to weigh against a gold list, and which gold list: every submission read with
-- character labels that the mushroom scheme scores (mushroom_evaluations: its soft labels), and every other
-- submission with at least one span with a probability (mistakes.probability), against the gold list of its corpus
-- and split. The calibration models read each list's characters from probability_characters.
-- Grain: one row per submission with probabilities that has a gold list.
-- Key: submission_id
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   submission: Its name.
--   corpus: The corpus of both (corpora.corpus).
--   split: The split of both.
--   gold_id: The gold list it is weighed against (annotation_sets.set_id).
--   submission_sha256: The SHA-256 of the submission's content (annotation_sets.content_sha256).
--   gold_sha256: The SHA-256 of the gold list's content.
--   read_with: 'character labels' (a list read with them: its soft labels give the probabilities) or 'spans' (its
--     spans give them, through the characters of their tokens).
SELECT
    submission.set_id AS submission_id,
    submission.name AS submission,
    submission.corpus,
    submission.split,
    gold.set_id AS gold_id,
    submission.content_sha256 AS submission_sha256,
    gold.content_sha256 AS gold_sha256,
    CASE
        WHEN submission.set_id IN (SELECT set_id FROM character_label_lists) THEN 'character labels' ELSE 'spans'
    END AS read_with
FROM annotation_sets AS submission
JOIN annotation_sets AS gold
    ON gold.kind = 'gold' AND gold.corpus = submission.corpus AND gold.split = submission.split
WHERE submission.kind = 'submission'
    AND (
        submission.set_id IN (SELECT submission_id FROM mushroom_evaluations)
        OR (
            submission.set_id NOT IN (SELECT set_id FROM character_label_lists)
            AND submission.set_id IN (SELECT set_id FROM mistakes WHERE probability IS NOT NULL)
        )
    )
