-- The sufficient statistics of every score, text by text: what each figure of scores sums up, so that every
-- statistic (bootstrap intervals, paired tests, correlations) starts from one place.
-- Materialized: incremental (a table; a submission's rows are computed when it is loaded, removed with it: the
-- rows of the submissions in $submission_ids. Resampling reads a few submissions' rows at a time, which a view
-- would compute for every list first: 10 s at scale 1000, against a fraction of a second read from the table.)
-- Grain: one row per (submission, scope, text of the submission's split); a text with no mistake on either side
-- is there with zeros.
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   submission: The submission's name (the file stem).
--   split: train or test: the split of the submission and of its gold list.
--   scope: ALL, or the category both lists are filtered to (scopes.scope).
--   position: The scope's report order: ALL 0, NAME 1 … OTHER 6.
--   text_id: The text (texts.text_id).
--   matched: How many gold mistakes of the text took a submitted mistake.
--   gold: How many gold mistakes the text has in the scope.
--   submitted: How many submitted mistakes the text has in the scope.
--   token_matched: How many tokens of the text both lists mark.
--   gold_tokens: How many tokens of the text the gold list marks.
--   submitted_tokens: How many tokens of the text the submission marks.
-- The sums over a submission's texts are the counts of scores (tests/test_statistics.py checks it): a mistake lies
-- in one text, and so does each pair of intersecting spans.
-- The rows are stored in the order the validity counts read them (queries/analysis/validity_counts.sql: by split,
-- test first, submission, scope and text), which makes that query's sort of millions of rows cheap; integer ranks
-- order them, as sorting by the names themselves takes seconds.
WITH evaluated AS (
    SELECT
        submission_id,
        submission,
        split,
        gold_id,
        corpus,
        dense_rank() OVER (ORDER BY split DESC, submission) AS submission_rank
    FROM evaluations
    WHERE submission_id = ANY($submission_ids)
),

ranked_texts AS (
    SELECT corpus, split, text_id, row_number() OVER (ORDER BY text_id) AS text_rank
    FROM texts
),

gold_sizes AS (
    SELECT
        set_id AS gold_id,
        text_id,
        coalesce(category, 'ALL') AS scope,
        count(*) AS mistakes,
        sum(doc_token_end - doc_token_start + 1)::BIGINT AS tokens
    FROM mistakes
    WHERE set_id IN (SELECT gold_id FROM evaluated)
    GROUP BY GROUPING SETS ((set_id, text_id), (set_id, text_id, category))
),

gold_texts AS (
    SELECT mistake_id, text_id
    FROM mistakes
    WHERE set_id IN (SELECT gold_id FROM evaluated)
),

-- What each submitted mistake, each pair of intersecting spans and each contested match adds to the figures of
-- its text, under the category it counts in besides ALL (NULL: none). A one-to-one pair is a match in ALL and, when
-- the two agree on it, in their category; candidate_matches is these pairs and contested_matches.
parts AS (
    SELECT
        set_id AS submission_id,
        text_id,
        category,
        1 AS submitted,
        doc_token_end - doc_token_start + 1 AS submitted_tokens,
        0 AS matched_in_all,
        0 AS matched_in_category,
        0 AS token_matched
    FROM mistakes
    WHERE set_id = ANY($submission_ids)
    UNION ALL
    SELECT
        pairs.submission_id,
        gold_texts.text_id,
        pairs.shared_category,
        0,
        0,
        CASE WHEN pairs.one_to_one THEN 1 ELSE 0 END,
        CASE WHEN pairs.one_to_one THEN 1 ELSE 0 END,
        pairs.overlap_tokens
    FROM span_overlaps AS pairs
    JOIN gold_texts ON gold_texts.mistake_id = pairs.gold_mistake_id
    WHERE pairs.submission_id = ANY($submission_ids)
    UNION ALL
    SELECT
        matches.submission_id,
        gold_texts.text_id,
        CASE WHEN matches.scope <> 'ALL' THEN matches.scope END,
        0,
        0,
        CASE WHEN matches.scope = 'ALL' THEN 1 ELSE 0 END,
        CASE WHEN matches.scope <> 'ALL' THEN 1 ELSE 0 END,
        0
    FROM contested_matches AS matches
    JOIN gold_texts ON gold_texts.mistake_id = matches.gold_mistake_id
    WHERE matches.submission_id = ANY($submission_ids) AND matches.submitted_mistake_id IS NOT NULL
),

-- the submission's figures of each (scope, text) it adds to, in one row: one join with the texts, not one a figure
submission_sums AS (
    SELECT
        submission_id,
        text_id,
        CASE WHEN grouping(category) = 1 THEN 'ALL' ELSE category END AS scope,
        sum(submitted)::BIGINT AS submitted,
        sum(submitted_tokens)::BIGINT AS submitted_tokens,
        CASE WHEN grouping(category) = 1 THEN sum(matched_in_all) ELSE sum(matched_in_category) END::BIGINT AS matched,
        sum(token_matched)::BIGINT AS token_matched
    FROM parts
    GROUP BY GROUPING SETS ((submission_id, text_id), (submission_id, text_id, category))
)

SELECT
    evaluated.submission_id,
    evaluated.submission,
    evaluated.split,
    scopes.scope,
    scopes.position,
    texts.text_id,
    coalesce(sums.matched, 0) AS matched,
    coalesce(gold.mistakes, 0) AS gold,
    coalesce(sums.submitted, 0) AS submitted,
    coalesce(sums.token_matched, 0) AS token_matched,
    coalesce(gold.tokens, 0) AS gold_tokens,
    coalesce(sums.submitted_tokens, 0) AS submitted_tokens
FROM evaluated
JOIN scopes USING (corpus)
JOIN ranked_texts AS texts ON texts.corpus = evaluated.corpus AND texts.split = evaluated.split
LEFT JOIN gold_sizes AS gold
    ON gold.gold_id = evaluated.gold_id AND gold.text_id = texts.text_id AND gold.scope = scopes.scope
LEFT JOIN submission_sums AS sums
    ON sums.submission_id = evaluated.submission_id AND sums.scope = scopes.scope AND sums.text_id = texts.text_id
ORDER BY evaluated.submission_rank, scopes.position, texts.text_rank
