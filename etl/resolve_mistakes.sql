-- The rows of a pending mistake list, checked and resolved against the texts. Input: the temporary table
-- pending_rows (line_number, cell_count, and the CSV's columns TEXT_ID … COMMENT as strings).
-- Grain: one row per non-blank row. Columns: line_number, text_id, annotation_id, tokens, sentence_id,
-- sent_token_start, sent_token_end, doc_token_start, doc_token_end, category, correction, comment (typed,
-- with both id schemes filled in where the ids can be used), row_problems (what is wrong with the row on
-- its own), id_problem (the first reason its ids cannot be used), marked_tokens (the text at its ids) and
-- list_split. Parameters: $split (the split the list must cover; NULL for the split of its first known
-- text) and $header_cells (how many cells the header has).
WITH cells AS (
    SELECT
        line_number,
        cell_count,
        trim(coalesce(TEXT_ID, '')) AS text_cell,
        trim(coalesce(DOC_TOKEN_START, '')) AS doc_start_cell,
        trim(coalesce(DOC_TOKEN_END, '')) AS doc_end_cell,
        trim(coalesce(SENTENCE_ID, '')) AS sentence_cell,
        trim(coalesce(SENT_TOKEN_START, '')) AS sent_start_cell,
        trim(coalesce(SENT_TOKEN_END, '')) AS sent_end_cell,
        trim(coalesce(TYPE, '')) AS category,
        TOKENS AS tokens,
        nullif(ANNOTATION_ID, '') AS annotation_id,
        nullif(CORRECTION, '') AS correction,
        nullif(COMMENT, '') AS comment
    FROM pending_rows
    -- a blank row, or one of commas only, is no mistake
    WHERE trim(concat(TEXT_ID, SENTENCE_ID, ANNOTATION_ID, TOKENS, SENT_TOKEN_START, SENT_TOKEN_END,
                      DOC_TOKEN_START, DOC_TOKEN_END, TYPE, CORRECTION, COMMENT)) <> ''
),

-- Each id cell as a struct: its column, the cell, and its value when it is a whole number from 1 on.
id_cells AS (
    SELECT
        *,
        [
            {'column': 'DOC_TOKEN_START', 'cell': doc_start_cell},
            {'column': 'DOC_TOKEN_END', 'cell': doc_end_cell},
            {'column': 'SENTENCE_ID', 'cell': sentence_cell},
            {'column': 'SENT_TOKEN_START', 'cell': sent_start_cell},
            {'column': 'SENT_TOKEN_END', 'cell': sent_end_cell}
        ] AS ids
    FROM cells
),

typed AS (
    SELECT
        *,
        CASE WHEN regexp_full_match(doc_start_cell, '[0-9]{1,9}') THEN doc_start_cell::INTEGER END AS doc_token_start,
        CASE WHEN regexp_full_match(doc_end_cell, '[0-9]{1,9}') THEN doc_end_cell::INTEGER END AS doc_token_end,
        CASE WHEN regexp_full_match(sentence_cell, '[0-9]{1,9}') THEN sentence_cell::INTEGER END AS sentence_id,
        CASE WHEN regexp_full_match(sent_start_cell, '[0-9]{1,9}') THEN sent_start_cell::INTEGER END AS sent_token_start,
        CASE WHEN regexp_full_match(sent_end_cell, '[0-9]{1,9}') THEN sent_end_cell::INTEGER END AS sent_token_end,
        CASE
            WHEN doc_start_cell <> '' AND doc_end_cell <> '' AND sentence_cell <> '' AND sent_start_cell <> ''
                AND sent_end_cell <> '' THEN 'both id schemes'
            WHEN doc_start_cell <> '' AND doc_end_cell <> '' THEN 'document ids'
            WHEN sentence_cell <> '' AND sent_start_cell <> '' AND sent_end_cell <> '' THEN 'sentence ids'
        END AS id_scheme
    FROM id_cells
),

-- For a TYPE that is no category, the category it most looks like, if one does.
nearest_categories AS (
    SELECT given, arg_max(category, similarity) FILTER (WHERE similarity >= 0.8) AS nearest_category
    FROM (
        SELECT given, category, jaro_winkler_similarity(upper(replace(given, ' ', '_')), category) AS similarity
        FROM (SELECT DISTINCT category AS given FROM cells) CROSS JOIN categories
    )
    GROUP BY given
),

row_checked AS (
    SELECT
        *,
        list_filter(
            -- ids that are not whole numbers, or not from 1 on
            [
                CASE
                    WHEN id.cell = '' THEN NULL
                    WHEN NOT regexp_full_match(id.cell, '[0-9]+') THEN format('{} is ''{}'', not a whole number', id.column, id.cell)
                    WHEN id.cell::HUGEINT < 1 THEN format('{} is {}, but token and sentence ids count from 1', id.column, id.cell)
                    WHEN length(ltrim(id.cell, '0')) > 9 THEN format('{} is {}, beyond any text', id.column, id.cell)
                END
                FOR id IN ids
            ]
            || [
                -- part of an id scheme
                CASE WHEN (doc_start_cell <> '') <> (doc_end_cell <> '') THEN format(
                    '{} given without {}',
                    CASE WHEN doc_start_cell <> '' THEN 'DOC_TOKEN_START' ELSE 'DOC_TOKEN_END' END,
                    CASE WHEN doc_start_cell <> '' THEN 'DOC_TOKEN_END' ELSE 'DOC_TOKEN_START' END) END,
                CASE WHEN list_count(list_filter(ids[3:5], lambda id: id.cell <> '')) IN (1, 2) THEN format(
                    '{} given without {}',
                    array_to_string([id.column FOR id IN ids[3:5] IF id.cell <> ''], ', '),
                    array_to_string([id.column FOR id IN ids[3:5] IF id.cell = ''], ', ')) END,
                -- a span that ends before it starts
                CASE WHEN doc_token_start > doc_token_end THEN format(
                    'DOC_TOKEN_START {} is after DOC_TOKEN_END {}', doc_token_start, doc_token_end) END,
                CASE WHEN sent_token_start > sent_token_end THEN format(
                    'SENT_TOKEN_START {} is after SENT_TOKEN_END {}', sent_token_start, sent_token_end) END,
                CASE WHEN text_cell = '' THEN 'TEXT_ID is empty' END,
                CASE WHEN category NOT IN (SELECT category FROM categories) THEN format(
                    'TYPE ''{}'' is not a category; {}', category,
                    coalesce('did you mean ' || nearest_category || '?',
                             'the categories are NAME, NUMBER, WORD, CONTEXT, NOT_CHECKABLE, OTHER')) END
            ],
            lambda problem: problem IS NOT NULL
        ) AS own_problems
    FROM typed
    LEFT JOIN nearest_categories ON nearest_categories.given = typed.category
),

-- Every row gives the same ids as the first row that gives any.
first_scheme AS (
    SELECT arg_min(id_scheme, line_number) AS id_scheme, min(line_number) AS line_number
    FROM row_checked
    WHERE id_scheme IS NOT NULL AND cell_count = $header_cells
),

checked_rows AS (
    SELECT
        row_checked.* EXCLUDE (own_problems, given, nearest_category),
        CASE
            WHEN cell_count <> $header_cells THEN
                [format('has {} cells, but the header has {}', cell_count, $header_cells)]
            WHEN row_checked.id_scheme IS NULL AND len(own_problems) = 0 THEN
                ['no token ids: give DOC_TOKEN_START and DOC_TOKEN_END, or SENTENCE_ID, SENT_TOKEN_START and SENT_TOKEN_END']
            WHEN row_checked.id_scheme <> first_scheme.id_scheme THEN own_problems || [format(
                'uses {}, but line {} uses {}: a file gives the same token ids on every row',
                row_checked.id_scheme, first_scheme.line_number, first_scheme.id_scheme)]
            ELSE own_problems
        END AS row_problems,
        CASE WHEN suffix(text_cell, '.txt') THEN text_cell[:-5] ELSE text_cell END AS text_id
    FROM row_checked
    CROSS JOIN first_scheme
),

list_split AS (
    SELECT coalesce($split, (
        SELECT arg_min(texts.split, checked_rows.line_number)
        FROM checked_rows JOIN texts USING (text_id)
        WHERE len(checked_rows.row_problems) = 0
    )) AS split
),

pending AS (
    SELECT checked_rows.*, texts.split AS text_split, texts.token_count, texts.sentence_count
    FROM checked_rows
    LEFT JOIN texts USING (text_id)
    WHERE len(checked_rows.row_problems) = 0
),

sentence_sizes AS (
    SELECT text_id, sentence_id, count(*) AS sentence_size
    FROM tokens
    WHERE text_id IN (SELECT text_id FROM pending)
    GROUP BY text_id, sentence_id
),

located AS (
    SELECT
        pending.*,
        sentence_sizes.sentence_size,
        sent_start.doc_token AS doc_of_sent_start,
        sent_end.doc_token AS doc_of_sent_end
    FROM pending
    LEFT JOIN sentence_sizes USING (text_id, sentence_id)
    LEFT JOIN tokens AS sent_start
        ON sent_start.text_id = pending.text_id
        AND sent_start.sentence_id = pending.sentence_id
        AND sent_start.sent_token = pending.sent_token_start
    LEFT JOIN tokens AS sent_end
        ON sent_end.text_id = pending.text_id
        AND sent_end.sentence_id = pending.sentence_id
        AND sent_end.sent_token = pending.sent_token_end
),

id_checked AS (
    SELECT
        located.*,
        CASE
            WHEN text_split IS NULL THEN
                format('TEXT_ID {} is not a known text', text_id)
            WHEN text_split <> list_split.split THEN
                format('TEXT_ID {} is a {} text, but this list is of the {} split', text_id, text_split, list_split.split)
            WHEN doc_token_end > token_count THEN
                format('DOC_TOKEN_END {} is beyond the end of {} ({} tokens)', doc_token_end, text_id, token_count)
            WHEN sentence_id > sentence_count THEN
                format('SENTENCE_ID {} is beyond the last sentence of {} ({} sentences)',
                       sentence_id, text_id, sentence_count)
            WHEN sent_token_end > sentence_size THEN
                format('SENT_TOKEN_END {} is beyond the end of sentence {} of {} ({} tokens)',
                       sent_token_end, sentence_id, text_id, sentence_size)
            WHEN doc_token_start <> doc_of_sent_start OR doc_token_end <> doc_of_sent_end THEN
                format('the ids disagree: sentence {} tokens {}-{} are document tokens {}-{}, '
                       'but DOC_TOKEN_START-END say {}-{}',
                       sentence_id, sent_token_start, sent_token_end, doc_of_sent_start, doc_of_sent_end,
                       doc_token_start, doc_token_end)
        END AS id_problem,
        coalesce(doc_token_start, doc_of_sent_start) AS span_start,
        coalesce(doc_token_end, doc_of_sent_end) AS span_end
    FROM located
    CROSS JOIN list_split
),

marked_text AS (
    SELECT line_number, string_agg(tokens.token, ' ' ORDER BY tokens.doc_token) AS marked_tokens
    FROM (
        SELECT line_number, text_id, unnest(range(span_start, span_end + 1)) AS doc_token
        FROM id_checked
        WHERE id_problem IS NULL
    ) AS span_tokens
    JOIN tokens USING (text_id, doc_token)
    GROUP BY line_number
),

resolved AS (
    SELECT
        id_checked.line_number,
        id_checked.text_id,
        id_checked.annotation_id,
        id_checked.tokens,
        coalesce(id_checked.sentence_id, start_token.sentence_id) AS sentence_id,
        coalesce(id_checked.sent_token_start, start_token.sent_token) AS sent_token_start,
        coalesce(id_checked.sent_token_end, end_token.sent_token) AS sent_token_end,
        id_checked.span_start AS doc_token_start,
        id_checked.span_end AS doc_token_end,
        id_checked.category,
        id_checked.correction,
        id_checked.comment,
        []::VARCHAR[] AS row_problems,
        id_checked.id_problem,
        marked_text.marked_tokens
    FROM id_checked
    LEFT JOIN marked_text USING (line_number)
    LEFT JOIN tokens AS start_token
        ON start_token.text_id = id_checked.text_id AND start_token.doc_token = id_checked.span_start
    LEFT JOIN tokens AS end_token
        ON end_token.text_id = id_checked.text_id AND end_token.doc_token = id_checked.span_end
)

SELECT resolved.*, list_split.split AS list_split
FROM resolved CROSS JOIN list_split
UNION ALL BY NAME
SELECT line_number, text_id, row_problems, list_split.split AS list_split
FROM checked_rows CROSS JOIN list_split
WHERE len(row_problems) > 0
