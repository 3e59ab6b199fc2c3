-- The figures of the mushroom scheme (SemEval-2025 Task 3, Mu-SHROOM) for each text, from the lists' exact
-- character labels (character_labels): a submission read with them is scored against the gold list of its corpus
-- and split read with them (mushroom_evaluations), on every text it covers (list_texts: every text of that split,
-- or an annotator's own texts; a text without labels has none:
-- an empty prediction).
-- A character is a code point of texts.generated_text. iou is |gold ∩ predicted| / |gold ∪ predicted| of the
-- characters the hard labels mark (1.0 when neither marks any); cor is Spearman's rho of the per-character soft
-- vectors (a character no soft label marks is 0; of two soft labels on one character the later one counts),
-- computed as Pearson's r of the average ranks; when either vector is constant (rounded to 8 decimals, as the
-- task's scorer does) it is 1.0 if both are, else 0.0. An empty text scores 1.0 and 1.0. The rounding is Python's
-- round(x, 8): round_even rounds the double's exact value, ties to even (a cast to DECIMAL rounded 2.5e-08, which
-- is 2.4999…e-08, up to 3e-08 where the scorer rounds it to 2e-08).
-- Computed over runs of characters, not character by character (mushroom_characters, which the pooled models read):
-- the labels' edges cut a text into runs along which both lists say the same, so a run stands for its length of
-- equal characters. A value's average rank is the characters below it plus half those at it (and a half), and both
-- vectors' ranks average (n + 1) / 2, so rho is the weighted sum of the centred ranks' products over the root of
-- their weighted squares.
-- Grain: one row per (submission read with character labels, text it covers).
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
WITH pairs AS (
    SELECT pairs.submission_id, pairs.gold_id, texts.text_id, length(texts.generated_text)::BIGINT AS characters
    FROM mushroom_evaluations AS pairs
    JOIN list_texts AS covered ON covered.set_id = pairs.submission_id
    JOIN texts ON texts.text_id = covered.text_id
),
-- the labels of both lists on each text of a submission's split, the gold's marked, cut at the text's end
side_labels AS (
    SELECT
        pairs.submission_id,
        pairs.text_id,
        TRUE AS of_gold,
        labels.label,
        labels.label_number,
        least(labels.char_start, pairs.characters) AS char_start,
        least(labels.char_end, pairs.characters) AS char_end,
        labels.probability
    FROM pairs
    JOIN character_labels AS labels ON labels.set_id = pairs.gold_id AND labels.text_id = pairs.text_id
    UNION ALL
    SELECT
        pairs.submission_id,
        pairs.text_id,
        FALSE AS of_gold,
        labels.label,
        labels.label_number,
        least(labels.char_start, pairs.characters),
        least(labels.char_end, pairs.characters),
        labels.probability
    FROM pairs
    JOIN character_labels AS labels ON labels.set_id = pairs.submission_id AND labels.text_id = pairs.text_id
),
-- where a run may end: the text's ends and each label's
edges AS (
    SELECT submission_id, text_id, 0::BIGINT AS edge FROM pairs
    UNION
    SELECT submission_id, text_id, characters FROM pairs
    UNION
    SELECT submission_id, text_id, char_start FROM side_labels
    UNION
    SELECT submission_id, text_id, char_end FROM side_labels
),
runs AS (
    SELECT submission_id, text_id, run_start, run_end - run_start AS length
    FROM (
        SELECT
            submission_id,
            text_id,
            edge AS run_start,
            lead(edge) OVER (PARTITION BY submission_id, text_id ORDER BY edge) AS run_end
        FROM edges
    ) AS cut
    WHERE run_end IS NOT NULL
),
-- each label covering a run, the latest soft label of each list first
covering AS (
    SELECT
        runs.submission_id,
        runs.text_id,
        runs.run_start,
        labels.of_gold,
        labels.label,
        labels.probability,
        row_number() OVER (
            PARTITION BY runs.submission_id, runs.text_id, runs.run_start, labels.of_gold, labels.label
            ORDER BY labels.label_number DESC
        ) AS latest_first
    FROM runs
    JOIN side_labels AS labels
        ON labels.submission_id = runs.submission_id AND labels.text_id = runs.text_id
        AND labels.char_start <= runs.run_start AND runs.run_start + runs.length <= labels.char_end
),
-- what each list's labels say of each run: whether a hard label covers it, the probability of the latest soft one
marked AS (
    SELECT
        runs.submission_id,
        runs.text_id,
        runs.length,
        coalesce(bool_or(covering.label = 'hard' AND covering.of_gold), FALSE) AS gold_hard,
        coalesce(bool_or(covering.label = 'hard' AND NOT covering.of_gold), FALSE) AS predicted_hard,
        coalesce(max(covering.probability) FILTER (WHERE covering.label = 'soft' AND covering.of_gold), 0) AS gold_soft,
        coalesce(max(covering.probability) FILTER (WHERE covering.label = 'soft' AND NOT covering.of_gold), 0)
            AS predicted_soft
    FROM runs
    LEFT JOIN covering
        ON covering.submission_id = runs.submission_id AND covering.text_id = runs.text_id
        AND covering.run_start = runs.run_start AND covering.latest_first = 1
    GROUP BY runs.submission_id, runs.text_id, runs.run_start, runs.length
),
-- each value's average rank among the text's characters, less the mean rank (n + 1) / 2
gold_ranks AS (
    SELECT
        submission_id,
        text_id,
        gold_soft,
        sum(sum(length)) OVER (PARTITION BY submission_id, text_id ORDER BY gold_soft) - (sum(length) - 1) / 2.0
            - (sum(sum(length)) OVER (PARTITION BY submission_id, text_id) + 1) / 2.0 AS gold_rank
    FROM marked
    GROUP BY submission_id, text_id, gold_soft
),
predicted_ranks AS (
    SELECT
        submission_id,
        text_id,
        predicted_soft,
        sum(sum(length)) OVER (PARTITION BY submission_id, text_id ORDER BY predicted_soft)
            - (sum(length) - 1) / 2.0
            - (sum(sum(length)) OVER (PARTITION BY submission_id, text_id) + 1) / 2.0 AS predicted_rank
    FROM marked
    GROUP BY submission_id, text_id, predicted_soft
),
per_text AS (
    SELECT
        marked.submission_id,
        marked.text_id,
        coalesce(sum(marked.length) FILTER (WHERE marked.gold_hard), 0) AS gold_marked,
        coalesce(sum(marked.length) FILTER (WHERE marked.predicted_hard), 0) AS predicted_marked,
        coalesce(sum(marked.length) FILTER (WHERE marked.gold_hard AND marked.predicted_hard), 0) AS both_marked,
        count(DISTINCT round_even(marked.gold_soft, 8)) AS gold_values,
        count(DISTINCT round_even(marked.predicted_soft, 8)) AS predicted_values,
        sum(marked.length * gold_ranks.gold_rank * predicted_ranks.predicted_rank)
            / sqrt(
                sum(marked.length * gold_ranks.gold_rank * gold_ranks.gold_rank)
                * sum(marked.length * predicted_ranks.predicted_rank * predicted_ranks.predicted_rank)
            ) AS rho
    FROM marked
    JOIN gold_ranks
        ON gold_ranks.submission_id = marked.submission_id AND gold_ranks.text_id = marked.text_id
        AND gold_ranks.gold_soft = marked.gold_soft
    JOIN predicted_ranks
        ON predicted_ranks.submission_id = marked.submission_id AND predicted_ranks.text_id = marked.text_id
        AND predicted_ranks.predicted_soft = marked.predicted_soft
    GROUP BY marked.submission_id, marked.text_id
)
SELECT
    pairs.submission_id,
    pairs.gold_id,
    pairs.text_id,
    pairs.characters,
    coalesce(per_text.gold_marked, 0)::BIGINT AS gold_marked,
    coalesce(per_text.predicted_marked, 0)::BIGINT AS predicted_marked,
    coalesce(per_text.both_marked, 0)::BIGINT AS both_marked,
    CASE
        WHEN coalesce(per_text.gold_marked, 0) + coalesce(per_text.predicted_marked, 0) = 0 THEN 1.0
        ELSE per_text.both_marked::DOUBLE / (per_text.gold_marked + per_text.predicted_marked - per_text.both_marked)
    END::DOUBLE AS iou,
    CASE
        WHEN per_text.text_id IS NULL THEN 1.0
        WHEN per_text.gold_values = 1 OR per_text.predicted_values = 1
            THEN (per_text.gold_values = 1 AND per_text.predicted_values = 1)::INTEGER
        ELSE per_text.rho
    END::DOUBLE AS cor
FROM pairs
LEFT JOIN per_text ON per_text.submission_id = pairs.submission_id AND per_text.text_id = pairs.text_id
