-- The figures of the mushroom scheme (SemEval-2025 Task 3, Mu-SHROOM) for each text, from the lists' exact
-- character labels (mushroom_characters): a submission read with them is scored against the gold list of its corpus
-- and split read with them (mushroom_evaluations), on every text of that split (a text without labels has none:
-- an empty prediction).
-- A character is a code point of texts.generated_text. iou is |gold ∩ predicted| / |gold ∪ predicted| of the
-- characters the hard labels mark (1.0 when neither marks any); cor is Spearman's rho of the per-character soft
-- vectors (a character no soft label marks is 0; of two soft labels on one character the later one counts),
-- computed as Pearson's r of the average ranks; when either vector is constant (rounded to 8 decimals, as the
-- task's scorer does) it is 1.0 if both are, else 0.0. An empty text scores 1.0 and 1.0.
-- Grain: one row per (submission read with character labels, text of its split).
-- Key: submission_id, text_id
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   gold_id: The gold list it is scored against (annotation_sets.set_id).
--   text_id: The text (texts.text_id).
--   characters: The text's length in characters (code points).
--   gold_marked: Characters the gold's hard labels mark.
--   predicted_marked: Characters the submission's hard labels mark.
--   both_marked: Characters both mark.
--   iou: both_marked / (characters either marks); 1.0 when neither marks any.
--   cor: Spearman's rho of the soft vectors; 1.0 or 0.0 when either is constant (see above).
WITH ranked AS (
    SELECT
        *,
        rank() OVER (PARTITION BY submission_id, text_id ORDER BY gold_soft)
            + (count(*) OVER (PARTITION BY submission_id, text_id, gold_soft) - 1) / 2.0 AS gold_rank,
        rank() OVER (PARTITION BY submission_id, text_id ORDER BY predicted_soft)
            + (count(*) OVER (PARTITION BY submission_id, text_id, predicted_soft) - 1) / 2.0 AS predicted_rank
    FROM mushroom_characters
),
per_text AS (
    SELECT
        submission_id,
        text_id,
        count(*) FILTER (WHERE gold_hard) AS gold_marked,
        count(*) FILTER (WHERE predicted_hard) AS predicted_marked,
        count(*) FILTER (WHERE gold_hard AND predicted_hard) AS both_marked,
        count(DISTINCT CAST(gold_soft AS DECIMAL(18, 8))) AS gold_values,
        count(DISTINCT CAST(predicted_soft AS DECIMAL(18, 8))) AS predicted_values,
        corr(gold_rank, predicted_rank) AS rho
    FROM ranked
    GROUP BY submission_id, text_id
)
SELECT
    pairs.submission_id,
    pairs.gold_id,
    texts.text_id,
    length(texts.generated_text)::BIGINT AS characters,
    coalesce(per_text.gold_marked, 0) AS gold_marked,
    coalesce(per_text.predicted_marked, 0) AS predicted_marked,
    coalesce(per_text.both_marked, 0) AS both_marked,
    CASE
        WHEN coalesce(per_text.gold_marked + per_text.predicted_marked, 0) = 0 THEN 1.0
        ELSE per_text.both_marked::DOUBLE / (per_text.gold_marked + per_text.predicted_marked - per_text.both_marked)
    END::DOUBLE AS iou,
    CASE
        WHEN per_text.text_id IS NULL THEN 1.0
        WHEN per_text.gold_values = 1 OR per_text.predicted_values = 1
            THEN (per_text.gold_values = 1 AND per_text.predicted_values = 1)::INTEGER
        ELSE per_text.rho
    END::DOUBLE AS cor
FROM mushroom_evaluations AS pairs
JOIN texts ON texts.corpus = pairs.corpus AND texts.split = pairs.split
LEFT JOIN per_text ON per_text.submission_id = pairs.submission_id AND per_text.text_id = texts.text_id
