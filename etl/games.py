"""Load the games of one split: games.csv and the Rotowire box scores of shared_task.jsonl.

Everything is parsed and checked first; only a split without problems is inserted, in one transaction.
"""

from __future__ import annotations

import csv
import json
from collections import defaultdict
from datetime import date, datetime
from pathlib import Path

import duckdb
import polars as pl

from accuracy_db.data_folder import SplitFiles
from accuracy_db.errors import InputError, Problem

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
HEADER_SPELLINGS = {"BREF_VISITING": "BREF_VIS", "CALANDER": "CALENDAR"}

RECORD_KEYS = [
    "shared_task_text_id", "day", "home_name", "vis_name", "home_city", "vis_city",
    "home_line", "vis_line", "box_score", "summary",
]  # fmt: skip

# Rotowire key -> table column; every value is a string of digits or 'N/A'.
TEAM_STATS = {
    "TEAM-WINS": "wins", "TEAM-LOSSES": "losses", "TEAM-PTS": "pts",
    "TEAM-PTS_QTR1": "pts_qtr1", "TEAM-PTS_QTR2": "pts_qtr2", "TEAM-PTS_QTR3": "pts_qtr3", "TEAM-PTS_QTR4": "pts_qtr4",
    "TEAM-FG_PCT": "fg_pct", "TEAM-FG3_PCT": "fg3_pct", "TEAM-FT_PCT": "ft_pct",
    "TEAM-REB": "reb", "TEAM-AST": "ast", "TEAM-TOV": "tov",
}  # fmt: skip
TEAM_KEYS = ["TEAM-NAME", "TEAM-CITY", *TEAM_STATS]

PLAYER_TEXTS = {
    "PLAYER_NAME": "player_name", "FIRST_NAME": "first_name", "SECOND_NAME": "second_name",
    "TEAM_CITY": "team_city", "START_POSITION": "start_position",
}  # fmt: skip
PLAYER_STATS = {
    "MIN": "minutes", "PTS": "pts", "FGM": "fgm", "FGA": "fga", "FG_PCT": "fg_pct",
    "FG3M": "fg3m", "FG3A": "fg3a", "FG3_PCT": "fg3_pct", "FTM": "ftm", "FTA": "fta", "FT_PCT": "ft_pct",
    "OREB": "oreb", "DREB": "dreb", "REB": "reb", "AST": "ast", "STL": "stl", "BLK": "blk", "TO": "tov", "PF": "pf",
}  # fmt: skip
PLAYER_KEYS = [*PLAYER_TEXTS, *PLAYER_STATS]

GAMES_SCHEMA = {
    "text_id": pl.String, "split": pl.String, "game_date": pl.Date, "home_name": pl.String, "vis_name": pl.String,
    "home_city": pl.String, "vis_city": pl.String, "rotowire_line": pl.Int32, "bref_box_url": pl.String,
    "bref_home_url": pl.String, "bref_vis_url": pl.String, "calendar_url": pl.String, "reference_summary": pl.String,
}  # fmt: skip


def load_games(con: duckdb.DuckDBPyConnection, split_files: SplitFiles) -> list[str]:
    """Load games.csv and shared_task.jsonl of a split (either may be absent) and return the warnings.

    Raises InputError listing every problem found, before anything is inserted.
    """
    problems: list[Problem] = []
    csv_games = read_games_csv(split_files.games_csv, problems)
    box_scores = read_box_scores(split_files.box_scores, problems)
    games = merge_games(csv_games, box_scores, split_files, problems)
    tables = {"games": pl.DataFrame([{**game, "split": split_files.split} for game in games], schema=GAMES_SCHEMA)}
    warnings: list[str] = []
    if box_scores is not None:
        jsonl = str(split_files.box_scores)
        tables["team_games"] = team_frame(box_scores.teams, jsonl, problems)
        players = player_frame(box_scores.players, jsonl, problems)
        tables["player_games"], warnings = with_sides(players, tables["games"], jsonl)
    if problems:
        raise InputError(problems)
    insert_all(con, tables)
    return warnings


# --- games.csv ---


def read_games_csv(path: Path, problems: list[Problem]) -> dict[str, dict] | None:
    """text_id -> games row (with its line), or None when the split has no games.csv."""
    if not path.is_file():
        return None
    file, games = str(path), {}
    try:
        with path.open(encoding="utf-8-sig", newline="") as stream:
            reader = csv.reader(stream)
            header = [HEADER_SPELLINGS.get(name, name) for name in next(reader, [])]
            missing = [name for name in CSV_COLUMNS if name not in header]
            if missing:
                problems.append(Problem(file, 1, f"missing column(s): {', '.join(map(spellings, missing))}"))
                return games
            line = reader.line_num + 1  # a quoted cell may span lines: a row starts after the previous one
            for cells in reader:
                if cells:
                    add_csv_game(games, dict(zip(header, cells)), len(cells) - len(header), file, line, problems)
                line = reader.line_num + 1
    except UnicodeDecodeError:
        problems.append(Problem(file, None, "not UTF-8 text"))
    except csv.Error as error:
        problems.append(Problem(file, line, f"unreadable CSV: {error}"))
    return games


def spellings(column: str) -> str:
    others = [other for other, name in HEADER_SPELLINGS.items() if name == column]
    return f"{column} (or {' or '.join(others)})" if others else column


def add_csv_game(games: dict, cells: dict, extra_cells: int, file: str, line: int, problems: list[Problem]) -> None:
    messages = []
    if extra_cells:
        messages.append(f"{len(cells) + extra_cells} cells where the header has {len(cells) - min(extra_cells, 0)}")
    text_id = cells.get("TEXT_ID") or ""
    if not text_id:
        messages.append("no TEXT_ID")
    elif text_id in games:
        messages.append(f"{text_id} is already on line {games[text_id]['line']}")
    game = {column: cells.get(name) or None for name, column in CSV_COLUMNS.items()}
    try:
        game["game_date"] = parse_day(cells.get("DATE"))
    except (TypeError, ValueError):
        messages.append(f"DATE is not a MM_DD_YY date: {cells.get('DATE')!r}")
    try:
        game["rotowire_line"] = int(cells.get("LINE_ID_FROM_TEST_SET"))
    except (TypeError, ValueError):
        messages.append(f"LINE_ID_FROM_TEST_SET is not a whole number: {cells.get('LINE_ID_FROM_TEST_SET')!r}")
    problems.extend(Problem(file, line, message) for message in messages)
    if not messages:
        games[text_id] = {**game, "line": line}


def parse_day(text: str) -> date:
    """MM_DD_YY, e.g. 02_03_17 (as strptime reads two-digit years: 69-99 are 19xx)."""
    return datetime.strptime(text, "%m_%d_%y").date()


# --- shared_task.jsonl ---


class BoxScores:
    """The records of shared_task.jsonl, as games rows and as columns of team and player rows."""

    def __init__(self):
        self.games: dict[str, dict] = {}  # text_id -> games row, with its line
        self.teams: dict[str, list] = defaultdict(list)
        self.players: dict[str, list] = defaultdict(list)

    def add(self, record: dict, text_id: str, line: int) -> None:
        self.games[text_id] = {
            "text_id": text_id,
            "game_date": parse_day(record["day"]),
            "home_name": record["home_name"],
            "vis_name": record["vis_name"],
            "home_city": record["home_city"],
            "vis_city": record["vis_city"],
            "reference_summary": " ".join(record["summary"]),
            "line": line,
        }
        for side, team_line in (("home", record["home_line"]), ("visitor", record["vis_line"])):
            for column, value in [("text_id", text_id), ("line", line), ("side", side)] + list(team_line.items()):
                if column in ("text_id", "line", "side") or column in TEAM_KEYS:
                    self.teams[column].append(value)
        # The box score is column-oriented (stat -> player index -> value): append it column by column.
        box_score = record["box_score"]
        indices = list(box_score["PLAYER_NAME"])
        self.players["text_id"] += [text_id] * len(indices)
        self.players["line"] += [line] * len(indices)
        self.players["player_index"] += map(int, indices)
        for key in PLAYER_KEYS:
            self.players[key] += map(box_score[key].__getitem__, indices)


def read_box_scores(path: Path, problems: list[Problem]) -> BoxScores | None:
    """The records of shared_task.jsonl (line N is the Nth line), or None when the split has none."""
    if not path.is_file():
        return None
    file, box_scores = str(path), BoxScores()
    with path.open("rb") as lines:
        for line, text in enumerate(lines, start=1):
            if not text.strip():
                continue
            try:
                record = json.loads(text)
            except UnicodeDecodeError:
                problems.append(Problem(file, line, "not UTF-8 text"))
                continue
            except json.JSONDecodeError as error:
                problems.append(Problem(file, line, f"malformed JSON: {error.msg} (column {error.colno})"))
                continue
            messages = record_problems(record, box_scores.games)
            problems.extend(Problem(file, line, message) for message in messages)
            if not messages:
                box_scores.add(record, record["shared_task_text_id"], line)
    return box_scores


def record_problems(record, games: dict[str, dict]) -> list[str]:
    """What keeps a record from being read: its numbers are checked later, all at once."""
    if not isinstance(record, dict):
        return ["not a JSON object"]
    missing = [key for key in RECORD_KEYS if key not in record]
    if missing:
        return [f"missing key(s): {', '.join(missing)}"]
    messages = []
    text_id = record["shared_task_text_id"]
    if not isinstance(text_id, str) or not text_id:
        messages.append(f"shared_task_text_id is not a text id: {text_id!r}")
    elif text_id in games:
        messages.append(f"{text_id} is already on line {games[text_id]['line']}")
    try:
        parse_day(record["day"])
    except (TypeError, ValueError):
        messages.append(f"day is not a MM_DD_YY date: {record['day']!r}")
    if not isinstance(record["summary"], list) or not all(isinstance(token, str) for token in record["summary"]):
        messages.append("summary is not a list of tokens")
    for name in ("home_line", "vis_line"):
        messages += keys_problems(name, record[name], TEAM_KEYS)
    messages += box_score_problems(record["box_score"])
    return messages


def keys_problems(name: str, value, keys: list[str]) -> list[str]:
    if not isinstance(value, dict):
        return [f"{name} is not a JSON object"]
    missing = [key for key in keys if key not in value]
    return [f"{name} has no {', '.join(missing)}"] if missing else []


def box_score_problems(box_score) -> list[str]:
    """A box score maps each stat to an object of player index -> value, with the same players in every stat."""
    messages = keys_problems("box_score", box_score, PLAYER_KEYS)
    if messages:
        return messages
    not_objects = [key for key in PLAYER_KEYS if not isinstance(box_score[key], dict)]
    if not_objects:
        return [f"box_score {', '.join(not_objects)} not a JSON object"]
    players = box_score["PLAYER_NAME"].keys()
    if not all(index.isdecimal() for index in players):
        messages.append(f"box_score player indices are not all whole numbers: {sorted(players)}")
    ragged = [key for key in PLAYER_KEYS if box_score[key].keys() != players]
    if ragged:
        messages.append(f"box_score {', '.join(ragged)} not for the same players as PLAYER_NAME")
    return messages


def team_frame(columns: dict[str, list], file: str, problems: list[Problem]) -> pl.DataFrame:
    teams = string_frame(columns, TEAM_KEYS).rename({"TEAM-NAME": "team_name", "TEAM-CITY": "team_city"})
    teams = parse_stats(teams, TEAM_STATS, pl.format("{} {} team", "text_id", "side"), file, problems)
    return teams.drop("line")


def player_frame(columns: dict[str, list], file: str, problems: list[Problem]) -> pl.DataFrame:
    players = string_frame(columns, PLAYER_KEYS)
    who = pl.format("{} player {} ({})", "text_id", "player_index", pl.col("PLAYER_NAME").fill_null("no name"))
    problems.extend(
        Problem(file, line, f"{who}: no PLAYER_NAME")
        for line, who in players.filter(pl.col("PLAYER_NAME").is_null()).select("line", who).iter_rows()
    )
    players = parse_stats(players, PLAYER_STATS, who, file, problems).rename(PLAYER_TEXTS)
    # A bench player has START_POSITION N/A; a player without minutes did not play.
    return players.with_columns(
        starter=pl.col("start_position").is_not_null(),
        did_not_play=pl.col("minutes").is_null(),
    )


def string_frame(columns: dict[str, list], keys: list[str]) -> pl.DataFrame:
    """The Rotowire values as strings, 'N/A' as NULL (strict=False: a JSON number becomes its digits)."""
    frame = pl.DataFrame(dict(columns), schema_overrides=dict.fromkeys(keys, pl.String), strict=False)
    if frame.is_empty():
        return pl.DataFrame(schema={"text_id": pl.String, "line": pl.Int64, **dict.fromkeys(keys, pl.String)})
    return frame.with_columns(pl.col(keys).replace("N/A", None))


def parse_stats(
    frame: pl.DataFrame, stats: dict[str, str], who: pl.Expr, file: str, problems: list[Problem]
) -> pl.DataFrame:
    """Cast the stats to integers and rename them; a value that is not a whole number is a problem."""
    for key in stats:
        not_numbers = frame.filter(pl.col(key).is_not_null() & pl.col(key).cast(pl.Int32, strict=False).is_null())
        problems.extend(
            Problem(file, line, f"{name}: {key} is not a whole number: {value!r}")
            for line, name, value in not_numbers.select("line", who, key).iter_rows()
        )
    return frame.with_columns(pl.col(list(stats)).cast(pl.Int32, strict=False)).rename(stats)


def with_sides(players: pl.DataFrame, games: pl.DataFrame, file: str) -> tuple[pl.DataFrame, list[str]]:
    """Each player's side, from TEAM_CITY; NULL, with a warning, where the city does not tell."""
    players = players.join(games.select("text_id", "home_city", "vis_city"), on="text_id", how="left")
    players = players.with_columns(
        side=pl.when(pl.col("home_city") == pl.col("vis_city"))
        .then(None)
        .when(pl.col("team_city") == pl.col("home_city"))
        .then(pl.lit("home"))
        .when(pl.col("team_city") == pl.col("vis_city"))
        .then(pl.lit("visitor"))
    )
    unknown = players.filter(pl.col("side").is_null())
    warnings = [
        str(Problem(file, row["line"], f"{row['text_id']} player {row['player_index']} ({row['player_name']}): "
                    + side_doubt(row["team_city"], row["home_city"], row["vis_city"])))
        for row in unknown.iter_rows(named=True)
    ]  # fmt: skip
    return players.drop("line", "home_city", "vis_city"), warnings


def side_doubt(team_city: str | None, home_city: str, vis_city: str) -> str:
    if home_city == vis_city and team_city == home_city:
        return f"TEAM_CITY {team_city!r} is the city of both teams; side left NULL"
    return f"TEAM_CITY {team_city!r} is neither {home_city!r} (home) nor {vis_city!r} (visitor); side left NULL"


# --- both files ---


def merge_games(
    csv_games: dict[str, dict] | None, box_scores: BoxScores | None, split_files: SplitFiles, problems: list[Problem]
) -> list[dict]:
    """One games row per text: where both files are there, each text must be in both and agree."""
    jsonl_games = box_scores.games if box_scores is not None else None
    if csv_games is None or jsonl_games is None:
        return list((csv_games or jsonl_games or {}).values())
    csv_file, jsonl_file = str(split_files.games_csv), str(split_files.box_scores)
    for text_id in csv_games.keys() - jsonl_games.keys():
        problems.append(Problem(csv_file, csv_games[text_id]["line"], f"{text_id} is not in {jsonl_file}"))
    for text_id in jsonl_games.keys() - csv_games.keys():
        problems.append(Problem(jsonl_file, jsonl_games[text_id]["line"], f"{text_id} is not in {csv_file}"))
    games = []
    for text_id in csv_games.keys() & jsonl_games.keys():
        from_csv, from_jsonl = csv_games[text_id], jsonl_games[text_id]
        for column in ("game_date", "home_name", "vis_name"):
            if from_csv[column] != from_jsonl[column]:
                message = f"{text_id}: {column} is {from_csv[column]} here but {from_jsonl[column]} in {jsonl_file}"
                problems.append(Problem(csv_file, from_csv["line"], message))
        games.append({**from_jsonl, **from_csv})
    return sorted(games, key=lambda game: game["text_id"])


def insert_all(con: duckdb.DuckDBPyConnection, tables: dict[str, pl.DataFrame]) -> None:
    """Insert the frames in one transaction, so that a failure leaves none of them."""
    con.begin()
    try:
        for table, frame in tables.items():
            con.register("new_rows", frame)
            try:
                con.execute(f"INSERT INTO {table} BY NAME SELECT * FROM new_rows")
            finally:
                con.unregister("new_rows")
        con.commit()
    except BaseException:
        con.rollback()
        raise
