-- How many gold mistakes per text did each generating system make, in each category of the shared task?
-- One row per split for all its texts (system '(all texts)'), and one per system where nlg_systems knows
-- which system generated a text. Texts without gold mistakes count with zeros. The shared-task corpus only: its
-- six categories are the columns (another corpus's split may have the same name).
-- Grain: one row per (split, system).
-- Key: split, system
-- Columns: split, system, reference, texts, mistakes (gold mistakes per text, all categories), name, number, word,
-- context, not_checkable, other (per text, by category).
WITH per_text AS (
    SELECT
        texts.split,
        texts.text_id,
        nlg_systems.system,
        nlg_systems.reference,
        count(gold.mistake_id) AS mistakes,
        count(gold.mistake_id) FILTER (WHERE gold.category = 'NAME') AS name,
        count(gold.mistake_id) FILTER (WHERE gold.category = 'NUMBER') AS number,
        count(gold.mistake_id) FILTER (WHERE gold.category = 'WORD') AS word,
        count(gold.mistake_id) FILTER (WHERE gold.category = 'CONTEXT') AS context,
        count(gold.mistake_id) FILTER (WHERE gold.category = 'NOT_CHECKABLE') AS not_checkable,
        count(gold.mistake_id) FILTER (WHERE gold.category = 'OTHER') AS other
    FROM texts
    LEFT JOIN gold_mistakes AS gold USING (text_id)
    LEFT JOIN nlg_systems USING (text_id)
    WHERE texts.corpus = 'shared-task'
        AND texts.split IN (SELECT split FROM annotation_sets WHERE kind = 'gold' AND corpus = 'shared-task')
    GROUP BY texts.split, texts.text_id, nlg_systems.system, nlg_systems.reference
),

systems AS (
    SELECT
        split, text_id, '(all texts)' AS system, NULL::VARCHAR AS reference, mistakes, name, number, word, context,
        not_checkable, other
    FROM per_text
    UNION ALL
    SELECT split, text_id, system, reference, mistakes, name, number, word, context, not_checkable, other
    FROM per_text
    WHERE system IS NOT NULL
)

SELECT
    split,
    system,
    min(reference) AS reference,
    count(*) AS texts,
    avg(mistakes::DOUBLE) AS mistakes,
    avg(name::DOUBLE) AS name,
    avg(number::DOUBLE) AS number,
    avg(word::DOUBLE) AS word,
    avg(context::DOUBLE) AS context,
    avg(not_checkable::DOUBLE) AS not_checkable,
    avg(other::DOUBLE) AS other
FROM systems
GROUP BY split, system
ORDER BY split DESC, system = '(all texts)' DESC, system
