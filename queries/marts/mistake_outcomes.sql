-- What became of every mistake of both lists when a submission is scored: the outcome of each gold mistake
-- (matched: it took a submitted mistake; missed: it took none) and of each submitted mistake (matched: a gold
-- mistake took it; false_alarm: none did), as mistake_matches decides it.
-- Grain: one row per (submission, scope, side, mistake), scopes as in scores (a mistake counts in ALL and in
-- its category).
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   submission: The submission's name (the file stem).
--   split: train or test: the split of the submission and of its gold list.
--   scope: ALL, or the category both lists are filtered to (scopes.scope).
--   side: gold for a mistake of the gold list, submitted for one of the submission.
--   mistake_id: The mistake (mistakes.mistake_id).
--   outcome: matched (a gold mistake that took a submitted mistake, or a submitted mistake that a gold mistake
--     took), missed (a gold mistake that took none) or false_alarm (a submitted mistake that none took).
--   counterpart_id: The mistake of the other list it was matched with; NULL otherwise.
--   text_id: The text (texts.text_id).
--   doc_token_start: The first marked token, counted in the document.
--   doc_token_end: The last marked token, counted in the document (inclusive).
--   category: The mistake's category, as its list gives it.
--   tokens: The marked tokens joined by spaces, as its list gives them (TOKENS).
--   correction: The correction, as its list gives it (CORRECTION).
--   comment: The comment, as its list gives it (COMMENT).
-- In each scope, the matched gold rows, the missed rows and the false alarms add up to mistake_counts:
-- matched, gold_total - matched and submitted_total - matched.
WITH gold_outcomes AS (
    SELECT
        matches.submission_id,
        matches.scope,
        'gold' AS side,
        gold.mistake_id,
        CASE WHEN matches.submitted_mistake_id IS NULL THEN 'missed' ELSE 'matched' END AS outcome,
        matches.submitted_mistake_id AS counterpart_id,
        gold.text_id,
        gold.doc_token_start,
        gold.doc_token_end,
        gold.category,
        gold.tokens,
        gold.correction,
        gold.comment
    FROM mistake_matches AS matches
    JOIN gold_mistakes AS gold ON gold.mistake_id = matches.gold_mistake_id
),

-- a submitted mistake is taken by at most one gold mistake, and only by one it intersects (candidate_matches)
submitted_outcomes AS (
    SELECT
        submitted.submission_id,
        submitted.scope,
        'submitted' AS side,
        submitted.mistake_id,
        CASE WHEN matches.gold_mistake_id IS NULL THEN 'false_alarm' ELSE 'matched' END AS outcome,
        matches.gold_mistake_id AS counterpart_id,
        submitted.text_id,
        submitted.doc_token_start,
        submitted.doc_token_end,
        submitted.category,
        submitted.tokens,
        submitted.correction,
        submitted.comment
    FROM scoped_submitted_mistakes AS submitted
    LEFT JOIN candidate_matches AS matches
        ON matches.submission_id = submitted.submission_id
        AND matches.scope = submitted.scope
        AND matches.submitted_mistake_id = submitted.mistake_id
)

SELECT
    evaluations.submission_id,
    evaluations.submission,
    evaluations.split,
    outcomes.scope,
    outcomes.side,
    outcomes.mistake_id,
    outcomes.outcome,
    outcomes.counterpart_id,
    outcomes.text_id,
    outcomes.doc_token_start,
    outcomes.doc_token_end,
    outcomes.category,
    outcomes.tokens,
    outcomes.correction,
    outcomes.comment
FROM (SELECT * FROM gold_outcomes UNION ALL SELECT * FROM submitted_outcomes) AS outcomes
JOIN evaluations ON evaluations.submission_id = outcomes.submission_id
