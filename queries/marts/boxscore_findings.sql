-- What the box-score checker finds wrong in each text that has a game (docs/checker.md), with the evidence: a NUMBER
-- finding is a claim (checker_claims) that a statistic of the entities it describes (checker_claim_entities) settles
-- and none of them equals, the box-score value of the entity named last beside it (of two named there, the
-- first by name); a NAME finding is a player or a
-- team named in a text (checker_mentions) that is not of its game. A claim no entity or statistic settles, or about
-- an entity of another game, is no finding; nor is a team's figure that is the other team's in a sentence that does
-- not name the other team, after the team named twice (a record: wholly the other team's, after the team named once):
-- the name is the mistake there. Every rule reads the box score of the text's game; none names a text, a
-- player, a team or a number.
-- Grain: one row per finding.
-- Key: text_id, doc_token_start
-- Columns:
--   corpus: The text's corpus (texts.corpus).
--   split: train or test: the text's split.
--   text_id: The text (texts.text_id).
--   sentence_id: The finding's sentence.
--   doc_token_start: The finding's first token, counted in the document.
--   doc_token_end: The finding's last token, counted in the document (inclusive).
--   tokens: The finding's tokens joined by spaces, as the text has them.
--   category: NUMBER, NAME, or WORD (a double-double the box score does not hold).
--   entity: Whom the finding is about: the player or team whose statistic the claim contradicts (the game's two
--     teams for the score or the margin), or the name that is of another game.
--   stat: The statistic compared (checker_box_score.stat), or roster for a name.
--   claimed: What the text says: the number, or the name.
--   actual: What the box score says: the statistic's value, or this game's two teams for a name.
--   rule: The rule that found it: a rule of checker_claims, or player of another game.
-- the mentions and the box score, each read once (a view named twice below would be computed twice)
WITH mentions AS (
    SELECT corpus, split, text_id, sentence_id, first_token, last_token, mention, kind, entity, of_game, side
    FROM checker_mentions
),

box AS (
    SELECT text_id, kind, side, player_index, stat, value
    FROM checker_box_score
),

-- how often a sentence names each team of its game
team_names AS (
    SELECT text_id, sentence_id, side, count(*) AS times
    FROM mentions
    WHERE kind = 'team' AND of_game
    GROUP BY text_id, sentence_id, side
),

compared AS (
    SELECT
        entities.*,
        box.value,
        -- a team's figure that is the other team's, in a sentence that does not name the other team, where the
        -- name is the mistake, which the annotators mark, not the figure: when the sentence names the team twice
        -- ("the Kings shot 45 percent, while the Kings shot 40 percent"), or, for a record, when the whole record
        -- is the other team's and the sentence names the team once ("the Grizzlies ( 8 - 36 )", the 76ers' record)
        CASE
            WHEN opponent_named.times IS NOT NULL THEN NULL
            WHEN entities.rule <> 'record' AND named_twice.times >= 2 THEN opponent.value
            WHEN entities.rule = 'record' AND named_twice.times = 1
                AND bool_and(opponent.value = entities.claimed) OVER (
                    PARTITION BY entities.text_id, entities.rule, entities.named_at
                )
                THEN opponent.value
        END AS opponent_value,
        -- the entity whose value the finding gives: of those with a value, the one named last, then by name, then
        -- by side and place in the box score (two players of one name)
        row_number() OVER (
            PARTITION BY entities.text_id, entities.doc_token
            ORDER BY CASE WHEN box.value IS NULL THEN 1 ELSE 0 END, entities.named_at DESC NULLS LAST,
                entities.entity NULLS LAST, entities.side NULLS LAST, entities.player_index NULLS LAST
        ) AS pick
    -- each claim with its entities (the claim's columns are on each row: the claims read once)
    FROM checker_claim_entities AS entities
    LEFT JOIN box
        ON box.text_id = entities.text_id
        AND box.kind = entities.kind
        AND box.side IS NOT DISTINCT FROM entities.side
        AND box.player_index IS NOT DISTINCT FROM entities.player_index
        AND box.stat = entities.stat
    LEFT JOIN box AS opponent
        ON entities.kind = 'team'
        AND opponent.text_id = entities.text_id
        AND opponent.kind = 'team'
        AND opponent.side <> entities.side
        AND opponent.stat = entities.stat
    LEFT JOIN team_names AS named_twice
        ON named_twice.text_id = entities.text_id
        AND named_twice.sentence_id = entities.sentence_id
        AND named_twice.side = entities.side
    LEFT JOIN team_names AS opponent_named
        ON opponent_named.text_id = entities.text_id
        AND opponent_named.sentence_id = entities.sentence_id
        AND opponent_named.side = opponent.side
),

number_findings AS (
    SELECT
        corpus,
        split,
        text_id,
        sentence_id,
        doc_token,
        last_token,
        tokens,
        CASE WHEN rule = 'double-double' THEN 'WORD' ELSE 'NUMBER' END AS category,
        max(CASE WHEN pick = 1 AND value IS NOT NULL THEN entity END) AS entity,
        stat,
        CASE
            WHEN rule = 'double-double' THEN tokens
            ELSE CAST(claimed AS VARCHAR)
        END AS claimed,
        CAST(max(CASE WHEN pick = 1 THEN value END) AS VARCHAR) AS actual,
        rule
    FROM compared
    GROUP BY corpus, split, text_id, sentence_id, doc_token, last_token, tokens, rule, stat, claimed
    HAVING bool_and(of_game)
        AND count(value) > 0
        AND NOT bool_or(CASE WHEN rule = 'double-double' THEN value >= claimed ELSE value = claimed END)
        AND NOT (bool_and(kind = 'team') AND coalesce(bool_or(opponent_value = claimed), FALSE))
),

name_findings AS (
    SELECT
        mentions.corpus,
        mentions.split,
        mentions.text_id,
        mentions.sentence_id,
        mentions.first_token,
        mentions.last_token,
        mentions.mention,
        'NAME',
        string_agg(DISTINCT mentions.entity, ', ' ORDER BY mentions.entity),
        'roster',
        mentions.mention,
        games.home_name || ' - ' || games.vis_name,
        mentions.kind || ' of another game'
    FROM mentions
    JOIN games ON games.text_id = mentions.text_id
    WHERE NOT mentions.of_game
        -- "without Kevin Durant": a player missing from the game is named as such
        AND NOT EXISTS (
            SELECT 1
            FROM checker_tokens AS previous
            WHERE previous.text_id = mentions.text_id
                AND previous.doc_token = mentions.first_token - 1
                AND previous.word = 'without'
        )
    GROUP BY
        mentions.corpus,
        mentions.split,
        mentions.text_id,
        mentions.sentence_id,
        mentions.first_token,
        mentions.last_token,
        mentions.mention,
        mentions.kind,
        games.home_name,
        games.vis_name
),

-- the first sentence tells the game: a day of the week there is the game's
day_findings AS (
    SELECT
        tokens.corpus,
        tokens.split,
        tokens.text_id,
        tokens.sentence_id,
        tokens.doc_token,
        tokens.doc_token,
        tokens.token,
        'NAME',
        games.home_name || ' - ' || games.vis_name,
        'day',
        tokens.token,
        -- the game's day of the week (1970-01-05 was a Monday)
        CASE date_diff('day', DATE '1970-01-05', games.game_date) % 7 WHEN 0 THEN 'Monday' WHEN 1 THEN 'Tuesday'
            WHEN 2 THEN 'Wednesday' WHEN 3 THEN 'Thursday' WHEN 4 THEN 'Friday' WHEN 5 THEN 'Saturday' ELSE 'Sunday' END,
        'day of the game'
    FROM checker_tokens AS tokens
    JOIN games ON games.text_id = tokens.text_id
    WHERE tokens.sentence_id = 1
        AND tokens.word IN ('monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday')
        AND tokens.word <> lower(
            CASE date_diff('day', DATE '1970-01-05', games.game_date) % 7 WHEN 0 THEN 'Monday' WHEN 1 THEN 'Tuesday'
            WHEN 2 THEN 'Wednesday' WHEN 3 THEN 'Thursday' WHEN 4 THEN 'Friday' WHEN 5 THEN 'Saturday' ELSE 'Sunday' END
        )
)

SELECT
    corpus,
    split,
    text_id,
    sentence_id,
    doc_token AS doc_token_start,
    last_token AS doc_token_end,
    tokens,
    category,
    entity,
    stat,
    claimed,
    actual,
    rule
FROM number_findings
UNION ALL
SELECT *
FROM name_findings
UNION ALL
SELECT *
FROM day_findings
