-- The figures every score is made of, defined once: scores (queries/marts) and the resampled figures of the stats
-- layer (queries/stats) both compute them with these macros.
-- A ratio is NULL when there is nothing to divide by (never 0.0); an F1 is NULL when either of its ratios is, and 0
-- when both are 0.
CREATE MACRO ratio(part, whole) AS part / nullif(whole, 0);
CREATE MACRO f1(recall, precision) AS
    CASE WHEN recall + precision = 0 THEN 0.0 ELSE 2 * recall * precision / (recall + precision) END;
-- The mushroom scheme's two figures of a text (SemEval-2025 Task 3), of two lists' labels: iou, the characters both
-- lists' hard labels mark over those either marks (1.0 when neither marks any); cor, Spearman's rho of their soft
-- vectors, 1.0 or 0.0 when either is constant (it has one value once rounded to 8 decimals: first_values or
-- second_values 1), and 1.0 for a text with no character (its counts NULL).
CREATE MACRO mushroom_iou(marked_by_both, marked_by_first, marked_by_second) AS
    CASE
        WHEN coalesce(marked_by_first, 0) + coalesce(marked_by_second, 0) = 0 THEN 1.0
        ELSE marked_by_both::DOUBLE / (marked_by_first + marked_by_second - marked_by_both)
    END;
CREATE MACRO mushroom_cor(first_values, second_values, rho) AS
    CASE
        WHEN first_values IS NULL THEN 1.0
        WHEN first_values = 1 OR second_values = 1 THEN (first_values = 1 AND second_values = 1)::INTEGER
        ELSE rho
    END;
