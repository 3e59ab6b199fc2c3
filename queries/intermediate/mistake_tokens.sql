-- The tokens each listed mistake marks, so that spans can be compared by an equality join on tokens.
-- Grain: one row per mistake per marked token. Columns: mistake_id, set_id, text_id, doc_token.
SELECT
    mistake_id,
    set_id,
    text_id,
    unnest(range(doc_token_start, doc_token_end + 1)) AS doc_token
FROM mistakes
