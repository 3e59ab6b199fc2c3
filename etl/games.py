"""Load the games of one split: games.csv and the Rotowire box scores of shared_task.jsonl.

Everything is parsed and checked first; only a split without problems is inserted, in one transaction.
"""

from __future__ import annotations

import threading

import duckdb
import polars as pl
from accuracy_db.etl.data_folder import SplitFiles

from accuracy_db.errors import InputError, Problem
from accuracy_db.regular_files import Digests

from .box_score_records import BoxScores, read_box_scores, stopped
from .box_score_tables import player_frame, team_frame, with_sides
from .frames import insert_all
from .games_csv import read_games_csv

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
    "reference_text": pl.String,
}


def load_games(
    con: duckdb.DuckDBPyConnection,
    split_files: SplitFiles,
    digests: Digests | None = None,
    stop: threading.Event | None = None,
    claimed: Claims | None = None,
) -> list[str]:
    """Load games.csv and shared_task.jsonl of a split (either may be absent) and return the warnings; with digests,
    the digests of the files read are recorded there. Once stop is set (from another thread), the loading ends with
    Stopped at the next block of box scores, or before inserting. claimed: where the splits loaded before gave each
    text its game; this split's are added.

    Raises InputError listing every problem found, before anything is inserted.
    """
    tables, warnings = game_tables(split_files, digests, stop, {} if claimed is None else claimed)
    stopped(stop)
    insert_all(con, tables.items())
    return warnings


def game_tables(
    split_files: SplitFiles, digests: Digests | None, stop: threading.Event | None, claimed: Claims
) -> tuple[dict[str, pl.DataFrame], list[str]]:
    """The rows of games, team_games and player_games of a split, and the warnings. What they are made from is freed
    on return, before they are inserted: the records as read were 1.0 GB of the games' 2.2 GB at scale 1000.

    Raises InputError listing every problem found."""
    problems: list[Problem] = []
    csv_games = read_games_csv(split_files.games_csv, problems, digests)
    box_scores = read_box_scores(split_files.box_scores, problems, digests, stop)
    stopped(stop)
    games = merge_games(csv_games, box_scores, split_files, problems)
    claim(games, where_given(csv_games, box_scores, split_files), claimed, problems)
    tables = {"games": games_frame(games, split_files.split)}
    warnings: list[str] = []
    if box_scores is not None and box_scores.games:
        jsonl = str(split_files.box_scores)
        tables["team_games"] = team_frame(box_scores.team_strings(), jsonl, problems)
        players = player_frame(box_scores.player_strings(), jsonl, problems)
        tables["player_games"], warnings = with_sides(players, tables["games"], jsonl)
    if problems:
        raise InputError(problems)
    return tables, warnings


# Where each text was given a game by the splits before: text id -> (file, line)
Claims = dict[str, tuple[str, int]]


def where_given(csv_games: dict | None, box_scores: BoxScores | None, split_files: SplitFiles):
    """The file and line a game of the split is read from: its games.csv row, or its shared_task.jsonl record."""
    if csv_games is not None:
        return lambda text_id: (str(split_files.games_csv), csv_games[text_id]["line"])
    return lambda text_id: (str(split_files.box_scores), box_scores.lines[text_id])


def claim(games: list[dict], where, claimed: Claims, problems: list[Problem]) -> None:
    """A text has one game (games.text_id is the key) across a build's splits: a text given a game by another split
    is a problem naming both places. (A Rotowire game may be described by several texts: the outputs of several
    systems for one game, as the generated corpora of benchmarks/ have: 60,000 texts on 728 games.)"""
    for game in games:
        text_id = game["text_id"]
        if text_id in claimed:
            other_file, other_line = claimed[text_id]
            problems.append(Problem(*where(text_id), f"{text_id} has a game already ({other_file} line {other_line})"))
        else:
            claimed[text_id] = where(text_id)


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
