-- How many gold mistakes does each text have, in each category, and which system generated it?
-- Texts without gold mistakes count with zeros; system is NULL where nlg_systems does not know it.
-- Grain: one row per text of a split with a gold list.
-- Key: text_id
-- Columns: split, text_id, system, mistakes (all categories), name, number, word, context, not_checkable, other (the
-- mistakes of each category).
WITH counts AS (
    SELECT
        text_id,
        count(*) AS mistakes,
        count(*) FILTER (WHERE category = 'NAME') AS name,
        count(*) FILTER (WHERE category = 'NUMBER') AS number,
        count(*) FILTER (WHERE category = 'WORD') AS word,
        count(*) FILTER (WHERE category = 'CONTEXT') AS context,
        count(*) FILTER (WHERE category = 'NOT_CHECKABLE') AS not_checkable,
        count(*) FILTER (WHERE category = 'OTHER') AS other
    FROM gold_mistakes
    GROUP BY text_id
)

SELECT
    texts.split,
    texts.text_id,
    nlg_systems.system,
    coalesce(counts.mistakes, 0) AS mistakes,
    coalesce(counts.name, 0) AS name,
    coalesce(counts.number, 0) AS number,
    coalesce(counts.word, 0) AS word,
    coalesce(counts.context, 0) AS context,
    coalesce(counts.not_checkable, 0) AS not_checkable,
    coalesce(counts.other, 0) AS other
FROM texts
LEFT JOIN counts USING (text_id)
LEFT JOIN nlg_systems USING (text_id)
WHERE texts.split IN (SELECT split FROM annotation_sets WHERE kind = 'gold')
ORDER BY texts.split DESC, texts.text_id
