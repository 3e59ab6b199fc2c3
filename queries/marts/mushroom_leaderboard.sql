-- The lists read with character labels ranked within each corpus and split under the mushroom scheme, as the
-- Mu-SHROOM task ranked its systems: by mean iou, then mean cor (higher first), with the fingerprints the
-- signature names. The scheme reads every label whatever its category, so its one scope is ALL.
-- Grain: one row per submission read with character labels that has such a gold list.
-- Key: submission_id
-- Columns:
--   rank: The submission's place within its corpus and split, from 1; submissions with the same iou and cor share
--     a place.
--   scope: ALL: the scheme scores every label.
--   submission_sha256: The SHA-256 of the submission's content (annotation_sets.content_sha256).
--   gold_sha256: The SHA-256 of the gold list's content.
--   iou_loo: For an annotator's list, its human ceiling: the mean iou of its texts against the other annotators of
--     each text (mushroom_annotator_scores); NULL for another list, or an annotator no other shares a text with.
--   cor_loo: Likewise, the mean cor against the other annotators.
--   (the other columns are those of mushroom_scores)
SELECT
    rank() OVER (PARTITION BY scores.corpus, scores.split ORDER BY scores.iou DESC, scores.cor DESC) AS rank,
    scores.submission_id,
    scores.submission,
    scores.corpus,
    scores.split,
    'ALL' AS scope,
    scores.gold_id,
    scores.texts,
    scores.iou,
    scores.cor,
    submission.content_sha256 AS submission_sha256,
    gold.content_sha256 AS gold_sha256,
    ceiling.iou_loo,
    ceiling.cor_loo
FROM mushroom_scores AS scores
JOIN annotation_sets AS submission ON submission.set_id = scores.submission_id
JOIN annotation_sets AS gold ON gold.set_id = scores.gold_id
LEFT JOIN (
    SELECT set_id, avg(iou) AS iou_loo, avg(cor) AS cor_loo FROM mushroom_annotator_scores GROUP BY set_id
) AS ceiling ON ceiling.set_id = scores.submission_id
