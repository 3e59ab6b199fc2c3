-- Soft gold: per character of a text, the share of the annotation sets $set_ids covering the text (list_texts: an
-- annotator's list covers the texts it labelled) that mark it, as spans of constant share (accuracy-db adjudicate
-- --soft writes them as a list with probabilities, the soft labels of a Mu-SHROOM file).
-- Materialized: query (run with $set_ids, the sets, of one corpus and split).
-- Grain: one row per (text, run of consecutive characters that the same number of sets mark, at least one).
-- Key: text_id, char_start
-- Columns:
--   text_id: The text (texts.text_id).
--   char_start: The run's first character, counted in code points from 0 in texts.generated_text.
--   char_end: One past its last character (exclusive).
--   lists: How many of the sets mark each of its characters.
--   share: lists divided by the number of the sets covering the text: the soft label's probability.
-- A set read with character labels (character_label_lists) marks the characters of its hard labels, exactly as its
-- file gave them; any other set marks, for each of its spans, the characters from its first token's first character
-- to its last token's last one (the spaces between its tokens too). A set marks a character once, however many of
-- its spans cover it, whatever probability a span has (a set is one vote). Two neighbouring runs of different
-- shares are two spans; characters no set marks are in none.
WITH set_spans AS (
    SELECT set_id, text_id, char_start, char_end
    FROM character_labels
    WHERE label = 'hard' AND set_id = ANY($set_ids)
    UNION ALL
    SELECT mistakes.set_id, mistakes.text_id, first_token.char_start, last_token.char_end
    FROM mistakes
    JOIN tokens AS first_token
        ON first_token.text_id = mistakes.text_id AND first_token.doc_token = mistakes.doc_token_start
    JOIN tokens AS last_token
        ON last_token.text_id = mistakes.text_id AND last_token.doc_token = mistakes.doc_token_end
    WHERE mistakes.set_id = ANY($set_ids)
        AND mistakes.set_id NOT IN (SELECT set_id FROM character_label_lists)
),

marked AS (
    SELECT DISTINCT set_id, text_id, unnest(range(char_start, char_end)) AS position
    FROM set_spans
),

character_votes AS (
    SELECT text_id, position, count(*) AS lists
    FROM marked
    GROUP BY text_id, position
),

-- how many of the sets cover each text: the share's divisor
voters AS (
    SELECT text_id, count(*) AS voters
    FROM list_texts
    WHERE set_id = ANY($set_ids)
    GROUP BY text_id
),

-- consecutive characters of one count share position - their rank among the characters of that count
runs AS (
    SELECT
        text_id,
        position,
        lists,
        position - row_number() OVER (PARTITION BY text_id, lists ORDER BY position) AS run
    FROM character_votes
)

SELECT
    runs.text_id,
    min(runs.position)::INTEGER AS char_start,
    (max(runs.position) + 1)::INTEGER AS char_end,
    runs.lists,
    runs.lists / voters.voters AS share
FROM runs
JOIN voters ON voters.text_id = runs.text_id
GROUP BY runs.text_id, runs.lists, runs.run, voters.voters
ORDER BY runs.text_id, char_start
