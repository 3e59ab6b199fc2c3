-- The score of every text whose generating system is known, by which the systems are ranked (accuracy-db
-- systems): for a corpus read from an MQM file, the text's MQM score (mqm_segments); for another, the number of
-- its gold list's mistakes in it (the shared task: the texts of nlg_systems). Lower is better.
-- Grain: one row per text with a known system and a score.
-- Key: text_id
-- Columns:
--   corpus: The corpus (corpora.corpus).
--   split: The text's split.
--   text_id: The text (texts.text_id).
--   system: The system that generated it (text_systems.system, nlg_systems.system).
--   human: Whether the system is a human reference (text_systems.human; false for nlg_systems).
--   item: The input the text was generated from: for an MQM text its segment (mqm_segments.item: the systems' texts
--     of one segment share it, and are resampled together); the text's id otherwise.
--   score: Its MQM score, or its gold list's mistakes.
SELECT
    segments.corpus,
    segments.split,
    segments.text_id,
    segments.system,
    systems.human,
    segments.item,
    segments.score
FROM mqm_segments AS segments
JOIN text_systems AS systems USING (text_id)
UNION ALL
SELECT
    texts.corpus,
    texts.split,
    texts.text_id,
    nlg_systems.system,
    false AS human,
    texts.text_id AS item,
    count(mistakes.mistake_id) AS score
FROM nlg_systems
JOIN texts USING (text_id)
JOIN annotation_sets AS gold ON gold.kind = 'gold' AND gold.corpus = texts.corpus AND gold.split = texts.split
LEFT JOIN mistakes ON mistakes.set_id = gold.set_id AND mistakes.text_id = texts.text_id
GROUP BY texts.corpus, texts.split, texts.text_id, nlg_systems.system
