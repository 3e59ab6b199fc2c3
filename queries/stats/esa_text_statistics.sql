-- The esa scheme's counts, text by text, as WMT25's error-span task scores them (scoring_esa.py's get_char_f1):
-- every character of a text counts the spans of each severity class that mark it, in the gold list and in the
-- submission (span_characters); a character gives full credit for each count matched at the same class, and the
-- partial credit (esa_partial_credit: 0.5, or a command's --partial-credit) for each count left unmatched on both
-- sides at different classes. The figures (esa_scores) are micro
-- averages: sums over the texts.
-- Grain: one row per (submission, text in which the gold list or the submission has a span of a counted class).
-- Key: submission_id, text_id
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   text_id: The text (texts.text_id).
--   matched: Per character, min(gold major, submitted major) + min(gold minor, submitted minor) + the partial credit
--     · min(the gold counts left unmatched, the submitted counts left unmatched), summed over the text's characters.
--   gold_total: The gold spans' characters, each counted once per span that marks it.
--   submitted_total: The submission's, counted the same way.
WITH counted AS (
    SELECT set_id, text_id, severity_class, unnest(range(char_start, char_end)) AS position
    FROM span_characters
    WHERE severity_class IS NOT NULL
        AND set_id IN (SELECT gold_id FROM esa_evaluations UNION SELECT submission_id FROM esa_evaluations)
),

list_characters AS (
    SELECT
        set_id,
        text_id,
        position,
        count(*) FILTER (WHERE severity_class = 'major') AS major,
        count(*) FILTER (WHERE severity_class = 'minor') AS minor
    FROM counted
    GROUP BY set_id, text_id, position
),

sides AS (
    SELECT pairs.submission_id, c.text_id, c.position, c.major AS gold_major, c.minor AS gold_minor,
        0 AS submitted_major, 0 AS submitted_minor
    FROM esa_evaluations AS pairs
    JOIN list_characters AS c ON c.set_id = pairs.gold_id
    -- the gold's characters in the texts the submission covers (list_texts)
    LEFT JOIN list_coverage AS coverage
        ON NOT pairs.covers_split AND coverage.set_id = pairs.submission_id AND coverage.text_id = c.text_id
    WHERE pairs.covers_split OR coverage.text_id IS NOT NULL
    UNION ALL
    SELECT pairs.submission_id, c.text_id, c.position, 0, 0, c.major, c.minor
    FROM esa_evaluations AS pairs
    JOIN list_characters AS c ON c.set_id = pairs.submission_id
),

characters AS (
    SELECT
        submission_id,
        text_id,
        position,
        sum(gold_major) AS gold_major,
        sum(gold_minor) AS gold_minor,
        sum(submitted_major) AS submitted_major,
        sum(submitted_minor) AS submitted_minor
    FROM sides
    GROUP BY submission_id, text_id, position
)

SELECT
    submission_id,
    text_id,
    sum(
        least(gold_major, submitted_major)
        + least(gold_minor, submitted_minor)
        + (SELECT credit FROM esa_partial_credit) * least(
            greatest(0, gold_major - submitted_major) + greatest(0, gold_minor - submitted_minor),
            greatest(0, submitted_major - gold_major) + greatest(0, submitted_minor - gold_minor)
        )
    )::DOUBLE AS matched,
    sum(gold_major + gold_minor)::BIGINT AS gold_total,
    sum(submitted_major + submitted_minor)::BIGINT AS submitted_total
FROM characters
GROUP BY submission_id, text_id
