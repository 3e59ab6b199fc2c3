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
-- Each scheme is a branch of its own with its name as a constant, so that a query for one scheme computes only its
-- own counts: the token schemes read no characters. Hard matches in ALL are the pairs that share a category.
WITH token_marks AS NOT MATERIALIZED (
    SELECT
        submission_id,
        'ALL' AS scope,
        sum(overlap_tokens) AS soft,
        sum(CASE WHEN shared_category IS NOT NULL THEN overlap_tokens ELSE 0 END) AS hard
    FROM span_overlaps
    GROUP BY submission_id
    UNION ALL
    SELECT
        submission_id,
        shared_category AS scope,
        sum(overlap_tokens) AS soft,
        sum(overlap_tokens) AS hard
    FROM span_overlaps
    WHERE shared_category IS NOT NULL
    GROUP BY submission_id, shared_category
),

-- The characters of the spans: of the stretch two spans share (both, per submission and shared category; from
-- the first token both mark, the later start, to the last, the later start plus the tokens they share less one, in
-- the gold mistake's text), and of each list's mistakes (list, per list and category). Each stretch is looked up
-- as its two edge tokens in one join, so that token_characters is computed once.
span_edges AS NOT MATERIALIZED (
    SELECT
        'both' AS kind,
        span_pair.submission_id AS set_id,
        span_pair.shared_category AS category,
        gold.text_id,
        greatest(span_pair.gold_start, span_pair.submitted_start) AS first_token,
        greatest(span_pair.gold_start, span_pair.submitted_start) + span_pair.overlap_tokens - 1 AS last_token
    FROM span_overlaps AS span_pair
    JOIN mistakes AS gold ON gold.mistake_id = span_pair.gold_mistake_id
    UNION ALL
    SELECT
        'list' AS kind,
        set_id,
        category,
        text_id,
        doc_token_start AS first_token,
        doc_token_end AS last_token
    FROM mistakes
    WHERE set_id IN (SELECT gold_id FROM evaluations UNION SELECT submission_id FROM evaluations)
),

-- each stretch's two edges, a row each
edge_tokens AS NOT MATERIALIZED (
    SELECT kind, set_id, category, text_id, 'first' AS edge, first_token AS doc_token
    FROM span_edges
    UNION ALL
    SELECT kind, set_id, category, text_id, 'last' AS edge, last_token AS doc_token
    FROM span_edges
),

edge_characters AS (
    SELECT
        edge_tokens.kind,
        edge_tokens.set_id,
        edge_tokens.category,
        sum(CASE WHEN edge_tokens.edge = 'last' THEN token.char_end ELSE -token.char_start END) AS characters
    FROM edge_tokens
    JOIN token_characters AS token ON token.text_id = edge_tokens.text_id AND token.doc_token = edge_tokens.doc_token
    GROUP BY edge_tokens.kind, edge_tokens.set_id, edge_tokens.category
),

character_marks AS NOT MATERIALIZED (
    SELECT
        set_id AS submission_id,
        'ALL' AS scope,
        sum(characters) AS soft,
        sum(CASE WHEN category IS NOT NULL THEN characters ELSE 0 END) AS hard
    FROM edge_characters
    WHERE kind = 'both'
    GROUP BY set_id
    UNION ALL
    SELECT
        set_id AS submission_id,
        category AS scope,
        characters AS soft,
        characters AS hard
    FROM edge_characters
    WHERE kind = 'both' AND category IS NOT NULL
),

list_characters AS NOT MATERIALIZED (
    SELECT set_id, 'ALL' AS scope, sum(characters) AS characters
    FROM edge_characters
    WHERE kind = 'list'
    GROUP BY set_id
    UNION ALL
    SELECT set_id, category AS scope, characters
    FROM edge_characters
    WHERE kind = 'list'
),

character_sizes AS NOT MATERIALIZED (
    SELECT
        sizes.submission_id,
        sizes.scope,
        coalesce(gold_characters.characters, 0) AS gold_total,
        coalesce(submitted_characters.characters, 0) AS submitted_total
    FROM scoped_list_sizes AS sizes
    JOIN evaluations ON evaluations.submission_id = sizes.submission_id
    LEFT JOIN list_characters AS gold_characters
        ON gold_characters.set_id = evaluations.gold_id AND gold_characters.scope = sizes.scope
    LEFT JOIN list_characters AS submitted_characters
        ON submitted_characters.set_id = evaluations.submission_id AND submitted_characters.scope = sizes.scope
),

counts AS (
    SELECT
        'token-hard' AS scheme,
        sizes.submission_id,
        sizes.scope,
        coalesce(marks.hard, 0) AS matched,
        sizes.gold_tokens AS gold_total,
        sizes.submitted_tokens AS submitted_total
    FROM scoped_list_sizes AS sizes
    LEFT JOIN token_marks AS marks ON marks.submission_id = sizes.submission_id AND marks.scope = sizes.scope
    UNION ALL
    SELECT
        'token-soft' AS scheme,
        sizes.submission_id,
        sizes.scope,
        coalesce(marks.soft, 0) AS matched,
        sizes.gold_tokens AS gold_total,
        sizes.submitted_tokens AS submitted_total
    FROM scoped_list_sizes AS sizes
    LEFT JOIN token_marks AS marks ON marks.submission_id = sizes.submission_id AND marks.scope = sizes.scope
    UNION ALL
    SELECT
        'char-hard' AS scheme,
        sizes.submission_id,
        sizes.scope,
        coalesce(marks.hard, 0) AS matched,
        sizes.gold_total,
        sizes.submitted_total
    FROM character_sizes AS sizes
    LEFT JOIN character_marks AS marks ON marks.submission_id = sizes.submission_id AND marks.scope = sizes.scope
    UNION ALL
    SELECT
        'char-soft' AS scheme,
        sizes.submission_id,
        sizes.scope,
        coalesce(marks.soft, 0) AS matched,
        sizes.gold_total,
        sizes.submitted_total
    FROM character_sizes AS sizes
    LEFT JOIN character_marks AS marks ON marks.submission_id = sizes.submission_id AND marks.scope = sizes.scope
)

SELECT
    scheme,
    submission_id,
    scope,
    matched::BIGINT AS matched,
    gold_total::BIGINT AS gold_total,
    submitted_total::BIGINT AS submitted_total
FROM counts
