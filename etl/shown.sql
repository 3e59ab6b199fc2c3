-- shown(cell): a cell as a problem's message quotes it, cut to 60 characters (a cell may hold hundreds of kB).
CREATE OR REPLACE TEMP MACRO shown(cell) AS
    CASE WHEN length(cell) <= 60 THEN cell ELSE format('{}… ({:,} characters)', left(cell, 60), length(cell)) END
