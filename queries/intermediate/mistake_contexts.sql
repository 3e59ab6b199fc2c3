-- Each listed mistake in its surroundings: the tokens it marks as the text has them, and up to five tokens on
-- either side (fewer at the start or end of the text), to read a mistake without opening its text.
-- Grain: one row per mistake of any loaded list.
-- Key: mistake_id
-- Columns:
--   mistake_id: The mistake (mistakes.mistake_id).
--   context_before: Up to five tokens before the mistake, joined by spaces; '' when there are none.
--   marked: The tokens the mistake marks, as the text has them, joined by spaces.
--   context_after: Up to five tokens after the mistake, joined by spaces; '' when there are none.
-- Grouped by mistake, so that a filter on mistake_id reads only the tokens of those mistakes. The three parts are
-- ordered string aggregates, each filtered to its side of the span: plain SQL that PostgreSQL, Spark and Trino run
-- too (the earlier form sorted a DuckDB list once and sliced it, which no other engine reads).
SELECT
    mistakes.mistake_id,
    coalesce(string_agg(tokens.token, ' ' ORDER BY tokens.doc_token) FILTER (
        WHERE tokens.doc_token < mistakes.doc_token_start
    ), '') AS context_before,
    coalesce(string_agg(tokens.token, ' ' ORDER BY tokens.doc_token) FILTER (
        WHERE tokens.doc_token BETWEEN mistakes.doc_token_start AND mistakes.doc_token_end
    ), '') AS marked,
    coalesce(string_agg(tokens.token, ' ' ORDER BY tokens.doc_token) FILTER (
        WHERE tokens.doc_token > mistakes.doc_token_end
    ), '') AS context_after
FROM mistakes
JOIN tokens
    ON tokens.text_id = mistakes.text_id
    AND tokens.doc_token BETWEEN mistakes.doc_token_start - 5 AND mistakes.doc_token_end + 5
GROUP BY mistakes.mistake_id
