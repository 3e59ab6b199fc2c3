-- Problems of a resolved pending mistake list (resolved_mistakes): one row per problem (line_number, message).
SELECT line_number, unnest(row_problems) AS message
FROM resolved_mistakes

UNION ALL

SELECT line_number, id_problem
FROM resolved_mistakes
WHERE id_problem IS NOT NULL

UNION ALL

-- Spaces are folded before comparing: TOKENS is the marked tokens joined by spaces.
SELECT line_number, format('TOKENS is ''{}'', but tokens {}-{} of {} are ''{}''',
                           tokens, doc_token_start, doc_token_end, text_id, marked_tokens)
FROM resolved_mistakes
WHERE id_problem IS NULL
    AND marked_tokens IS NOT NULL
    AND array_to_string(string_split_regex(trim(tokens), '\s+'), ' ') <> marked_tokens

UNION ALL

-- Spans of one list must not overlap. In position order, a span overlaps an earlier one exactly when it
-- starts before the furthest end so far; it is reported at the later of the two lines, naming the other.
SELECT greatest(line_number, other_line), format('overlaps line {}: both mark tokens {}-{} of {}',
    least(line_number, other_line), doc_token_start, least(doc_token_end, furthest_end), text_id)
FROM (
    SELECT
        *,
        max(doc_token_end) OVER earlier AS furthest_end,
        arg_max(line_number, doc_token_end * 1e9 + line_number) OVER earlier AS other_line
    FROM resolved_mistakes
    WHERE len(row_problems) = 0 AND id_problem IS NULL
    WINDOW earlier AS (PARTITION BY text_id ORDER BY doc_token_start, line_number
                       ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
)
WHERE doc_token_start <= furthest_end

ORDER BY 1
