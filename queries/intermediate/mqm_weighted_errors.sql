-- Every MQM error with its weight: the rule of mqm_weights of the error's severity (or *) whose category is the
-- longest prefix of the error's (a rule of an exact severity before one of * on a tie), compared without case,
-- as mt-metrics-eval's score_mqm.py applies "the most specific match"; 0 when no rule applies.
-- Grain: one row per error of a list read from an MQM file.
-- Key: set_id, line_number, error_index
-- Columns:
--   set_id: The list (annotation_sets.set_id).
--   text_id: The text rated (texts.text_id).
--   rater: The rater who marked it (mqm_errors.rater).
--   line_number: Its line in the file.
--   error_index: Its place among its line's errors (mqm_errors.error_index).
--   category: Its category (mqm_errors.category).
--   severity: Its severity (mqm_errors.severity).
--   weight: What it adds to its rater's score of the text.
WITH applying AS (
    SELECT
        errors.set_id,
        errors.text_id,
        errors.rater,
        errors.line_number,
        errors.error_index,
        errors.category,
        errors.severity,
        weights.weight,
        row_number() OVER (
            PARTITION BY errors.set_id, errors.line_number, errors.error_index
            ORDER BY length(weights.category) DESC, CASE WHEN weights.severity = '*' THEN 1 ELSE 0 END
        ) AS preference
    FROM mqm_errors AS errors
    LEFT JOIN mqm_weights AS weights
        ON (weights.severity = '*' OR lower(weights.severity) = lower(errors.severity))
        AND (
            weights.category = ''
            OR lower(errors.category) = lower(weights.category)
            OR substr(lower(errors.category), 1, length(weights.category) + 1) = lower(weights.category) || '/'
        )
)

SELECT
    set_id,
    text_id,
    rater,
    line_number,
    error_index,
    category,
    severity,
    coalesce(weight, 0) AS weight
FROM applying
WHERE preference = 1
