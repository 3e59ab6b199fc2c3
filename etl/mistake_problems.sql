-- Problems of a resolved pending mistake list: one row per problem (line_number, message).
SELECT line_number, id_problem AS message
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

SELECT later.line_number, format('overlaps line {}: both mark tokens {}-{} of {}',
                                 earlier.line_number,
                                 greatest(earlier.doc_token_start, later.doc_token_start),
                                 least(earlier.doc_token_end, later.doc_token_end), later.text_id)
FROM resolved_mistakes AS earlier
JOIN resolved_mistakes AS later
    ON later.text_id = earlier.text_id
    AND later.line_number > earlier.line_number
    AND later.doc_token_start <= earlier.doc_token_end
    AND later.doc_token_end >= earlier.doc_token_start
WHERE earlier.id_problem IS NULL AND later.id_problem IS NULL

ORDER BY line_number
