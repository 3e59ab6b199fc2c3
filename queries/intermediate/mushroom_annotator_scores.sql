-- The human ceiling of the mushroom scheme: each annotator of a Mu-SHROOM file scored, text by text, against a
-- reference made from the other annotators of the same text (leave-one-out), as the task's gold is made from all
-- of them: a character's soft label is the share of the others marking it, and it is hard when that share is above
-- one half. The annotator's own labels are its spans (hard, and soft of p = 1), as `import mushroom` reads them.
-- iou and cor are the mushroom scheme's (mushroom_text_scores): iou over the hard characters (1.0 when neither
-- marks any), cor Spearman's rho of the per-character vectors (Pearson's r of their average ranks), 1.0 or 0.0 when
-- either vector is constant (rounded to 8 decimals); an empty text scores 1.0 and 1.0.
-- A text no other annotator labelled has no reference and no row.
-- Grain: one row per (annotator's list, text it labelled that another annotator of its corpus labelled too).
-- Key: set_id, text_id
-- Columns:
--   set_id: The annotator's list (annotation_sets.set_id; annotation_sets.annotator is set).
--   text_id: The text (texts.text_id).
--   others: How many other annotators labelled the text.
--   iou: The intersection over union of the annotator's marked characters and the others' majority's.
--   cor: Spearman's rho of the annotator's soft vector and the others' shares.
WITH annotator_lists AS (
    SELECT set_id
    FROM annotation_sets
    WHERE annotator IS NOT NULL AND set_id IN (SELECT set_id FROM character_label_lists)
),

-- each text an annotator labelled, with how many annotators of its list's corpus and split labelled it besides
labelled AS (
    SELECT
        coverage.set_id,
        coverage.text_id,
        count(*) OVER (PARTITION BY lists.corpus, lists.split, coverage.text_id) - 1 AS others
    FROM list_coverage AS coverage
    JOIN annotation_sets AS lists ON lists.set_id = coverage.set_id
    WHERE coverage.set_id IN (SELECT set_id FROM annotator_lists)
),

-- the characters each annotator marks in each text
marks AS (
    SELECT DISTINCT set_id, text_id, unnest(range(char_start, char_end)) AS position
    FROM character_labels
    WHERE label = 'hard' AND set_id IN (SELECT set_id FROM annotator_lists)
),

-- how many annotators mark each character (a text's annotators are all of one corpus and split)
text_marks AS (
    SELECT text_id, position, count(*) AS marking
    FROM marks
    GROUP BY text_id, position
),

vectors AS (
    SELECT
        labelled.set_id,
        labelled.text_id,
        CASE WHEN own.position IS NULL THEN 0.0 ELSE 1.0 END AS own,
        (coalesce(text_marks.marking, 0) - CASE WHEN own.position IS NULL THEN 0 ELSE 1 END)::DOUBLE
            / labelled.others AS share
    FROM (
        SELECT
            labelled.set_id,
            labelled.text_id,
            labelled.others,
            unnest(range(length(texts.generated_text))) AS position
        FROM labelled
        JOIN texts ON texts.text_id = labelled.text_id
        WHERE labelled.others > 0
    ) AS labelled
    LEFT JOIN marks AS own
        ON own.set_id = labelled.set_id AND own.text_id = labelled.text_id AND own.position = labelled.position
    LEFT JOIN text_marks ON text_marks.text_id = labelled.text_id AND text_marks.position = labelled.position
),

-- each value's average rank among the text's characters, less the mean rank (n + 1) / 2: multiples of one half,
-- whose products and sums are exact in floating point, so that rho does not depend on the order of the sums
ranked AS (
    SELECT
        set_id,
        text_id,
        own,
        share,
        rank() OVER (PARTITION BY set_id, text_id ORDER BY own)
            + (count(*) OVER (PARTITION BY set_id, text_id, own) - 1) / 2.0
            - (count(*) OVER (PARTITION BY set_id, text_id) + 1) / 2.0 AS own_rank,
        rank() OVER (PARTITION BY set_id, text_id ORDER BY share)
            + (count(*) OVER (PARTITION BY set_id, text_id, share) - 1) / 2.0
            - (count(*) OVER (PARTITION BY set_id, text_id) + 1) / 2.0 AS share_rank
    FROM vectors
),

per_text AS (
    SELECT
        set_id,
        text_id,
        count(*) FILTER (WHERE own = 1) AS own_marked,
        count(*) FILTER (WHERE share > 0.5) AS others_marked,
        count(*) FILTER (WHERE own = 1 AND share > 0.5) AS both_marked,
        count(DISTINCT round_even(own, 8)) AS own_values,
        count(DISTINCT round_even(share, 8)) AS share_values,
        sum(own_rank * share_rank) / sqrt(sum(own_rank * own_rank) * sum(share_rank * share_rank)) AS rho
    FROM ranked
    GROUP BY set_id, text_id
)

SELECT
    labelled.set_id,
    labelled.text_id,
    labelled.others,
    CASE
        WHEN coalesce(per_text.own_marked, 0) + coalesce(per_text.others_marked, 0) = 0 THEN 1.0
        ELSE per_text.both_marked::DOUBLE / (per_text.own_marked + per_text.others_marked - per_text.both_marked)
    END::DOUBLE AS iou,
    CASE
        WHEN per_text.text_id IS NULL THEN 1.0
        WHEN per_text.own_values = 1 OR per_text.share_values = 1
            THEN (per_text.own_values = 1 AND per_text.share_values = 1)::INTEGER
        ELSE per_text.rho
    END::DOUBLE AS cor
FROM labelled
LEFT JOIN per_text ON per_text.set_id = labelled.set_id AND per_text.text_id = labelled.text_id
WHERE labelled.others > 0
