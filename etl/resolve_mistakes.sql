-- The rows of a pending mistake list, checked and resolved against the texts. Input: the temporary table
-- pending_rows (line_number, cell_count, and the CSV's columns TEXT_ID … PROBABILITY as strings).
-- Grain: one row per non-blank row. Columns: line_number, text_id, annotation_id, tokens, sentence_id,
-- sent_token_start, sent_token_end, doc_token_start, doc_token_end, category, correction, comment, probability (typed,
-- with both id schemes filled in where the ids can be used), row_problems (what is wrong with the row on
-- its own), category_problem (TYPE is not one of the six categories: the shared task's scorer leaves such a row
-- out, so evaluate may too; it is no mistake of the list), id_problem (the first reason its ids cannot be used),
-- foreign_split (the split of its text when that is not the list's: the text is in texts, or only named in
-- other_split_texts), tokens_listed_as_marked (whether TOKENS lists the tokens at its ids; NULL when TOKENS is
-- empty, the ids cannot be used, the row is left out or its text has overlapping spans, as do the sentence ids
-- filled in from the document ids), previous_end and next_start
-- (where the list's neighbouring spans in the text end and start, as mistakes stores them: mistake_problems reports
-- the overlaps of a text where a span starts at or before previous_end; NULL on a row whose ids cannot be used or
-- that is left out) and list_split. Parameters: $split (the split the list must cover; NULL
-- for the split of its first known text), $header_cells (how many cells the header has), $sentence_ids_given
-- (whether any row has a SENTENCE_ID cell) and $needed_cells (how
-- many a row needs: up to the last column read for scoring; a row may leave out the CORRECTION and COMMENT cells
-- after it, as spreadsheets do and as the shared task's scorer reads it). Needs the macro of
-- shown.sql and the temporary table other_split_texts (text_id, split: texts of other splits known by name only,
-- so that a list of the wrong split is told so; empty but in evaluate). $corpus: the corpus whose texts and
-- categories the list names (texts and categories of other corpora are unknown to it).
-- What the corpus knows of the texts the rows may name.
WITH corpus_texts AS NOT MATERIALIZED (
    SELECT text_id, split AS known_split, token_count, sentence_count FROM texts WHERE corpus = $corpus
),

corpus_categories AS NOT MATERIALIZED (
    SELECT category, position FROM categories WHERE corpus = $corpus
),

cells AS (
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
        nullif(COMMENT, '') AS comment,
        trim(coalesce(PROBABILITY, '')) AS probability_cell
    FROM pending_rows
    -- a blank row, or one of commas only, is no mistake: a row is one when any cell is not blank (tested cell by
    -- cell, which stops at TEXT_ID for almost every row: concatenating the cells first took three times as long)
    WHERE trim(coalesce(TEXT_ID, '')) <> '' OR trim(coalesce(SENTENCE_ID, '')) <> ''
        OR trim(coalesce(ANNOTATION_ID, '')) <> '' OR trim(coalesce(TOKENS, '')) <> ''
        OR trim(coalesce(SENT_TOKEN_START, '')) <> '' OR trim(coalesce(SENT_TOKEN_END, '')) <> ''
        OR trim(coalesce(DOC_TOKEN_START, '')) <> '' OR trim(coalesce(DOC_TOKEN_END, '')) <> ''
        OR trim(coalesce(TYPE, '')) <> '' OR trim(coalesce(CORRECTION, '')) <> '' OR trim(coalesce(COMMENT, '')) <> ''
        OR trim(coalesce(PROBABILITY, '')) <> ''
),

typed AS (
    SELECT
        *,
        -- leading zeros are allowed (0018 is 18) however many there are; row_checked refuses more than 9 digits
        CASE WHEN regexp_full_match(doc_start_cell, '0*[0-9]{1,9}') THEN doc_start_cell::INTEGER END AS doc_token_start,
        CASE WHEN regexp_full_match(doc_end_cell, '0*[0-9]{1,9}') THEN doc_end_cell::INTEGER END AS doc_token_end,
        CASE WHEN regexp_full_match(sentence_cell, '0*[0-9]{1,9}') THEN sentence_cell::INTEGER END AS sentence_id,
        CASE WHEN regexp_full_match(sent_start_cell, '0*[0-9]{1,9}') THEN sent_start_cell::INTEGER END AS sent_token_start,
        CASE WHEN regexp_full_match(sent_end_cell, '0*[0-9]{1,9}') THEN sent_end_cell::INTEGER END AS sent_token_end,
        CASE
            WHEN doc_start_cell <> '' AND doc_end_cell <> '' AND sentence_cell <> '' AND sent_start_cell <> ''
                AND sent_end_cell <> '' THEN 'both id schemes'
            WHEN doc_start_cell <> '' AND doc_end_cell <> '' THEN 'document ids'
            WHEN sentence_cell <> '' AND sent_start_cell <> '' AND sent_end_cell <> '' THEN 'sentence ids'
        END AS id_scheme,
        CASE WHEN suffix(text_cell, '.txt') THEN text_cell[:-5] ELSE text_cell END AS text_id,
        -- a decimal number from 0 to 1 (NaN, infinities and numbers out of range fail row_checked)
        CASE WHEN probability_cell <> '' THEN TRY_CAST(probability_cell AS DOUBLE) END AS probability
    FROM cells
),

-- For a TYPE that is no category, the category it most looks like, if one does.
nearest_categories AS (
    SELECT given, arg_max(category, similarity) FILTER (WHERE similarity >= 0.8) AS nearest_category
    FROM (
        SELECT given, category, jaro_winkler_similarity(upper(replace(given, ' ', '_')), category) AS similarity
        -- read from the rows as staged, blank ones included, so that cells is read once (not materialized)
        FROM (SELECT DISTINCT trim(coalesce(TYPE, '')) AS given FROM pending_rows) CROSS JOIN corpus_categories
    )
    GROUP BY given
),

row_checked AS (
    SELECT
        *,
        CASE
            -- The cheap check, true for almost every row: each id given is a whole number from 1 on of at most 9
            -- digits after its leading zeros (exactly when typed read it, and it is not 0), each id scheme is given
            -- whole or not at all, no span ends before it starts, and TEXT_ID is given. Only the rows it fails are
            -- told what is wrong, by the list below: it is empty exactly when the check holds.
            WHEN (doc_start_cell = '' OR doc_token_start >= 1) AND (doc_end_cell = '' OR doc_token_end >= 1)
                AND (sentence_cell = '' OR sentence_id >= 1) AND (sent_start_cell = '' OR sent_token_start >= 1)
                AND (sent_end_cell = '' OR sent_token_end >= 1)
                AND (doc_start_cell = '') = (doc_end_cell = '')
                AND (sentence_cell = '') = (sent_start_cell = '') AND (sentence_cell = '') = (sent_end_cell = '')
                AND coalesce(doc_token_start <= doc_token_end, TRUE)
                AND coalesce(sent_token_start <= sent_token_end, TRUE)
                AND (probability_cell = '' OR coalesce(probability BETWEEN 0 AND 1, FALSE))
                AND text_cell <> '' THEN []::VARCHAR[]
            ELSE list_filter(
                -- ids that are not whole numbers, or not from 1 on
                [
                    CASE
                        WHEN id.cell = '' THEN NULL
                        WHEN NOT regexp_full_match(id.cell, '[0-9]+') THEN format('{} is ''{}'', not a whole number', id.column, shown(id.cell))
                        -- read as text, never cast: a number of any length is a message, not an overflow
                        WHEN ltrim(id.cell, '0') = '' THEN format('{} is {}, but token and sentence ids count from 1', id.column, shown(id.cell))
                        WHEN length(ltrim(id.cell, '0')) > 9 THEN format('{} is {}, beyond any text', id.column, shown(id.cell))
                    END
                    FOR id IN [
                        {'column': 'DOC_TOKEN_START', 'cell': doc_start_cell},
                        {'column': 'DOC_TOKEN_END', 'cell': doc_end_cell},
                        {'column': 'SENTENCE_ID', 'cell': sentence_cell},
                        {'column': 'SENT_TOKEN_START', 'cell': sent_start_cell},
                        {'column': 'SENT_TOKEN_END', 'cell': sent_end_cell}
                    ]
                ]
                || [
                    -- part of an id scheme
                    CASE WHEN (doc_start_cell <> '') <> (doc_end_cell <> '') THEN format(
                        '{} given without {}',
                        CASE WHEN doc_start_cell <> '' THEN 'DOC_TOKEN_START' ELSE 'DOC_TOKEN_END' END,
                        CASE WHEN doc_start_cell <> '' THEN 'DOC_TOKEN_END' ELSE 'DOC_TOKEN_START' END) END,
                    CASE WHEN NOT ((sentence_cell = '') = (sent_start_cell = '') AND (sentence_cell = '') = (sent_end_cell = ''))
                        THEN format(
                            '{} given without {}',
                            concat_ws(', ', CASE WHEN sentence_cell <> '' THEN 'SENTENCE_ID' END,
                                      CASE WHEN sent_start_cell <> '' THEN 'SENT_TOKEN_START' END,
                                      CASE WHEN sent_end_cell <> '' THEN 'SENT_TOKEN_END' END),
                            concat_ws(', ', CASE WHEN sentence_cell = '' THEN 'SENTENCE_ID' END,
                                      CASE WHEN sent_start_cell = '' THEN 'SENT_TOKEN_START' END,
                                      CASE WHEN sent_end_cell = '' THEN 'SENT_TOKEN_END' END)) END,
                    -- a span that ends before it starts
                    CASE WHEN doc_token_start > doc_token_end THEN format(
                        'DOC_TOKEN_START {} is after DOC_TOKEN_END {}', doc_token_start, doc_token_end) END,
                    CASE WHEN sent_token_start > sent_token_end THEN format(
                        'SENT_TOKEN_START {} is after SENT_TOKEN_END {}', sent_token_start, sent_token_end) END,
                    CASE WHEN text_cell = '' THEN 'TEXT_ID is empty' END,
                    CASE WHEN probability_cell <> '' AND NOT coalesce(probability BETWEEN 0 AND 1, FALSE) THEN format(
                        'PROBABILITY is ''{}'', not a number from 0 to 1', shown(probability_cell)) END
                ],
                lambda problem: problem IS NOT NULL
            )
        END AS own_problems,
        CASE WHEN category NOT IN (SELECT category FROM corpus_categories) THEN format(
            'TYPE ''{}'' is not a category; {}', shown(category),
            coalesce('did you mean ' || nearest_category || '?',
                     'the categories are ' || (SELECT string_agg(category, ', ' ORDER BY position)
                                               FROM corpus_categories))) END AS category_problem
    FROM typed
    LEFT JOIN nearest_categories ON nearest_categories.given = typed.category
    -- What the corpus knows of each row's text, joined here rather than to the checked rows: DuckDB estimates the
    -- rows here as more than the texts and builds its hash table of the texts; after the checks it estimated 9,082
    -- of 1.1 million rows (a submission of scale 1000) and built it of the wide rows, slower.
    LEFT JOIN corpus_texts USING (text_id)
),

-- Every row gives the same ids as the first row that gives any.
first_scheme AS (
    SELECT arg_min(id_scheme, line_number) AS id_scheme, min(line_number) AS line_number
    FROM row_checked
    WHERE id_scheme IS NOT NULL AND cell_count BETWEEN $needed_cells AND $header_cells
),

checked_rows AS (
    SELECT
        row_checked.* EXCLUDE (own_problems, given, nearest_category, category_problem),
        -- a row of too few or too many cells has that problem alone: its cells may be in the wrong columns
        CASE WHEN cell_count BETWEEN $needed_cells AND $header_cells THEN category_problem END AS category_problem,
        CASE
            WHEN cell_count > $header_cells THEN
                [format('has {} cells, but the header has {}', cell_count, $header_cells)]
            WHEN cell_count < $needed_cells THEN
                [format('has {} cells, but the header has {} (and {} are needed, up to {})', cell_count,
                        $header_cells, $needed_cells, $needed_column)]
            WHEN row_checked.id_scheme IS NULL AND len(own_problems) = 0 THEN
                ['no token ids: give DOC_TOKEN_START and DOC_TOKEN_END, or SENTENCE_ID, SENT_TOKEN_START and SENT_TOKEN_END']
            WHEN row_checked.id_scheme <> first_scheme.id_scheme THEN own_problems || [format(
                'uses {}, but line {} uses {}: a file gives the same token ids on every row',
                row_checked.id_scheme, first_scheme.line_number, first_scheme.id_scheme)]
            ELSE own_problems
        END AS row_problems
    FROM row_checked
    CROSS JOIN first_scheme
),

pending AS (
    SELECT
        checked_rows.*,
        coalesce(known_split, other_split_texts.split) AS text_split,
        known_split IS NULL AND other_split_texts.split IS NOT NULL AS named_only
    FROM checked_rows
    LEFT JOIN other_split_texts USING (text_id)
    WHERE len(checked_rows.row_problems) = 0
),

-- The split of the first row that names a text of the corpus, read from the rows already joined to the texts.
list_split AS (
    SELECT coalesce($split, (
        SELECT arg_min(text_split, line_number) FILTER (WHERE text_split IS NOT NULL AND NOT named_only)
        FROM pending
    )) AS split
),

-- The sentences of the texts that rows give sentence ids for: the document token each starts at, and where the next
-- starts (NULL for a text's last sentence: id_checked ends it at the text's token_count, which pending has, rather
-- than joining the texts again here).
sentences AS (
    SELECT
        tokens.text_id,
        tokens.sentence_id,
        tokens.doc_token AS first_token,
        lead(tokens.doc_token) OVER (PARTITION BY tokens.text_id ORDER BY tokens.sentence_id) AS next_first_token
    FROM tokens
    -- $sentence_ids_given: whether any row has a SENTENCE_ID cell (when none has, tokens is not read here)
    WHERE $sentence_ids_given AND tokens.sent_token = 1
        AND tokens.text_id IN (SELECT text_id FROM pending WHERE sentence_id IS NOT NULL)
),

id_checked AS (
    SELECT
        pending.*,
        CASE WHEN text_split <> list_split.split THEN text_split END AS foreign_split,
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
            WHEN sent_token_end > coalesce(next_first_token, token_count + 1) - first_token THEN
                format('SENT_TOKEN_END {} is beyond the end of sentence {} of {} ({} tokens)', sent_token_end,
                       sentence_id, text_id, coalesce(next_first_token, token_count + 1) - first_token)
            WHEN doc_token_start <> first_token + sent_token_start - 1
                OR doc_token_end <> first_token + sent_token_end - 1 THEN
                format('the ids disagree: sentence {} tokens {}-{} are document tokens {}-{}, '
                       'but DOC_TOKEN_START-END say {}-{}',
                       sentence_id, sent_token_start, sent_token_end, first_token + sent_token_start - 1,
                       first_token + sent_token_end - 1, doc_token_start, doc_token_end)
        END AS id_problem,
        coalesce(doc_token_start, first_token + sent_token_start - 1) AS span_start,
        coalesce(doc_token_end, first_token + sent_token_end - 1) AS span_end
    FROM pending
    LEFT JOIN sentences USING (text_id, sentence_id)
    CROSS JOIN list_split
),

-- The usable spans, narrow: what the lookups of their tokens and neighbours read (the wide cells of the rows are
-- joined back once, at the end: carried through the unnest, the join and the window they took twice as long).
usable_spans AS (
    SELECT
        line_number,
        text_id,
        span_start,
        span_end,
        token_count,
        CASE
            WHEN trim(coalesce(tokens, '')) = '' THEN NULL
            -- split on single spaces where that is the same (and much cheaper than the regular expression): no white
            -- space but single spaces once trimmed (trim() removes spaces only; RE2's \s is [\t\n\f\r ])
            WHEN NOT (contains(tokens, '  ') OR contains(tokens, chr(9)) OR contains(tokens, chr(10))
                OR contains(tokens, chr(12)) OR contains(tokens, chr(13))) THEN string_split(trim(tokens), ' ')
            ELSE string_split_regex(trim(tokens), '\s+')
        END AS listed_tokens
    FROM id_checked
    WHERE id_problem IS NULL AND category_problem IS NULL
),

-- The usable spans of each text in position order: the list's neighbours of each span, which the scoring reads, and
-- which the check that no two spans overlap starts from. Read from the spans themselves, not from the GROUP BY of
-- their tokens, which then carried the spans' columns as any_value (and the tokens' join as payload) only for this.
neighbours AS (
    SELECT
        line_number,
        text_id,
        span_start,
        coalesce(lag(span_end) OVER in_text, 0) AS previous_end,
        coalesce(lead(span_start) OVER in_text, token_count + 1) AS next_start
    FROM usable_spans
    WINDOW in_text AS (PARTITION BY text_id ORDER BY span_start, line_number)
),

-- The texts where two spans overlap (one starts at or before the end of the one before it: mistake_problems.sql
-- refuses the list for it). Their spans' tokens are not looked up: the spans of a text that do not overlap mark each
-- token once at most, but 400,000 rows marking the whole of one text (13 MB) made 96 million tokens to look up
-- (benchmarks/results/code-timings.md).
overlapping_texts AS (
    SELECT DISTINCT text_id FROM neighbours WHERE span_start <= previous_end
),

-- The tokens of each usable span, in one pass over tokens: whether TOKENS lists them (spaces folded; an empty
-- TOKENS is not compared), and where the span starts and ends in sentence ids. What the join builds its hash table
-- of is kept narrow (the key, the line, two flags and the listed token).
span_tokens AS (
    SELECT
        span.line_number,
        span.is_start,
        span.is_end,
        tokens.sentence_id,
        tokens.sent_token,
        -- as many listed tokens as marked ones (NULL when TOKENS is empty), and this one the same
        span.length_listed AND (span.listed_token IS NULL OR tokens.token = span.listed_token) AS listed_as_marked
    FROM (
        SELECT
            line_number,
            text_id,
            doc_token,
            doc_token = span_start AS is_start,
            doc_token = span_end AS is_end,
            length_listed,
            listed_token
        FROM (
            -- unnested side by side: the shorter list is padded with NULLs
            SELECT
                line_number,
                text_id,
                span_start,
                span_end,
                len(listed_tokens) = span_end - span_start + 1 AS length_listed,
                unnest(range(span_start, span_end + 1))::INTEGER AS doc_token,
                unnest(listed_tokens) AS listed_token
            FROM usable_spans
            WHERE text_id NOT IN (FROM overlapping_texts)
        )
    ) AS span
    JOIN tokens USING (text_id, doc_token)
),

-- What the tokens of each usable span tell.
spans AS (
    SELECT
        line_number,
        any_value(sentence_id) FILTER (WHERE is_start) AS start_sentence_id,
        any_value(sent_token) FILTER (WHERE is_start) AS start_sent_token,
        any_value(sent_token) FILTER (WHERE is_end) AS end_sent_token,
        bool_and(listed_as_marked) AS tokens_listed_as_marked
    FROM span_tokens
    GROUP BY line_number
),

-- One narrow row per usable span: the two lookups joined here, so that the wide rows of id_checked are joined once,
-- probing a hash table of these (with the neighbours carried through the GROUP BY instead, DuckDB built its hash
-- table of the wide rows of id_checked, which took twice as long).
resolved_spans AS (
    SELECT
        line_number,
        neighbours.previous_end,
        neighbours.next_start,
        spans.start_sentence_id,
        spans.start_sent_token,
        spans.end_sent_token,
        spans.tokens_listed_as_marked
    FROM neighbours
    LEFT JOIN spans USING (line_number)
)

SELECT
    id_checked.line_number,
    id_checked.text_id,
    id_checked.annotation_id,
    id_checked.tokens,
    coalesce(id_checked.sentence_id, resolved_spans.start_sentence_id) AS sentence_id,
    coalesce(id_checked.sent_token_start, resolved_spans.start_sent_token) AS sent_token_start,
    coalesce(id_checked.sent_token_end, resolved_spans.end_sent_token) AS sent_token_end,
    id_checked.span_start AS doc_token_start,
    id_checked.span_end AS doc_token_end,
    id_checked.category,
    id_checked.correction,
    id_checked.comment,
    id_checked.probability,
    []::VARCHAR[] AS row_problems,
    id_checked.category_problem,
    id_checked.id_problem,
    id_checked.foreign_split,
    resolved_spans.tokens_listed_as_marked,
    resolved_spans.previous_end,
    resolved_spans.next_start,
    list_split.split AS list_split
FROM id_checked
LEFT JOIN resolved_spans USING (line_number)
CROSS JOIN list_split
UNION ALL BY NAME
SELECT line_number, text_id, row_problems, category_problem, list_split.split AS list_split
FROM checked_rows CROSS JOIN list_split
WHERE len(row_problems) > 0
