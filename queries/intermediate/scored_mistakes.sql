-- What became of every mistake of both lists when a submission is scored, in both scopes a mistake counts in (ALL,
-- and the scope of its own category): mistake_matches and mistake_outcomes read it, and so does the errors page.
-- Materialized: incremental (a table; a submission's rows are computed when it is loaded, removed with it: the
-- rows of the submissions in $submission_ids, filled one submission at a time, as all of them at once would pass
-- the memory limit at scale 1000. The dashboard filters, counts and pages these rows: computed from the matching
-- on every read, the errors page took 5 s at scale 1000.)
-- Grain: one row per (submission, side, mistake): each gold mistake of the submission's gold list, and each
-- mistake of the submission.
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
    SELECT submission_id, submission, split, gold_id
    FROM evaluations
    WHERE submission_id = ANY($submission_ids)
),

-- one row per gold mistake with candidates in a scope; a submitted mistake is in at most one of them per scope
matches AS (
    SELECT submission_id, scope, gold_mistake_id, candidate_count, submitted_mistake_id
    FROM candidate_matches
    WHERE submission_id = ANY($submission_ids)
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
        CASE WHEN in_all.submitted_mistake_id IS NULL THEN 'missed' ELSE 'matched' END AS outcome,
        in_all.submitted_mistake_id AS counterpart_id,
        coalesce(in_all.candidate_count, 0) AS candidate_count,
        CASE WHEN in_category.submitted_mistake_id IS NULL THEN 'missed' ELSE 'matched' END AS category_outcome,
        in_category.submitted_mistake_id AS category_counterpart_id,
        coalesce(in_category.candidate_count, 0) AS category_candidate_count
    FROM evaluated
    JOIN gold_mistakes AS gold ON gold.gold_id = evaluated.gold_id
    LEFT JOIN matches AS in_all
        ON in_all.submission_id = evaluated.submission_id
        AND in_all.scope = 'ALL'
        AND in_all.gold_mistake_id = gold.mistake_id
    LEFT JOIN matches AS in_category
        ON in_category.submission_id = evaluated.submission_id
        AND in_category.scope = gold.category
        AND in_category.gold_mistake_id = gold.mistake_id
),

taken AS (
    SELECT submission_id, scope, gold_mistake_id, submitted_mistake_id
    FROM matches
    WHERE submitted_mistake_id IS NOT NULL
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
        CASE WHEN in_all.gold_mistake_id IS NULL THEN 'false_alarm' ELSE 'matched' END AS outcome,
        in_all.gold_mistake_id AS counterpart_id,
        NULL::BIGINT AS candidate_count,
        CASE WHEN in_category.gold_mistake_id IS NULL THEN 'false_alarm' ELSE 'matched' END AS category_outcome,
        in_category.gold_mistake_id AS category_counterpart_id,
        NULL::BIGINT AS category_candidate_count
    FROM evaluated
    JOIN submitted_mistakes AS submitted ON submitted.submission_id = evaluated.submission_id
    LEFT JOIN taken AS in_all
        ON in_all.submission_id = evaluated.submission_id
        AND in_all.scope = 'ALL'
        AND in_all.submitted_mistake_id = submitted.mistake_id
    LEFT JOIN taken AS in_category
        ON in_category.submission_id = evaluated.submission_id
        AND in_category.scope = submitted.category
        AND in_category.submitted_mistake_id = submitted.mistake_id
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
