-- The counts of every match scheme but the shared task's (whose per-text counts are text_statistics), text by
-- text: nervaluate's COR, INC, PAR, MIS, SPU of the pairs of scheme_pairings, and the units both lists mark under
-- the token and character schemes. scheme_counts holds their sums over the texts,
-- and the bootstrap intervals and paired tests of another scheme resample them (accuracy_db/stats/intervals.py).
-- Grain: one row per (scheme, submission, scope, text in which the gold list or the submission has a mistake in
-- the scope); a text with no mistake on either side has no row: its counts are all 0.
-- Key: scheme, submission_id, scope, text_id
-- Columns:
--   scheme: strict, exact, partial, ent_type, token-hard, token-soft, char-hard or char-soft.
--   submission_id: The submission (annotation_sets.set_id).
--   scope: ALL, or the category both lists are filtered to (scopes.scope).
--   text_id: The text (texts.text_id).
--   matched: The numerator of recall and precision: COR (strict, exact) or COR + 0.5 PAR (partial, ent_type), as
--     nervaluate computes them; the units both lists mark (token and character schemes; hard: with the same
--     category).
--   gold_total: The gold mistakes of the text in the scope (nervaluate's POS), or the units the gold list marks.
--   submitted_total: The submitted mistakes of the text in the scope (nervaluate's ACT), or the units the
--     submission marks.
--   correct: nervaluate's COR; NULL for the token and character schemes.
--   incorrect: nervaluate's INC; NULL for the token and character schemes.
--   partial: nervaluate's PAR; NULL for the token and character schemes.
--   missed: nervaluate's MIS; NULL for the token and character schemes.
--   spurious: nervaluate's SPU; NULL for the token and character schemes.
-- A mistake lies in one text, and so does each pair of mistakes and each stretch two spans share, so the counts
-- of a text are those of its own mistakes, and they add up over the texts. The schemes' rules:
--  * strict: correct when the two have the same span and the same category, else incorrect;
--  * exact: correct when they have the same span, else incorrect (the category is not read);
--  * partial: correct when they have the same span, else partial (the category is not read);
--  * ent_type: correct when they have the same category, else incorrect (pairs taken by the closest rule);
--  * token and character schemes: how many units (tokens, or characters as token_characters defines them) each
--    list marks, and how many both mark. Hard: a unit counts as marked by both only when the two mistakes that
--    mark it have the same category; soft: whatever their categories. In a category's scope both lists are
--    filtered to the category first, so there hard and soft agree. Spans within one list are disjoint, so the
--    overlaps of span pairs add up to the units both lists mark.
-- Each scheme is a branch of its own with its name as a constant, so that a query for one scheme computes only its
-- own counts: the token schemes read no characters, and the leftmost pairing is not computed for ent_type.
WITH list_sizes AS NOT MATERIALIZED (
    SELECT
        set_id,
        text_id,
        coalesce(category, 'ALL') AS scope,
        count(*) AS mistakes,
        sum(doc_token_end - doc_token_start + 1) AS tokens
    FROM thresholded_mistakes AS mistakes
    WHERE set_id IN (SELECT gold_id FROM evaluations UNION SELECT submission_id FROM evaluations)
    GROUP BY GROUPING SETS ((set_id, text_id), (set_id, text_id, category))
),

-- the texts of each submission and scope in which either list has a mistake, with both lists' sizes there
text_sizes AS NOT MATERIALIZED (
    SELECT
        submission_id,
        scope,
        text_id,
        sum(gold_mistakes) AS gold_mistakes,
        sum(submitted_mistakes) AS submitted_mistakes,
        sum(gold_tokens) AS gold_tokens,
        sum(submitted_tokens) AS submitted_tokens
    FROM (
        SELECT
            evaluations.submission_id,
            evaluations.corpus,
            sizes.scope,
            sizes.text_id,
            sizes.mistakes AS gold_mistakes,
            0 AS submitted_mistakes,
            sizes.tokens AS gold_tokens,
            0 AS submitted_tokens
        FROM evaluations
        JOIN list_sizes AS sizes ON sizes.set_id = evaluations.gold_id
        -- the gold's mistakes in the texts the submission covers (list_texts)
        LEFT JOIN list_coverage AS coverage
            ON NOT evaluations.covers_split AND coverage.set_id = evaluations.submission_id
            AND coverage.text_id = sizes.text_id
        WHERE evaluations.covers_split OR coverage.text_id IS NOT NULL
        UNION ALL
        SELECT
            evaluations.submission_id,
            evaluations.corpus,
            sizes.scope,
            sizes.text_id,
            0 AS gold_mistakes,
            sizes.mistakes AS submitted_mistakes,
            0 AS gold_tokens,
            sizes.tokens AS submitted_tokens
        FROM evaluations
        JOIN list_sizes AS sizes ON sizes.set_id = evaluations.submission_id
    ) AS sides
    JOIN scopes USING (corpus, scope)
    GROUP BY submission_id, scope, text_id
),

leftmost_pairs AS NOT MATERIALIZED (
    SELECT
        submission_id,
        scope,
        text_id,
        count(gold_mistake_id) AS paired,
        count(CASE WHEN same_span AND same_category THEN 1 END) AS same_span_and_category,
        count(CASE WHEN same_span THEN 1 END) AS same_span
    FROM scheme_pairings
    WHERE pairing = 'leftmost'
    GROUP BY submission_id, scope, text_id
),

closest_pairs AS NOT MATERIALIZED (
    SELECT
        submission_id,
        scope,
        text_id,
        count(gold_mistake_id) AS paired,
        count(CASE WHEN same_category THEN 1 END) AS same_category
    FROM scheme_pairings
    WHERE pairing = 'closest'
    GROUP BY submission_id, scope, text_id
),

-- nervaluate's counts: correct, incorrect and partial pairs by the scheme's rule
pair_counts AS NOT MATERIALIZED (
    SELECT
        'strict' AS scheme,
        sizes.submission_id,
        sizes.scope,
        sizes.text_id,
        coalesce(pairs.same_span_and_category, 0) AS correct,
        coalesce(pairs.paired - pairs.same_span_and_category, 0) AS incorrect,
        0 AS partial,
        coalesce(pairs.paired, 0) AS paired,
        sizes.gold_mistakes,
        sizes.submitted_mistakes
    FROM text_sizes AS sizes
    LEFT JOIN leftmost_pairs AS pairs USING (submission_id, scope, text_id)
    UNION ALL
    SELECT
        'exact' AS scheme,
        sizes.submission_id,
        sizes.scope,
        sizes.text_id,
        coalesce(pairs.same_span, 0) AS correct,
        coalesce(pairs.paired - pairs.same_span, 0) AS incorrect,
        0 AS partial,
        coalesce(pairs.paired, 0) AS paired,
        sizes.gold_mistakes,
        sizes.submitted_mistakes
    FROM text_sizes AS sizes
    LEFT JOIN leftmost_pairs AS pairs USING (submission_id, scope, text_id)
    UNION ALL
    SELECT
        'partial' AS scheme,
        sizes.submission_id,
        sizes.scope,
        sizes.text_id,
        coalesce(pairs.same_span, 0) AS correct,
        0 AS incorrect,
        coalesce(pairs.paired - pairs.same_span, 0) AS partial,
        coalesce(pairs.paired, 0) AS paired,
        sizes.gold_mistakes,
        sizes.submitted_mistakes
    FROM text_sizes AS sizes
    LEFT JOIN leftmost_pairs AS pairs USING (submission_id, scope, text_id)
    UNION ALL
    SELECT
        'ent_type' AS scheme,
        sizes.submission_id,
        sizes.scope,
        sizes.text_id,
        coalesce(pairs.same_category, 0) AS correct,
        coalesce(pairs.paired - pairs.same_category, 0) AS incorrect,
        0 AS partial,
        coalesce(pairs.paired, 0) AS paired,
        sizes.gold_mistakes,
        sizes.submitted_mistakes
    FROM text_sizes AS sizes
    LEFT JOIN closest_pairs AS pairs USING (submission_id, scope, text_id)
),

-- the tokens both lists mark, in the gold mistake's text
token_marks AS NOT MATERIALIZED (
    SELECT
        span_pair.submission_id,
        'ALL' AS scope,
        gold.text_id,
        sum(span_pair.overlap_tokens) AS soft,
        sum(CASE WHEN span_pair.shared_category IS NOT NULL THEN span_pair.overlap_tokens ELSE 0 END) AS hard
    FROM span_overlaps AS span_pair
    JOIN thresholded_mistakes AS gold ON gold.mistake_id = span_pair.gold_mistake_id
    GROUP BY span_pair.submission_id, gold.text_id
    UNION ALL
    SELECT
        span_pair.submission_id,
        span_pair.shared_category AS scope,
        gold.text_id,
        sum(span_pair.overlap_tokens) AS soft,
        sum(span_pair.overlap_tokens) AS hard
    FROM span_overlaps AS span_pair
    JOIN thresholded_mistakes AS gold ON gold.mistake_id = span_pair.gold_mistake_id
    WHERE span_pair.shared_category IS NOT NULL
    GROUP BY span_pair.submission_id, span_pair.shared_category, gold.text_id
),

-- The characters of the spans: of the stretch two spans share (both, per submission, shared category and text; from
-- the first token both mark, the later start, to the last, the later start plus the tokens they share less one, in
-- the gold mistake's text), and of each list's mistakes (list, per list, category and text). Each stretch is looked
-- up as its two edge tokens in one join, so that token_characters is computed once.
span_edges AS NOT MATERIALIZED (
    SELECT
        'both' AS kind,
        span_pair.submission_id AS set_id,
        span_pair.shared_category AS category,
        gold.text_id,
        greatest(span_pair.gold_start, span_pair.submitted_start) AS first_token,
        greatest(span_pair.gold_start, span_pair.submitted_start) + span_pair.overlap_tokens - 1 AS last_token
    FROM span_overlaps AS span_pair
    JOIN thresholded_mistakes AS gold ON gold.mistake_id = span_pair.gold_mistake_id
    UNION ALL
    SELECT
        'list' AS kind,
        set_id,
        category,
        text_id,
        doc_token_start AS first_token,
        doc_token_end AS last_token
    FROM thresholded_mistakes AS mistakes
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
        edge_tokens.text_id,
        sum(CASE WHEN edge_tokens.edge = 'last' THEN token.char_end ELSE -token.char_start END) AS characters
    FROM edge_tokens
    JOIN token_characters AS token ON token.text_id = edge_tokens.text_id AND token.doc_token = edge_tokens.doc_token
    GROUP BY edge_tokens.kind, edge_tokens.set_id, edge_tokens.category, edge_tokens.text_id
),

character_marks AS NOT MATERIALIZED (
    SELECT
        set_id AS submission_id,
        'ALL' AS scope,
        text_id,
        sum(characters) AS soft,
        sum(CASE WHEN category IS NOT NULL THEN characters ELSE 0 END) AS hard
    FROM edge_characters
    WHERE kind = 'both'
    GROUP BY set_id, text_id
    UNION ALL
    SELECT
        set_id AS submission_id,
        category AS scope,
        text_id,
        characters AS soft,
        characters AS hard
    FROM edge_characters
    WHERE kind = 'both' AND category IS NOT NULL
),

list_characters AS NOT MATERIALIZED (
    SELECT set_id, 'ALL' AS scope, text_id, sum(characters) AS characters
    FROM edge_characters
    WHERE kind = 'list'
    GROUP BY set_id, text_id
    UNION ALL
    SELECT set_id, category AS scope, text_id, characters
    FROM edge_characters
    WHERE kind = 'list'
),

character_sizes AS NOT MATERIALIZED (
    SELECT
        sizes.submission_id,
        sizes.scope,
        sizes.text_id,
        coalesce(gold_characters.characters, 0) AS gold_total,
        coalesce(submitted_characters.characters, 0) AS submitted_total
    FROM text_sizes AS sizes
    JOIN evaluations ON evaluations.submission_id = sizes.submission_id
    LEFT JOIN list_characters AS gold_characters
        ON gold_characters.set_id = evaluations.gold_id AND gold_characters.scope = sizes.scope
        AND gold_characters.text_id = sizes.text_id
    LEFT JOIN list_characters AS submitted_characters
        ON submitted_characters.set_id = evaluations.submission_id AND submitted_characters.scope = sizes.scope
        AND submitted_characters.text_id = sizes.text_id
),

unit_counts AS NOT MATERIALIZED (
    SELECT
        'token-hard' AS scheme,
        sizes.submission_id,
        sizes.scope,
        sizes.text_id,
        coalesce(marks.hard, 0) AS matched,
        sizes.gold_tokens AS gold_total,
        sizes.submitted_tokens AS submitted_total
    FROM text_sizes AS sizes
    LEFT JOIN token_marks AS marks USING (submission_id, scope, text_id)
    UNION ALL
    SELECT
        'token-soft' AS scheme,
        sizes.submission_id,
        sizes.scope,
        sizes.text_id,
        coalesce(marks.soft, 0) AS matched,
        sizes.gold_tokens AS gold_total,
        sizes.submitted_tokens AS submitted_total
    FROM text_sizes AS sizes
    LEFT JOIN token_marks AS marks USING (submission_id, scope, text_id)
    UNION ALL
    SELECT
        'char-hard' AS scheme,
        sizes.submission_id,
        sizes.scope,
        sizes.text_id,
        coalesce(marks.hard, 0) AS matched,
        sizes.gold_total,
        sizes.submitted_total
    FROM character_sizes AS sizes
    LEFT JOIN character_marks AS marks USING (submission_id, scope, text_id)
    UNION ALL
    SELECT
        'char-soft' AS scheme,
        sizes.submission_id,
        sizes.scope,
        sizes.text_id,
        coalesce(marks.soft, 0) AS matched,
        sizes.gold_total,
        sizes.submitted_total
    FROM character_sizes AS sizes
    LEFT JOIN character_marks AS marks USING (submission_id, scope, text_id)
)

SELECT
    scheme,
    submission_id,
    scope,
    text_id,
    (correct + 0.5 * partial)::DOUBLE AS matched,
    gold_mistakes::BIGINT AS gold_total,
    submitted_mistakes::BIGINT AS submitted_total,
    correct::BIGINT AS correct,
    incorrect::BIGINT AS incorrect,
    partial::BIGINT AS partial,
    (gold_mistakes - paired)::BIGINT AS missed,
    (submitted_mistakes - paired)::BIGINT AS spurious
FROM pair_counts
UNION ALL
SELECT
    scheme,
    submission_id,
    scope,
    text_id,
    matched::DOUBLE AS matched,
    gold_total::BIGINT AS gold_total,
    submitted_total::BIGINT AS submitted_total,
    NULL::BIGINT AS correct,
    NULL::BIGINT AS incorrect,
    NULL::BIGINT AS partial,
    NULL::BIGINT AS missed,
    NULL::BIGINT AS spurious
FROM unit_counts
