"""Load the games of one split: games.csv and the Rotowire box scores of shared_task.jsonl.

Everything is parsed and checked first; only a split without problems is inserted, in one transaction.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
from collections import defaultdict
from datetime import date, datetime
from pathlib import Path

import duckdb
import orjson
import polars as pl

from accuracy_db.data_folder import SplitFiles
from accuracy_db.errors import InputError, Problem
from accuracy_db.regular_files import open_regular, read_text

# games.csv header -> games column. The test split's games.csv spells two headers differently.
CSV_COLUMNS = {
    "TEXT_ID": "text_id",
    "HOME_NAME": "home_name",
    "VIS_NAME": "vis_name",
    "LINE_ID_FROM_TEST_SET": "rotowire_line",
    "DATE": "game_date",
    "BREF_BOX": "bref_box_url",
    "BREF_HOME": "bref_home_url",
    "BREF_VIS": "bref_vis_url",
    "CALENDAR": "calendar_url",
}
OTHER_SPELLINGS = {"BREF_VISITING": "BREF_VIS", "CALANDER": "CALENDAR"}

RECORD_TEXTS = ["home_name", "vis_name", "home_city", "vis_city"]
RECORD_KEYS = ["shared_task_text_id", "day", *RECORD_TEXTS, "home_line", "vis_line", "box_score", "summary"]

# Rotowire key -> table column. Rotowire gives every value as a string; 'N/A' when it is missing.
TEAM_TEXTS = {"TEAM-NAME": "team_name", "TEAM-CITY": "team_city"}
TEAM_STATS = {
    "TEAM-WINS": "wins",
    "TEAM-LOSSES": "losses",
    "TEAM-PTS": "pts",
    "TEAM-PTS_QTR1": "pts_qtr1",
    "TEAM-PTS_QTR2": "pts_qtr2",
    "TEAM-PTS_QTR3": "pts_qtr3",
    "TEAM-PTS_QTR4": "pts_qtr4",
    "TEAM-FG_PCT": "fg_pct",
    "TEAM-FG3_PCT": "fg3_pct",
    "TEAM-FT_PCT": "ft_pct",
    "TEAM-REB": "reb",
    "TEAM-AST": "ast",
    "TEAM-TOV": "tov",
}
PLAYER_TEXTS = {
    "PLAYER_NAME": "player_name",
    "FIRST_NAME": "first_name",
    "SECOND_NAME": "second_name",
    "TEAM_CITY": "team_city",
    "START_POSITION": "start_position",
}
PLAYER_STATS = {
    "MIN": "minutes",
    "PTS": "pts",
    "FGM": "fgm",
    "FGA": "fga",
    "FG_PCT": "fg_pct",
    "FG3M": "fg3m",
    "FG3A": "fg3a",
    "FG3_PCT": "fg3_pct",
    "FTM": "ftm",
    "FTA": "fta",
    "FT_PCT": "ft_pct",
    "OREB": "oreb",
    "DREB": "dreb",
    "REB": "reb",
    "AST": "ast",
    "STL": "stl",
    "BLK": "blk",
    "TO": "tov",
    "PF": "pf",
}
TEAM_KEYS = [*TEAM_TEXTS, *TEAM_STATS]
PLAYER_KEYS = [*PLAYER_TEXTS, *PLAYER_STATS]

GAMES_SCHEMA = {
    "text_id": pl.String,
    "split": pl.String,
    "game_date": pl.Date,
    "home_name": pl.String,
    "vis_name": pl.String,
    "home_city": pl.String,
    "vis_city": pl.String,
    "rotowire_line": pl.Int32,
    "bref_box_url": pl.String,
    "bref_home_url": pl.String,
    "bref_vis_url": pl.String,
    "calendar_url": pl.String,
    "reference_summary": pl.String,
}


def load_games(con: duckdb.DuckDBPyConnection, split_files: SplitFiles) -> list[str]:
    """Load games.csv and shared_task.jsonl of a split (either may be absent) and return the warnings.

    Raises InputError listing every problem found, before anything is inserted.
    """
    problems: list[Problem] = []
    csv_games = read_games_csv(split_files.games_csv, problems)
    box_scores = read_box_scores(split_files.box_scores, problems)
    games = merge_games(csv_games, box_scores, split_files, problems)
    tables = {"games": games_frame(games, split_files.split)}
    warnings: list[str] = []
    if box_scores is not None and box_scores.games:
        jsonl = str(split_files.box_scores)
        tables["team_games"] = team_frame(box_scores.team_strings(), jsonl, problems)
        players = player_frame(box_scores.player_strings(), jsonl, problems)
        tables["player_games"], warnings = with_sides(players, tables["games"], jsonl)
    if problems:
        raise InputError(problems)
    insert_all(con, tables)
    return warnings


DAY = re.compile(r"([0-9]{2})_([0-9]{2})_([0-9]{2})")


def parse_day(text: str) -> date:
    """MM_DD_YY, e.g. 02_03_17 (two-digit years as strptime reads them: 69-99 are 19xx).

    strptime is slow: read the usual shape directly, and leave the others (2_3_17, errors) to strptime.
    """
    match = DAY.fullmatch(text)
    if match is None:
        return datetime.strptime(text, "%m_%d_%y").date()
    month, day, year = map(int, match.groups())
    return date(year + (2000 if year <= 68 else 1900), month, day)  # ValueError for a day that does not exist


# --- games.csv ---


def read_games_csv(path: Path, problems: list[Problem]) -> dict[str, dict] | None:
    """text_id -> games row (with its line); None when the split has no games.csv or it cannot be read at all."""
    if not os.path.lexists(path):
        return None
    file, games, line = str(path), {}, 1
    try:
        with io.StringIO(read_text(path), newline="") as stream:
            reader = csv.reader(stream)
            header = [OTHER_SPELLINGS.get(name, name) for name in next(reader, [])]
            missing = [spellings(name) for name in CSV_COLUMNS if name not in header]
            if missing:
                problems.append(Problem(file, 1, f"missing column(s): {', '.join(missing)}"))
                return None
            line = reader.line_num + 1  # a quoted cell may span lines: a row starts after the previous one
            for cells in reader:
                if cells:
                    messages = add_csv_game(games, header, cells, line)
                    problems.extend(Problem(file, line, message) for message in messages)
                line = reader.line_num + 1
    except InputError as error:  # not a regular file, or not UTF-8 text
        problems.extend(error.problems)
        return None
    except csv.Error as error:
        problems.append(Problem(file, line, f"unreadable CSV: {error}"))
        return None
    return games


def spellings(column: str) -> str:
    others = [other for other, name in OTHER_SPELLINGS.items() if name == column]
    return " or ".join([column, *others])


def add_csv_game(games: dict[str, dict], header: list[str], cells: list[str], line: int) -> list[str]:
    """Add one row of games.csv to games and say what is wrong with it.

    A row with problems is added too, its bad values as NULL (nothing is inserted then): the other file still
    finds its text id.
    """
    if len(cells) != len(header):
        return [f"{len(cells)} cells where the header has {len(header)}"]
    row = dict(zip(header, cells))
    game = {column: row[name] or None for name, column in CSV_COLUMNS.items()}  # an empty cell is NULL
    game["line"] = line
    messages = []
    try:
        game["game_date"] = parse_day(row["DATE"])
    except ValueError:
        game["game_date"] = None
        messages.append(f"DATE is not a MM_DD_YY date: {row['DATE']!r}")
    try:
        game["rotowire_line"] = int(row["LINE_ID_FROM_TEST_SET"])
    except ValueError:
        game["rotowire_line"] = None
        messages.append(f"LINE_ID_FROM_TEST_SET is not a whole number: {row['LINE_ID_FROM_TEST_SET']!r}")
    text_id = row["TEXT_ID"]
    if not text_id:
        messages.append("no TEXT_ID")
    elif text_id in games:
        messages.append(f"{text_id} is already on line {games[text_id]['line']}")
    else:
        games[text_id] = game
    return messages


# --- shared_task.jsonl ---


# A stat's values in one game are joined into one string by this character, and split again in a frame a few thousand
# games at a time: far faster, and far smaller, than a Python string a value. A game with a value that is not a
# string, or that holds this character, takes the slow way: its values one at a time.
SEPARATOR = "\x1f"


class BoxScores:
    """The records of shared_task.jsonl: games rows, and the columns of the team and player rows."""

    CHUNK = 2000  # games whose joined stats are gathered before they become a frame

    def __init__(self):
        self.lines: dict[str, int] = {}  # text_id -> line, for every record whose text id could be read
        self.games: dict[str, dict] = {}  # text_id -> games row, for every record without problems
        self.teams: dict[str, list] = defaultdict(list)
        self.players: dict[str, list] = {"text_id": [], "line": [], "player_index": []}  # the rest: stat_frames
        self.joined_stats: dict[str, list[str]] = defaultdict(list)  # stat -> its values joined, a game a string
        self.stat_frames: list[pl.DataFrame] = []  # the PLAYER_KEYS columns of the player rows, as strings

    def add(self, record: dict, line: int) -> None:
        text_id = record["shared_task_text_id"]
        self.games[text_id] = {
            **{key: record[key] for key in RECORD_TEXTS},
            "text_id": text_id,
            "game_date": parse_day(record["day"]),
            "reference_summary": " ".join(record["summary"]),
        }
        for side, team_line in (("home", record["home_line"]), ("visitor", record["vis_line"])):
            self.teams["text_id"].append(text_id)
            self.teams["line"].append(line)
            self.teams["side"].append(side)
            for key in TEAM_KEYS:
                self.teams[key].append(team_line[key])
        # The box score is column-oriented (stat -> player index -> value).
        box_score = record["box_score"]
        indices = list(box_score["PLAYER_NAME"])
        if not indices:
            return
        self.players["text_id"] += [text_id] * len(indices)
        self.players["line"] += [line] * len(indices)
        self.players["player_index"] += map(int, indices)
        try:
            joined = [SEPARATOR.join(map(box_score[key].__getitem__, indices)) for key in PLAYER_KEYS]
        except TypeError:  # a value that is not a string
            joined = None
        if joined is None or any(text.count(SEPARATOR) != len(indices) - 1 for text in joined):
            self.keep_as_frame()
            values = {key: list(map(box_score[key].__getitem__, indices)) for key in PLAYER_KEYS}
            self.stat_frames.append(string_frame(values, PLAYER_KEYS))
            return
        for key, text in zip(PLAYER_KEYS, joined):
            self.joined_stats[key].append(text)
        if len(self.joined_stats[PLAYER_KEYS[0]]) == self.CHUNK:
            self.keep_as_frame()

    def keep_as_frame(self) -> None:
        """Split the joined stats gathered so far into a frame of player rows."""
        if self.joined_stats:
            joined = pl.DataFrame(self.joined_stats, schema=dict.fromkeys(PLAYER_KEYS, pl.String))
            split = joined.select(pl.all().str.split(SEPARATOR)).explode(PLAYER_KEYS)
            self.stat_frames.append(split.with_columns(pl.all().replace("N/A", None)))
            self.joined_stats = defaultdict(list)

    def team_strings(self) -> pl.DataFrame:
        return string_frame(self.teams, TEAM_KEYS)

    def player_strings(self) -> pl.DataFrame:
        self.keep_as_frame()
        players = pl.DataFrame([pl.Series(name, values, strict=False) for name, values in self.players.items()])
        if self.stat_frames:  # in one chunk, like the other columns (polars can fail on columns chunked unalike)
            stats = pl.concat(self.stat_frames, rechunk=True)
        else:
            stats = pl.DataFrame(schema=dict.fromkeys(PLAYER_KEYS, pl.String))
        return pl.concat([players, stats], how="horizontal")


def read_box_scores(path: Path, problems: list[Problem]) -> BoxScores | None:
    """The records of shared_task.jsonl (line N holds the Nth record), or None when the split has no such file."""
    if not os.path.lexists(path):
        return None
    try:
        with open_regular(path) as lines:
            return parse_box_scores(str(path), lines, problems)
    except InputError as error:  # not a regular file
        problems.extend(error.problems)
        return None


def parse_box_scores(file: str, lines, problems: list[Problem]) -> BoxScores:
    """The records of the lines of shared_task.jsonl; what is wrong with them goes to problems."""
    box_scores = BoxScores()
    for line, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            record = parse_json(text)
        except UnicodeDecodeError:
            problems.append(Problem(file, line, "not UTF-8 text"))
            continue
        except json.JSONDecodeError as error:
            problems.append(Problem(file, line, f"malformed JSON: {error.msg} (column {error.colno})"))
            continue
        except RecursionError:
            problems.append(Problem(file, line, "malformed JSON: nested too deeply"))
            continue
        except ValueError:  # a number past sys.get_int_max_str_digits(), which json leaves to int()
            problems.append(Problem(file, line, "malformed JSON: a number too long to read"))
            continue
        messages = record_problems(record, box_scores.lines)
        problems.extend(Problem(file, line, message) for message in messages)
        text_id = record_text_id(record)
        if text_id:
            box_scores.lines.setdefault(text_id, line)
        if not messages:
            box_scores.add(record, line)
    return box_scores


# orjson reads a whole number of more than 64 bits as a float, where json keeps it whole: a line with a run of 19
# digits (the shortest such number: -9223372036854775809) goes to json.
DIGITS_AS_ZEROS = bytes.maketrans(b"123456789", b"000000000")
LONG_NUMBER = b"0" * 19


def parse_json(text: bytes):
    """A JSON value, or error, as json.loads gives it; faster: orjson reads the lines it reads the same.

    What orjson refuses, json reads again: json also takes NaN, lone surrogates and a byte order mark, and its errors
    say more."""
    if LONG_NUMBER not in text.translate(DIGITS_AS_ZEROS):
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
    return json.loads(text)


def record_text_id(record) -> str | None:
    text_id = record.get("shared_task_text_id") if isinstance(record, dict) else None
    return text_id if isinstance(text_id, str) and text_id else None


def record_problems(record, lines: dict[str, int]) -> list[str]:
    """What keeps a record from being read (its numbers are checked later, all at once)."""
    if not isinstance(record, dict):
        return ["not a JSON object"]
    messages = []
    text_id = record_text_id(record)
    if text_id is None:
        messages.append(f"shared_task_text_id is not a text id: {record.get('shared_task_text_id')!r}")
    elif text_id in lines:
        messages.append(f"{text_id} is already on line {lines[text_id]}")
    missing = [key for key in RECORD_KEYS if key not in record]
    if missing:
        return [*messages, f"missing key(s): {', '.join(missing)}"]
    try:
        parse_day(record["day"])
    except (TypeError, ValueError):
        messages.append(f"day is not a MM_DD_YY date: {record['day']!r}")
    messages += [f"{key} is not a string: {record[key]!r}" for key in RECORD_TEXTS if not isinstance(record[key], str)]
    if not isinstance(record["summary"], list) or set(map(type, record["summary"])) - {str}:
        messages.append("summary is not a list of tokens")
    messages += missing_keys("home_line", record["home_line"], TEAM_KEYS)
    messages += missing_keys("vis_line", record["vis_line"], TEAM_KEYS)
    messages += box_score_problems(record["box_score"])
    return messages


def missing_keys(name: str, value, keys: list[str]) -> list[str]:
    if not isinstance(value, dict):
        return [f"{name} is not a JSON object"]
    missing = [key for key in keys if key not in value]
    return [f"{name} has no {', '.join(missing)}"] if missing else []


def box_score_problems(box_score) -> list[str]:
    """Each stat must map the same player indices ("0".."N") to values."""
    messages = missing_keys("box_score", box_score, PLAYER_KEYS)
    if messages:
        return messages
    not_objects = [key for key in PLAYER_KEYS if not isinstance(box_score[key], dict)]
    if not_objects:
        return [f"box_score {', '.join(not_objects)}: not a JSON object"]
    players = box_score["PLAYER_NAME"].keys()
    if not all(map(str.isdecimal, players)):
        messages.append(f"box_score player indices are not all whole numbers: {sorted(players)}")
    ragged = [key for key in PLAYER_KEYS if box_score[key].keys() != players]
    if ragged:
        messages.append(f"box_score {', '.join(ragged)}: not the same players as PLAYER_NAME")
    return messages


def team_frame(teams: pl.DataFrame, file: str, problems: list[Problem]) -> pl.DataFrame:
    who = pl.format("{} {} team", "text_id", "side")
    require(teams, list(TEAM_TEXTS), who, file, problems)
    teams = parse_stats(teams, TEAM_STATS, who, file, problems)
    return teams.rename(TEAM_TEXTS).drop("line")


def player_frame(players: pl.DataFrame, file: str, problems: list[Problem]) -> pl.DataFrame:
    who = pl.format("{} player {} ({})", "text_id", "player_index", pl.col("PLAYER_NAME").fill_null("no name"))
    require(players, ["PLAYER_NAME"], who, file, problems)
    players = parse_stats(players, PLAYER_STATS, who, file, problems).rename(PLAYER_TEXTS)
    # A bench player's START_POSITION is N/A; a player without minutes did not play.
    return players.with_columns(
        starter=pl.col("start_position").is_not_null(),
        did_not_play=pl.col("minutes").is_null(),
    )


def string_frame(columns: dict[str, list], keys: list[str]) -> pl.DataFrame:
    """Rotowire values as strings, 'N/A' as NULL (strict=False: a JSON number becomes its digits)."""
    # A Series a column: pl.DataFrame(columns) builds the same frame, several times slower.
    frame = pl.DataFrame(
        [
            pl.Series(name, values, dtype=pl.String if name in keys else None, strict=False)
            for name, values in columns.items()
        ]
    )
    return frame.with_columns(pl.col(keys).replace("N/A", None))


def require(frame: pl.DataFrame, keys: list[str], who: pl.Expr, file: str, problems: list[Problem]) -> None:
    """A problem for each missing value of a key the tables need."""
    for key in keys:
        for line, name in frame.filter(pl.col(key).is_null()).select("line", who).iter_rows():
            problems.append(Problem(file, line, f"{name}: no {key}"))


def parse_stats(
    frame: pl.DataFrame, stats: dict[str, str], who: pl.Expr, file: str, problems: list[Problem]
) -> pl.DataFrame:
    """Cast the stats to integers, renamed to their columns; a value that is not a whole number is a problem."""
    not_number = [pl.col(key).is_not_null() & pl.col(key).cast(pl.Int32, strict=False).is_null() for key in stats]
    if not frame.select(pl.any_horizontal(not_number).any()).item():
        return frame.with_columns(pl.col(list(stats)).cast(pl.Int32, strict=False)).rename(stats)
    for key in stats:
        not_numbers = frame.filter(pl.col(key).is_not_null() & pl.col(key).cast(pl.Int32, strict=False).is_null())
        for line, name, value in not_numbers.select("line", who, key).iter_rows():
            problems.append(Problem(file, line, f"{name}: {key} is not a whole number: {value!r}"))
    return frame.with_columns(pl.col(list(stats)).cast(pl.Int32, strict=False)).rename(stats)


def with_sides(players: pl.DataFrame, games: pl.DataFrame, file: str) -> tuple[pl.DataFrame, list[str]]:
    """Each player's side from TEAM_CITY; NULL, with a warning, where the city does not tell it."""
    home_city, vis_city, team_city = pl.col("home_city"), pl.col("vis_city"), pl.col("team_city")
    players = players.join(games.select("text_id", "home_city", "vis_city"), on="text_id", how="left")
    players = players.with_columns(
        side=pl.when(home_city == vis_city)
        .then(None)
        .when(team_city == home_city)
        .then(pl.lit("home"))
        .when(team_city == vis_city)
        .then(pl.lit("visitor"))
    )
    warnings = []
    for row in players.filter(pl.col("side").is_null()).iter_rows(named=True):
        who = f"{row['text_id']} player {row['player_index']} ({row['player_name']})"
        if row["home_city"] == row["vis_city"]:
            doubt = f"both teams are from {row['home_city']!r}"
        else:
            doubt = f"TEAM_CITY {row['team_city']!r} is neither {row['home_city']!r} nor {row['vis_city']!r}"
        warnings.append(str(Problem(file, row["line"], f"{who}: {doubt}; side left NULL")))
    return players.drop("line", "home_city", "vis_city"), warnings


# --- both files ---


def games_frame(games: list[dict], split: str) -> pl.DataFrame:
    """The games rows of a split (a column a key is faster than a row a game)."""
    columns = {column: [game.get(column) for game in games] for column in GAMES_SCHEMA}
    return pl.DataFrame({**columns, "split": [split] * len(games)}, schema=GAMES_SCHEMA)


def merge_games(
    csv_games: dict[str, dict] | None, box_scores: BoxScores | None, split_files: SplitFiles, problems: list[Problem]
) -> list[dict]:
    """One games row per text; where both files are there, each text must be in both, and they must agree.

    A value that one file leaves empty (or that has a problem of its own) is taken from the other.
    """
    if box_scores is None:
        return list((csv_games or {}).values())
    if csv_games is None:
        return list(box_scores.games.values())
    csv_file, jsonl_file = str(split_files.games_csv), str(split_files.box_scores)
    for text_id, line in box_scores.lines.items():
        if text_id not in csv_games:
            problems.append(Problem(jsonl_file, line, f"{text_id} is not in {csv_file}"))
    games = []
    for text_id, from_csv in csv_games.items():
        if text_id not in box_scores.lines:
            problems.append(Problem(csv_file, from_csv["line"], f"{text_id} is not in {jsonl_file}"))
            continue
        from_jsonl = box_scores.games.get(text_id, {})
        for column in ("game_date", "home_name", "vis_name"):
            csv_value, jsonl_value = from_csv[column], from_jsonl.get(column)
            if None not in (csv_value, jsonl_value) and csv_value != jsonl_value:
                message = f"{text_id}: {column} {csv_value} here but {jsonl_value} in {jsonl_file}"
                problems.append(Problem(csv_file, from_csv["line"], message))
        games.append({**from_jsonl, **{column: value for column, value in from_csv.items() if value is not None}})
    return games


def insert_all(con: duckdb.DuckDBPyConnection, tables: dict[str, pl.DataFrame]) -> None:
    """Insert the frames in one transaction, so that a failure leaves none of them."""
    for table, frame in tables.items():
        con.register(f"new_{table}", frame)
    try:
        con.begin()
        try:
            for table in tables:
                con.execute(f"INSERT INTO {table} BY NAME SELECT * FROM new_{table}")
            con.commit()
        except BaseException:
            con.rollback()
            raise
    finally:
        for table in tables:
            con.unregister(f"new_{table}")
