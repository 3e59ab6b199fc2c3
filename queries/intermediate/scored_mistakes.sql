-- What became of every mistake of both lists when a submission is scored, in both scopes a mistake counts in (ALL,
-- and the scope of its own category): mistake_matches and mistake_outcomes read it, and so does the errors page.
-- Materialized: incremental, a batch of submissions at a time (a table; a submission's rows are computed when it is
-- loaded, removed with it: the rows of the submissions in $submission_ids, in batches of up to a million mistakes
-- (database.BATCH_MISTAKES): all of them at once, 24 million rows at scale 1000, took no less time and came close to
-- the memory limit; one at a time, each of the shared task's lists took as long, whatever its size. The dashboard
-- filters, counts and pages these rows, which computed from the matching on every read made the errors page slow
-- at scale 1000 (benchmarks/results/code-timings.md).)
-- Grain: one row per (submission, side, mistake): each gold mistake of the submission's gold list in a text the
-- submission covers (list_texts), and each mistake of the submission.
-- Key: submission_id, side, mistake_id
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   submission: The submission's name (the file stem).
--   split: train or test: the split of the submission and of its gold list.
--   side: gold for a mistake of the gold list, submitted for one of the submission.
--   mistake_id: The mistake (mistakes.mistake_id).
--   text_id: The text (texts.text_id).
--   doc_token_start: The first marked token, counted in the document.
--   category: The mistake's category, as its list gives it: the scope it counts in besides ALL.
--   outcome: In the ALL scope: matched (a gold mistake that took a submitted mistake, or a submitted mistake that a
--     gold mistake took), missed (a gold mistake that took none) or false_alarm (a submitted mistake none took).
--   counterpart_id: In the ALL scope, the mistake of the other list it was matched with; NULL otherwise.
--   candidate_count: In the ALL scope, how many submitted mistakes intersect a gold mistake; NULL for a submitted
--     mistake.
--   category_outcome: The outcome in the scope of its category (both lists filtered to it).
--   category_counterpart_id: The counterpart in the scope of its category; NULL when it has none there.
--   category_candidate_count: In the scope of its category, how many submitted mistakes of that category
--     intersect a gold mistake; NULL for a submitted mistake.
-- Each (submission, scope, side, mistake) of mistake_outcomes is one of the two halves of a row here.
WITH evaluated AS (
    SELECT submission_id, submission, split, gold_id, covers_split
    FROM evaluations
    WHERE submission_id = ANY($submission_ids)
),

-- The matching of candidate_matches, read from the tables it is made of, one row per mistake with both scopes side
-- by side (one join per side, not one per scope). A one-to-one pair is the whole matching of both its mistakes, in
-- ALL and, when their categories agree, in that category; every other mistake with candidates is in
-- contested_matches, whose category-scope row is in the scope of the mistake's own category.
one_to_one AS (
    SELECT
        submission_id,
        gold_mistake_id,
        submitted_mistake_id,
        CASE WHEN shared_category IS NOT NULL THEN submitted_mistake_id END AS category_submitted_mistake_id,
        CASE WHEN shared_category IS NOT NULL THEN gold_mistake_id END AS category_gold_mistake_id
    FROM span_overlaps
    WHERE submission_id = ANY($submission_ids) AND one_to_one
),

contested AS (
    SELECT submission_id, scope, gold_mistake_id, candidate_count, submitted_mistake_id
    FROM contested_matches
    WHERE submission_id = ANY($submission_ids)
),

gold_matches AS (
    SELECT
        submission_id,
        gold_mistake_id,
        submitted_mistake_id,
        1::BIGINT AS candidate_count,
        category_submitted_mistake_id,
        CASE WHEN category_submitted_mistake_id IS NULL THEN 0 ELSE 1 END::BIGINT AS category_candidate_count
    FROM one_to_one
    UNION ALL
    SELECT
        submission_id,
        gold_mistake_id,
        max(CASE WHEN scope = 'ALL' THEN submitted_mistake_id END),
        max(CASE WHEN scope = 'ALL' THEN candidate_count END),
        max(CASE WHEN scope <> 'ALL' THEN submitted_mistake_id END),
        coalesce(max(CASE WHEN scope <> 'ALL' THEN candidate_count END), 0)
    FROM contested
    GROUP BY submission_id, gold_mistake_id
),

-- each submitted mistake is taken by at most one gold mistake in each scope
submitted_matches AS (
    SELECT submission_id, submitted_mistake_id, gold_mistake_id, category_gold_mistake_id
    FROM one_to_one
    UNION ALL
    SELECT
        submission_id,
        submitted_mistake_id,
        max(CASE WHEN scope = 'ALL' THEN gold_mistake_id END),
        max(CASE WHEN scope <> 'ALL' THEN gold_mistake_id END)
    FROM contested
    WHERE submitted_mistake_id IS NOT NULL
    GROUP BY submission_id, submitted_mistake_id
),

gold_rows AS (
    SELECT
        evaluated.submission_id,
        evaluated.submission,
        evaluated.split,
        'gold' AS side,
        gold.mistake_id,
        gold.text_id,
        gold.doc_token_start,
        gold.category,
        CASE WHEN matches.submitted_mistake_id IS NULL THEN 'missed' ELSE 'matched' END AS outcome,
        matches.submitted_mistake_id AS counterpart_id,
        coalesce(matches.candidate_count, 0) AS candidate_count,
        CASE WHEN matches.category_submitted_mistake_id IS NULL THEN 'missed' ELSE 'matched' END AS category_outcome,
        matches.category_submitted_mistake_id AS category_counterpart_id,
        coalesce(matches.category_candidate_count, 0) AS category_candidate_count
    FROM evaluated
    JOIN thresholded_mistakes AS gold ON gold.set_id = evaluated.gold_id
    -- the gold's mistakes in the texts the submission covers (list_texts)
    LEFT JOIN list_coverage AS coverage
        ON NOT evaluated.covers_split AND coverage.set_id = evaluated.submission_id AND coverage.text_id = gold.text_id
    LEFT JOIN gold_matches AS matches
        ON matches.submission_id = evaluated.submission_id AND matches.gold_mistake_id = gold.mistake_id
    WHERE evaluated.covers_split OR coverage.text_id IS NOT NULL
),

submitted_rows AS (
    SELECT
        evaluated.submission_id,
        evaluated.submission,
        evaluated.split,
        'submitted' AS side,
        submitted.mistake_id,
        submitted.text_id,
        submitted.doc_token_start,
        submitted.category,
        CASE WHEN matches.gold_mistake_id IS NULL THEN 'false_alarm' ELSE 'matched' END AS outcome,
        matches.gold_mistake_id AS counterpart_id,
        NULL::BIGINT AS candidate_count,
        CASE WHEN matches.category_gold_mistake_id IS NULL THEN 'false_alarm' ELSE 'matched' END AS category_outcome,
        matches.category_gold_mistake_id AS category_counterpart_id,
        NULL::BIGINT AS category_candidate_count
    FROM evaluated
    JOIN thresholded_mistakes AS submitted ON submitted.set_id = evaluated.submission_id
    LEFT JOIN submitted_matches AS matches
        ON matches.submission_id = evaluated.submission_id AND matches.submitted_mistake_id = submitted.mistake_id
)

SELECT
    submission_id,
    submission,
    split,
    side,
    mistake_id,
    text_id,
    doc_token_start,
    category,
    outcome,
    counterpart_id,
    candidate_count,
    category_outcome,
    category_counterpart_id,
    category_candidate_count
FROM (SELECT * FROM gold_rows UNION ALL SELECT * FROM submitted_rows) AS scored
