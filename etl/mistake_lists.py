"""Load a mistake list (the gold list or a submission): whole or not at all, with every problem reported."""

from __future__ import annotations

import csv
import difflib
import hashlib
import io
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import duckdb
import polars as pl

from accuracy_db.errors import InputError, Problem

from .frames import create_temp_table

CATEGORIES = ("NAME", "NUMBER", "WORD", "CONTEXT", "NOT_CHECKABLE", "OTHER")
DOC_IDS = ("DOC_TOKEN_START", "DOC_TOKEN_END")
SENT_IDS = ("SENTENCE_ID", "SENT_TOKEN_START", "SENT_TOKEN_END")
REQUIRED = ("TEXT_ID", "TOKENS", "TYPE")
OPTIONAL = ("ANNOTATION_ID", "CORRECTION", "COMMENT")
ID_SCHEMES = {(True, False): "document ids", (False, True): "sentence ids", (True, True): "both id schemes"}

PENDING_SCHEMA = {
    "line_number": pl.Int32,
    "text_id": pl.String,
    "annotation_id": pl.String,
    "tokens": pl.String,
    "sentence_id": pl.Int32,
    "sent_token_start": pl.Int32,
    "sent_token_end": pl.Int32,
    "doc_token_start": pl.Int32,
    "doc_token_end": pl.Int32,
    "category": pl.String,
    "correction": pl.String,
    "comment": pl.String,
}


def sql(name: str) -> str:
    return resources.files("accuracy_db.etl").joinpath(name).read_text(encoding="utf-8")


@dataclass
class ParsedList:
    """The rows of a mistake list that could be read, and the problems of those that could not."""

    rows: list[dict]
    problems: list[Problem]
    sha256: str
    row_count: int


def suggest_category(value: str) -> str:
    close = difflib.get_close_matches(value.strip().upper().replace(" ", "_"), CATEGORIES, n=1, cutoff=0.5)
    return f"; did you mean {close[0]}?" if close else f"; the categories are {', '.join(CATEGORIES)}"


def parse_whole_number(column: str, value: str, problems: list[str]) -> int | None:
    value = value.strip()
    if not value:
        return None
    if not value.isdecimal():
        problems.append(f"{column} is {value!r}, not a whole number")
        return None
    if int(value) < 1:
        problems.append(f"{column} is {value}, but token and sentence ids count from 1")
        return None
    return int(value)


def parse_row(cells: dict[str, str]) -> tuple[dict, list[str]]:
    """One data row as typed values, and what is wrong with it on its own."""
    problems: list[str] = []
    ids = {column: parse_whole_number(column, cells.get(column, ""), problems) for column in DOC_IDS + SENT_IDS}
    for scheme in (DOC_IDS, SENT_IDS):
        given = [column for column in scheme if cells.get(column, "").strip()]
        if given and len(given) < len(scheme):
            missing = [column for column in scheme if column not in given]
            problems.append(f"{', '.join(given)} given without {', '.join(missing)}")
    for start, end in (("DOC_TOKEN_START", "DOC_TOKEN_END"), ("SENT_TOKEN_START", "SENT_TOKEN_END")):
        if ids[start] is not None and ids[end] is not None and ids[start] > ids[end]:
            problems.append(f"{start} {ids[start]} is after {end} {ids[end]}")
    text_id = cells["TEXT_ID"].strip().removesuffix(".txt")
    if not text_id:
        problems.append("TEXT_ID is empty")
    category = cells["TYPE"].strip()
    if category not in CATEGORIES:
        problems.append(f"TYPE {category!r} is not a category{suggest_category(category)}")
    row = {
        "text_id": text_id,
        "annotation_id": cells.get("ANNOTATION_ID") or None,
        "tokens": cells["TOKENS"],
        "sentence_id": ids["SENTENCE_ID"],
        "sent_token_start": ids["SENT_TOKEN_START"],
        "sent_token_end": ids["SENT_TOKEN_END"],
        "doc_token_start": ids["DOC_TOKEN_START"],
        "doc_token_end": ids["DOC_TOKEN_END"],
        "category": category,
        "correction": cells.get("CORRECTION") or None,
        "comment": cells.get("COMMENT") or None,
    }
    return row, problems


def id_scheme(cells: dict[str, str]) -> str | None:
    """Which token ids a row gives: document ids, sentence ids, both, or None."""
    has_doc = all(cells.get(column, "").strip() for column in DOC_IDS)
    has_sent = all(cells.get(column, "").strip() for column in SENT_IDS)
    return ID_SCHEMES.get((has_doc, has_sent))


def parse_mistake_file(path: Path) -> ParsedList:
    """Read a mistake list CSV; every problem that can be seen without the texts is collected, none raised."""
    name = str(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise InputError([Problem(name, None, f"cannot read the file ({error.strerror})")]) from None
    sha256 = hashlib.sha256(data).hexdigest()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        return ParsedList([], [Problem(name, line, "is not UTF-8 text")], sha256, 0)
    reader = csv.reader(io.StringIO(text, newline=""))
    header = next(reader, None)
    if not header or not any(cell.strip() for cell in header):
        return ParsedList([], [Problem(name, None, "the file is empty: expected a header and mistake rows")], sha256, 0)
    columns = [cell.strip().upper() for cell in header]
    missing = [c for c in REQUIRED if c not in columns]
    if not set(DOC_IDS) <= set(columns) and not set(SENT_IDS) <= set(columns):
        missing.append(f"{' and '.join(DOC_IDS)} (or {', '.join(SENT_IDS)})")
    if missing:
        return ParsedList([], [Problem(name, 1, f"missing required column {', '.join(missing)}")], sha256, 0)

    rows, problems = [], []
    first_scheme = None  # (line, scheme) of the first row: every row must use the same
    row_count = 0
    line = reader.line_num + 1  # where the next record starts
    for record in reader:
        start_line, line = line, reader.line_num + 1
        if not any(cell.strip() for cell in record):
            continue
        row_count += 1
        if len(record) != len(columns):
            problems.append(Problem(name, start_line, f"has {len(record)} cells, but the header has {len(columns)}"))
            continue
        cells = dict(zip(columns, record))
        row, row_problems = parse_row(cells)
        scheme = id_scheme(cells)
        if scheme is None and not row_problems:
            row_problems.append(
                "no token ids: give DOC_TOKEN_START and DOC_TOKEN_END, "
                "or SENTENCE_ID, SENT_TOKEN_START and SENT_TOKEN_END"
            )
        elif scheme is not None and first_scheme is None:
            first_scheme = (start_line, scheme)
        elif scheme is not None and scheme != first_scheme[1]:
            row_problems.append(
                f"uses {scheme}, but line {first_scheme[0]} uses {first_scheme[1]}: "
                "a file gives the same token ids on every row"
            )
        problems += [Problem(name, start_line, message) for message in row_problems]
        if not row_problems:
            rows.append({"line_number": start_line, **row})
    if row_count == 0:
        problems.append(Problem(name, None, "the file is empty: it has a header but no mistake rows"))
    return ParsedList(rows, problems, sha256, row_count)


def list_split(con: duckdb.DuckDBPyConnection) -> str | None:
    """The split of the first text of the pending list that is a known text."""
    found = con.execute(
        "SELECT texts.split FROM pending_mistakes JOIN texts USING (text_id) ORDER BY line_number LIMIT 1"
    ).fetchall()
    return found[0][0] if found else None


def load_mistake_list(
    con: duckdb.DuckDBPyConnection, path: Path, kind: str, name: str, split: str | None = None
) -> int:
    """Load a mistake list and return its set_id; raise InputError with every problem, leaving nothing behind.

    A submission's split is that of the texts it names (split=None); a gold list's is given."""
    parsed = parse_mistake_file(path)
    pending = pl.DataFrame(parsed.rows, schema=PENDING_SCHEMA)
    create_temp_table(con, "pending_mistakes", pending)
    try:
        split = split or list_split(con)
        con.execute(
            f"CREATE OR REPLACE TEMP TABLE resolved_mistakes AS {sql('resolve_mistakes.sql')}", {"split": split}
        )
        problems = parsed.problems + [
            Problem(str(path), line, message) for line, message in con.execute(sql("mistake_problems.sql")).fetchall()
        ]
        if problems:
            raise InputError(problems)
        con.execute("BEGIN TRANSACTION")
        try:
            set_id = con.execute(
                "INSERT INTO annotation_sets (kind, name, split, source_file, sha256, row_count)"
                " VALUES (?, ?, ?, ?, ?, ?) RETURNING set_id",
                [kind, name, split, str(path), parsed.sha256, parsed.row_count],
            ).fetchall()[0][0]
            con.execute(
                """
                INSERT INTO mistakes (set_id, line_number, text_id, annotation_id, tokens, sentence_id,
                    sent_token_start, sent_token_end, doc_token_start, doc_token_end, category, correction, comment)
                SELECT $set_id, line_number, text_id, annotation_id, tokens, sentence_id,
                    sent_token_start, sent_token_end, doc_token_start, doc_token_end, category, correction, comment
                FROM resolved_mistakes ORDER BY line_number
                """,
                {"set_id": set_id},
            )
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
        return set_id
    finally:
        con.execute("DROP TABLE IF EXISTS pending_mistakes")
        con.execute("DROP TABLE IF EXISTS resolved_mistakes")
