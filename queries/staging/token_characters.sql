-- Where each token's characters lie: the one definition of a character for the character-level schemes
-- (char-hard, char-soft). The shared-task texts are whitespace tokenized, so a text's characters are taken to be
-- the characters of its tokens laid end to end, without the spaces between them: a span of tokens marks the
-- characters of its tokens. Reading real character offsets instead (a corpus that has them) changes this model
-- alone.
-- Grain: one row per (text, token).
-- Key: text_id, doc_token
-- Columns:
--   text_id: The text (texts.text_id).
--   doc_token: The token's position in the document (tokens.doc_token).
--   char_start: Where the token's first character lies, counted from 0 in the text's tokens laid end to end.
--   char_end: Where its last character ends (exclusive): char_start plus the token's length in characters.
SELECT
    text_id,
    doc_token,
    (coalesce(sum(coalesce(length(token), 0)) OVER (
        PARTITION BY text_id ORDER BY doc_token ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ), 0))::BIGINT AS char_start,
    (sum(coalesce(length(token), 0)) OVER (
        PARTITION BY text_id ORDER BY doc_token ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ))::BIGINT AS char_end
FROM tokens
