-- The cells of the box score each finding of the box-score checker contradicts (boxscore_findings), where the
-- Document view highlights them: a player's or a team's statistic, in its row; a figure of the game (the winner's
-- or the loser's points, the margin) in both teams' rows. A NAME finding, whose name is of no row, has none.
-- Grain: one row per (finding, row of the box score).
-- Key: text_id, doc_token_start, kind, side, player_index
-- Columns:
--   text_id: The text (boxscore_findings.text_id).
--   doc_token_start: The finding's first token (boxscore_findings.doc_token_start).
--   kind: player or team: the row's.
--   side: home or visitor: the row's team.
--   player_index: The player's index in the box score; NULL for a team's row.
--   stat: The statistic contradicted, as the row has it (a game's figure as each team's: pts_qtr1_high is pts_qtr1).
SELECT DISTINCT
    findings.text_id,
    findings.doc_token_start,
    box.kind,
    box.side,
    box.player_index,
    box.stat
FROM boxscore_findings AS findings
JOIN checker_box_score AS box
    ON box.text_id = findings.text_id
    AND box.kind IN ('player', 'team')
    AND (
        box.entity = findings.entity AND box.stat = findings.stat
        -- a figure of the game: each team's own
        OR box.kind = 'team' AND findings.stat IN (box.stat || '_high', box.stat || '_low', box.stat || '_margin')
    )
WHERE findings.category = 'NUMBER'
