-- Each listed mistake in its surroundings: the tokens it marks as the text has them, and up to five tokens on
-- either side (fewer at the start or end of the text), to read a mistake without opening its text.
-- Grain: one row per mistake of any loaded list.
-- Columns:
--   mistake_id: The mistake (mistakes.mistake_id).
--   context_before: Up to five tokens before the mistake, joined by spaces; '' when there are none.
--   marked: The tokens the mistake marks, as the text has them, joined by spaces.
--   context_after: Up to five tokens after the mistake, joined by spaces; '' when there are none.
-- Grouped by mistake, so that a filter on mistake_id reads only the tokens of those mistakes. Each mistake's
-- tokens are gathered unordered and sorted once, then cut in three: an aggregate that orders its input would keep
-- every token row of the whole view (160 million at scale 1000) until the end.
SELECT
    mistake_id,
    array_to_string(nearby[:before], ' ') AS context_before,
    array_to_string(nearby[before + 1 : before + marked], ' ') AS marked,
    array_to_string(nearby[before + marked + 1 :], ' ') AS context_after
FROM (
    SELECT
        mistakes.mistake_id,
        least(any_value(mistakes.doc_token_start) - 1, 5) AS before,
        any_value(mistakes.doc_token_end - mistakes.doc_token_start) + 1 AS marked,
        list_transform(list_sort(list({'doc_token': tokens.doc_token, 'token': tokens.token})), lambda t: t.token)
            AS nearby
    FROM mistakes
    JOIN tokens
        ON tokens.text_id = mistakes.text_id
        AND tokens.doc_token BETWEEN mistakes.doc_token_start - 5 AND mistakes.doc_token_end + 5
    GROUP BY mistakes.mistake_id
)
