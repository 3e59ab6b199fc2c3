-- The names the box-score checker finds in each text that has a game (docs/checker.md): a run of tokens of one
-- sentence that spells a player's name as the box scores give it (the full name, the first and last names, or the
-- last name alone), a team's name, its city, or both, of this game (of_game) or of any other game of the database.
-- A run inside a longer run that is a name is no mention; a name of this game shadows one of another game on the
-- same run, and a city of another game just before a name of this game ("Los Angeles Clippers", where the box
-- scores say LA) is none; a last name two players of the game share is a mention of each.
-- Grain: one row per (text, run of tokens, entity) named.
-- Key: text_id, first_token, kind, entity, player_index
-- Columns:
--   corpus: The text's corpus (texts.corpus).
--   split: train or test: the text's split.
--   text_id: The text (texts.text_id).
--   sentence_id: The mention's sentence.
--   first_token: The mention's first token, counted in the document.
--   last_token: The mention's last token, counted in the document.
--   mention: The mention's tokens joined by spaces.
--   kind: player or team.
--   entity: The player's full name (player_games.player_name), or the team's name (team_games.team_name).
--   form: How the mention spells the entity: full name, last name, team, city, or city and team.
--   of_game: Whether the entity is of this text's game (one of its rosters or its teams).
--   side: home or visitor for an entity of this game; NULL for one of another game.
--   player_index: The player's index in this game's box score; NULL for a team or an entity of another game.
WITH game_names AS (
    SELECT text_id, kind, entity, form, name, side, player_index
    FROM (
        SELECT
            player_games.text_id,
            'player' AS kind,
            player_games.player_name AS entity,
            forms.form,
            CASE forms.variant
                WHEN 0 THEN player_games.player_name
                WHEN 1 THEN player_games.first_name || ' ' || player_games.second_name
                ELSE player_games.second_name
            END AS name,
            player_games.side,
            player_games.player_index
        FROM player_games
        CROSS JOIN (VALUES ('full name', 0), ('full name', 1), ('last name', 2)) AS forms (form, variant)
    ) AS player_names
    WHERE name IS NOT NULL
    UNION
    SELECT
        team_games.text_id,
        'team',
        team_games.team_name,
        forms.form,
        CASE forms.variant
            WHEN 0 THEN team_games.team_name
            WHEN 1 THEN team_games.team_city
            ELSE team_games.team_city || ' ' || team_games.team_name
        END,
        team_games.side,
        NULL
    FROM team_games
    CROSS JOIN (VALUES ('team', 0), ('city', 1), ('city and team', 2)) AS forms (form, variant)
),

-- the names of every game, as another game's text may spell them: players by their full name alone
all_names AS (
    SELECT DISTINCT kind, entity, form, name
    FROM game_names
    WHERE kind = 'team' OR form = 'full name'
),

-- the first word of every name of every game: a run of tokens is a name only from a token that is one
first_words AS (
    SELECT DISTINCT split_part(name, ' ', 1) AS word
    FROM game_names
),

wide_grams AS (
    -- each run of one to four tokens of a sentence, from each token that is a name's first word: one column a length
    SELECT
        corpus, split, text_id, sentence_id, doc_token,
        CASE WHEN starts THEN token END AS gram1,
        CASE WHEN starts THEN token || ' ' || lead(token, 1) OVER sentence END AS gram2,
        CASE WHEN starts THEN token || ' ' || lead(token, 1) OVER sentence || ' ' || lead(token, 2) OVER sentence END
        AS gram3,
        CASE WHEN starts THEN token || ' ' || lead(token, 1) OVER sentence || ' ' || lead(token, 2) OVER sentence
            || ' ' || lead(token, 3) OVER sentence END AS gram4
    FROM (
        SELECT tokens.*, first_words.word IS NOT NULL AS starts
        FROM checker_tokens AS tokens
        LEFT JOIN first_words ON first_words.word = tokens.token
    ) AS tokens
    WINDOW sentence AS (PARTITION BY text_id, sentence_id ORDER BY sent_token)
),

grams AS (
    -- each run of one to four tokens of a sentence from a name's first word: one row a run (none past the sentence's
    -- end)
    SELECT corpus, split, text_id, sentence_id, doc_token, gram1 AS gram FROM wide_grams WHERE gram1 IS NOT NULL
    UNION ALL
    SELECT corpus, split, text_id, sentence_id, doc_token, gram2 FROM wide_grams WHERE gram2 IS NOT NULL
    UNION ALL
    SELECT corpus, split, text_id, sentence_id, doc_token, gram3 FROM wide_grams WHERE gram3 IS NOT NULL
    UNION ALL
    SELECT corpus, split, text_id, sentence_id, doc_token, gram4 FROM wide_grams WHERE gram4 IS NOT NULL
),

candidates AS (
    SELECT
        grams.*,
        game_names.kind,
        game_names.entity,
        game_names.form,
        game_names.name,
        TRUE AS of_game,
        game_names.side,
        game_names.player_index
    FROM grams
    JOIN game_names ON game_names.text_id = grams.text_id AND game_names.name = grams.gram
    UNION ALL
    SELECT grams.*, all_names.kind, all_names.entity, all_names.form, all_names.name, FALSE, NULL, NULL
    FROM grams
    JOIN all_names ON all_names.name = grams.gram
),

mentions AS (
    SELECT DISTINCT
        corpus,
        split,
        text_id,
        sentence_id,
        doc_token AS first_token,
        doc_token + length(name) - length(replace(name, ' ', '')) AS last_token,  -- one token a word of the name
        name AS mention,
        kind,
        entity,
        form,
        of_game,
        side,
        player_index
    FROM candidates
)

SELECT mentions.*
FROM mentions
WHERE NOT EXISTS (
    SELECT 1
    FROM mentions AS longer
    WHERE longer.text_id = mentions.text_id
        AND longer.first_token <= mentions.first_token
        AND longer.last_token >= mentions.last_token
        AND longer.last_token - longer.first_token > mentions.last_token - mentions.first_token
)
AND (mentions.of_game OR NOT EXISTS (
    SELECT 1
    FROM mentions AS own
    WHERE own.text_id = mentions.text_id
        AND own.first_token = mentions.first_token
        AND own.last_token = mentions.last_token
        AND own.of_game
))
-- a city of another game before a name of this game's is no mention: "Los Angeles Clippers", the box scores' "LA"
AND (mentions.of_game OR NOT EXISTS (
    SELECT 1
    FROM mentions AS own
    WHERE own.text_id = mentions.text_id
        AND own.first_token = mentions.last_token + 1
        AND own.of_game
))
-- a player of another game whose name is also of this game's players (a namesake on a roster) is no mention
AND (mentions.of_game OR mentions.kind = 'team' OR NOT EXISTS (
    SELECT 1 FROM player_games WHERE player_games.text_id = mentions.text_id AND player_games.player_name = mentions.entity
))
