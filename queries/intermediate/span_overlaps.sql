-- Pairs of a gold mistake and a submitted mistake whose token ranges intersect, for each submission.
-- Materialized: incremental (a table; a submission's rows are computed when it is loaded, removed with it: the
-- rows of the submissions in $submission_ids).
-- Grain: one row per (submission, gold mistake, submitted mistake) with at least one token in common.
-- Key: submission_id, gold_mistake_id, submitted_mistake_id
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   gold_mistake_id: The gold mistake (mistakes.mistake_id).
--   submitted_mistake_id: The submitted mistake (mistakes.mistake_id).
--   shared_category: The category of both mistakes when they agree, else NULL: the category scope the pair
--     also counts in.
--   gold_start: The first token of the gold mistake (doc_token_start).
--   submitted_start: The first token of the submitted mistake (doc_token_start).
--   overlap_tokens: How many tokens the two spans share.
--   one_to_one: Whether neither mistake intersects any other mistake of the other list.
-- The rest of each mistake is in mistakes.
-- Spans within one list never overlap (the loader refuses such lists), so the overlaps of one
-- list's spans with the other's are disjoint and overlap_tokens add up to a token-level intersection.
-- A mistake's neighbours in its own list (previous_end, next_start) bound the other list's spans it can meet: the
-- pair is one to one when each neighbour of either misses the other. That is most pairs, and the matching
-- settles them at once (candidate_matches); a mistake loaded without its neighbours is never taken for one.
--
-- Two spans that share a token start in the same sentence, unless the one that starts first runs on past the end
-- of its sentence: a span does when its sentence ids cover fewer tokens than its document ids (SENT_TOKEN_END
-- counts in the sentence of the last token). Pairing spans that start in the same sentence, then the few that run
-- on with the spans of later sentences, finds each pair once, at half the cost of pairing every two spans of a
-- text. The few that run on are read from mistakes with the other list's spans, not from the CTEs of the first
-- pairing: DuckDB would plan the three readings of those CTEs as one (its common_subplan optimizer), keep every
-- span of both lists in memory for them, and build a hash table of every submitted span to meet none (at scale
-- 1000 this took a third of the statement's CPU time and twice its memory).
WITH submitted AS (
    SELECT
        evaluations.submission_id,
        evaluations.gold_id,
        mistakes.text_id,
        mistakes.mistake_id AS submitted_mistake_id,
        mistakes.sentence_id AS submitted_sentence,
        mistakes.category AS submitted_category,
        mistakes.doc_token_start AS submitted_start,
        mistakes.doc_token_end AS submitted_end,
        mistakes.previous_end AS submitted_previous_end,
        mistakes.next_start AS submitted_next_start
    FROM evaluations
    JOIN thresholded_mistakes AS mistakes ON mistakes.set_id = evaluations.submission_id
    WHERE evaluations.submission_id = ANY($submission_ids)
),

gold AS (
    SELECT
        set_id AS gold_id,
        text_id,
        mistake_id AS gold_mistake_id,
        sentence_id AS gold_sentence,
        category AS gold_category,
        doc_token_start AS gold_start,
        doc_token_end AS gold_end,
        previous_end AS gold_previous_end,
        next_start AS gold_next_start
    FROM thresholded_mistakes AS mistakes
    WHERE set_id IN (SELECT gold_id FROM evaluations WHERE submission_id = ANY($submission_ids))
),

-- the spans of either list that run on past the end of their sentence
running_on AS (
    SELECT set_id, text_id, mistake_id, sentence_id, category, doc_token_start, doc_token_end, previous_end, next_start
    FROM thresholded_mistakes AS mistakes
    WHERE sent_token_end - sent_token_start < doc_token_end - doc_token_start
        AND set_id IN (
            SELECT submission_id FROM evaluations WHERE submission_id = ANY($submission_ids)
            UNION ALL
            SELECT gold_id FROM evaluations WHERE submission_id = ANY($submission_ids)
        )
),

pairs AS (
    SELECT
        submitted.submission_id, submitted.submitted_mistake_id, submitted.submitted_category, submitted.submitted_start,
        submitted.submitted_end, submitted.submitted_previous_end, submitted.submitted_next_start, gold.gold_mistake_id,
        gold.gold_category, gold.gold_start, gold.gold_end, gold.gold_previous_end, gold.gold_next_start
    FROM submitted
    JOIN gold ON gold.gold_id = submitted.gold_id AND gold.text_id = submitted.text_id
    WHERE gold_sentence = submitted_sentence
        AND gold_start <= submitted_end AND submitted_start <= gold_end
    UNION ALL
    -- a gold span that runs on, with the submitted spans of later sentences
    SELECT
        evaluations.submission_id, later.mistake_id, later.category, later.doc_token_start, later.doc_token_end,
        later.previous_end, later.next_start, runs.mistake_id, runs.category, runs.doc_token_start,
        runs.doc_token_end, runs.previous_end, runs.next_start
    FROM running_on AS runs
    JOIN evaluations ON evaluations.gold_id = runs.set_id AND evaluations.submission_id = ANY($submission_ids)
    JOIN thresholded_mistakes AS later ON later.set_id = evaluations.submission_id AND later.text_id = runs.text_id
    WHERE runs.sentence_id < later.sentence_id
        AND runs.doc_token_start <= later.doc_token_end AND later.doc_token_start <= runs.doc_token_end
    UNION ALL
    -- a submitted span that runs on, with the gold spans of later sentences
    SELECT
        evaluations.submission_id, runs.mistake_id, runs.category, runs.doc_token_start, runs.doc_token_end,
        runs.previous_end, runs.next_start, later.mistake_id, later.category, later.doc_token_start,
        later.doc_token_end, later.previous_end, later.next_start
    FROM running_on AS runs
    JOIN evaluations ON evaluations.submission_id = runs.set_id AND evaluations.submission_id = ANY($submission_ids)
    JOIN thresholded_mistakes AS later ON later.set_id = evaluations.gold_id AND later.text_id = runs.text_id
    WHERE runs.sentence_id < later.sentence_id
        AND runs.doc_token_start <= later.doc_token_end AND later.doc_token_start <= runs.doc_token_end
)

SELECT
    submission_id,
    gold_mistake_id,
    submitted_mistake_id,
    CASE WHEN gold_category = submitted_category THEN gold_category END AS shared_category,
    gold_start,
    submitted_start,
    least(gold_end, submitted_end) - greatest(gold_start, submitted_start) + 1 AS overlap_tokens,
    coalesce(
        submitted_previous_end < gold_start AND submitted_next_start > gold_end
        AND gold_previous_end < submitted_start AND gold_next_start > submitted_end,
        FALSE
    ) AS one_to_one
FROM pairs
