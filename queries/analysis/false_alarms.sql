-- Which mistakes did a submission ($submission) list that no gold mistake took, and whose box-score line is it?
-- A false alarm is a submitted mistake no gold mistake took in the ALL scope (mistake_matches). Its span is
-- joined to the box-score lines of the text's game whose name it contains: a player's full or last name
-- (player_games), or a team's name or city (team_games). A false alarm that names no one is listed once,
-- with the box-score columns NULL; one that names several gets a row for each.
-- Grain: one row per (false alarm, box-score line it names).
-- Columns: text_id, submitted_mistake_id, doc_token_start, category, tokens, correction, line (player or team; NULL
-- when none is named), name, side (home or visitor), pts, reb, ast, minutes (players only), wins, losses (teams only).
WITH evaluation AS (
    SELECT submission_id
    FROM evaluations
    WHERE submission = $submission
),

-- the submitted rows of scored_mistakes that no gold mistake took in the ALL scope
alarms AS (
    SELECT
        submitted.mistake_id,
        submitted.text_id,
        submitted.doc_token_start,
        submitted.category,
        submitted.tokens,
        submitted.correction
    FROM scored_mistakes AS scored
    JOIN mistakes AS submitted ON submitted.mistake_id = scored.mistake_id
    WHERE scored.submission_id = (SELECT submission_id FROM evaluation)
        AND scored.side = 'submitted'
        AND scored.outcome = 'false_alarm'
),

box_score_lines AS (
    SELECT
        text_id,
        'player' AS line,
        player_index AS line_index,
        player_name AS name,
        -- the names as whole words: between spaces, matched against the tokens between spaces (NULL: none)
        CASE WHEN player_name <> '' THEN ' ' || player_name || ' ' END AS first_match,
        CASE WHEN second_name <> '' THEN ' ' || second_name || ' ' END AS second_match,
        side,
        pts,
        reb,
        ast,
        minutes,
        NULL::INTEGER AS wins,
        NULL::INTEGER AS losses
    FROM player_games
    UNION ALL
    SELECT
        text_id,
        'team',
        0,
        team_city || ' ' || team_name,
        CASE WHEN team_name <> '' THEN ' ' || team_name || ' ' END,
        CASE WHEN team_city <> '' THEN ' ' || team_city || ' ' END,
        side,
        pts,
        reb,
        ast,
        NULL,
        wins,
        losses
    FROM team_games
),

named AS (
    SELECT
        alarms.mistake_id,
        box_score_lines.line,
        box_score_lines.line_index,
        box_score_lines.name,
        box_score_lines.side,
        box_score_lines.pts,
        box_score_lines.reb,
        box_score_lines.ast,
        box_score_lines.minutes,
        box_score_lines.wins,
        box_score_lines.losses
    FROM (SELECT mistake_id, text_id, ' ' || tokens || ' ' AS spaced_tokens FROM alarms) AS alarms
    JOIN box_score_lines
        ON box_score_lines.text_id = alarms.text_id
        AND (
            strpos(alarms.spaced_tokens, box_score_lines.first_match) > 0
            OR strpos(alarms.spaced_tokens, box_score_lines.second_match) > 0
        )
)

SELECT
    alarms.text_id,
    alarms.mistake_id AS submitted_mistake_id,
    alarms.doc_token_start,
    alarms.category,
    alarms.tokens,
    alarms.correction,
    named.line,
    named.name,
    named.side,
    named.pts,
    named.reb,
    named.ast,
    named.minutes,
    named.wins,
    named.losses
FROM alarms
LEFT JOIN named ON named.mistake_id = alarms.mistake_id
-- two players of one name on one side of a game are told apart by their line of the box score
ORDER BY alarms.text_id, alarms.doc_token_start, named.line, named.name, named.side, named.line_index
