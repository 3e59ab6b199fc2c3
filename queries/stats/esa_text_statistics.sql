-- The esa scheme's counts, text by text, as WMT25's error-span task scores them (scoring_esa.py's get_char_f1):
-- every character of a text counts the spans of each severity class that mark it, in the gold list and in the
-- submission (span_characters); a character gives full credit for each count matched at the same class, and the
-- partial credit (esa_partial_credit: 0.5, or a command's --partial-credit) for each count left unmatched on both
-- sides at different classes. The figures (esa_scores) are micro
-- averages: sums over the texts.
-- Computed over runs of characters, not character by character (as mushroom_text_scores is): the spans' edges cut
-- a text into runs along which the four counts stay the same, each count the running sum of +1 at a span's start
-- and -1 at its end, so a run stands for its length of equal characters. An empty span marks no character.
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
    SELECT
        set_id,
        text_id,
        char_start,
        char_end,
        CASE WHEN severity_class = 'major' THEN 1 ELSE 0 END AS major,
        CASE WHEN severity_class = 'minor' THEN 1 ELSE 0 END AS minor
    FROM span_characters
    WHERE severity_class IS NOT NULL AND char_start < char_end
        AND set_id IN (SELECT gold_id FROM esa_evaluations UNION SELECT submission_id FROM esa_evaluations)
),

-- each span's two edges: +1 of its class where it starts, -1 where it ends
list_edges AS (
    SELECT set_id, text_id, char_start AS edge, major, minor FROM counted
    UNION ALL
    SELECT set_id, text_id, char_end, -major, -minor FROM counted
),

sides AS (
    SELECT pairs.submission_id, e.text_id, e.edge, e.major AS gold_major, e.minor AS gold_minor,
        0 AS submitted_major, 0 AS submitted_minor
    FROM esa_evaluations AS pairs
    JOIN list_edges AS e ON e.set_id = pairs.gold_id
    -- the gold's spans in the texts the submission covers (list_texts)
    LEFT JOIN list_coverage AS coverage
        ON NOT pairs.covers_split AND coverage.set_id = pairs.submission_id AND coverage.text_id = e.text_id
    WHERE pairs.covers_split OR coverage.text_id IS NOT NULL
    UNION ALL
    SELECT pairs.submission_id, e.text_id, e.edge, 0, 0, e.major, e.minor
    FROM esa_evaluations AS pairs
    JOIN list_edges AS e ON e.set_id = pairs.submission_id
),

edges AS (
    SELECT
        submission_id,
        text_id,
        edge,
        sum(gold_major) AS gold_major,
        sum(gold_minor) AS gold_minor,
        sum(submitted_major) AS submitted_major,
        sum(submitted_minor) AS submitted_minor
    FROM sides
    GROUP BY submission_id, text_id, edge
),

-- each run from an edge to the next: its length and the spans of each class that mark it
runs AS (
    SELECT
        submission_id,
        text_id,
        lead(edge) OVER text_edges - edge AS length,
        sum(gold_major) OVER text_edges AS gold_major,
        sum(gold_minor) OVER text_edges AS gold_minor,
        sum(submitted_major) OVER text_edges AS submitted_major,
        sum(submitted_minor) OVER text_edges AS submitted_minor
    FROM edges
    WINDOW text_edges AS (PARTITION BY submission_id, text_id ORDER BY edge)
)

SELECT
    submission_id,
    text_id,
    coalesce(sum(
        length * (
            least(gold_major, submitted_major)
            + least(gold_minor, submitted_minor)
            + (SELECT credit FROM esa_partial_credit) * least(
                greatest(0, gold_major - submitted_major) + greatest(0, gold_minor - submitted_minor),
                greatest(0, submitted_major - gold_major) + greatest(0, submitted_minor - gold_minor)
            )
        )
    ), 0)::DOUBLE AS matched,
    coalesce(sum(length * (gold_major + gold_minor)), 0)::BIGINT AS gold_total,
    coalesce(sum(length * (submitted_major + submitted_minor)), 0)::BIGINT AS submitted_total
FROM runs
GROUP BY submission_id, text_id
