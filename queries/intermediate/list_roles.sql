-- What each list is, as a leaderboard tells them apart, and how many texts it covers: a gold list, or a copy of
-- one (a submission whose content is its gold list's: annotation_sets.content_sha256), one human annotator's own
-- spans (a Mu-SHROOM file's annotations), or a submission (a system's, a metric's or a protocol's list).
-- Grain: one row per list.
-- Key: set_id
-- Columns:
--   set_id: The list (annotation_sets.set_id).
--   kind: gold (a gold list, or a submission with its gold list's content), annotator (annotation_sets.annotator
--     is set) or submission.
--   texts: How many texts it covers (list_texts): every text of its split, or an annotator's own.
--   covers_split: Whether it covers every text of its split (annotation_sets.covers_split).
SELECT
    lists.set_id,
    CASE
        WHEN lists.kind = 'gold' OR lists.content_sha256 = gold.content_sha256 THEN 'gold'
        WHEN lists.annotator IS NOT NULL THEN 'annotator'
        ELSE 'submission'
    END AS kind,
    coalesce(covered.texts, 0) AS texts,
    lists.covers_split
FROM annotation_sets AS lists
LEFT JOIN annotation_sets AS gold
    ON gold.kind = 'gold' AND gold.corpus = lists.corpus AND gold.split = lists.split AND lists.kind = 'submission'
LEFT JOIN (SELECT set_id, count(*) AS texts FROM list_texts GROUP BY set_id) AS covered ON covered.set_id = lists.set_id
