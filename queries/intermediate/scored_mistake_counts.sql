-- How many mistakes of each kind scored_mistakes holds for a submission: its rows counted by side, category and
-- outcome in both scopes. The errors page counts these when no text is chosen and nothing is searched: counting
-- the rows themselves is slow at scale 1000 (24 million rows), these are about 100 a submission.
-- Materialized: incremental (a table; a submission's rows are computed when it is loaded, removed with it: the
-- rows of the submissions in $submission_ids, from its rows of scored_mistakes).
-- Grain: one row per (submission, side, category, outcome, category_outcome) that some mistake has.
-- Key: submission_id, side, category, outcome, category_outcome
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   submission: The submission's name (the file stem).
--   split: train or test: the split of the submission and of its gold list.
--   side: gold for a mistake of the gold list, submitted for one of the submission.
--   category: The mistakes' category, as their list gives it.
--   outcome: Their outcome in the ALL scope (scored_mistakes.outcome).
--   category_outcome: Their outcome in the scope of their category (scored_mistakes.category_outcome).
--   mistakes: How many mistakes of the submission's rows have these values.
SELECT submission_id, submission, split, side, category, outcome, category_outcome, count(*) AS mistakes
FROM scored_mistakes
WHERE submission_id = ANY($submission_ids)
GROUP BY submission_id, submission, split, side, category, outcome, category_outcome
