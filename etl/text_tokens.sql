-- The tokens of texts being loaded, numbered in both id schemes, for a process of a few texts (the drop-in evaluate:
-- no polars to import); a build numbers them by the same rule in polars (token_numbering.py, 1.5 times less CPU at
-- scale 1000; tests/test_texts.py checks both against the rule in Python). Input: the temporary table new_texts
-- (text_id, generated_text: the text's tokens joined by single spaces).
-- Grain: one row per token of a new text (an empty text has none). Columns: text_id, doc_token (its position in
-- the text, from 1), sentence_id (from 1: a sentence ends at a token that is exactly '.'), sent_token (its
-- position in the sentence, from 1), token, char_start and char_end (where it starts in generated_text, from 0,
-- and ends, exclusive: generated_text[char_start:char_end] is the token).
WITH numbered AS (
    SELECT text_id, unnest(words) AS token, generate_subscripts(words, 1) AS doc_token
    FROM (SELECT text_id, string_split(generated_text, ' ') AS words FROM new_texts)
),

-- What the tokens before each one in its text say: how many are full stops and how many characters they take
-- with the space after each (packed into one BIGINT, the full stops above bit 32: one windowed sum instead of two,
-- each a pass over every token; the characters stay below bit 32, a DuckDB string being under 4 GB), and where the
-- last full stop is.
before AS (
    SELECT
        *,
        coalesce(sum(((token = '.')::BIGINT << 32) + length(token) + 1) OVER earlier, 0)::BIGINT AS full_stops_and_chars,
        coalesce(max(doc_token) FILTER (WHERE token = '.') OVER earlier, 0) AS last_full_stop
    FROM numbered
    WHERE token <> ''  -- an empty text splits into one empty string: it has no tokens
    WINDOW earlier AS (PARTITION BY text_id ORDER BY doc_token ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
)

SELECT
    text_id,
    doc_token::INTEGER AS doc_token,
    ((full_stops_and_chars >> 32) + 1)::INTEGER AS sentence_id,
    (doc_token - last_full_stop)::INTEGER AS sent_token,
    token,
    (full_stops_and_chars & 4294967295)::INTEGER AS char_start,
    ((full_stops_and_chars & 4294967295) + length(token))::INTEGER AS char_end
FROM before
