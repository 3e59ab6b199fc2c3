-- The size of every mistake list in each scope: how many mistakes it lists, and how many tokens they mark.
-- Grain: one row per (list, scope) with mistakes in it, scopes ALL and each category. Columns: set_id, scope,
-- mistakes, tokens. Spans within one list are disjoint, so span lengths add up to the number of tokens marked.
SELECT
    set_id,
    coalesce(category, 'ALL') AS scope,
    count(*) AS mistakes,
    sum(doc_token_end - doc_token_start + 1)::BIGINT AS tokens
FROM mistakes
GROUP BY GROUPING SETS ((set_id), (set_id, category))
