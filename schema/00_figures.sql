-- The figures every score is made of, defined once: scores (queries/marts) and the resampled figures of the stats
-- layer (queries/stats) both compute them with these macros.
-- A ratio is NULL when there is nothing to divide by (never 0.0); an F1 is NULL when either of its ratios is, and 0
-- when both are 0.
CREATE MACRO ratio(part, whole) AS part / nullif(whole, 0);
CREATE MACRO f1(recall, precision) AS
    CASE WHEN recall + precision = 0 THEN 0.0 ELSE 2 * recall * precision / (recall + precision) END;
