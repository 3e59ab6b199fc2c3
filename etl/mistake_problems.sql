-- Problems of a resolved pending mistake list (resolved_mistakes): one row per problem (line_number, message),
-- in line order.
SELECT line_number, unnest(row_problems) AS message
FROM resolved_mistakes

UNION ALL

SELECT line_number, id_problem
FROM resolved_mistakes
WHERE id_problem IS NOT NULL

UNION ALL

-- TOKENS must list the marked tokens (spaces folded); the text at the ids is read only where it does not.
SELECT line_number, format('TOKENS is ''{}'', but tokens {}-{} of {} are ''{}''',
                           shown(tokens), doc_token_start, doc_token_end, text_id, shown(marked_tokens))
FROM (
    SELECT
        mismatched.line_number,
        mismatched.tokens,
        mismatched.doc_token_start,
        mismatched.doc_token_end,
        mismatched.text_id,
        string_agg(tokens.token, ' ' ORDER BY tokens.doc_token) AS marked_tokens
    FROM resolved_mistakes AS mismatched
    JOIN tokens
        ON tokens.text_id = mismatched.text_id
        AND tokens.doc_token BETWEEN mismatched.doc_token_start AND mismatched.doc_token_end
    WHERE NOT mismatched.tokens_listed_as_marked
    GROUP BY ALL
)

UNION ALL

-- Spans of one list must not overlap. In position order, a span overlaps an earlier one exactly when it
-- starts before the furthest end so far; it is reported at the later of the two lines, naming the other.
SELECT greatest(line_number, furthest_line), format('overlaps line {}: both mark tokens {}-{} of {}',
    least(line_number, furthest_line), doc_token_start, least(doc_token_end, furthest_end), text_id)
FROM resolved_mistakes
WHERE id_problem IS NULL AND doc_token_start <= furthest_end

ORDER BY 1, 2
