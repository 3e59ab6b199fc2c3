-- What a metric's scores are set against: for every text of a split with a gold list, in every scope of its corpus,
-- the gold list's number of mistakes of the scope in the text, with the text's length, its system and its input.
-- Texts of a split without a gold list are left out.
-- Grain: one row per (corpus, split, scope, text of a split with a gold list).
-- Key: corpus, split, scope, text_id
-- Columns:
--   corpus: The corpus of the text (corpora.corpus).
--   split: The split of the text.
--   scope: ALL, or a category of the corpus (scopes.scope).
--   text_id: The text (texts.text_id).
--   gold_count: How many of the gold list's mistakes of the scope are in the text (0 when none).
--   token_count: The text's number of tokens (texts.token_count).
--   system: The system that generated the text (nlg_systems.system; NULL when unknown).
--   input_id: What the texts of several systems generated from the same data share: in the shared task the game
--     (game_date|home_name|vis_name); for a corpus with source data, the MD5 of texts.source_data; NULL otherwise.
SELECT
    gold.corpus,
    gold.split,
    gold.scope,
    gold.text_id,
    gold.mistakes AS gold_count,
    texts.token_count,
    nlg_systems.system,
    CASE
        WHEN games.text_id IS NOT NULL THEN concat_ws('|', games.game_date, games.home_name, games.vis_name)
        ELSE md5(texts.source_data)
    END AS input_id
FROM list_text_counts AS gold
JOIN texts USING (text_id)
LEFT JOIN nlg_systems USING (text_id)
LEFT JOIN games USING (text_id)
WHERE gold.kind = 'gold'
