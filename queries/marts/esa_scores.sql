-- The esa scheme's figures of every submission against the gold list of its corpus and split, as WMT25's
-- error-span task computes them for a language pair (scoring_esa.py's get_char_f1, partial credit 0.5): the counts
-- of esa_text_statistics summed over the texts, precision 1 when nothing is submitted and recall 1 when there is
-- no gold span (the task's convention, where the other schemes leave a figure undefined), ranked by F1.
-- Grain: one row per submission that has a gold list.
-- Key: submission_id
-- Columns:
--   rank: The submission's place within its corpus and split by F1 (higher first), from 1; equal F1s share it.
--   submission_id: The submission (annotation_sets.set_id).
--   submission: Its name.
--   corpus: Its corpus (corpora.corpus).
--   split: Its split, and its gold list's.
--   gold_id: The gold list (annotation_sets.set_id).
--   scope: ALL: the scheme scores every span whatever its category.
--   position: 0, ALL's report order.
--   texts: The texts the submission covers (list_texts: every text of the split, or a rater's own), every one
--     scored (a text neither list marks adds nothing).
--   precision: matched / submitted_total; 1 when submitted_total is 0.
--   recall: matched / gold_total; 1 when gold_total is 0.
--   f1: 2 · precision · recall / (precision + recall); 0 when both are 0 (the figure macro f1).
--   matched: The credited characters (esa_text_statistics.matched), summed.
--   gold_total: The gold list's counted characters.
--   submitted_total: The submission's counted characters.
--   submission_sha256: The SHA-256 of the submission's content (annotation_sets.content_sha256).
--   gold_sha256: The SHA-256 of the gold list's content.
WITH sums AS (
    SELECT
        pairs.submission_id,
        pairs.gold_id,
        pairs.corpus,
        pairs.split,
        coalesce(sum(stats.matched), 0)::DOUBLE AS matched,
        coalesce(sum(stats.gold_total), 0)::BIGINT AS gold_total,
        coalesce(sum(stats.submitted_total), 0)::BIGINT AS submitted_total
    FROM esa_evaluations AS pairs
    LEFT JOIN esa_text_statistics AS stats USING (submission_id)
    GROUP BY pairs.submission_id, pairs.gold_id, pairs.corpus, pairs.split
),

figures AS (
    SELECT
        *,
        coalesce(ratio(matched, submitted_total), 1.0) AS precision,
        coalesce(ratio(matched, gold_total), 1.0) AS recall
    FROM sums
),

scored AS (
    SELECT
        *,
        f1(recall, precision) AS f1
    FROM figures
)

SELECT
    rank() OVER (PARTITION BY scored.corpus, scored.split ORDER BY scored.f1 DESC) AS rank,
    scored.submission_id,
    submission.name AS submission,
    scored.corpus,
    scored.split,
    scored.gold_id,
    'ALL' AS scope,
    0 AS position,
    (SELECT count(*) FROM list_texts WHERE list_texts.set_id = scored.submission_id) AS texts,
    scored.precision,
    scored.recall,
    scored.f1,
    scored.matched,
    scored.gold_total,
    scored.submitted_total,
    submission.content_sha256 AS submission_sha256,
    gold.content_sha256 AS gold_sha256
FROM scored
JOIN annotation_sets AS submission ON submission.set_id = scored.submission_id
JOIN annotation_sets AS gold ON gold.set_id = scored.gold_id
