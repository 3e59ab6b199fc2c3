-- The scores of each submission against the gold list of its split: the definitions of every metric.
-- Grain: one row per (submission, scope), scopes ALL, NAME, NUMBER, WORD, CONTEXT, NOT_CHECKABLE, OTHER.
-- Columns: submission_id, submission, split, scope, position (of the scope), recall, precision, f1,
-- token_recall, token_precision, token_f1, matched, gold_total, submitted_total, token_matched,
-- gold_tokens, submitted_tokens, submission_sha256, gold_sha256 (the files the figures come from).
-- The figures are the macros ratio and f1 (schema/00_figures.sql): a ratio is NULL when its denominator is 0; an F1
-- is NULL when either of its ratios is, and 0 when both are 0.
WITH counts AS (
    SELECT
        evaluations.submission_id,
        evaluations.submission,
        evaluations.split,
        evaluations.submission_sha256,
        evaluations.gold_sha256,
        scopes.scope,
        scopes.position,
        mistake_counts.matched,
        mistake_counts.gold_total,
        mistake_counts.submitted_total,
        token_counts.token_matched,
        token_counts.gold_tokens,
        token_counts.submitted_tokens
    FROM evaluations
    CROSS JOIN scopes
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
    gold_sha256
FROM ratios
