-- The rows of a pending mistake list (the registered frame pending_mistakes), resolved against the texts:
-- one row per read mistake row, with both id schemes filled in and, in id_problem, the first reason its
-- ids cannot be used (NULL when they can). Parameter $split: the split the list must cover.
WITH pending AS (
    SELECT
        pending_mistakes.*,
        texts.split AS text_split,
        texts.token_count,
        texts.sentence_count
    FROM pending_mistakes
    LEFT JOIN texts USING (text_id)
),

sentence_sizes AS (
    SELECT text_id, sentence_id, count(*) AS sentence_size
    FROM tokens
    WHERE text_id IN (SELECT text_id FROM pending_mistakes)
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

checked AS (
    SELECT
        *,
        CASE
            WHEN text_split IS NULL THEN
                format('TEXT_ID {} is not a known text', text_id)
            WHEN text_split <> $split THEN
                format('TEXT_ID {} is a {} text, but this list is of the {} split', text_id, text_split, $split)
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
),

marked_text AS (
    SELECT line_number, string_agg(tokens.token, ' ' ORDER BY tokens.doc_token) AS marked_tokens
    FROM (
        SELECT line_number, text_id, unnest(range(span_start, span_end + 1)) AS doc_token
        FROM checked
        WHERE id_problem IS NULL
    ) AS span_tokens
    JOIN tokens USING (text_id, doc_token)
    GROUP BY line_number
)

SELECT
    checked.line_number,
    checked.text_id,
    checked.annotation_id,
    checked.tokens,
    coalesce(checked.sentence_id, start_token.sentence_id) AS sentence_id,
    coalesce(checked.sent_token_start, start_token.sent_token) AS sent_token_start,
    coalesce(checked.sent_token_end, end_token.sent_token) AS sent_token_end,
    checked.span_start AS doc_token_start,
    checked.span_end AS doc_token_end,
    checked.category,
    checked.correction,
    checked.comment,
    checked.id_problem,
    marked_text.marked_tokens
FROM checked
LEFT JOIN marked_text USING (line_number)
LEFT JOIN tokens AS start_token
    ON start_token.text_id = checked.text_id AND start_token.doc_token = checked.span_start
LEFT JOIN tokens AS end_token
    ON end_token.text_id = checked.text_id AND end_token.doc_token = checked.span_end
