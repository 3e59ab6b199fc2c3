-- How well did a submission ($submission: its name) do on each text?
-- Mistake-level figures of the ALL scope, text by text, as scores gives them for the whole split: a ratio is
-- NULL when there is nothing to divide by. Every text of the submission's split is listed.
-- Grain: one row per text of the submission's split. Columns: text_id, gold (gold mistakes), submitted
-- (submitted mistakes), matched (gold mistakes that took one), recall, precision.
WITH evaluation AS (
    SELECT submission_id, split
    FROM evaluations
    WHERE submission = $submission
),

gold AS (
    SELECT text_id, count(*) AS gold, count(submitted_mistake_id) AS matched
    FROM mistake_matches
    WHERE submission_id = (SELECT submission_id FROM evaluation) AND scope = 'ALL'
    GROUP BY text_id
),

submitted AS (
    SELECT text_id, count(*) AS submitted
    FROM submitted_mistakes
    WHERE submission_id = (SELECT submission_id FROM evaluation)
    GROUP BY text_id
)

SELECT
    texts.text_id,
    coalesce(gold.gold, 0) AS gold,
    coalesce(submitted.submitted, 0) AS submitted,
    coalesce(gold.matched, 0) AS matched,
    gold.matched / nullif(gold.gold, 0) AS recall,
    coalesce(gold.matched, 0) / nullif(submitted.submitted, 0) AS precision
FROM texts
LEFT JOIN gold USING (text_id)
LEFT JOIN submitted USING (text_id)
WHERE texts.split = (SELECT split FROM evaluation)
ORDER BY texts.text_id
