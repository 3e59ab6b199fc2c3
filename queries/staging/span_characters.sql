-- The characters of every scored span, in its text as given (texts.generated_text), and its severity class for
-- the esa scheme: the characters an MQM error marked, exactly (mqm_errors), for a span read from an MQM file; the
-- characters of its tokens, from the first token's first to the last token's last, for any other.
-- Grain: one row per scored mistake.
-- Key: mistake_id
-- Columns:
--   mistake_id: The span (mistakes.mistake_id).
--   set_id: Its list (annotation_sets.set_id).
--   text_id: Its text (texts.text_id).
--   char_start: Its first character, from 0.
--   char_end: One past its last character.
--   severity_class: major (Major, Critical, or no severity given: a list without severities counts every span as
--     an error), minor (Minor); NULL for any other severity (Neutral), which the esa scheme leaves out as
--     WMT's scorer leaves out an undecided one.
SELECT
    mistakes.mistake_id,
    mistakes.set_id,
    mistakes.text_id,
    coalesce(errors.char_start, first.char_start) AS char_start,
    coalesce(errors.char_end, last.char_end) AS char_end,
    CASE
        WHEN mistakes.severity IS NULL OR lower(mistakes.severity) IN ('major', 'critical') THEN 'major'
        WHEN lower(mistakes.severity) = 'minor' THEN 'minor'
    END AS severity_class
FROM thresholded_mistakes AS mistakes
JOIN tokens AS first ON first.text_id = mistakes.text_id AND first.doc_token = mistakes.doc_token_start
JOIN tokens AS last ON last.text_id = mistakes.text_id AND last.doc_token = mistakes.doc_token_end
LEFT JOIN mqm_errors AS errors ON errors.mistake_id = mistakes.mistake_id
