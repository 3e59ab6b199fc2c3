-- The mushroom scheme's figures of each submission read with character labels (SemEval-2025 Task 3, Mu-SHROOM):
-- the per-text iou and cor of mushroom_text_scores, each averaged over the texts the submission covers, as the
-- task's scorer averages them over a file's texts.
-- Grain: one row per submission read with character labels that has such a gold list.
-- Key: submission_id
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   submission: Its name.
--   corpus: Its corpus (corpora.corpus).
--   split: Its split, and its gold list's.
--   gold_id: The gold list (annotation_sets.set_id).
--   texts: How many texts it is scored on: those it covers (every text of the split, or an annotator's own).
--   iou: The mean over texts of the intersection over union of the hard labels' characters.
--   cor: The mean over texts of Spearman's rho of the soft labels' per-character vectors.
SELECT
    text_scores.submission_id,
    submission.name AS submission,
    submission.corpus,
    submission.split,
    text_scores.gold_id,
    count(*) AS texts,
    avg(text_scores.iou) AS iou,
    avg(text_scores.cor) AS cor
FROM mushroom_text_scores AS text_scores
JOIN annotation_sets AS submission ON submission.set_id = text_scores.submission_id
GROUP BY text_scores.submission_id, submission.name, submission.corpus, submission.split, text_scores.gold_id
