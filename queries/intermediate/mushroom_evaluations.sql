-- Which gold list each list read with character labels is scored against under the mushroom scheme: the gold list
-- of its corpus and split read with character labels too. Unlike evaluations, a list whose spans overlap as token
-- spans is here: the scheme scores characters, and two labels inside one token (a Chinese text, say) are apart.
-- Grain: one row per submission read with character labels that has such a gold list.
-- Key: submission_id
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   gold_id: The gold list it is scored against (annotation_sets.set_id).
--   corpus: The corpus of both (corpora.corpus).
--   split: The split of both.
SELECT submission.set_id AS submission_id, gold.set_id AS gold_id, submission.corpus, submission.split
FROM annotation_sets AS submission
JOIN annotation_sets AS gold
    ON gold.kind = 'gold' AND gold.corpus = submission.corpus AND gold.split = submission.split
WHERE submission.kind = 'submission'
    AND submission.set_id IN (SELECT set_id FROM character_label_lists)
    AND gold.set_id IN (SELECT set_id FROM character_label_lists)
