-- Every text of a corpus whose systems are known (text_systems: an MQM file) beside each human reference of its
-- segment, another system's text of the same doc and seg_id: the pairs chrF and BLEU score when `metrics` is given
-- a reference (--reference SYSTEM).
-- Grain: one row per (text, human reference text of the same segment other than itself).
-- Key: text_id, reference_system
-- Columns:
--   corpus: The corpus (corpora.corpus).
--   split: The texts' split.
--   text_id: The text scored (texts.text_id).
--   system: Its system (text_systems.system).
--   reference_system: The human reference's system (text_systems.system, human).
--   hypothesis: The text (texts.generated_text).
--   reference: The reference's text of the same segment (texts.generated_text).
SELECT
    texts.corpus,
    texts.split,
    texts.text_id,
    systems.system,
    refs.system AS reference_system,
    texts.generated_text AS hypothesis,
    ref_texts.generated_text AS reference
FROM text_systems AS systems
JOIN texts USING (text_id)
JOIN text_systems AS refs
    ON refs.human AND refs.doc = systems.doc AND refs.seg_id = systems.seg_id AND refs.text_id <> systems.text_id
JOIN texts AS ref_texts
    ON ref_texts.text_id = refs.text_id AND ref_texts.corpus = texts.corpus AND ref_texts.split = texts.split
