-- Each submission's recall over the gold mistakes of one difficulty level: found by k submissions of the split
-- (found_by), or marked by k of the three annotators (annotators), as gold_mistake_difficulty gives them.
-- Materialized: table (computed again from every submission's rows whenever submissions are scored or removed, as
-- gold_mistake_finds, which it reads: a submission's recall at level k moves when another submission is added.
-- Computed on every read from the 12 million gold rows of scored_mistakes at scale 1000, it slowed every page.)
-- Grain: one row per (submission, measure, level that some gold mistake of its split has).
-- Key: submission_id, measure, level
-- Columns:
--   submission_id: The submission (annotation_sets.set_id).
--   submission: The submission's name (the file stem).
--   split: train or test: the split of the submission and of its gold list.
--   measure: found_by (how many submissions of the split found the gold mistake) or annotators (how many of
--     the three annotators marked it).
--   level: k, the value of the measure; for annotators, NULL gathers the gold mistakes no curated mistake covers.
--   gold: How many gold mistakes are at the level.
--   matched: How many of them the submission found, in the ALL scope.
--   recall: matched / gold.
-- For each submission and measure, the levels' gold and matched add up to its scores in the ALL scope.
WITH finds AS (
    SELECT
        scored.submission_id,
        counts.found_by,
        agreement.annotators,
        count(*) AS gold,
        count(scored.counterpart_id) AS matched
    FROM scored_mistakes AS scored  -- its gold rows: the ALL scope of mistake_matches
    JOIN gold_mistake_finds AS counts ON counts.gold_mistake_id = scored.mistake_id
    -- at most one row per gold mistake, as in gold_mistake_difficulty
    LEFT JOIN gold_mistake_agreement AS agreement ON agreement.gold_mistake_id = scored.mistake_id
    WHERE scored.side = 'gold'
    GROUP BY scored.submission_id, counts.found_by, agreement.annotators
),

-- both measures from the one pass over the gold rows above (a few rows per submission)
levels AS (
    SELECT
        submission_id,
        'found_by' AS measure,
        found_by AS level,
        sum(gold)::BIGINT AS gold,
        sum(matched)::BIGINT AS matched
    FROM finds
    GROUP BY submission_id, found_by
    UNION ALL
    SELECT submission_id, 'annotators', annotators, sum(gold)::BIGINT, sum(matched)::BIGINT
    FROM finds
    GROUP BY submission_id, annotators
)

SELECT
    evaluations.submission_id,
    evaluations.submission,
    evaluations.split,
    levels.measure,
    levels.level,
    levels.gold,
    levels.matched,
    levels.matched / levels.gold AS recall
FROM levels
JOIN evaluations USING (submission_id)
