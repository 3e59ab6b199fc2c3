-- What became of every mistake of both lists when a submission is scored: the outcome of each gold mistake
-- (matched: it took a submitted mistake; missed: it took none) and of each submitted mistake (matched: a gold
-- mistake took it; false_alarm: none did), as mistake_matches decides it: scored_mistakes, a row per scope,
-- with the mistake's own columns.
-- Grain: one row per (submission, scope, side, mistake), scopes as in scores (a mistake counts in ALL and in
-- its category).
-- Key: submission_id, scope, side, mistake_id
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
WITH outcomes AS (
    SELECT submission_id, submission, split, 'ALL' AS scope, side, mistake_id, outcome, counterpart_id
    FROM scored_mistakes
    UNION ALL
    SELECT submission_id, submission, split, category, side, mistake_id, category_outcome, category_counterpart_id
    FROM scored_mistakes
)

SELECT
    outcomes.submission_id,
    outcomes.submission,
    outcomes.split,
    outcomes.scope,
    outcomes.side,
    outcomes.mistake_id,
    outcomes.outcome,
    outcomes.counterpart_id,
    mistakes.text_id,
    mistakes.doc_token_start,
    mistakes.doc_token_end,
    mistakes.category,
    mistakes.tokens,
    mistakes.correction,
    mistakes.comment
FROM outcomes
JOIN mistakes ON mistakes.mistake_id = outcomes.mistake_id
