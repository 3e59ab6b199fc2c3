-- The sizes of the two lists each submission is scored on, in each scope: how many mistakes each lists, and how
-- many tokens they mark (spans within one list are disjoint, so span lengths add up to the tokens marked).
-- Grain: one row per (submission, scope), scopes as in scopes.
-- Key: submission_id, scope
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   scope: ALL, or the category both lists are filtered to (scopes.scope).
--   gold_mistakes: How many mistakes the gold list has in the scope, in the texts the submission covers.
--   gold_tokens: How many tokens the gold list's mistakes in the scope mark.
--   submitted_mistakes: How many mistakes the submission has in the scope.
--   submitted_tokens: How many tokens the submission's mistakes in the scope mark.
WITH list_sizes AS (
    SELECT
        set_id,
        coalesce(category, 'ALL') AS scope,
        count(*) AS mistakes,
        sum(doc_token_end - doc_token_start + 1)::BIGINT AS tokens
    FROM thresholded_mistakes AS mistakes
    GROUP BY GROUPING SETS ((set_id), (set_id, category))
),

-- the gold's sizes in the texts of each submission that covers part of its split (list_coverage)
covered_gold_sizes AS (
    SELECT
        evaluations.submission_id,
        coalesce(gold.category, 'ALL') AS scope,
        count(*) AS mistakes,
        sum(gold.doc_token_end - gold.doc_token_start + 1)::BIGINT AS tokens
    FROM evaluations
    JOIN list_coverage AS coverage ON coverage.set_id = evaluations.submission_id
    JOIN thresholded_mistakes AS gold ON gold.set_id = evaluations.gold_id AND gold.text_id = coverage.text_id
    WHERE NOT evaluations.covers_split
    GROUP BY GROUPING SETS ((evaluations.submission_id), (evaluations.submission_id, gold.category))
)

SELECT
    evaluations.submission_id,
    scopes.scope,
    coalesce(CASE WHEN evaluations.covers_split THEN gold.mistakes ELSE covered_gold.mistakes END, 0)
        AS gold_mistakes,
    coalesce(CASE WHEN evaluations.covers_split THEN gold.tokens ELSE covered_gold.tokens END, 0) AS gold_tokens,
    coalesce(submitted.mistakes, 0) AS submitted_mistakes,
    coalesce(submitted.tokens, 0) AS submitted_tokens
FROM evaluations
JOIN scopes USING (corpus)
LEFT JOIN list_sizes AS gold ON gold.set_id = evaluations.gold_id AND gold.scope = scopes.scope
LEFT JOIN covered_gold_sizes AS covered_gold
    ON covered_gold.submission_id = evaluations.submission_id AND covered_gold.scope = scopes.scope
LEFT JOIN list_sizes AS submitted ON submitted.set_id = evaluations.submission_id AND submitted.scope = scopes.scope
