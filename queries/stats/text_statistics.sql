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
WITH evaluated AS (
    SELECT submission_id, submission, split, gold_id, corpus
    FROM evaluations
    WHERE submission_id = ANY($submission_ids)
),

list_sizes AS (
    SELECT
        set_id,
        text_id,
        coalesce(category, 'ALL') AS scope,
        count(*) AS mistakes,
        sum(doc_token_end - doc_token_start + 1)::BIGINT AS tokens
    FROM mistakes
    WHERE set_id IN (SELECT submission_id FROM evaluated UNION SELECT gold_id FROM evaluated)
    GROUP BY GROUPING SETS ((set_id, text_id), (set_id, text_id, category))
),

gold_texts AS (
    SELECT mistake_id, text_id
    FROM mistakes
    WHERE set_id IN (SELECT gold_id FROM evaluated)
),

matched AS (
    SELECT matches.submission_id, matches.scope, gold_texts.text_id, count(*) AS matched
    FROM candidate_matches AS matches
    JOIN gold_texts ON gold_texts.mistake_id = matches.gold_mistake_id
    WHERE matches.submission_id = ANY($submission_ids) AND matches.submitted_mistake_id IS NOT NULL
    GROUP BY matches.submission_id, matches.scope, gold_texts.text_id
),

both_marked AS (
    SELECT pairs.submission_id, pairs.scope, gold_texts.text_id, sum(pairs.overlap_tokens)::BIGINT AS token_matched
    FROM scoped_overlaps AS pairs
    JOIN gold_texts ON gold_texts.mistake_id = pairs.gold_mistake_id
    WHERE pairs.submission_id = ANY($submission_ids)
    GROUP BY pairs.submission_id, pairs.scope, gold_texts.text_id
)

SELECT
    evaluated.submission_id,
    evaluated.submission,
    evaluated.split,
    scopes.scope,
    scopes.position,
    texts.text_id,
    coalesce(matched.matched, 0) AS matched,
    coalesce(gold.mistakes, 0) AS gold,
    coalesce(submitted.mistakes, 0) AS submitted,
    coalesce(both_marked.token_matched, 0) AS token_matched,
    coalesce(gold.tokens, 0) AS gold_tokens,
    coalesce(submitted.tokens, 0) AS submitted_tokens
FROM evaluated
JOIN scopes USING (corpus)
JOIN texts ON texts.corpus = evaluated.corpus AND texts.split = evaluated.split
LEFT JOIN list_sizes AS gold
    ON gold.set_id = evaluated.gold_id AND gold.text_id = texts.text_id AND gold.scope = scopes.scope
LEFT JOIN list_sizes AS submitted
    ON submitted.set_id = evaluated.submission_id AND submitted.text_id = texts.text_id
    AND submitted.scope = scopes.scope
LEFT JOIN matched
    ON matched.submission_id = evaluated.submission_id AND matched.scope = scopes.scope
    AND matched.text_id = texts.text_id
LEFT JOIN both_marked
    ON both_marked.submission_id = evaluated.submission_id AND both_marked.scope = scopes.scope
    AND both_marked.text_id = texts.text_id
