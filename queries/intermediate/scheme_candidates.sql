-- The gold mistakes each submitted mistake may take under nervaluate's schemes (strict, exact, partial, ent_type),
-- and in which order of preference. nervaluate visits the submitted mistakes of a text in list order (here: left
-- to right), and each takes one gold mistake, not yet taken, that it overlaps enough: at least 1% of the gold
-- mistake's tokens (nervaluate's min_overlap_percentage, 1 by default). Which one is the pairing's rule:
--  * leftmost (strict, exact, partial): the first in list order (a gold mistake of exactly the same span is the
--    only one such a submitted mistake overlaps, so it comes first);
--  * closest (ent_type): one of the same category if there is one, the one whose two boundaries are closest
--    (the sum of the distances of the starts and of the ends; the first in list order on a tie), else the first
--    of another category.
-- Grain: one row per (pairing, submission, scope, submitted mistake, gold mistake it overlaps enough).
-- Key: pairing, submission_id, scope, submitted_mistake_id, gold_mistake_id
-- Columns:
--   pairing: leftmost or closest: the rule that orders the candidates.
--   submission_id: The submission (annotation_sets.set_id).
--   scope: ALL, or the category both lists are filtered to (scopes.scope).
--   submitted_mistake_id: The submitted mistake (mistakes.mistake_id).
--   gold_mistake_id: A gold mistake it overlaps enough (mistakes.mistake_id).
--   text_id: The text both are in (texts.text_id).
--   submitted_start: The first token of the submitted mistake (doc_token_start).
--   gold_start: The first token of the gold mistake (doc_token_start).
--   same_span: Whether the two mistakes mark the same tokens.
--   same_category: Whether the two mistakes have the same category.
--   one_to_one: As in span_overlaps: neither mistake intersects any other mistake of the other list, so the gold
--     mistake is the submitted mistake's only candidate and no other submitted mistake can take it.
--   preference: The candidate's rank under the pairing's rule, from 1 (taken first when free).
-- One query over the table of rules (rules: pairing, and by_category, whether same-category and close candidates
-- come first; without it the order is gold_start alone). A query for one rule (one scheme) filters pairing, which
-- DuckDB pushes through the window, whose partitions it keys, onto the rules: only that rule's candidates are
-- computed. one_to_one keys the partitions too (a one-to-one candidate is its submitted mistake's only one, so
-- its preference is 1): a reader of the one-to-one candidates alone, or of the others alone, ranks only those.
WITH candidates AS NOT MATERIALIZED (
    SELECT
        pair.submission_id,
        pair.scope,
        pair.submitted_mistake_id,
        pair.gold_mistake_id,
        gold.text_id,
        pair.submitted_start,
        pair.gold_start,
        pair.submitted_start = pair.gold_start AND submitted.doc_token_end = gold.doc_token_end AS same_span,
        submitted.category = gold.category AS same_category,
        pair.one_to_one,
        abs(pair.submitted_start - pair.gold_start) + abs(submitted.doc_token_end - gold.doc_token_end)
            AS boundary_distance
    FROM scoped_overlaps AS pair
    JOIN thresholded_mistakes AS submitted ON submitted.mistake_id = pair.submitted_mistake_id
    JOIN thresholded_mistakes AS gold ON gold.mistake_id = pair.gold_mistake_id
    -- nervaluate's threshold, in integers: overlap / gold length * 100 >= 1
    WHERE pair.overlap_tokens * 100 >= gold.doc_token_end - gold.doc_token_start + 1
)

SELECT
    rules.pairing,
    candidates.submission_id,
    candidates.scope,
    candidates.submitted_mistake_id,
    candidates.gold_mistake_id,
    candidates.text_id,
    candidates.submitted_start,
    candidates.gold_start,
    candidates.same_span,
    candidates.same_category,
    candidates.one_to_one,
    row_number() OVER (
        PARTITION BY
            rules.pairing, candidates.one_to_one, candidates.submission_id, candidates.scope,
            candidates.submitted_mistake_id
        ORDER BY
            CASE WHEN rules.by_category AND NOT candidates.same_category THEN 1 ELSE 0 END,
            CASE WHEN rules.by_category AND candidates.same_category THEN candidates.boundary_distance ELSE 0 END,
            candidates.gold_start
    ) AS preference
FROM candidates
CROSS JOIN (VALUES ('leftmost', FALSE), ('closest', TRUE)) AS rules (pairing, by_category)
