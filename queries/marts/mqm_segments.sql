-- The MQM score of every rated text of a gold list read from an MQM file: each rater's weighted errors summed
-- (mqm_weighted_errors; a rater who found none scores 0), averaged over the text's raters, as mt-metrics-eval's
-- score_mqm.py computes a segment's score (there negated: here positive, lower is better).
-- Grain: one row per text rated in its corpus's gold list.
-- Key: text_id
-- Columns:
--   corpus: The corpus (corpora.corpus).
--   split: The text's split.
--   system: The system that generated the text (text_systems.system).
--   doc: The document of its input (text_systems.doc).
--   seg_id: Its input segment (text_systems.seg_id).
--   item: The segment as one key: the length of doc, :, doc, :, seg_id (unambiguous whatever the names hold; the
--     systems' texts of one segment share it).
--   text_id: The text (texts.text_id).
--   raters: How many raters rated it.
--   score: The mean over its raters of the sum of their errors' weights: 0 for no error, lower is better.
WITH rater_scores AS (
    SELECT ratings.set_id, ratings.text_id, ratings.rater, coalesce(sum(errors.weight), 0) AS weighted
    FROM mqm_ratings AS ratings
    LEFT JOIN mqm_weighted_errors AS errors USING (set_id, text_id, rater)
    GROUP BY ratings.set_id, ratings.text_id, ratings.rater
)

SELECT
    gold.corpus,
    texts.split,
    systems.system,
    systems.doc,
    systems.seg_id,
    CAST(length(systems.doc) AS VARCHAR) || ':' || systems.doc || ':' || systems.seg_id AS item,
    rater_scores.text_id,
    count(*) AS raters,
    avg(rater_scores.weighted) AS score
FROM rater_scores
JOIN annotation_sets AS gold ON gold.set_id = rater_scores.set_id AND gold.kind = 'gold'
JOIN texts USING (text_id)
JOIN text_systems AS systems USING (text_id)
GROUP BY gold.corpus, texts.split, systems.system, systems.doc, systems.seg_id, rater_scores.text_id
