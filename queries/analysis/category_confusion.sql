-- When a submission found a gold mistake, which category did it give it?
-- Matched pairs of the ALL scope (mistake_matches), where categories need not agree: the diagonal is the
-- pairs that agree, and a category scope's matches are at most its diagonal cell. The pairs are the matched
-- submitted rows of scored_mistakes (each names the gold mistake that took it; joined to the gold list, the smaller
-- side, not to every mistake), counted before the names and the categories' order are joined to them.
-- Grain: one row per (submission, gold category, submitted category) with matched pairs.
-- Key: corpus, split, submission, gold_category, submitted_category
-- Columns: corpus, submission, split, gold_category, submitted_category, pairs (matched pairs), share (of the
-- submission's pairs with that gold category).
WITH pairs AS (
    SELECT
        scored.submission_id, gold.category AS gold_category, scored.category AS submitted_category, count(*) AS pairs
    FROM scored_mistakes AS scored
    JOIN gold_mistakes AS gold ON gold.mistake_id = scored.counterpart_id
    WHERE scored.side = 'submitted' AND scored.outcome = 'matched'
    GROUP BY scored.submission_id, gold.category, scored.category
)

SELECT
    evaluations.corpus,
    evaluations.submission,
    evaluations.split,
    pairs.gold_category,
    pairs.submitted_category,
    pairs.pairs,
    pairs.pairs / sum(pairs.pairs) OVER (PARTITION BY pairs.submission_id, pairs.gold_category) AS share
FROM pairs
JOIN evaluations USING (submission_id)
JOIN categories AS gold_order ON gold_order.corpus = evaluations.corpus AND gold_order.category = pairs.gold_category
JOIN categories AS submitted_order
    ON submitted_order.corpus = evaluations.corpus AND submitted_order.category = pairs.submitted_category
ORDER BY evaluations.corpus <> 'shared-task', evaluations.corpus, evaluations.split DESC, evaluations.submission,
    gold_order.position, submitted_order.position
