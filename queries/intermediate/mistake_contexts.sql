-- Each listed mistake in its surroundings: the tokens it marks as the text has them, and up to five tokens on
-- either side (fewer at the start or end of the text), to read a mistake without opening its text.
-- Grain: one row per mistake of any loaded list. Columns: mistake_id, context_before, marked, context_after
-- (each the tokens joined by spaces; '' when there are none).
WITH text_tokens AS (
    SELECT text_id, list(token ORDER BY doc_token) AS tokens
    FROM tokens
    GROUP BY text_id
)

SELECT
    mistakes.mistake_id,
    array_to_string(text_tokens.tokens[greatest(mistakes.doc_token_start - 5, 1):mistakes.doc_token_start - 1], ' ')
        AS context_before,
    array_to_string(text_tokens.tokens[mistakes.doc_token_start:mistakes.doc_token_end], ' ') AS marked,
    array_to_string(text_tokens.tokens[mistakes.doc_token_end + 1:mistakes.doc_token_end + 5], ' ') AS context_after
FROM mistakes
JOIN text_tokens USING (text_id)
