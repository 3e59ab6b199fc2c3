-- The characters the mushroom scheme (SemEval-2025 Task 3, Mu-SHROOM) compares, each with what both lists say of
-- it: every character (code point of texts.generated_text) of every text a submission covers (list_texts), whether the
-- gold's and the submission's hard labels mark it, and the probability their soft labels give it (0 when no soft
-- label marks it; of two soft labels on one character the later one counts, as in the task's scorer).
-- probability_characters passes them on to the calibration models (mushroom_text_scores reads the labels' runs
-- instead).
-- Grain: one row per (submission read with character labels, text it covers, character of the text).
-- Key: submission_id, text_id, position
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   gold_id: The gold list it is scored against (annotation_sets.set_id).
--   text_id: The text (texts.text_id).
--   position: The character, counted in code points from 0.
--   gold_hard: Whether the gold's hard labels mark it.
--   predicted_hard: Whether the submission's hard labels mark it.
--   gold_soft: The probability the gold's soft labels give it (0: none).
--   predicted_soft: The probability the submission's soft labels give it (0: none).
WITH hard_marked AS (
    SELECT DISTINCT set_id, text_id, unnest(range(char_start, char_end)) AS position
    FROM character_labels
    WHERE label = 'hard'
),
soft_marked AS (
    SELECT set_id, text_id, position, probability
    FROM (
        SELECT
            *,
            row_number() OVER (PARTITION BY set_id, text_id, position ORDER BY label_number DESC) AS latest_first
        FROM (
            SELECT set_id, text_id, label_number, probability, unnest(range(char_start, char_end)) AS position
            FROM character_labels
            WHERE label = 'soft'
        ) AS soft_characters
    ) AS numbered
    WHERE latest_first = 1
),
-- each character a list's labels mark: whether its hard labels do, and the probability its soft labels give it
character_marks AS (
    SELECT set_id, text_id, position, bool_or(hard) AS hard, max(probability) AS probability
    FROM (
        SELECT set_id, text_id, position, TRUE AS hard, NULL::DOUBLE AS probability FROM hard_marked
        UNION ALL
        SELECT set_id, text_id, position, FALSE, probability FROM soft_marked
    ) AS marks
    GROUP BY set_id, text_id, position
),
positions AS (
    SELECT pairs.submission_id, pairs.gold_id, texts.text_id, unnest(range(length(texts.generated_text))) AS position
    FROM mushroom_evaluations AS pairs
    JOIN list_texts AS covered ON covered.set_id = pairs.submission_id
    JOIN texts ON texts.text_id = covered.text_id
)
SELECT
    positions.submission_id,
    positions.gold_id,
    positions.text_id,
    positions.position,
    coalesce(gold.hard, FALSE) AS gold_hard,
    coalesce(predicted.hard, FALSE) AS predicted_hard,
    coalesce(gold.probability, 0) AS gold_soft,
    coalesce(predicted.probability, 0) AS predicted_soft
FROM positions
LEFT JOIN character_marks AS gold
    ON gold.set_id = positions.gold_id AND gold.text_id = positions.text_id AND gold.position = positions.position
LEFT JOIN character_marks AS predicted
    ON predicted.set_id = positions.submission_id AND predicted.text_id = positions.text_id
    AND predicted.position = positions.position
