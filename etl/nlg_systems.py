"""Load nlg_systems.csv: which neural system generated a text, where that is known (optional metadata).

A data folder's file (beside it: ../nlg_systems.csv) is read and checked whole first; only a file without problems
is inserted. Without one, the package's own copy (etl/nlg_systems.csv: the 21 train texts whose system the
methodology paper's spreadsheet gives) names the systems of the loaded texts that are those texts: the same
tokens, by the SHA-256 of texts.generated_text, so that a corpus of other texts under the same ids gets none.
"""

from __future__ import annotations

import csv
import io
from importlib import resources
from pathlib import Path

import duckdb

from accuracy_db.errors import InputError, Problem
from accuracy_db.regular_files import read_text

REQUIRED = ("TEXT_ID", "SYSTEM")
OPTIONAL = ("REFERENCE",)


def load_nlg_systems(con: duckdb.DuckDBPyConnection, path: Path) -> int:
    """Insert the rows of nlg_systems.csv (TEXT_ID, SYSTEM, REFERENCE) and return how many.

    Every text must be a loaded text, named once. Raises InputError listing every problem, before inserting."""
    texts = {text_id for (text_id,) in con.execute("SELECT text_id FROM texts").fetchall()}
    rows, problems = read_nlg_systems(path, texts)
    if problems:
        raise InputError(problems)
    if rows:
        con.executemany("INSERT INTO nlg_systems VALUES (?, ?, ?)", rows)
    return len(rows)


def load_packaged_nlg_systems(con: duckdb.DuckDBPyConnection) -> int:
    """Insert the package's rows for the loaded texts that are the texts they name, and return how many."""
    tokens_sha256 = dict(con.execute("SELECT text_id, sha256(generated_text) FROM texts").fetchall())
    packaged = resources.files("accuracy_db.etl").joinpath("nlg_systems.csv").read_text(encoding="utf-8")
    rows = [
        (row["TEXT_ID"], row["SYSTEM"], row["REFERENCE"] or None)
        for row in csv.DictReader(io.StringIO(packaged))
        if tokens_sha256.get(row["TEXT_ID"]) == row["TEXT_SHA256"]
    ]
    if rows:  # a corpus of other texts (a generated one, say) gets none
        con.executemany("INSERT INTO nlg_systems VALUES (?, ?, ?)", rows)
    return len(rows)


def read_nlg_systems(path: Path, texts: set[str]) -> tuple[list[tuple], list[Problem]]:
    """The rows (text_id, system, reference) of the file, and what is wrong with it."""
    file, rows, problems, lines = str(path), [], [], {}
    try:
        with io.StringIO(read_text(path), newline="") as stream:
            reader = csv.reader(stream)
            header = [name.strip().upper() for name in next(reader, [])]
            missing = [name for name in REQUIRED if name not in header]
            if missing:
                return [], [Problem(file, 1, f"missing column(s): {', '.join(missing)}")]
            line = reader.line_num + 1
            for cells in reader:
                if any(cell.strip() for cell in cells):
                    row, messages = parse_row(header, cells, texts, lines, line)
                    problems += [Problem(file, line, message) for message in messages]
                    if row:
                        rows.append(row)
                line = reader.line_num + 1
    except InputError as error:  # not a regular file, or not UTF-8 text
        return [], error.problems
    except csv.Error as error:
        return [], [Problem(file, line, f"unreadable CSV: {error}")]
    return rows, problems


def parse_row(
    header: list[str], cells: list[str], texts: set[str], lines: dict[str, int], line: int
) -> tuple[tuple | None, list[str]]:
    """One row as (text_id, system, reference), or None and what is wrong with it."""
    if len(cells) != len(header):
        return None, [f"{len(cells)} cells where the header has {len(header)}"]
    row = {name: cell.strip() for name, cell in zip(header, cells)}
    text_id, system = row["TEXT_ID"].removesuffix(".txt"), row["SYSTEM"]
    messages = []
    if not text_id:
        messages.append("no TEXT_ID")
    elif text_id in lines:
        messages.append(f"{text_id} is already on line {lines[text_id]}")
    elif text_id not in texts:
        messages.append(f"{text_id} is not a text of the data folder")
    if not system:
        messages.append("no SYSTEM")
    if messages:
        return None, messages
    lines[text_id] = line
    return (text_id, system, row.get("REFERENCE") or None), []
