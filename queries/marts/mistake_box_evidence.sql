-- What the box score says about a mistake of the shared task (the Errors browser's evidence): for a mistake of the
-- box-score checker's list (accuracy_db/ingest/checker.py puts its findings in as a submission), the finding with
-- what it compared; for a gold NUMBER mistake, the first claim in its tokens that the checker's own models tie to an
-- entity and a statistic (checker_claims, checker_claim_entities: of this game, the entity named last first) with
-- the box score's value (checker_box_score); for a gold NAME mistake, the first name in its tokens the checker finds
-- (checker_mentions) with the roster it is read against. A gold mistake whose tokens hold no such claim has no row.
-- Grain: one row per mistake with evidence from the box score.
-- Key: mistake_id
-- Columns:
--   mistake_id: The mistake (mistakes.mistake_id): of a checker list, or of a gold list.
--   evidence: finding (the checker's list's own) or box score (the value of a gold mistake's claim).
--   entity: The player or team the claim is about, or the name.
--   stat: The statistic compared (checker_box_score.stat), or roster for a name.
--   claimed: What the text says: the number, or the name.
--   actual: What the box score says: the statistic's value; for a name, its team (a player of this game), itself (a
--     team of this game) or this game's two teams (a name of another game).
--   rule: The checker's rule (checker_claims.rule, boxscore_findings.rule), or whose the name is.
WITH findings AS (
    SELECT
        mistakes.mistake_id,
        'finding' AS evidence,
        found.entity,
        found.stat,
        found.claimed,
        found.actual,
        found.rule
    FROM mistakes
    JOIN annotation_sets AS lists
        ON lists.set_id = mistakes.set_id
        AND lists.kind = 'submission'
        AND lists.source_file = 'accuracy_db/queries: boxscore_findings'
    JOIN boxscore_findings AS found
        ON found.text_id = mistakes.text_id AND found.doc_token_start = mistakes.doc_token_start
),

number_claims AS (
    SELECT
        gold.mistake_id,
        entities.entity,
        claims.stat,
        CAST(claims.claimed AS VARCHAR) AS claimed,
        CAST(box.value AS VARCHAR) AS actual,
        claims.rule,
        row_number() OVER (
            PARTITION BY gold.mistake_id
            ORDER BY claims.doc_token, entities.named_at DESC NULLS LAST, entities.entity
        ) AS pick
    FROM gold_mistakes AS gold
    JOIN checker_claims AS claims
        ON claims.text_id = gold.text_id
        AND claims.doc_token <= gold.doc_token_end
        AND claims.last_token >= gold.doc_token_start
    JOIN checker_claim_entities AS entities
        ON entities.text_id = claims.text_id AND entities.doc_token = claims.doc_token AND entities.of_game
    JOIN checker_box_score AS box
        ON box.text_id = claims.text_id
        AND box.kind = entities.kind
        AND box.side IS NOT DISTINCT FROM entities.side
        AND box.player_index IS NOT DISTINCT FROM entities.player_index
        AND box.stat = claims.stat
    WHERE gold.category = 'NUMBER'
),

name_mentions AS (
    SELECT
        gold.mistake_id,
        mentions.entity,
        'roster' AS stat,
        mentions.mention AS claimed,
        CASE
            WHEN NOT mentions.of_game THEN games.home_name || ' - ' || games.vis_name
            WHEN mentions.kind = 'player' AND mentions.side = 'home' THEN games.home_name
            WHEN mentions.kind = 'player' THEN games.vis_name
            ELSE mentions.entity
        END AS actual,
        mentions.kind || CASE WHEN mentions.of_game THEN ' of this game' ELSE ' of another game' END AS rule,
        row_number() OVER (
            PARTITION BY gold.mistake_id
            ORDER BY mentions.first_token, mentions.of_game DESC, mentions.entity
        ) AS pick
    FROM gold_mistakes AS gold
    JOIN checker_mentions AS mentions
        ON mentions.text_id = gold.text_id
        AND mentions.first_token <= gold.doc_token_end
        AND mentions.last_token >= gold.doc_token_start
    JOIN games ON games.text_id = gold.text_id
    WHERE gold.category = 'NAME'
)

SELECT mistake_id, evidence, entity, stat, claimed, actual, rule
FROM findings
UNION ALL
SELECT mistake_id, 'box score', entity, stat, claimed, actual, rule
FROM number_claims
WHERE pick = 1
UNION ALL
SELECT mistake_id, 'box score', entity, stat, claimed, actual, rule
FROM name_mentions
WHERE pick = 1
