-- The characters the calibration models weigh, each with the probability a list gives it and whether its gold
-- list marks it: every character of every text each list of probability_evaluations covers (list_texts). A list read
-- with character labels gives its soft labels' probabilities against the gold's hard labels, as mushroom_characters
-- reads them (code points of texts.generated_text). Any other list gives a character the highest probability among
-- its spans covering it (a span without a probability counts as 1; no span: 0), and the gold marks it when one of
-- its spans as the schemes score them (thresholded_mistakes) covers it; a span covers the characters of its tokens,
-- as token_characters lays them end to end (the texts' characters for the character schemes).
-- Grain: one row per (submission with probabilities, text it covers, character of the text).
-- Key: submission_id, text_id, position
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   gold_id: The gold list it is weighed against (annotation_sets.set_id).
--   text_id: The text (texts.text_id).
--   position: The character, counted from 0.
--   gold_marked: Whether the gold list marks it.
--   probability: The probability the submission gives it (0: none).
WITH span_lists AS (
    SELECT submission_id, gold_id, corpus, split FROM probability_evaluations WHERE read_with = 'spans'
),
token_edges AS (
    SELECT
        mistakes.set_id,
        mistakes.text_id,
        coalesce(mistakes.probability, 1.0) AS probability,
        first_token.char_start,
        last_token.char_end
    FROM thresholded_mistakes AS mistakes
    JOIN token_characters AS first_token
        ON first_token.text_id = mistakes.text_id AND first_token.doc_token = mistakes.doc_token_start
    JOIN token_characters AS last_token
        ON last_token.text_id = mistakes.text_id AND last_token.doc_token = mistakes.doc_token_end
    WHERE mistakes.set_id IN (SELECT gold_id FROM span_lists)
    UNION ALL
    -- a submission's spans below the scoring threshold too: the figures weigh every probability it gives
    SELECT
        mistakes.set_id,
        mistakes.text_id,
        coalesce(mistakes.probability, 1.0),
        first_token.char_start,
        last_token.char_end
    FROM mistakes
    JOIN token_characters AS first_token
        ON first_token.text_id = mistakes.text_id AND first_token.doc_token = mistakes.doc_token_start
    JOIN token_characters AS last_token
        ON last_token.text_id = mistakes.text_id AND last_token.doc_token = mistakes.doc_token_end
    WHERE mistakes.set_id IN (SELECT submission_id FROM span_lists)
),
-- each character a list's spans cover, with the highest probability among them
span_marks AS (
    SELECT set_id, text_id, position, max(probability) AS probability
    FROM (
        SELECT set_id, text_id, probability, unnest(range(char_start, char_end)) AS position FROM token_edges
    ) AS covered
    GROUP BY set_id, text_id, position
),
positions AS (
    SELECT span_lists.submission_id, span_lists.gold_id, lengths.text_id, unnest(range(lengths.characters)) AS position
    FROM span_lists
    JOIN list_texts AS texts ON texts.set_id = span_lists.submission_id
    JOIN (
        SELECT text_id, max(char_end) AS characters FROM token_characters GROUP BY text_id
    ) AS lengths ON lengths.text_id = texts.text_id
)
SELECT submission_id, gold_id, text_id, position, gold_hard AS gold_marked, predicted_soft AS probability
FROM mushroom_characters
UNION ALL
SELECT
    positions.submission_id,
    positions.gold_id,
    positions.text_id,
    positions.position,
    gold.position IS NOT NULL AS gold_marked,
    coalesce(predicted.probability, 0) AS probability
FROM positions
LEFT JOIN span_marks AS gold
    ON gold.set_id = positions.gold_id AND gold.text_id = positions.text_id AND gold.position = positions.position
LEFT JOIN span_marks AS predicted
    ON predicted.set_id = positions.submission_id AND predicted.text_id = positions.text_id
    AND predicted.position = positions.position
