-- Pairs of a gold mistake and a submitted mistake whose token ranges intersect, for each submission.
-- Materialized: incremental (a table; a submission's rows are computed when it is loaded, removed with it: the
-- rows of the submissions in $submission_ids).
-- Grain: one row per (submission, gold mistake, submitted mistake) with at least one token in common.
-- Columns: submission_id, gold_mistake_id, submitted_mistake_id, shared_category (the category of both when they
-- agree, else NULL: the category scope the pair also counts in), overlap_tokens, one_to_one (neither mistake
-- intersects any other mistake of the other list). The mistakes' texts and spans are in mistakes.
-- Spans within one list never overlap (the loader refuses such lists), so the overlaps of one
-- list's spans with the other's are disjoint and overlap_tokens add up to a token-level intersection.
-- A mistake's neighbours in its own list (previous_end, next_start) bound the other list's spans it can meet: the
-- pair is one to one when each neighbour of either misses the other. That is most pairs, and the matching
-- settles them at once (candidate_matches); a mistake loaded without its neighbours is never taken for one.
--
-- Two spans that share a token start in the same sentence, unless the one that starts first runs on past the end
-- of its sentence: a span does when its sentence ids cover fewer tokens than its document ids (SENT_TOKEN_END
-- counts in the sentence of the last token). Pairing spans sentence by sentence, and the few that run on with
-- every span of their text, finds each pair once, at a tenth of the cost of pairing every two spans of a text.
WITH submitted AS NOT MATERIALIZED (
    SELECT
        evaluations.submission_id,
        evaluations.gold_id,
        mistakes.mistake_id,
        mistakes.text_id,
        mistakes.sentence_id,
        mistakes.doc_token_start,
        mistakes.doc_token_end,
        mistakes.previous_end,
        mistakes.next_start,
        mistakes.category,
        mistakes.sent_token_end - mistakes.sent_token_start
            < mistakes.doc_token_end - mistakes.doc_token_start AS runs_on
    FROM evaluations
    JOIN mistakes ON mistakes.set_id = evaluations.submission_id
    WHERE evaluations.submission_id = ANY($submission_ids)
),

gold AS NOT MATERIALIZED (
    SELECT
        set_id,
        mistake_id,
        text_id,
        sentence_id,
        doc_token_start,
        doc_token_end,
        previous_end,
        next_start,
        category,
        sent_token_end - sent_token_start < doc_token_end - doc_token_start AS runs_on
    FROM mistakes
    WHERE set_id IN (SELECT gold_id FROM evaluations WHERE submission_id = ANY($submission_ids))
),

-- Each pair once, with both mistakes (as structs)
pairs AS (
    SELECT submitted.submission_id, gold, submitted
    FROM submitted
    JOIN gold
        ON gold.set_id = submitted.gold_id
        AND gold.text_id = submitted.text_id
        AND gold.sentence_id = submitted.sentence_id
        AND gold.doc_token_start <= submitted.doc_token_end
        AND submitted.doc_token_start <= gold.doc_token_end
    WHERE NOT gold.runs_on AND NOT submitted.runs_on
    UNION ALL
    SELECT submitted.submission_id, gold, submitted
    FROM submitted
    JOIN gold
        ON gold.set_id = submitted.gold_id
        AND gold.text_id = submitted.text_id
        AND gold.doc_token_start <= submitted.doc_token_end
        AND submitted.doc_token_start <= gold.doc_token_end
    WHERE gold.runs_on
    UNION ALL
    SELECT submitted.submission_id, gold, submitted
    FROM submitted
    JOIN gold
        ON gold.set_id = submitted.gold_id
        AND gold.text_id = submitted.text_id
        AND gold.doc_token_start <= submitted.doc_token_end
        AND submitted.doc_token_start <= gold.doc_token_end
    WHERE submitted.runs_on AND NOT gold.runs_on
)

SELECT
    submission_id,
    gold.mistake_id AS gold_mistake_id,
    submitted.mistake_id AS submitted_mistake_id,
    CASE WHEN gold.category = submitted.category THEN gold.category END AS shared_category,
    least(gold.doc_token_end, submitted.doc_token_end)
        - greatest(gold.doc_token_start, submitted.doc_token_start) + 1 AS overlap_tokens,
    coalesce(
        submitted.previous_end < gold.doc_token_start AND submitted.next_start > gold.doc_token_end
        AND gold.previous_end < submitted.doc_token_start AND gold.next_start > submitted.doc_token_end,
        FALSE
    ) AS one_to_one
FROM pairs
