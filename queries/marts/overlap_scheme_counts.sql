-- The counts behind the character- and token-level schemes: how many units (tokens, or characters as
-- token_characters defines them) each list marks, and how many both mark. Hard: a unit counts as marked by both
-- only when the two mistakes that mark it have the same category; soft: whatever their categories. In a
-- category's scope both lists are filtered to the category first, so there hard and soft agree.
-- Grain: one row per (scheme, submission, scope), schemes token-hard, token-soft, char-hard, char-soft.
-- Columns:
--   scheme: token-hard, token-soft, char-hard or char-soft.
--   submission_id: The submission (annotation_sets.set_id).
--   scope: ALL, or the category both lists are filtered to (scopes.scope).
--   matched: The units both lists mark (hard: with the same category).
--   gold_total: The units the gold list marks.
--   submitted_total: The units the submission marks.
-- Spans within one list are disjoint, so the overlaps of span pairs add up to the units both lists mark.
WITH pair_overlaps AS (
    SELECT
        span_pair.submission_id,
        span_pair.shared_category,
        span_pair.overlap_tokens,
        last_token.char_end - first_token.char_start AS overlap_characters
    FROM span_overlaps AS span_pair
    JOIN mistakes AS gold ON gold.mistake_id = span_pair.gold_mistake_id
    JOIN mistakes AS submitted ON submitted.mistake_id = span_pair.submitted_mistake_id
    JOIN token_characters AS first_token
        ON first_token.text_id = gold.text_id
        AND first_token.doc_token = greatest(gold.doc_token_start, submitted.doc_token_start)
    JOIN token_characters AS last_token
        ON last_token.text_id = gold.text_id
        AND last_token.doc_token = least(gold.doc_token_end, submitted.doc_token_end)
),

both_marked AS (
    SELECT
        submission_id,
        'ALL' AS scope,
        sum(overlap_tokens) AS soft_tokens,
        sum(CASE WHEN shared_category IS NOT NULL THEN overlap_tokens ELSE 0 END) AS hard_tokens,
        sum(overlap_characters) AS soft_characters,
        sum(CASE WHEN shared_category IS NOT NULL THEN overlap_characters ELSE 0 END) AS hard_characters
    FROM pair_overlaps
    GROUP BY submission_id
    UNION ALL
    SELECT
        submission_id,
        shared_category AS scope,
        sum(overlap_tokens) AS soft_tokens,
        sum(overlap_tokens) AS hard_tokens,
        sum(overlap_characters) AS soft_characters,
        sum(overlap_characters) AS hard_characters
    FROM pair_overlaps
    WHERE shared_category IS NOT NULL
    GROUP BY submission_id, shared_category
),

list_characters AS (
    SELECT
        mistakes.set_id,
        coalesce(mistakes.category, 'ALL') AS scope,
        sum(last_token.char_end - first_token.char_start) AS characters
    FROM mistakes
    JOIN token_characters AS first_token
        ON first_token.text_id = mistakes.text_id AND first_token.doc_token = mistakes.doc_token_start
    JOIN token_characters AS last_token
        ON last_token.text_id = mistakes.text_id AND last_token.doc_token = mistakes.doc_token_end
    GROUP BY GROUPING SETS ((mistakes.set_id), (mistakes.set_id, mistakes.category))
),

schemes AS (
    SELECT 'token-hard' AS scheme
    UNION ALL
    SELECT 'token-soft' AS scheme
    UNION ALL
    SELECT 'char-hard' AS scheme
    UNION ALL
    SELECT 'char-soft' AS scheme
)

SELECT
    schemes.scheme,
    sizes.submission_id,
    sizes.scope,
    coalesce(
        CASE schemes.scheme
            WHEN 'token-hard' THEN both_marked.hard_tokens
            WHEN 'token-soft' THEN both_marked.soft_tokens
            WHEN 'char-hard' THEN both_marked.hard_characters
            ELSE both_marked.soft_characters
        END,
        0
    )::BIGINT AS matched,
    (CASE WHEN schemes.scheme LIKE 'token-%' THEN sizes.gold_tokens ELSE coalesce(gold_characters.characters, 0) END)::BIGINT
        AS gold_total,
    (
        CASE WHEN schemes.scheme LIKE 'token-%' THEN sizes.submitted_tokens
            ELSE coalesce(submitted_characters.characters, 0) END
    )::BIGINT AS submitted_total
FROM scoped_list_sizes AS sizes
JOIN evaluations ON evaluations.submission_id = sizes.submission_id
CROSS JOIN schemes
LEFT JOIN both_marked ON both_marked.submission_id = sizes.submission_id AND both_marked.scope = sizes.scope
LEFT JOIN list_characters AS gold_characters
    ON gold_characters.set_id = evaluations.gold_id AND gold_characters.scope = sizes.scope
LEFT JOIN list_characters AS submitted_characters
    ON submitted_characters.set_id = evaluations.submission_id AND submitted_characters.scope = sizes.scope
