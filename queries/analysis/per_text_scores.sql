-- How well did a submission ($submission: its name) do on each text?
-- Mistake-level figures of the ALL scope, text by text, as scores gives them for the whole split: a ratio is
-- NULL when there is nothing to divide by. Every text of the submission's split is listed.
-- Grain: one row per text of the submission's split.
-- Key: text_id
-- Columns: text_id, gold (gold mistakes), submitted (submitted mistakes), matched (gold mistakes that took one),
-- recall, precision.
SELECT
    text_id,
    gold,
    submitted,
    matched,
    ratio(matched, gold) AS recall,
    ratio(matched, submitted) AS precision
FROM text_statistics
WHERE submission = $submission AND scope = 'ALL'
ORDER BY text_id
