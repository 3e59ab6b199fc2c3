"""Load a mistake list (the gold list or a submission): whole or not at all, with every problem reported.

The CSV is read once, into bytes (accuracy_db.regular_files), and becomes rows of strings, each with the line
it starts on (parsed by DuckDB from those bytes when that is exact, else by Python's csv module); every check of
the rows is SQL (resolve_mistakes.sql, mistake_problems.sql), so
that a list of a million rows is checked about as fast as DuckDB reads it.
"""

from __future__ import annotations

import csv
import hashlib
import io
import operator
import os
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import duckdb
import orjson

from accuracy_db.errors import InputError, Problem
from accuracy_db.regular_files import nul_problem, read_bytes

from .annotation_sets import insert_annotation_set, reserve_mistake_ids, seal_lists

COLUMNS = (
    "TEXT_ID", "SENTENCE_ID", "ANNOTATION_ID", "TOKENS", "SENT_TOKEN_START", "SENT_TOKEN_END",
    "DOC_TOKEN_START", "DOC_TOKEN_END", "TYPE", "CORRECTION", "COMMENT", "PROBABILITY",
)  # fmt: skip
OPTIONAL = ("CORRECTION", "COMMENT", "PROBABILITY")  # a row may leave out these cells after the last read one
DOC_IDS = ("DOC_TOKEN_START", "DOC_TOKEN_END")
SENT_IDS = ("SENTENCE_ID", "SENT_TOKEN_START", "SENT_TOKEN_END")
REQUIRED = ("TEXT_ID", "TOKENS", "TYPE")
MAX_PROBLEMS = 1000  # problems listed per file; the others are counted


def sql(name: str) -> str:
    return resources.files("accuracy_db.etl").joinpath(name).read_text(encoding="utf-8")


@dataclass
class ReadList:
    """A mistake list file as bytes, its decoded text and header, and what is wrong with it as a whole."""

    path: Path
    data: bytes
    text: str
    header: list[str]
    problems: list[Problem]
    sha256: str


def csv_records(text: str, width: int) -> Iterator[tuple[int, int, list[str]]]:
    """The records after the header as Python's csv module reads them (any CSV), each with the line it starts on
    and its number of cells. Empty cells past the header's width are dropped, as spreadsheets add them (and as
    DuckDB's reader does)."""
    reader = csv.reader(io.StringIO(text, newline=""))
    next(reader)
    line = reader.line_num + 1
    for record in reader:
        count = len(record)
        if count > width and not any(record[width:]):
            record, count = record[:width], width
        yield line, count, record
        line = reader.line_num + 1


def exact_rows(text: str, header: list[str]) -> Iterator[tuple]:
    """The rows of csv_records, one at a time: (line_number, cell_count, and the cells of COLUMNS as strings, None
    where the header has no such column or the row no such cell)."""
    positions = [header.index(column) if column in header else -1 for column in COLUMNS]
    # A row is cut or padded with None to the cells up to the last column read (reach), and one None more, which a
    # column the header lacks reads: padded to the header's width, a header of 200,000 cells made each row a list of
    # 200,000 (a 1 MB file of short rows under such a header would take hours).
    reach = max(positions) + 1
    cells = operator.itemgetter(*[position if position >= 0 else reach for position in positions])
    for line, count, record in csv_records(text, len(header)):
        yield (line, count, *cells([*record[:reach], *[None] * (reach - count), None]))


@contextmanager
def readable_bytes(data: bytes) -> Iterator[str | io.BytesIO]:
    """The bytes as DuckDB's CSV reader takes them: on Linux, the path of an anonymous file in memory holding them
    (gone when closed, or with the process), which any connection reads; elsewhere a file object, which only one
    connection of a database can read (DuckDB registers the file system of file objects for the first connection
    that reads one: on the others the exact reader is used)."""
    if not hasattr(os, "memfd_create"):
        yield io.BytesIO(data)
        return
    descriptor = os.memfd_create("mistake-list", os.MFD_CLOEXEC)
    try:
        with open(descriptor, "wb", closefd=False) as file:
            file.write(data)
        yield f"/proc/self/fd/{descriptor}"
    finally:
        os.close(descriptor)


def stage_rows_fast(con: duckdb.DuckDBPyConnection, read: ReadList) -> bool:
    """Read the rows with DuckDB's CSV reader into pending_rows, when it can give the exact lines: when
    every row has as many cells as the header (strict mode fails otherwise) and every line is one row (no
    blank lines, no quoted line breaks: the rows then number the lines). False when it cannot."""
    columns = {f"cell{i}": "VARCHAR" for i in range(len(read.header))}
    try:
        # The bytes already read, not the path: DuckDB would take a path's [ ] * ? for a glob pattern.
        with readable_bytes(read.data) as source:
            rows = con.read_csv(
                source,
                columns=columns,
                header=True,
                auto_detect=False,
                delimiter=",",
                quotechar='"',
                escapechar='"',
                strict_mode=True,
            )
            rows.create_view("csv_source", replace=True)
            con.execute("CREATE OR REPLACE TEMP TABLE csv_rows AS SELECT * FROM csv_source")
    except duckdb.InterruptException:
        raise  # stopped (pipeline.in_order interrupts the lists it prepares): not a reason to read it the slow way
    except duckdb.Error:
        return False
    finally:
        con.execute("DROP VIEW IF EXISTS csv_source")
    # Lines as the csv module numbers them (csv_records): a bare CR ends a line too, as \n and \r\n do.
    data = read.data
    breaks = data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n")
    lines = breaks + (0 if data.endswith((b"\n", b"\r")) else 1)
    if con.execute("SELECT count(*) FROM csv_rows").fetchall()[0][0] != lines - 1:
        con.execute("DROP TABLE csv_rows")
        return False
    cells = {name: f"cell{i}" for i, name in enumerate(read.header)}  # read_mistake_file refuses repeated names
    selected = ", ".join(f"{cells[column] if column in cells else 'NULL::VARCHAR'} AS {column}" for column in COLUMNS)
    # A view, not a copy: the rows are read once, by resolve_mistakes.sql (a copy of a million rows is not free).
    con.execute(
        f"CREATE OR REPLACE TEMP VIEW pending_rows AS"
        f" SELECT rowid + 2 AS line_number, {len(read.header)} AS cell_count, {selected} FROM csv_rows"
    )
    return True


# Below this size Python's csv module reads a file faster than DuckDB's reader does, whose reading of bytes in
# memory imports fsspec (a third of what the drop-in evaluate may take beyond Python's start).
SMALL_FILE_BYTES = 1_000_000


# DuckDB's reader makes a column of each header cell, read or not, and its cost grows faster than their number (1.5
# MB under a header of 200,000 cells took ten times as long as under 50,000). A header wider than this goes to the
# csv module, which reads only the columns of COLUMNS, whatever the width.
FAST_HEADER_CELLS = 100


def stage_rows(con: duckdb.DuckDBPyConnection, read: ReadList) -> None:
    """The rows of the file in the temporary view pending_rows (line_number, cell_count, COLUMNS), over the table
    csv_rows or exact_rows; unstage_rows drops them."""
    if len(read.data) >= SMALL_FILE_BYTES:
        if len(read.header) > FAST_HEADER_CELLS or not stage_rows_fast(con, read):
            stage_rows_numbered(con, read)
        return
    values = list(zip(*exact_rows(read.text, read.header))) or [[]] * len(EXACT_COLUMNS)
    columns = {column: (kind, cells) for (column, kind), cells in zip(EXACT_COLUMNS.items(), values)}
    create_table_of_lists(con, "exact_rows", columns)
    con.execute("CREATE OR REPLACE TEMP VIEW pending_rows AS SELECT * FROM exact_rows")


def stage_rows_numbered(con: duckdb.DuckDBPyConnection, read: ReadList) -> None:
    """Stage a large file that DuckDB's reader cannot number (a blank line, a quoted line break, a short row) in
    the table csv_rows: the rows of exact_rows, NUMBERED_CHUNK at a time, handed to DuckDB as JSON lines. Staged as
    Python values all at once (create_table_of_lists), 20 MB of blank lines took 23 GB of memory. A row of blank
    cells only is no mistake (resolve_mistakes.sql leaves such rows out) and is not staged."""
    con.execute(
        "CREATE OR REPLACE TEMP TABLE csv_rows ("
        + ", ".join(f"{column} {kind}" for column, kind in EXACT_COLUMNS.items())
        + ")"
    )
    chunk: list[bytes] = []
    for row in exact_rows(read.text, read.header):
        if any(cell.strip(" ") for cell in row[2:] if cell):  # trim() removes spaces only, as this does
            chunk.append(orjson.dumps(dict(zip(EXACT_COLUMNS, row))))
            if len(chunk) == NUMBERED_CHUNK:
                insert_json_lines(con, chunk)
                chunk = []
    insert_json_lines(con, chunk)
    con.execute("CREATE OR REPLACE TEMP VIEW pending_rows AS SELECT * FROM csv_rows")


NUMBERED_CHUNK = 100_000  # rows of a list staged at once by stage_rows_numbered


def insert_json_lines(con: duckdb.DuckDBPyConnection, lines: list[bytes]) -> None:
    """Insert rows given as JSON objects, one a line, into csv_rows."""
    if lines:
        with readable_bytes(b"\n".join(lines)) as source:
            con.read_json(source, columns=EXACT_COLUMNS, format="newline_delimited").insert_into("csv_rows")


def unstage_rows(con: duckdb.DuckDBPyConnection) -> None:
    """Drop what stage_rows made."""
    con.execute("DROP VIEW IF EXISTS pending_rows")
    for table in ("csv_rows", "exact_rows"):
        con.execute(f"DROP TABLE IF EXISTS {table}")


EXACT_COLUMNS = {"line_number": "BIGINT", "cell_count": "BIGINT"} | {column: "VARCHAR" for column in COLUMNS}


def create_table_of_lists(con: duckdb.DuckDBPyConnection, name: str, columns: dict[str, tuple[str, list]]) -> None:
    """A temporary table of columns given as (type, values), the values of a column one list."""
    selected = ", ".join(f"unnest(${column}::{kind}[]) AS {column}" for column, (kind, _) in columns.items())
    con.execute(
        f"CREATE OR REPLACE TEMP TABLE {name} AS SELECT {selected}",
        {column: list(values) for column, (_, values) in columns.items()},
    )


def read_mistake_file(path: Path) -> ReadList:
    """Read a mistake list file; what is wrong with the file as a whole is collected, not raised."""
    name = str(path)
    data = read_bytes(path)
    read = ReadList(path, data, "", [], [], hashlib.sha256(data).hexdigest())
    try:
        read.text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        read.problems.append(Problem(name, data[: error.start].count(b"\n") + 1, "is not UTF-8 text"))
        return read
    nul = nul_problem(path, data)
    if nul is not None:
        read.problems.append(nul)
        return read
    read.header = [cell.strip().upper() for cell in first_record(read.text)]
    if read.text.isspace() or not read.text:  # strip() would copy the text
        read.problems.append(Problem(name, None, "the file is empty: expected a header and mistake rows"))
        return read
    if not any(read.header):
        read.problems.append(Problem(name, 1, "the header is empty: expected the column names TEXT_ID, SENTENCE_ID, …"))
        return read
    missing = [column for column in REQUIRED if column not in read.header]
    if not set(DOC_IDS) <= set(read.header) and not set(SENT_IDS) <= set(read.header):
        missing.append(f"{' and '.join(DOC_IDS)} (or {', '.join(SENT_IDS)})")
    if missing:
        read.problems.append(Problem(name, 1, f"missing required column {', '.join(missing)}"))
    # A name given twice would be read from one column or the other depending on the reader.
    for column, count in Counter(filter(None, read.header)).items():
        if count > 1:
            places = [str(i) for i, cell in enumerate(read.header, start=1) if cell == column]
            places = f"{', '.join(places[:-1])} and {places[-1]}"
            read.problems.append(
                Problem(name, 1, f"column {shown(column)} is repeated (columns {places}): give it once")
            )
    return read


def first_record(text: str) -> list[str]:
    """The first CSV record of text (the header). Read from the first line alone when that has no quote, so that it
    ends there; otherwise from the whole text, which a quoted cell may run on into (a StringIO of a list of a
    million rows is a copy of some 200 MB)."""
    line_end = text.find("\n") + 1 or len(text)
    source = text if '"' in text[:line_end] else text[:line_end]
    return next(csv.reader(io.StringIO(source, newline="")), [])


def shown(cell: str, width: int = 60) -> str:
    """A cell as a message quotes it: cut to width characters."""
    return cell if len(cell) <= width else f"{cell[:width]}… ({len(cell):,} characters)"


@dataclass
class LoadedList:
    """A loaded mistake list: its set_id (the first, when a list of no mistakes is loaded for every split), and
    what was accepted with a warning."""

    set_id: int
    warnings: list[Problem]


def listed_problems(
    con: duckdb.DuckDBPyConnection, file: str, scorable: bool = False
) -> tuple[list[Problem], list[Problem]]:
    """The problems that refuse the resolved list and the warnings, each the first MAX_PROBLEMS in line order and a
    line counting them all if there are more (a file of a million bad rows is refused as fast as it is read).
    scorable: what the shared task's scorer scores anyway (mistake_problems.sql) is a warning, not a refusal."""
    rows = con.execute(
        f"""
        SELECT line_number, message, refuses, count(*) OVER (PARTITION BY refuses)
        FROM (
            SELECT *, row_number() OVER (PARTITION BY refuses ORDER BY line_number NULLS FIRST, message) AS listed
            FROM (
                SELECT *, severity = 'error' OR (severity = 'scorable' AND NOT $scorable) AS refuses
                FROM ({sql("mistake_problems.sql")})
            )
        )
        QUALIFY listed <= {MAX_PROBLEMS}
        ORDER BY line_number NULLS FIRST, message
        """,
        {"scorable": scorable},
    ).fetchall()
    problems: list[Problem] = []
    warnings: list[Problem] = []
    for refuses in (True, False):
        found = [(line, message, total) for line, message, is_refusal, total in rows if is_refusal == refuses]
        listed = problems if refuses else warnings
        listed += [Problem(file, line, message) for line, message, _ in found]
        if found and found[0][2] > MAX_PROBLEMS:
            what = "problems" if refuses else "warnings"
            listed.append(Problem(file, None, f"{found[0][2]:,} {what}; the first {MAX_PROBLEMS:,} are listed"))
    return problems, warnings


def needed_cells(header: list[str]) -> dict:
    """How many cells a row needs: up to the header's last column that scoring reads (not one of OPTIONAL, nor a
    column of no known name), and that column's name."""
    read = [i for i, name in enumerate(header) if name in COLUMNS and name not in OPTIONAL]
    last = max(read, default=len(header) - 1)
    return {"needed_cells": last + 1, "needed_column": header[last]}


def sentence_ids_given(con: duckdb.DuckDBPyConnection, header: list[str]) -> bool:
    """Whether any staged row has a SENTENCE_ID cell: resolve_mistakes.sql reads the sentences of the texts only
    then (most submissions give document ids alone)."""
    if "SENTENCE_ID" not in header:
        return False
    return con.execute("SELECT bool_or(trim(coalesce(SENTENCE_ID, '')) <> '') FROM pending_rows").fetchall()[0][0]


@dataclass
class PreparedList:
    """A mistake list read, checked and resolved into the temporary table resolved_mistakes of its connection (con),
    not yet in the database: insert_prepared_list puts it there, and a connection closed first takes it away."""

    con: duckdb.DuckDBPyConnection
    path: Path
    sha256: str  # of the file's bytes (which are not kept: a few lists may wait to be inserted)
    kind: str
    name: str
    corpus: str
    splits: list[str]  # the splits it is loaded for: one, or every split of the texts for a list of no mistakes
    row_count: int
    warnings: list[Problem]


def load_mistake_list(
    con: duckdb.DuckDBPyConnection, path: Path, kind: str, name: str, split: str | None = None, **options
) -> LoadedList:
    """Load a mistake list; raise InputError with every problem, leaving nothing behind (the arguments and options
    are prepare_mistake_list's)."""
    return insert_prepared_list(prepare_mistake_list(con, path, kind, name, split, **options))


def prepare_mistake_list(
    con: duckdb.DuckDBPyConnection,
    path: Path,
    kind: str,
    name: str,
    split: str | None = None,
    *,
    scorable: bool = False,
    other_split_texts: dict[str, str] | None = None,
    corpus: str = "shared-task",
) -> PreparedList:
    """Read, check and resolve a mistake list into the temporary table resolved_mistakes of con, writing nothing
    else; raise InputError with every problem, leaving no temporary table behind.

    A submission's split is that of the texts it names (split=None); a gold list's is given. A header with no rows
    is a list of no mistakes; when nothing tells its split, it is loaded for every split of the texts.
    scorable: accept, with a warning, what the shared task's scorer scores anyway (the rows it leaves out are left
    out). other_split_texts: text id -> split, for texts known by name only (a list of those is of another split).
    corpus: the corpus whose texts and categories the list names."""
    read = read_mistake_file(path)
    if read.problems:
        raise InputError(read.problems)
    try:
        stage_rows(con, read)
        con.execute(sql("shown.sql"))
        con.execute(sql("normalised_tokens.sql"))
        other_splits = other_split_texts or {}
        create_table_of_lists(
            con,
            "other_split_texts",
            {"text_id": ("VARCHAR", list(other_splits)), "split": ("VARCHAR", list(other_splits.values()))},
        )
        con.execute(
            f"CREATE OR REPLACE TEMP TABLE resolved_mistakes AS {sql('resolve_mistakes.sql')}",
            {
                "split": split,
                "corpus": corpus,
                "header_cells": len(read.header),
                "sentence_ids_given": sentence_ids_given(con, read.header),
                **needed_cells(read.header),
            },
        )
        problems, warnings = listed_problems(con, str(path), scorable)
        if problems:
            raise InputError(problems)
        row_count = con.execute("SELECT count(*) FROM resolved_mistakes WHERE category_problem IS NULL").fetchall()[0][
            0
        ]
        if split is not None:
            list_splits = [split]
        elif row_count:
            list_splits = [con.execute("SELECT any_value(list_split) FROM resolved_mistakes").fetchall()[0][0]]
        else:
            list_splits = [
                row[0]
                for row in con.execute(
                    "SELECT DISTINCT split FROM texts WHERE corpus = ? ORDER BY split", [corpus]
                ).fetchall()
            ]
    except BaseException:
        con.execute("DROP TABLE IF EXISTS resolved_mistakes")
        raise
    finally:
        # the resolved rows are all that is read from here on: the staged ones are let go before the list is inserted
        unstage_rows(con)
        con.execute("DROP TABLE IF EXISTS other_split_texts")
    return PreparedList(con, path, read.sha256, kind, name, corpus, list_splits, row_count, warnings)


def insert_prepared_list(prepared: PreparedList) -> LoadedList:
    """Insert a prepared list into the database in one transaction, for each of its splits, on the connection that
    prepared it (its resolved rows are there), and drop its resolved rows."""
    con = prepared.con
    try:
        con.execute("BEGIN TRANSACTION")
        try:
            set_ids = [insert_list(prepared, list_split) for list_split in prepared.splits]
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
    finally:
        con.execute("DROP TABLE IF EXISTS resolved_mistakes")
    return LoadedList(set_ids[0], prepared.warnings)


def insert_list(prepared: PreparedList, split: str) -> int:
    """Insert the resolved list as one annotation set of a split (the rows left out for their TYPE are not
    mistakes); return its set_id."""
    con = prepared.con
    set_id = insert_annotation_set(
        con, prepared.kind, prepared.name, split, prepared.path, prepared.sha256, prepared.row_count, prepared.corpus
    )
    # The rows' ids are taken from the sequence as one block, one id for each line of the file (the header's too),
    # and given by line number, in the file's order as before: nextval in the INSERT itself keeps it to one thread
    # (a submission of scale 1000 took almost twice as long as with the block).
    lines = con.execute("SELECT coalesce(max(line_number), 0) FROM resolved_mistakes").fetchall()[0][0]
    first_id = reserve_mistake_ids(con, lines)
    con.execute(
        """
        INSERT INTO mistakes (mistake_id, set_id, line_number, text_id, annotation_id, tokens, sentence_id,
            sent_token_start, sent_token_end, doc_token_start, doc_token_end, category, correction, comment,
            previous_end, next_start, probability)
        SELECT $first_id + line_number - 1, $set_id, line_number, text_id, annotation_id, tokens, sentence_id,
            sent_token_start, sent_token_end, doc_token_start, doc_token_end, category, correction, comment,
            previous_end, next_start, probability
        FROM resolved_mistakes WHERE category_problem IS NULL ORDER BY line_number
        """,
        {"first_id": first_id, "set_id": set_id},
    )
    seal_lists(con, [set_id])
    return set_id
