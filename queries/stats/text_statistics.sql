-- The sufficient statistics of every score, text by text: what each figure of scores sums up, so that every
-- statistic (bootstrap intervals, paired tests, correlations) starts from one place.
-- Grain: one row per (submission, scope, text of the submission's split); a text with no mistake on either side
-- is there with zeros. Columns: submission_id, submission, split, scope, position (of the scope), text_id,
-- matched (gold mistakes of the text that took a submitted mistake), gold, submitted (mistakes each list has in the
-- text), token_matched (tokens of the text both lists mark), gold_tokens, submitted_tokens.
-- The sums over a submission's texts are the counts of scores (tests/test_statistics.py checks it): a mistake lies
-- in one text, and so does each pair of intersecting spans.
WITH list_sizes AS (
    SELECT
        set_id,
        text_id,
        coalesce(category, 'ALL') AS scope,
        count(*) AS mistakes,
        sum(doc_token_end - doc_token_start + 1)::BIGINT AS tokens
    FROM mistakes
    GROUP BY GROUPING SETS ((set_id, text_id), (set_id, text_id, category))
),

matched AS (
    SELECT matches.submission_id, matches.scope, gold.text_id, count(*) AS matched
    FROM candidate_matches AS matches
    JOIN mistakes AS gold ON gold.mistake_id = matches.gold_mistake_id
    WHERE matches.submitted_mistake_id IS NOT NULL
    GROUP BY matches.submission_id, matches.scope, gold.text_id
),

both_marked AS (
    SELECT pairs.submission_id, pairs.scope, gold.text_id, sum(pairs.overlap_tokens)::BIGINT AS token_matched
    FROM scoped_overlaps AS pairs
    JOIN mistakes AS gold ON gold.mistake_id = pairs.gold_mistake_id
    GROUP BY pairs.submission_id, pairs.scope, gold.text_id
)

SELECT
    evaluations.submission_id,
    evaluations.submission,
    evaluations.split,
    scopes.scope,
    scopes.position,
    texts.text_id,
    coalesce(matched.matched, 0) AS matched,
    coalesce(gold.mistakes, 0) AS gold,
    coalesce(submitted.mistakes, 0) AS submitted,
    coalesce(both_marked.token_matched, 0) AS token_matched,
    coalesce(gold.tokens, 0) AS gold_tokens,
    coalesce(submitted.tokens, 0) AS submitted_tokens
FROM evaluations
CROSS JOIN scopes
JOIN texts ON texts.split = evaluations.split
LEFT JOIN list_sizes AS gold
    ON gold.set_id = evaluations.gold_id AND gold.text_id = texts.text_id AND gold.scope = scopes.scope
LEFT JOIN list_sizes AS submitted
    ON submitted.set_id = evaluations.submission_id AND submitted.text_id = texts.text_id
    AND submitted.scope = scopes.scope
LEFT JOIN matched
    ON matched.submission_id = evaluations.submission_id AND matched.scope = scopes.scope
    AND matched.text_id = texts.text_id
LEFT JOIN both_marked
    ON both_marked.submission_id = evaluations.submission_id AND both_marked.scope = scopes.scope
    AND both_marked.text_id = texts.text_id
