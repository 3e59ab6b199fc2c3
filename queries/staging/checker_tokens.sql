-- The tokens of every text that has a game, as the box-score checker reads them (docs/checker.md): each with its
-- lower-case form and the whole number it writes, in digits (up to three) or in words (zero to twenty, and the
-- tens to ninety); "a", "an" and "pair" write a number only before a statistic, which checker_claims decides.
-- Grain: one row per token of a text that has a game.
-- Key: text_id, doc_token
-- Columns:
--   corpus: The text's corpus (texts.corpus).
--   split: train or test: the text's split.
--   text_id: The text (texts.text_id).
--   doc_token: The token's position in the document, from 1.
--   sentence_id: The token's sentence, from 1.
--   sent_token: The token's position in its sentence, from 1.
--   token: The token as the text has it.
--   word: The token in lower case.
--   number: The whole number the token writes; NULL when it writes none.
WITH number_words (word, number) AS (
    VALUES
        ('zero', 0), ('one', 1), ('two', 2), ('three', 3), ('four', 4), ('five', 5), ('six', 6), ('seven', 7),
        ('eight', 8), ('nine', 9), ('ten', 10), ('eleven', 11), ('twelve', 12), ('thirteen', 13),
        ('fourteen', 14), ('fifteen', 15), ('sixteen', 16), ('seventeen', 17), ('eighteen', 18),
        ('nineteen', 19), ('twenty', 20), ('thirty', 30), ('forty', 40), ('fifty', 50), ('sixty', 60),
        ('seventy', 70), ('eighty', 80), ('ninety', 90)
)

SELECT
    texts.corpus,
    texts.split,
    tokens.text_id,
    tokens.doc_token,
    tokens.sentence_id,
    tokens.sent_token,
    tokens.token,
    lower(tokens.token) AS word,
    coalesce(
        CASE WHEN regexp_matches(tokens.token, '^([0-9]{1,3})$') THEN CAST(tokens.token AS INTEGER) END,
        number_words.number
    ) AS number
FROM tokens
JOIN texts ON texts.text_id = tokens.text_id
JOIN games ON games.text_id = tokens.text_id
LEFT JOIN number_words ON number_words.word = lower(tokens.token)
