-- The games the texts describe: games.csv and the Rotowire box scores, one game per text.
CREATE TABLE games (
    text_id           VARCHAR PRIMARY KEY,
    split             VARCHAR NOT NULL,
    game_date         DATE,
    home_name         VARCHAR,
    vis_name          VARCHAR,
    home_city         VARCHAR,
    vis_city          VARCHAR,
    rotowire_line     INTEGER,
    bref_box_url      VARCHAR,
    bref_home_url     VARCHAR,
    bref_vis_url      VARCHAR,
    calendar_url      VARCHAR,
    reference_summary VARCHAR,
    reference_text    VARCHAR
);

COMMENT ON TABLE games IS 'One row per game, keyed by the text that describes it (games.csv joined with shared_task.jsonl)';
COMMENT ON COLUMN games.text_id IS 'The text describing this game (texts.text_id)';
COMMENT ON COLUMN games.split IS 'train or test';
COMMENT ON COLUMN games.game_date IS 'Date of the game (DATE in games.csv, day in the Rotowire record, MM_DD_YY)';
COMMENT ON COLUMN games.home_name IS 'Home team name, e.g. Celtics';
COMMENT ON COLUMN games.vis_name IS 'Visiting team name, e.g. Lakers';
COMMENT ON COLUMN games.home_city IS 'Home team city, e.g. Boston (from the Rotowire record)';
COMMENT ON COLUMN games.vis_city IS 'Visiting team city (from the Rotowire record; the Clippers'' city is LA)';
COMMENT ON COLUMN games.rotowire_line IS '0-based line of the game in the Rotowire test set (LINE_ID_FROM_TEST_SET)';
COMMENT ON COLUMN games.bref_box_url IS 'basketball-reference.com box score page (BREF_BOX)';
COMMENT ON COLUMN games.bref_home_url IS 'basketball-reference.com season page of the home team (BREF_HOME)';
COMMENT ON COLUMN games.bref_vis_url IS 'basketball-reference.com season page of the visiting team (BREF_VIS, BREF_VISITING in the test split)';
COMMENT ON COLUMN games.calendar_url IS 'Calendar of the game''s month (CALENDAR, CALANDER in the test split)';
COMMENT ON COLUMN games.reference_summary IS 'The human-written Rotowire summary of the game, tokens joined by spaces';
COMMENT ON COLUMN games.reference_text IS 'The human-written summary as the shared task cleaned it (cleaned_text of shared_task.jsonl; NULL when the record has none): the reference of the built-in metrics bleu and chrf';

CREATE TABLE team_games (
    text_id   VARCHAR NOT NULL,
    side      VARCHAR NOT NULL CHECK (side IN ('home', 'visitor')),
    team_name VARCHAR NOT NULL,
    team_city VARCHAR NOT NULL,
    wins      INTEGER,
    losses    INTEGER,
    pts       INTEGER,
    pts_qtr1  INTEGER,
    pts_qtr2  INTEGER,
    pts_qtr3  INTEGER,
    pts_qtr4  INTEGER,
    fg_pct    INTEGER,
    fg3_pct   INTEGER,
    ft_pct    INTEGER,
    reb       INTEGER,
    ast       INTEGER,
    tov       INTEGER,
    PRIMARY KEY (text_id, side)
);

COMMENT ON TABLE team_games IS 'One row per team per game: the Rotowire team line (home_line, vis_line)';
COMMENT ON COLUMN team_games.text_id IS 'The game (games.text_id)';
COMMENT ON COLUMN team_games.side IS 'home or visitor';
COMMENT ON COLUMN team_games.team_name IS 'Team name, e.g. Celtics';
COMMENT ON COLUMN team_games.team_city IS 'Team city, e.g. Boston';
COMMENT ON COLUMN team_games.wins IS 'Wins of the season after this game';
COMMENT ON COLUMN team_games.losses IS 'Losses of the season after this game';
COMMENT ON COLUMN team_games.pts IS 'Points scored (overtime included)';
COMMENT ON COLUMN team_games.pts_qtr1 IS 'Points in the first quarter (Rotowire has no overtime line: quarters may not add up to pts)';
COMMENT ON COLUMN team_games.pts_qtr2 IS 'Points in the second quarter';
COMMENT ON COLUMN team_games.pts_qtr3 IS 'Points in the third quarter';
COMMENT ON COLUMN team_games.pts_qtr4 IS 'Points in the fourth quarter';
COMMENT ON COLUMN team_games.fg_pct IS 'Field goal percentage, a whole number';
COMMENT ON COLUMN team_games.fg3_pct IS 'Three-point percentage, a whole number';
COMMENT ON COLUMN team_games.ft_pct IS 'Free throw percentage, a whole number';
COMMENT ON COLUMN team_games.reb IS 'Rebounds';
COMMENT ON COLUMN team_games.ast IS 'Assists';
COMMENT ON COLUMN team_games.tov IS 'Turnovers';

CREATE TABLE player_games (
    text_id        VARCHAR NOT NULL,
    player_index   INTEGER NOT NULL,
    player_name    VARCHAR NOT NULL,
    first_name     VARCHAR,
    second_name    VARCHAR,
    side           VARCHAR CHECK (side IN ('home', 'visitor')),
    team_city      VARCHAR,
    start_position VARCHAR,
    starter        BOOLEAN NOT NULL,
    did_not_play   BOOLEAN NOT NULL,
    minutes        INTEGER,
    pts            INTEGER,
    fgm            INTEGER,
    fga            INTEGER,
    fg_pct         INTEGER,
    fg3m           INTEGER,
    fg3a           INTEGER,
    fg3_pct        INTEGER,
    ftm            INTEGER,
    fta            INTEGER,
    ft_pct         INTEGER,
    oreb           INTEGER,
    dreb           INTEGER,
    reb            INTEGER,
    ast            INTEGER,
    stl            INTEGER,
    blk            INTEGER,
    tov            INTEGER,
    pf             INTEGER,
    PRIMARY KEY (text_id, player_index)
);

COMMENT ON TABLE player_games IS 'One row per player per game: the Rotowire box score (N/A becomes NULL)';
COMMENT ON COLUMN player_games.text_id IS 'The game (games.text_id)';
COMMENT ON COLUMN player_games.player_index IS 'The player''s index in the Rotowire box score ("0".."N")';
COMMENT ON COLUMN player_games.player_name IS 'Full name, e.g. Isaiah Thomas';
COMMENT ON COLUMN player_games.first_name IS 'First name';
COMMENT ON COLUMN player_games.second_name IS 'Last name';
COMMENT ON COLUMN player_games.side IS 'home or visitor, from TEAM_CITY; NULL when both teams share the city (the loader warns)';
COMMENT ON COLUMN player_games.team_city IS 'TEAM_CITY as Rotowire gives it';
COMMENT ON COLUMN player_games.start_position IS 'G, F or C for a starter, NULL for a bench player';
COMMENT ON COLUMN player_games.starter IS 'Whether the player started';
COMMENT ON COLUMN player_games.did_not_play IS 'Whether the player did not play (no minutes recorded)';
COMMENT ON COLUMN player_games.minutes IS 'Minutes played';
COMMENT ON COLUMN player_games.pts IS 'Points';
COMMENT ON COLUMN player_games.fgm IS 'Field goals made';
COMMENT ON COLUMN player_games.fga IS 'Field goals attempted';
COMMENT ON COLUMN player_games.fg_pct IS 'Field goal percentage, a whole number';
COMMENT ON COLUMN player_games.fg3m IS 'Three-pointers made';
COMMENT ON COLUMN player_games.fg3a IS 'Three-pointers attempted';
COMMENT ON COLUMN player_games.fg3_pct IS 'Three-point percentage, a whole number';
COMMENT ON COLUMN player_games.ftm IS 'Free throws made';
COMMENT ON COLUMN player_games.fta IS 'Free throws attempted';
COMMENT ON COLUMN player_games.ft_pct IS 'Free throw percentage, a whole number';
COMMENT ON COLUMN player_games.oreb IS 'Offensive rebounds';
COMMENT ON COLUMN player_games.dreb IS 'Defensive rebounds';
COMMENT ON COLUMN player_games.reb IS 'Rebounds';
COMMENT ON COLUMN player_games.ast IS 'Assists';
COMMENT ON COLUMN player_games.stl IS 'Steals';
COMMENT ON COLUMN player_games.blk IS 'Blocks';
COMMENT ON COLUMN player_games.tov IS 'Turnovers (TO)';
COMMENT ON COLUMN player_games.pf IS 'Personal fouls';
