"""Read games.csv: one row per text, its game's teams, date, Rotowire line and basketball-reference links."""

from __future__ import annotations

import codecs
import csv
import io
import itertools
import os
from collections.abc import Iterator
from pathlib import Path

import polars as pl

from accuracy_db.errors import InputError, Problem, quoted
from accuracy_db.regular_files import Digests, decode, read_bytes

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
    file, games = str(path), {}
    try:
        data = read_bytes(path, digests=digests)
        if not data.isascii() or b"\0" in data:  # (ASCII without a NUL is text: no need to decode it to know)
            decode(path, data)  # refused unless UTF-8 text without a NUL
        records = polars_records(data) or exact_records(file, decode(path, data))
        _, first = next(records, (1, []))
        header = [OTHER_SPELLINGS.get(name, name) for name in first]
        missing = [spellings(name) for name in CSV_COLUMNS if name not in header]
        if missing:
            problems.append(Problem(file, 1, f"missing column(s): {', '.join(missing)}"))
            return None
        for line, cells in records:
            if cells:
                messages = add_csv_game(games, header, cells, line)
                problems.extend(Problem(file, line, message) for message in messages)
    except InputError as error:  # not a regular file, not UTF-8 text, or not CSV
        problems.extend(error.problems)
        return None
    return games


def exact_records(file: str, text: str) -> Iterator[tuple[int, list[str]]]:
    """(line, cells) of each record of the text as Python's csv module reads it (a blank line: no cells); one it
    cannot read is an InputError naming its line."""
    reader = csv.reader(io.StringIO(text, newline=""))
    line = 1
    try:
        for cells in reader:
            yield line, cells
            line = reader.line_num + 1  # a quoted cell may span lines: a record starts after the previous one
    except csv.Error as error:
        raise InputError([Problem(file, line, f"unreadable CSV: {error}")]) from None


def polars_records(data: bytes) -> Iterator[tuple[int, tuple]] | None:
    """(line, cells) of each record of the bytes as exact_records reads them, read by polars' reader (several times
    faster) when it can be sure of them; None when it cannot. Only the header and the cells of the columns games
    takes are read, the others are None.

    It is sure when its rows, written back, are the bytes read (then no cell was read another way: the csv module
    reads what a CSV writer wrote), one record a line (the records then number the lines), no carriage return (the csv
    module ends a record there, wherever it is) and no byte order mark (decoding drops it)."""
    if not data.endswith(b"\n") or b"\r" in data or data.startswith(codecs.BOM_UTF8):
        return None
    try:
        frame = pl.read_csv(data, has_header=False, infer_schema=False)
    except pl.exceptions.PolarsError:
        return None
    if frame.height != data.count(b"\n"):
        return None
    written = SameBytes(data)
    frame.write_csv(written, include_header=False, quote_style="necessary", line_terminator="\n")
    if not written.same or written.position != len(data):
        return None
    header = ["" if name is None else name for name in frame.row(0)]
    taken = [OTHER_SPELLINGS.get(name, name) in CSV_COLUMNS for name in header]
    cells = [
        pl.col(name).fill_null("") if take else pl.lit(None).alias(name) for name, take in zip(frame.columns, taken)
    ]
    rows = frame.slice(1).select(cells).iter_rows()
    return itertools.chain([(1, header)], zip(itertools.count(2), rows))


class SameBytes:
    """A file that tells whether what is written to it is the bytes given, without keeping it."""

    def __init__(self, data: bytes):
        self.data, self.position, self.same = data, 0, True

    def write(self, chunk: bytes) -> int:
        self.same = self.same and self.data.startswith(chunk, self.position)
        self.position += len(chunk)
        return len(chunk)


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
        messages.append(f"DATE is not a MM_DD_YY date: {quoted(row['DATE'], 60)}")
    try:
        game["rotowire_line"] = int(row["LINE_ID_FROM_TEST_SET"])
    except ValueError:
        game["rotowire_line"] = None
        messages.append(f"LINE_ID_FROM_TEST_SET is not a whole number: {quoted(row['LINE_ID_FROM_TEST_SET'], 60)}")
    text_id = row["TEXT_ID"]
    if not text_id:
        messages.append("no TEXT_ID")
    elif text_id in games:
        messages.append(f"{text_id} is already on line {games[text_id]['line']}")
    else:
        games[text_id] = game
    return messages
