-- Majority gold: the token spans that at least $min_votes of the annotation sets $set_ids mark, and each set's
-- category on each of them (accuracy-db adjudicate writes the spans as a mistake list; agreement rates the
-- categories with Fleiss' kappa and Krippendorff's alpha).
-- Materialized: query (run with $set_ids, the sets, and $min_votes, the K of "marked by at least K sets").
-- Grain: one row per (majority span, set that marks at least one token of it).
-- Key: text_id, span_start, set_id
-- Columns:
--   text_id: The text (texts.text_id).
--   span_start: The first token of the majority span (doc_token_start).
--   span_end: The last token of the majority span (doc_token_end, inclusive).
--   voters: How many sets mark at least one token of the span.
--   category: The span's category: the one the most sets give it (a set gives a span each category of its marks
--     on the span's tokens); on a tie, the first tied category in its corpus's report order (the shared task's:
--     NAME first), and tied_categories says so.
--   tied_categories: The categories tied for the most votes, joined by |, in report order; NULL without a tie.
--   set_id: The set (annotation_sets.set_id).
--   set_category: The category the set gives the span's tokens; NULL when its marks on them have more than one.
-- The rule (docs/agreement.md, "Majority gold"): a token is kept when at least $min_votes sets mark it; two neighbouring kept
-- tokens are in the same span when at least $min_votes sets mark both with one mistake (join them), else a span ends
-- between them. So K copies of one list give that list back, a mistake that a majority split in two is split, and
-- one that a majority marks whole is whole. Each set's marks within a list are disjoint (the loader refuses
-- overlapping spans), so a set marks a token at most once.
-- Each mark's tokens are the ids from its start to its end (the loader refuses ids beyond a text, so each is a row of
-- tokens): unnested, not joined to tokens by range, which compares every mark with every token of its text.
WITH token_marks AS (
    SELECT set_id, text_id, token::INTEGER AS token, category, token < doc_token_end AS joins_next
    FROM (
        SELECT set_id, text_id, category, doc_token_end, unnest(range(doc_token_start, doc_token_end + 1)) AS token
        FROM mistakes
        WHERE set_id = ANY($set_ids)
    )
),

kept_tokens AS (
    SELECT text_id, token, count(*) FILTER (WHERE joins_next) AS joining_votes
    FROM token_marks
    GROUP BY text_id, token
    HAVING count(*) >= $min_votes
),

-- A kept token starts a span unless the token just before it is kept and joined to it by enough sets.
span_starts AS (
    SELECT
        text_id,
        token,
        coalesce(
            lag(token) OVER by_token = token - 1 AND lag(joining_votes) OVER by_token >= $min_votes, FALSE
        ) AS continues
    FROM kept_tokens
    WINDOW by_token AS (PARTITION BY text_id ORDER BY token)
),

numbered_tokens AS (
    SELECT
        text_id,
        token,
        count(CASE WHEN NOT continues THEN 1 END) OVER (
            PARTITION BY text_id ORDER BY token ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS span_number
    FROM span_starts
),

spans AS (
    SELECT text_id, span_number, min(token) AS span_start, max(token) AS span_end
    FROM numbered_tokens
    GROUP BY text_id, span_number
),

-- Each set's categories on each span's tokens (marks outside the span do not count).
-- A span's tokens are the kept tokens numbered with it (consecutive ones), so its marks are found by token, not range.
set_categories AS (
    SELECT DISTINCT spans.text_id, spans.span_start, spans.span_end, token_marks.set_id, token_marks.category
    FROM spans
    JOIN numbered_tokens USING (text_id, span_number)
    JOIN token_marks USING (text_id, token)
),

category_votes AS (
    SELECT text_id, span_start, category, count(*) AS votes
    FROM set_categories
    GROUP BY text_id, span_start, category
),

ranked_categories AS (
    SELECT
        category_votes.text_id,
        category_votes.span_start,
        category_votes.category,
        categories.position,
        category_votes.votes = max(category_votes.votes) OVER (
            PARTITION BY category_votes.text_id, category_votes.span_start
        ) AS most_voted
    FROM category_votes
    JOIN texts ON texts.text_id = category_votes.text_id
    JOIN categories ON categories.corpus = texts.corpus AND categories.category = category_votes.category
),

span_categories AS (
    SELECT
        text_id,
        span_start,
        min(position) AS winning_position,
        CASE WHEN count(*) > 1 THEN string_agg(category, '|' ORDER BY position) END AS tied_categories
    FROM ranked_categories
    WHERE most_voted
    GROUP BY text_id, span_start
),

set_ratings AS (
    SELECT
        text_id,
        span_start,
        span_end,
        set_id,
        CASE WHEN count(*) = 1 THEN min(category) END AS set_category
    FROM set_categories
    GROUP BY text_id, span_start, span_end, set_id
)

SELECT
    set_ratings.text_id,
    set_ratings.span_start,
    set_ratings.span_end,
    count(*) OVER (PARTITION BY set_ratings.text_id, set_ratings.span_start) AS voters,
    categories.category,
    span_categories.tied_categories,
    set_ratings.set_id,
    set_ratings.set_category
FROM set_ratings
JOIN span_categories USING (text_id, span_start)
JOIN texts ON texts.text_id = set_ratings.text_id
JOIN categories ON categories.corpus = texts.corpus AND categories.position = span_categories.winning_position
ORDER BY set_ratings.text_id, set_ratings.span_start, set_ratings.set_id
