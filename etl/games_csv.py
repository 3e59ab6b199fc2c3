"""Read games.csv: one row per text, its game's teams, date, Rotowire line and basketball-reference links."""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

from accuracy_db.errors import InputError, Problem
from accuracy_db.regular_files import Digests, read_text

from .game_days import parse_day

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


def read_games_csv(path: Path, problems: list[Problem], digests: Digests | None = None) -> dict[str, dict] | None:
    """text_id -> games row (with its line); None when the split has no games.csv or it cannot be read at all. With
    digests, the file's digest is recorded there."""
    if not os.path.lexists(path):
        return None
    file, games, line = str(path), {}, 1
    try:
        with io.StringIO(read_text(path, digests=digests), newline="") as stream:
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
