-- The scores of each submission under every match scheme (see docs/scoring.md, "Match schemes"): the shared task's
-- (the figures of scores), nervaluate's four and the token- and character-level ones (scheme_counts).
-- Grain: one row per (scheme, submission, scope), the scopes of the submission's corpus.
-- Key: scheme, submission_id, scope
-- Columns:
--   scheme: shared-task, strict, exact, partial, ent_type, token-hard, token-soft, char-hard or char-soft.
--   submission_id: The submission (annotation_sets.set_id).
--   submission: The submission's name (the file stem).
--   split: train or test: the split of the submission and of its gold list.
--   scope: ALL, or the category both lists are filtered to (scopes.scope).
--   position: The scope's report order: ALL 0, NAME 1 … OTHER 6.
--   unit: What the scheme counts: mistake, token or character.
--   recall: matched / gold_total; NULL when gold_total is 0.
--   precision: matched / submitted_total; NULL when submitted_total is 0.
--   f1: The harmonic mean of recall and precision; NULL when either is NULL, 0 when both are 0.
--   matched: The numerator of both: the shared task's matched gold mistakes; COR (strict, exact) or COR + 0.5 PAR
--     (partial, ent_type), as nervaluate computes them; the units both lists mark (token and character schemes).
--   gold_total: The gold mistakes of the scope (nervaluate's POS), or the units the gold list marks.
--   submitted_total: The submitted mistakes of the scope (nervaluate's ACT), or the units the submission marks.
--   correct: nervaluate's COR; NULL for the other schemes.
--   incorrect: nervaluate's INC; NULL for the other schemes.
--   partial: nervaluate's PAR; NULL for the other schemes.
--   missed: nervaluate's MIS; NULL for the other schemes.
--   spurious: nervaluate's SPU; NULL for the other schemes.
--   submission_sha256: The SHA-256 of the submission's content, which the figures come from.
--   gold_sha256: The SHA-256 of the gold list's content, which the figures come from.
--   corpus: The corpus of the submission and of its gold list (corpora.corpus).
-- nervaluate writes 0 for a precision or recall with nothing to divide by; here, as for every figure, it is NULL.
-- A query for one scheme computes that scheme alone: the shared task's rows come from a branch with its name as a
-- constant, the others' from scheme_counts, whose schemes are rows of a join that the filter reaches.
WITH counts AS (
    SELECT
        'shared-task' AS scheme,
        submission_id,
        scope,
        'mistake' AS unit,
        matched::DOUBLE AS matched,
        gold_total::BIGINT AS gold_total,
        submitted_total::BIGINT AS submitted_total,
        NULL::BIGINT AS correct,
        NULL::BIGINT AS incorrect,
        NULL::BIGINT AS partial,
        NULL::BIGINT AS missed,
        NULL::BIGINT AS spurious
    FROM scores
    UNION ALL
    SELECT
        scheme,
        submission_id,
        scope,
        unit,
        matched,
        gold_total,
        submitted_total,
        correct,
        incorrect,
        partial,
        missed,
        spurious
    FROM scheme_counts
),

ratios AS (
    SELECT
        counts.*,
        ratio(counts.matched, counts.gold_total) AS recall,
        ratio(counts.matched, counts.submitted_total) AS precision
    FROM counts
)

SELECT
    ratios.scheme,
    ratios.submission_id,
    evaluations.submission,
    evaluations.split,
    ratios.scope,
    scopes.position,
    ratios.unit,
    ratios.recall,
    ratios.precision,
    f1(ratios.recall, ratios.precision) AS f1,
    ratios.matched,
    ratios.gold_total,
    ratios.submitted_total,
    ratios.correct,
    ratios.incorrect,
    ratios.partial,
    ratios.missed,
    ratios.spurious,
    evaluations.submission_sha256,
    evaluations.gold_sha256,
    evaluations.corpus
FROM ratios
JOIN evaluations ON evaluations.submission_id = ratios.submission_id
JOIN scopes ON scopes.corpus = evaluations.corpus AND scopes.scope = ratios.scope
