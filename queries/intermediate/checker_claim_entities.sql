-- Whom each claim of checker_claims describes, as the box-score checker decides it (docs/checker.md): the entities
-- whose statistic it is compared with. A claim about the game: the game. A team's record: the team named just
-- before its parenthesis. A team's points in a quarter or half: every team named before it in its sentence. Any
-- other claim: the player named last before it in its sentence, or with no name before it there, the player "he",
-- "his" or "him" stands for (the player named last before the pronoun in the text: the pronoun heuristic), with
-- every team named between him and the claim; with no player before it, the team named last before it in the
-- sentence. A claim with no entity
-- before it in its sentence has no row: the checker leaves it alone. A last name two players of the game share
-- gives both. Each row carries its claim's columns (checker_claims), so that boxscore_findings reads the claims once.
-- Grain: one row per (claim, entity).
-- Key: text_id, doc_token, kind, side, player_index, entity
-- Columns:
--   text_id: The text (texts.text_id).
--   doc_token: The claim's first token (checker_claims.doc_token).
--   kind: player, team or game (checker_box_score.kind).
--   side: home or visitor; NULL for the game, or for an entity of another game.
--   player_index: The player's index in the box score; NULL for a team or the game.
--   entity: The entity's name: checker_mentions.entity, or both teams' names for the game.
--   named_at: The token that names the entity (the mention's last, or the pronoun); NULL for the game.
--   via: name, pronoun or game.
--   of_game: Whether the entity is of this text's game.
--   corpus: The claim's corpus (checker_claims.corpus).
--   split: The claim's split (checker_claims.split).
--   sentence_id: The claim's sentence (checker_claims.sentence_id).
--   last_token: The claim's last token (checker_claims.last_token).
--   tokens: The claim's tokens (checker_claims.tokens).
--   rule: The claim's rule (checker_claims.rule).
--   stat: The statistic claimed (checker_claims.stat).
--   claimed: The value the text gives (checker_claims.claimed).
-- the claims and the mentions, each read once (a view named twice below would be computed twice)
WITH claims AS (
    SELECT corpus, split, text_id, sentence_id, doc_token, last_token, tokens, entity_kind, rule, stat, claimed
    FROM checker_claims
),

mentions AS (
    SELECT text_id, sentence_id, last_token, kind, side, player_index, entity, of_game
    FROM checker_mentions
),

pronouns AS (
    -- the player named last before the pronoun in the text: the largest last token of a player's mention among the
    -- text's mentions and pronouns before it, in the text's order (a pronoun before a mention ending on its token)
    SELECT text_id, sentence_id, doc_token, antecedent
    FROM (
        SELECT
            text_id,
            sentence_id,
            doc_token,
            is_pronoun,
            max(CASE WHEN NOT is_pronoun THEN doc_token END) OVER (
                PARTITION BY text_id ORDER BY doc_token, is_pronoun DESC ROWS UNBOUNDED PRECEDING
            ) AS antecedent
        FROM (
            SELECT DISTINCT text_id, sentence_id, last_token AS doc_token, FALSE AS is_pronoun
            FROM mentions
            WHERE kind = 'player'
            UNION ALL
            SELECT text_id, sentence_id, doc_token, TRUE
            FROM checker_tokens
            WHERE word IN ('he', 'his', 'him')
        ) AS positions
    ) AS running
    WHERE is_pronoun AND antecedent IS NOT NULL
),

named AS (
    SELECT text_id, sentence_id, last_token AS named_at, kind, side, player_index, entity, 'name' AS via, of_game
    FROM mentions
    UNION ALL
    SELECT
        pronouns.text_id,
        pronouns.sentence_id,
        pronouns.doc_token,
        mentions.kind,
        mentions.side,
        mentions.player_index,
        mentions.entity,
        'pronoun',
        mentions.of_game
    FROM pronouns
    JOIN mentions
        ON mentions.text_id = pronouns.text_id AND mentions.last_token = pronouns.antecedent AND mentions.kind = 'player'
),

before_claims AS (
    SELECT
        claims.text_id,
        claims.doc_token,
        claims.entity_kind,
        claims.rule,
        claims.stat,
        claims.corpus,
        claims.split,
        claims.sentence_id,
        claims.last_token,
        claims.tokens,
        claims.claimed,
        named.named_at,
        named.kind,
        named.side,
        named.player_index,
        named.entity,
        named.via,
        named.of_game,
        coalesce(
            max(CASE WHEN named.kind = 'player' AND named.via = 'name' THEN named.named_at END) OVER claim,
            max(CASE WHEN named.kind = 'player' THEN named.named_at END) OVER claim
        ) AS last_player,
        max(CASE WHEN named.kind = 'team' THEN named.named_at END) OVER claim AS last_team
    FROM claims
    JOIN named
        ON named.text_id = claims.text_id
        AND named.sentence_id = claims.sentence_id
        AND named.named_at < claims.doc_token
    WHERE claims.entity_kind <> 'game'
    WINDOW claim AS (PARTITION BY claims.text_id, claims.doc_token)
)

SELECT text_id, doc_token, kind, side, player_index, entity, named_at, via, of_game, corpus, split, sentence_id,
    last_token, tokens, rule, stat, claimed
FROM (
    SELECT
        *,
        -- a team named twice before the claim: where it was named last
        row_number() OVER (PARTITION BY text_id, doc_token, kind, side, player_index, entity ORDER BY named_at DESC)
        AS latest
    FROM before_claims
    WHERE CASE
        WHEN rule = 'record' THEN kind = 'team' AND named_at = doc_token - CASE stat WHEN 'wins' THEN 2 ELSE 4 END
        WHEN entity_kind = 'team' THEN kind = 'team'
        WHEN last_player IS NULL THEN kind = 'team' AND named_at = last_team
        ELSE named_at = last_player AND kind = 'player' OR kind = 'team' AND named_at > last_player
    END
) AS chosen
WHERE latest = 1
UNION ALL
SELECT claims.text_id, claims.doc_token, 'game', NULL, NULL, games.home_name || ' - ' || games.vis_name, NULL, 'game', TRUE,
    claims.corpus, claims.split, claims.sentence_id, claims.last_token, claims.tokens, claims.rule, claims.stat,
    claims.claimed
FROM claims
JOIN games ON games.text_id = claims.text_id
WHERE claims.entity_kind = 'game'
