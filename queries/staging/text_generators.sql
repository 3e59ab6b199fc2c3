-- The system that generated each text, where the data says it (an MQM file's system column, text_systems; the
-- shared task's nlg_systems): what the Errors browser filters by and the Systems page ranks.
-- Grain: one row per text whose generating system is known.
-- Key: text_id
-- Columns:
--   corpus: The text's corpus (texts.corpus).
--   split: The text's split.
--   text_id: The text (texts.text_id).
--   system: The system that generated it (text_systems.system, nlg_systems.system).
--   human: Whether the system is a human reference (text_systems.human; false for nlg_systems).
SELECT texts.corpus, texts.split, texts.text_id, systems.system, systems.human
FROM text_systems AS systems
JOIN texts USING (text_id)
UNION ALL
SELECT texts.corpus, texts.split, texts.text_id, nlg_systems.system, false AS human
FROM nlg_systems
JOIN texts USING (text_id)
