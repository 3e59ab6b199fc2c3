-- When a submission found a gold mistake, which category did it give it?
-- Matched pairs of the ALL scope (mistake_matches), where categories need not agree: the diagonal is the
-- pairs that agree, and a category scope's matches are at most its diagonal cell.
-- Grain: one row per (submission, gold category, submitted category) with matched pairs. Columns:
-- submission, split, gold_category, submitted_category, pairs (matched pairs), share (of the submission's
-- pairs with that gold category).
SELECT
    evaluations.submission,
    evaluations.split,
    gold.category AS gold_category,
    submitted.category AS submitted_category,
    count(*) AS pairs,
    count(*) / sum(count(*)) OVER (PARTITION BY evaluations.submission, gold.category) AS share
FROM mistake_matches AS matches
JOIN evaluations USING (submission_id)
JOIN gold_mistakes AS gold ON gold.mistake_id = matches.gold_mistake_id
JOIN submitted_mistakes AS submitted ON submitted.mistake_id = matches.submitted_mistake_id
JOIN categories AS gold_order ON gold_order.corpus = evaluations.corpus AND gold_order.category = gold.category
JOIN categories AS submitted_order
    ON submitted_order.corpus = evaluations.corpus AND submitted_order.category = submitted.category
WHERE matches.scope = 'ALL'
GROUP BY evaluations.submission, evaluations.split, gold.category, submitted.category, gold_order.position,
    submitted_order.position
ORDER BY evaluations.split DESC, evaluations.submission, gold_order.position, submitted_order.position
