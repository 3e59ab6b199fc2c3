-- What a metric's scores are set against in a corpus whose gold list was read from an MQM file: every rated text's
-- MQM score (mqm_segments: positive, lower is better), with its system, its segment (the item mt-metrics-eval
-- groups by) and its length.
-- Grain: one row per text rated in its corpus's gold list.
-- Key: text_id
-- Columns:
--   corpus: The corpus (corpora.corpus).
--   split: The text's split.
--   text_id: The text (texts.text_id).
--   system: The system that generated it (text_systems.system).
--   human: Whether that system is a human reference (text_systems.human).
--   input_id: Its segment (mqm_segments.item): what the texts of the systems translating the same source share.
--   token_count: The text's number of tokens (texts.token_count).
--   mqm_score: Its MQM score (mqm_segments.score): the weighted errors, averaged over its raters; 0 for none. Rounded
--     to 9 decimals (round(score * 1e9) / 1e9, as PostgreSQL rounds a double too): sums of the same weights added
--     in another order (0.1 + 1 + 0.1) tie, as the ranks need.
SELECT
    segments.corpus,
    segments.split,
    segments.text_id,
    segments.system,
    systems.human,
    segments.item AS input_id,
    texts.token_count,
    round(segments.score * 1000000000) / 1000000000 AS mqm_score
FROM mqm_segments AS segments
JOIN text_systems AS systems USING (text_id)
JOIN texts USING (text_id)
