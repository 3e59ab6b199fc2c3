-- The scores of each submission against the gold list of its split: the definitions of every metric.
-- Grain: one row per (submission, scope), the scopes of its corpus (shared task: ALL, NAME, NUMBER, WORD, CONTEXT,
-- NOT_CHECKABLE, OTHER).
-- Key: submission_id, scope
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   submission: The submission's name (the file stem).
--   split: train or test: the split of the submission and of its gold list.
--   scope: ALL, or the category both lists are filtered to (scopes.scope).
--   position: The scope's report order: ALL 0, NAME 1 … OTHER 6.
--   recall: Mistake-level recall: matched / gold_total; NULL when the scope has no gold mistake.
--   precision: Mistake-level precision: matched / submitted_total; NULL when the scope has no submitted mistake.
--   f1: The harmonic mean of recall and precision; NULL when either is NULL, 0 when both are 0.
--   token_recall: Token-level recall: token_matched / gold_tokens; NULL when gold_tokens is 0.
--   token_precision: Token-level precision: token_matched / submitted_tokens; NULL when submitted_tokens is 0.
--   token_f1: The harmonic mean of token_recall and token_precision; NULL when either is NULL, 0 when both are 0.
--   matched: How many gold mistakes took a submitted mistake.
--   gold_total: How many gold mistakes the scope has.
--   submitted_total: How many submitted mistakes the scope has.
--   token_matched: How many (text, token) pairs both lists mark.
--   gold_tokens: How many (text, token) pairs the gold list marks.
--   submitted_tokens: How many (text, token) pairs the submission marks.
--   submission_sha256: The SHA-256 of the submission's content, which the figures come from.
--   gold_sha256: The SHA-256 of the gold list's content, which the figures come from.
--   corpus: The corpus of the submission and of its gold list (corpora.corpus).
-- The figures are the macros ratio and f1 (schema/00_figures.sql): a ratio is NULL when its denominator is 0; an F1
-- is NULL when either of its ratios is, and 0 when both are 0.
WITH counts AS (
    SELECT
        evaluations.submission_id,
        evaluations.submission,
        evaluations.split,
        evaluations.submission_sha256,
        evaluations.gold_sha256,
        evaluations.corpus,
        scopes.scope,
        scopes.position,
        mistake_counts.matched,
        mistake_counts.gold_total,
        mistake_counts.submitted_total,
        token_counts.token_matched,
        token_counts.gold_tokens,
        token_counts.submitted_tokens
    FROM evaluations
    JOIN scopes USING (corpus)
    JOIN mistake_counts USING (submission_id, scope)
    JOIN token_counts USING (submission_id, scope)
),

ratios AS (
    SELECT
        *,
        ratio(matched, gold_total) AS recall,
        ratio(matched, submitted_total) AS precision,
        ratio(token_matched, gold_tokens) AS token_recall,
        ratio(token_matched, submitted_tokens) AS token_precision
    FROM counts
)

SELECT
    submission_id,
    submission,
    split,
    scope,
    position,
    recall,
    precision,
    f1(recall, precision) AS f1,
    token_recall,
    token_precision,
    f1(token_recall, token_precision) AS token_f1,
    matched,
    gold_total,
    submitted_total,
    token_matched,
    gold_tokens,
    submitted_tokens,
    submission_sha256,
    gold_sha256,
    corpus
FROM ratios
