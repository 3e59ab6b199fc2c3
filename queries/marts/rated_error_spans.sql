-- The errors of each gold list read from an MQM file that lie on a span of the text or of its input, where the
-- Document view marks them by severity: with the rater who marked them and their category (an error with no span,
-- such as a Non-translation of the whole segment, counts in the MQM score but has no row).
-- Grain: one row per error of a gold list with a span.
-- Key: set_id, line_number, error_index
-- Columns:
--   corpus: The corpus (annotation_sets.corpus).
--   set_id: The gold list (annotation_sets.set_id).
--   text_id: The text rated (texts.text_id).
--   side: target (a span of the text) or source (a span of its input, texts.source_data's source).
--   char_start: Offset of the span's first character, from 0, in the text or the input.
--   char_end: Offset just past its last character.
--   category: The category as given (mqm_errors.category).
--   severity: Major, Minor, Critical or Neutral.
--   rater: The rater who marked it.
--   line_number: Its line in the file.
--   error_index: Its place among the errors of its line.
SELECT
    gold.corpus,
    errors.set_id,
    errors.text_id,
    errors.side,
    errors.char_start,
    errors.char_end,
    errors.category,
    errors.severity,
    errors.rater,
    errors.line_number,
    errors.error_index
FROM mqm_errors AS errors
JOIN annotation_sets AS gold ON gold.set_id = errors.set_id AND gold.kind = 'gold'
WHERE errors.side <> 'none'
