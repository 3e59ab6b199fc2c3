-- Problems of a resolved pending mistake list (resolved_mistakes): one row per problem (line_number, message,
-- severity), in line order; line_number is NULL for a problem of the whole file. severity is
--   * 'error': the list is refused, by every command;
--   * 'scorable': the shared task's scorer scores the list anyway (it reads only the token ids, and leaves out a
--     row whose TYPE is no category), so `evaluate` scores it as that scorer does and warns; `evaluate --strict`,
--     build and refresh refuse it;
--   * 'warning': accepted everywhere and reported (TOKENS that are the marked tokens once normalised).
-- Needs the macros of shown.sql and normalised_tokens.sql.
WITH rows_checked AS (
    SELECT
        count(*) FILTER (WHERE len(row_problems) = 0) AS rows,
        count(DISTINCT foreign_split) AS foreign_splits,
        any_value(foreign_split) AS foreign_split,
        count(*) FILTER (WHERE len(row_problems) = 0 AND foreign_split IS NULL) AS own_split_rows
    FROM resolved_mistakes
),

-- Every row of the list names a text of one other split: said once, not once a row.
wrong_split AS (
    SELECT rows, foreign_split
    FROM rows_checked
    WHERE rows > 1 AND foreign_splits = 1 AND own_split_rows = 0
),

-- TOKENS that do not list the marked tokens, with the marked tokens (read only for these rows).
mismatches AS (
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
),

classified_mismatches AS (
    SELECT *, normalised_tokens(tokens) = normalised_tokens(marked_tokens) AS same_once_normalised
    FROM mismatches
),

real_mismatches AS (
    SELECT * FROM classified_mismatches WHERE NOT same_once_normalised
),

-- Spans of one list must not overlap. In position order, a span overlaps an earlier one exactly when it starts
-- at or before the furthest end so far. A text has such a span exactly when one starts at or before the end of the
-- span just before it (previous_end: were every start after it, the ends would rise, and the furthest end would be
-- that one), so the furthest ends are computed for those texts alone.
furthest_ends AS (
    SELECT
        line_number,
        text_id,
        doc_token_start,
        doc_token_end,
        max(doc_token_end) OVER earlier AS furthest_end,
        arg_max(line_number, doc_token_end * 1e9 + line_number) OVER earlier AS furthest_line
    FROM resolved_mistakes
    WHERE len(row_problems) = 0 AND id_problem IS NULL AND category_problem IS NULL
        AND text_id IN (
            SELECT text_id FROM resolved_mistakes
            WHERE id_problem IS NULL AND category_problem IS NULL AND doc_token_start <= previous_end
        )
    WINDOW earlier AS (
        PARTITION BY text_id ORDER BY doc_token_start, line_number ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    )
),

-- Ids shifted by a constant (ids counted from 0, say): for each shift of up to 3 tokens either way, the real
-- mismatches whose TOKENS are the text at the shifted ids.
shift_fits AS (
    SELECT shift, count(*) FILTER (WHERE fits) AS fitting_rows
    FROM (
        SELECT
            real_mismatches.line_number,
            shifts.shift,
            count(*) = real_mismatches.doc_token_end - real_mismatches.doc_token_start + 1
                AND normalised_tokens(string_agg(tokens.token, ' ' ORDER BY tokens.doc_token))
                    = normalised_tokens(real_mismatches.tokens) AS fits
        FROM real_mismatches
        CROSS JOIN (SELECT unnest([-1, 1, -2, 2, -3, 3]) AS shift) AS shifts
        JOIN tokens
            ON tokens.text_id = real_mismatches.text_id
            AND tokens.doc_token BETWEEN real_mismatches.doc_token_start + shifts.shift
                AND real_mismatches.doc_token_end + shifts.shift
        GROUP BY real_mismatches.line_number, real_mismatches.doc_token_start, real_mismatches.doc_token_end,
            real_mismatches.tokens, shifts.shift
    )
    GROUP BY shift
),

-- The smallest shift that makes at least 90% (and at least 2) of the real mismatches fit.
suggested_shift AS (
    SELECT arg_min(shift, abs(shift) * 10 + (shift > 0)::INTEGER) AS shift,
        arg_min(fitting_rows, abs(shift) * 10 + (shift > 0)::INTEGER) AS fitting_rows,
        (SELECT count(*) FROM real_mismatches) AS mismatched_rows
    FROM shift_fits
    WHERE fitting_rows >= 2 AND fitting_rows >= 0.9 * (SELECT count(*) FROM real_mismatches)
    HAVING count(*) > 0
)

SELECT line_number, unnest(row_problems) AS message, 'error' AS severity
FROM resolved_mistakes

UNION ALL

SELECT line_number, category_problem, 'scorable'
FROM resolved_mistakes
WHERE category_problem IS NOT NULL

UNION ALL

SELECT line_number, id_problem, 'error'
FROM resolved_mistakes
WHERE id_problem IS NOT NULL AND NOT (foreign_split IS NOT NULL AND EXISTS (FROM wrong_split))

UNION ALL

SELECT NULL, format('all {:,} TEXT_IDs are {} texts; use the {} split''s gold list', rows, foreign_split, foreign_split),
    'error'
FROM wrong_split

UNION ALL

-- TOKENS must list the marked tokens (spaces folded); the text at the ids is read only where it does not.
SELECT line_number, format('TOKENS is ''{}'', but tokens {}-{} of {} are ''{}''',
                           shown(tokens), doc_token_start, doc_token_end, text_id, shown(marked_tokens)), 'scorable'
FROM real_mismatches

UNION ALL

SELECT NULL, format(
    'the token ids look shifted by {}: on {:,} of the {:,} rows whose TOKENS differ from the text, TOKENS is the '
    'text {} token(s) {} (token ids count from 1, in the document and in each sentence)',
    CASE WHEN shift > 0 THEN '+' ELSE '' END || shift, fitting_rows, mismatched_rows, abs(shift),
    CASE WHEN shift > 0 THEN 'further on' ELSE 'earlier' END), 'scorable'
FROM suggested_shift

UNION ALL

-- TOKENS that are the marked tokens once normalised (normalised_tokens.sql): one line for the whole file.
SELECT NULL, format(
    'TOKENS differs from the text only in case, dashes, quotes or spacing on {} line(s): {}; accepted',
    count(*), array_to_string(list_sort(list(line_number))[:20], ', ') || CASE WHEN count(*) > 20 THEN ', …' ELSE '' END),
    'warning'
FROM classified_mismatches
WHERE same_once_normalised
HAVING count(*) > 0

UNION ALL

-- An overlap is reported at the later of the two lines, naming the other.
SELECT greatest(line_number, furthest_line), format('overlaps line {}: both mark tokens {}-{} of {}',
    least(line_number, furthest_line), doc_token_start, least(doc_token_end, furthest_end), text_id), 'error'
FROM furthest_ends
WHERE doc_token_start <= furthest_end

ORDER BY 1 NULLS FIRST, 2
