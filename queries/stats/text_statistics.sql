-- The sufficient statistics of every score, text by text: what each figure of scores sums up, so that every
-- statistic (bootstrap intervals, paired tests, correlations) starts from one place.
-- Materialized: incremental (a table; a submission's rows are computed when it is loaded, removed with it: the
-- rows of the submissions in $submission_ids. Resampling reads a few submissions' rows at a time, which a view
-- would compute for every list first: many times as long as read from the table, benchmarks/results/code-timings.md.)
-- Grain: one row per (submission, scope, text of the submission's split); a text with no mistake on either side
-- is there with zeros, and so is a text a submission covering part of its split does not cover (list_texts): its
-- gold mistakes are not counted, and a trial that draws it adds nothing to the submission's sums.
-- Key: submission_id, scope, text_id
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
-- Keyed on integers (the text's rank, the scope's position), each part summed once: by category, a text's ALL
-- row summing its category rows (GROUPING SETS summed the 21 million parts of scale 1000 twice). The zeros come
-- from a grid of each gold list's (scope, text) carrying the gold figures, which each submission's sums join
-- (before: two joins on the text and scope names against a grid of every submission's rows). Scale 1000, the 10
-- submissions' INSERT takes less CPU and a third less memory (benchmarks/results/code-timings.md).
WITH evaluated AS (
    SELECT
        submission_id,
        submission,
        split,
        gold_id,
        corpus,
        covers_split,
        dense_rank() OVER (ORDER BY split DESC, submission) AS submission_rank
    FROM evaluations
    WHERE submission_id = ANY($submission_ids)
),

-- the gold lists the submissions are scored against; a gold list is that of one corpus and split
gold_lists AS (
    SELECT DISTINCT gold_id, corpus, split
    FROM evaluated
),

-- texts by an integer: the key of the sums and of the joins below, and the order of the rows
ranked_texts AS (
    SELECT corpus, split, text_id, row_number() OVER (ORDER BY text_id) AS text_rank
    FROM texts
),

-- the text of each gold mistake, which is also that of the pairs and matches it is in
gold_texts AS (
    SELECT
        mistakes.set_id AS gold_id,
        mistakes.mistake_id,
        texts.text_rank,
        mistakes.category,
        mistakes.doc_token_end - mistakes.doc_token_start + 1 AS tokens
    FROM thresholded_mistakes AS mistakes
    JOIN ranked_texts AS texts USING (text_id)
    WHERE mistakes.set_id IN (SELECT gold_id FROM gold_lists)
),

-- What each submitted mistake, each pair of intersecting spans and each contested match adds to the figures of
-- its text, under the category it counts in besides ALL (NULL: none). A one-to-one pair is a match in ALL and, when
-- the two agree on it, in their category; candidate_matches is these pairs and contested_matches.
parts AS (
    SELECT
        mistakes.set_id AS submission_id,
        texts.text_rank,
        mistakes.category,
        1 AS submitted,
        mistakes.doc_token_end - mistakes.doc_token_start + 1 AS submitted_tokens,
        0 AS matched_in_all,
        0 AS matched_in_category,
        0 AS token_matched
    FROM thresholded_mistakes AS mistakes
    JOIN ranked_texts AS texts USING (text_id)
    WHERE mistakes.set_id = ANY($submission_ids)
    UNION ALL
    SELECT
        pairs.submission_id,
        gold_texts.text_rank,
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
        gold_texts.text_rank,
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

-- the parts summed by (submission, text, category the part counts in besides ALL): each part once
category_sums AS (
    SELECT
        submission_id,
        text_rank,
        category,
        sum(submitted)::BIGINT AS submitted,
        sum(submitted_tokens)::BIGINT AS submitted_tokens,
        sum(matched_in_all)::BIGINT AS matched_in_all,
        sum(matched_in_category)::BIGINT AS matched_in_category,
        sum(token_matched)::BIGINT AS token_matched
    FROM parts
    GROUP BY submission_id, text_rank, category
),

-- the submission's figures of each (scope, text) it adds to: a category's row, and the sum of a text's category
-- rows in ALL (the category NULL counts in ALL only)
submission_sums AS (
    SELECT
        sums.submission_id,
        scopes.position,
        sums.text_rank,
        sums.matched_in_category AS matched,
        sums.submitted,
        sums.token_matched,
        sums.submitted_tokens
    FROM category_sums AS sums
    JOIN evaluated USING (submission_id)
    JOIN scopes ON scopes.corpus = evaluated.corpus AND scopes.scope = sums.category
    UNION ALL
    SELECT
        sums.submission_id,
        scopes.position,
        sums.text_rank,
        sum(sums.matched_in_all)::BIGINT,
        sum(sums.submitted)::BIGINT,
        sum(sums.token_matched)::BIGINT,
        sum(sums.submitted_tokens)::BIGINT
    FROM category_sums AS sums
    JOIN evaluated USING (submission_id)
    JOIN scopes ON scopes.corpus = evaluated.corpus AND scopes.scope = 'ALL'
    GROUP BY sums.submission_id, scopes.position, sums.text_rank
),

-- the gold list's figures of each (scope, text) it has mistakes in: a mistake counts in its category and in ALL
gold_sizes AS (
    SELECT
        gold_texts.gold_id,
        scopes.position,
        gold_texts.text_rank,
        count(*) AS mistakes,
        sum(gold_texts.tokens)::BIGINT AS tokens
    FROM gold_texts
    JOIN gold_lists USING (gold_id)
    JOIN scopes ON scopes.corpus = gold_lists.corpus AND scopes.scope IN (gold_texts.category, 'ALL')
    GROUP BY gold_texts.gold_id, scopes.position, gold_texts.text_rank
),

-- every (scope, text of its split) of each gold list, with its gold figures, zeros included: built once a gold
-- list, not once a submission
gold_grid AS (
    SELECT
        gold_lists.gold_id,
        scopes.scope,
        scopes.position,
        texts.text_rank,
        texts.text_id,
        coalesce(gold.mistakes, 0) AS gold,
        coalesce(gold.tokens, 0) AS gold_tokens
    FROM gold_lists
    JOIN scopes USING (corpus)
    JOIN ranked_texts AS texts ON texts.corpus = gold_lists.corpus AND texts.split = gold_lists.split
    LEFT JOIN gold_sizes AS gold
        ON gold.gold_id = gold_lists.gold_id AND gold.position = scopes.position AND gold.text_rank = texts.text_rank
)

SELECT
    evaluated.submission_id,
    evaluated.submission,
    evaluated.split,
    grid.scope,
    grid.position,
    grid.text_id,
    coalesce(sums.matched, 0) AS matched,
    CASE WHEN evaluated.covers_split OR coverage.text_id IS NOT NULL THEN grid.gold ELSE 0 END AS gold,
    coalesce(sums.submitted, 0) AS submitted,
    coalesce(sums.token_matched, 0) AS token_matched,
    CASE WHEN evaluated.covers_split OR coverage.text_id IS NOT NULL THEN grid.gold_tokens ELSE 0 END AS gold_tokens,
    coalesce(sums.submitted_tokens, 0) AS submitted_tokens
FROM evaluated
JOIN gold_grid AS grid USING (gold_id)
LEFT JOIN list_coverage AS coverage
    ON NOT evaluated.covers_split AND coverage.set_id = evaluated.submission_id AND coverage.text_id = grid.text_id
LEFT JOIN submission_sums AS sums
    ON sums.submission_id = evaluated.submission_id AND sums.position = grid.position
    AND sums.text_rank = grid.text_rank
ORDER BY evaluated.submission_rank, grid.position, grid.text_rank
