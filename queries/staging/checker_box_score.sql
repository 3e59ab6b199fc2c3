-- Every statistic of every game as the box-score checker compares a claim with it (docs/checker.md): each player's
-- line (player_games), each team's line (team_games, with its points of each half), and the game's own figures
-- (the winner's and the loser's points, of the game and of each quarter and half, and the margin), one row a
-- statistic; a statistic the data lacks (N/A) has no row. double is how many of a player's points, rebounds,
-- assists, steals and blocks reach ten (a double-double is two); pts_rank where his points put him on his team.
-- Grain: one row per (game, entity, statistic).
-- Key: text_id, kind, side, player_index, stat
-- Columns:
--   text_id: The game (games.text_id).
--   kind: player, team or game.
--   side: home or visitor for a player or a team; NULL for the game.
--   player_index: The player's index in the box score; NULL for a team or the game.
--   entity: The player's full name, the team's name, or both teams' names for the game.
--   stat: The statistic: a column of player_games or team_games (pts_half1 and pts_half2 the halves' points;
--     a player's pts_rank, 1 + how many teammates scored more); of the game, reb, pts, pts_qtr1 … pts_qtr4,
--     pts_half1 and pts_half2 with _high (the larger of the two teams') or _low (the smaller), and the points'
--     with _margin (the difference of the teams').
--   value: The statistic's value.
WITH players AS (
    SELECT
        text_id,
        side,
        player_index,
        player_name AS entity,
        minutes,
        pts,
        fgm,
        fga,
        fg_pct,
        fg3m,
        fg3a,
        fg3_pct,
        ftm,
        fta,
        ft_pct,
        oreb,
        dreb,
        reb,
        ast,
        stl,
        blk,
        tov,
        CASE WHEN pts IS NOT NULL THEN
            CAST(pts >= 10 AS INTEGER) + CAST(coalesce(reb, 0) >= 10 AS INTEGER)
            + CAST(coalesce(ast, 0) >= 10 AS INTEGER) + CAST(coalesce(stl, 0) >= 10 AS INTEGER)
            + CAST(coalesce(blk, 0) >= 10 AS INTEGER)
        END AS double,
        -- where his points put him on his team: 1 + how many teammates scored more
        CASE WHEN pts IS NOT NULL THEN rank() OVER (PARTITION BY text_id, side ORDER BY pts DESC NULLS LAST) END
        AS pts_rank
    FROM player_games
),

teams AS (
    SELECT
        text_id,
        side,
        team_name AS entity,
        wins,
        losses,
        pts,
        pts_qtr1,
        pts_qtr2,
        pts_qtr3,
        pts_qtr4,
        pts_qtr1 + pts_qtr2 AS pts_half1,
        pts_qtr3 + pts_qtr4 AS pts_half2,
        fg_pct,
        fg3_pct,
        ft_pct,
        reb,
        ast,
        tov
    FROM team_games
),

team_stats AS (
    -- one row a statistic a team's line holds (a statistic it lacks has none)
    SELECT text_id, side, entity, stat, value
    FROM (
        SELECT
            teams.text_id,
            teams.side,
            teams.entity,
            stats.stat,
            CASE stats.stat
                WHEN 'wins' THEN teams.wins
                WHEN 'losses' THEN teams.losses
                WHEN 'pts' THEN teams.pts
                WHEN 'pts_qtr1' THEN teams.pts_qtr1
                WHEN 'pts_qtr2' THEN teams.pts_qtr2
                WHEN 'pts_qtr3' THEN teams.pts_qtr3
                WHEN 'pts_qtr4' THEN teams.pts_qtr4
                WHEN 'pts_half1' THEN teams.pts_half1
                WHEN 'pts_half2' THEN teams.pts_half2
                WHEN 'fg_pct' THEN teams.fg_pct
                WHEN 'fg3_pct' THEN teams.fg3_pct
                WHEN 'ft_pct' THEN teams.ft_pct
                WHEN 'reb' THEN teams.reb
                WHEN 'ast' THEN teams.ast
                WHEN 'tov' THEN teams.tov
            END AS value
        FROM teams
        CROSS JOIN (
            VALUES ('wins'), ('losses'), ('pts'), ('pts_qtr1'), ('pts_qtr2'), ('pts_qtr3'),
                ('pts_qtr4'), ('pts_half1'), ('pts_half2'), ('fg_pct'), ('fg3_pct'), ('ft_pct'),
                ('reb'), ('ast'), ('tov')
        ) AS stats (stat)
    ) AS teams_stats
    WHERE value IS NOT NULL
),

game_stats AS (
    SELECT
        text_id,
        string_agg(entity, ' - ' ORDER BY side) AS entity,  -- the home team's name first, as games gives them
        stat,
        max(value) AS high,
        min(value) AS low
    FROM team_stats
    WHERE stat LIKE 'pts%' OR stat = 'reb'
    GROUP BY text_id, stat
    HAVING count(*) = 2
),

player_stats AS (
    -- one row a statistic a player's line holds (a statistic it lacks has none)
    SELECT text_id, side, player_index, entity, stat, value
    FROM (
        SELECT
            players.text_id,
            players.side,
            players.player_index,
            players.entity,
            stats.stat,
            CASE stats.stat
                WHEN 'minutes' THEN players.minutes
                WHEN 'pts' THEN players.pts
                WHEN 'fgm' THEN players.fgm
                WHEN 'fga' THEN players.fga
                WHEN 'fg_pct' THEN players.fg_pct
                WHEN 'fg3m' THEN players.fg3m
                WHEN 'fg3a' THEN players.fg3a
                WHEN 'fg3_pct' THEN players.fg3_pct
                WHEN 'ftm' THEN players.ftm
                WHEN 'fta' THEN players.fta
                WHEN 'ft_pct' THEN players.ft_pct
                WHEN 'oreb' THEN players.oreb
                WHEN 'dreb' THEN players.dreb
                WHEN 'reb' THEN players.reb
                WHEN 'ast' THEN players.ast
                WHEN 'stl' THEN players.stl
                WHEN 'blk' THEN players.blk
                WHEN 'tov' THEN players.tov
                WHEN 'double' THEN players.double
                WHEN 'pts_rank' THEN players.pts_rank
            END AS value
        FROM players
        CROSS JOIN (
            VALUES ('minutes'), ('pts'), ('fgm'), ('fga'), ('fg_pct'), ('fg3m'), ('fg3a'), ('fg3_pct'),
                ('ftm'), ('fta'), ('ft_pct'), ('oreb'), ('dreb'), ('reb'), ('ast'), ('stl'), ('blk'),
                ('tov'), ('double'), ('pts_rank')
        ) AS stats (stat)
    ) AS players_stats
    WHERE value IS NOT NULL
)

SELECT text_id, 'player' AS kind, side, player_index, entity, stat, value
FROM player_stats
UNION ALL
SELECT text_id, 'team', side, NULL, entity, stat, value
FROM team_stats
UNION ALL
SELECT text_id, 'game', NULL, NULL, entity, stat || suffix, CASE suffix WHEN '_high' THEN high ELSE low END
FROM game_stats, (VALUES ('_high'), ('_low')) AS suffixes (suffix)
UNION ALL
SELECT text_id, 'game', NULL, NULL, entity, stat || '_margin', high - low
FROM game_stats
WHERE stat LIKE 'pts%'
