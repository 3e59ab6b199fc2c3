-- The tokens of texts being loaded, numbered in both id schemes. Input: the temporary table new_texts (text_id,
-- generated_text: the text's tokens joined by single spaces).
-- Grain: one row per token of a new text (an empty text has none). Columns: text_id, doc_token (its position in
-- the text, from 1), sentence_id (from 1: a sentence ends at a token that is exactly '.'), sent_token (its
-- position in the sentence, from 1), token, char_start and char_end (where it starts in generated_text, from 0,
-- and ends, exclusive: generated_text[char_start:char_end] is the token).
WITH numbered AS (
    SELECT text_id, unnest(words) AS token, generate_subscripts(words, 1) AS doc_token
    FROM (SELECT text_id, string_split(generated_text, ' ') AS words FROM new_texts)
),

-- What the tokens before each one in its text say: the full stops among them, where the last ends, and how many
-- characters they take with the space after each.
before AS (
    SELECT
        *,
        coalesce(count(*) FILTER (WHERE token = '.') OVER earlier, 0) AS full_stops,
        coalesce(max(doc_token) FILTER (WHERE token = '.') OVER earlier, 0) AS last_full_stop,
        coalesce(sum(length(token) + 1) OVER earlier, 0) AS char_start
    FROM numbered
    WHERE token <> ''  -- an empty text splits into one empty string: it has no tokens
    WINDOW earlier AS (PARTITION BY text_id ORDER BY doc_token ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
)

SELECT
    text_id,
    doc_token::INTEGER AS doc_token,
    (full_stops + 1)::INTEGER AS sentence_id,
    (doc_token - last_full_stop)::INTEGER AS sent_token,
    token,
    char_start::INTEGER AS char_start,
    (char_start + length(token))::INTEGER AS char_end
FROM before
