-- Which spans of the corpora's lists did not map to whole tokens as given, and which could not be placed at all?
-- The offset audit: every character span a loader widened, trimmed or relocated (offset_adjustments), and every
-- span that refused the file of a registered folder it was in (corpus_rejections where span), with why.
-- Grain: one row per adjusted or refused span.
-- Key: corpus, file, line_number, given_start, message
-- Columns: corpus, list_name, split (of the list; NULL for a refused span, whose file loaded no list), file,
-- line_number, text_id (NULL for a refused span), outcome (widened, trimmed, relocated or refused), given_start,
-- given_text (the span as given), char_start, char_end, doc_token_start, doc_token_end (the characters and tokens
-- taken), message (why it was refused); the columns a row's outcome has no value for are NULL.
SELECT
    lists.corpus,
    lists.name AS list_name,
    lists.split,
    adjusted.file,
    adjusted.line_number,
    adjusted.text_id,
    adjusted.adjustment AS outcome,
    adjusted.given_start,
    adjusted.given_text,
    adjusted.char_start,
    adjusted.char_end,
    adjusted.doc_token_start,
    adjusted.doc_token_end,
    CAST(NULL AS VARCHAR) AS message
FROM offset_adjustments AS adjusted
JOIN annotation_sets AS lists ON lists.set_id = adjusted.set_id
UNION ALL
SELECT
    refused.corpus,
    NULL,
    NULL,
    refused.file,
    refused.line,
    NULL,
    'refused',
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
    refused.message
FROM corpus_rejections AS refused
WHERE refused.span
ORDER BY corpus, file, line_number, given_start, doc_token_start, outcome, message
