"""A bad mistake list is refused whole, with every problem named by file and line; good data is untouched."""

from __future__ import annotations

import csv
import ctypes
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
from unittest import mock

import duckdb
import pytest
from accuracy_db.etl import mistake_lists
from accuracy_db.etl.data_folder import SplitFiles
from accuracy_db.etl.games import load_games
from accuracy_db.etl.mistake_lists import (
    COLUMNS,
    exact_rows,
    first_record,
    load_mistake_list,
    read_mistake_file,
    stage_rows_fast,
    stage_rows_numbered,
)
from accuracy_db.etl.texts import load_texts
from hypothesis import example, given, settings
from hypothesis import strategies as st
from shared_data import DATA, EXAMPLES

from accuracy_db.errors import InputError
from accuracy_db.scoring.evaluate import evaluate
from accuracy_db.store import database

HEADER = "TEXT_ID,SENTENCE_ID,ANNOTATION_ID,TOKENS,SENT_TOKEN_START,SENT_TOKEN_END,DOC_TOKEN_START,DOC_TOKEN_END,TYPE,CORRECTION,COMMENT"
TEXTS = {
    # doc tokens:  1    2       3   4   5   6  7  8    9      10     11 12
    "S001": "The Celtics won 113 - 107 . Thomas scored 38 points .",
    "S002": "The Hawks lost .",
}
GOOD_ROW = "S001.txt,1,1,Celtics,2,2,2,2,NAME,Lakers,"


def first_rows(source, target, rows: int) -> None:
    """A mistake list made of the header and the first rows of another."""
    target.write_text("".join(source.read_text().splitlines(keepends=True)[: rows + 1]))


@pytest.fixture
def con():
    con = database.open_new(None, models=[])  # the tables alone: the loaders read no view
    load_texts(con, "train", TEXTS)
    yield con
    con.close()


def refusal(con, tmp_path, *rows: str, header: str = HEADER, raw: bytes | None = None) -> list[str]:
    """Load a submission made of these rows; return the problems reported, as printed."""
    path = tmp_path / "submission.csv"
    path.write_bytes(raw if raw is not None else "\n".join([header, *rows]).encode() + b"\n")
    with pytest.raises(InputError) as refused:
        load_mistake_list(con, path, "submission", "submission")
    assert con.execute("SELECT count(*) FROM mistakes").fetchall() == [(0,)], "a refused list must load nothing"
    assert con.execute("SELECT count(*) FROM annotation_sets").fetchall() == [(0,)]
    return [str(problem).removeprefix(f"{path}: ") for problem in refused.value.problems]


def test_a_good_list_loads_with_both_id_schemes_filled_in(con, tmp_path):
    path = tmp_path / "good.csv"
    path.write_text(f"{HEADER}\nS001.txt,,1,Thomas scored,,,8,9,NAME,,\nS002.txt,,2,Hawks,,,2,2,WORD,,\n")
    load_mistake_list(con, path, "submission", "good")
    assert con.execute(
        "SELECT text_id, sentence_id, sent_token_start, sent_token_end, doc_token_start, doc_token_end, line_number"
        " FROM mistakes ORDER BY line_number"
    ).fetchall() == [("S001", 2, 1, 2, 8, 9, 2), ("S002", 1, 2, 2, 2, 2, 3)]


def test_no_token_ids(con, tmp_path):
    assert refusal(con, tmp_path, GOOD_ROW, "S001.txt,,2,won,,,,,WORD,,") == [
        "line 3: no token ids: give DOC_TOKEN_START and DOC_TOKEN_END, or SENTENCE_ID, SENT_TOKEN_START and SENT_TOKEN_END"
    ]


def test_rows_mixing_id_schemes(con, tmp_path):
    problems = refusal(con, tmp_path, GOOD_ROW, "S001.txt,,2,won,,,3,3,WORD,,", "S001.txt,2,3,Thomas,1,1,,,NAME,,")
    assert problems == [
        "line 3: uses document ids, but line 2 uses both id schemes: a file gives the same token ids on every row",
        "line 4: uses sentence ids, but line 2 uses both id schemes: a file gives the same token ids on every row",
    ]


def test_doc_and_sentence_ids_that_disagree(con, tmp_path):
    assert refusal(con, tmp_path, "S001.txt,2,1,Thomas,1,1,9,9,NAME,,") == [
        "line 2: the ids disagree: sentence 2 tokens 1-1 are document tokens 8-8, but DOC_TOKEN_START-END say 9-9"
    ]


def test_non_numeric_ids(con, tmp_path):
    assert refusal(con, tmp_path, "S001.txt,,1,Celtics,,,two,2,NAME,,") == [
        "line 2: DOC_TOKEN_START is 'two', not a whole number"
    ]


def test_start_after_end(con, tmp_path):
    assert refusal(con, tmp_path, "S001.txt,,1,Celtics,,,3,2,NAME,,") == [
        "line 2: DOC_TOKEN_START 3 is after DOC_TOKEN_END 2"
    ]


def test_ids_beyond_the_text(con, tmp_path):
    problems = refusal(
        con, tmp_path, "S001.txt,,1,points,,,12,13,NUMBER,,", "S002.txt,2,2,x,1,1,,,NAME,,", header=HEADER
    )
    assert problems == [
        "line 2: DOC_TOKEN_END 13 is beyond the end of S001 (12 tokens)",
        "line 3: uses sentence ids, but line 2 uses document ids: a file gives the same token ids on every row",
    ]
    assert refusal(con, tmp_path, "S002.txt,2,2,x,1,1,,,NAME,,") == [
        "line 2: SENTENCE_ID 2 is beyond the last sentence of S002 (1 sentences)"
    ]
    assert refusal(con, tmp_path, "S002.txt,1,2,x,4,5,,,NAME,,") == [
        "line 2: SENT_TOKEN_END 5 is beyond the end of sentence 1 of S002 (4 tokens)"
    ]


def test_a_text_id_not_in_the_split(con, tmp_path):
    assert refusal(con, tmp_path, GOOD_ROW, "S999.txt,,2,x,,,1,1,NAME,,".replace(",,2,x,,,1,1", ",1,2,x,1,1,1,1")) == [
        "line 3: TEXT_ID S999 is not a known text"
    ]
    path = tmp_path / "gold.csv"
    path.write_text(f"{HEADER}\n{GOOD_ROW}\n")
    with pytest.raises(InputError) as refused:
        load_mistake_list(con, path, "gold", "gold", split="test")
    assert [p.message for p in refused.value.problems] == [
        "TEXT_ID S001 is a train text, but this list is of the test split"
    ]


def test_tokens_that_differ_from_the_text(con, tmp_path):
    assert refusal(con, tmp_path, "S001.txt,1,1,Lakers,2,2,2,2,NAME,,") == [
        "line 2: TOKENS is 'Lakers', but tokens 2-2 of S001 are 'Celtics'"
    ]


def test_overlapping_spans_and_the_same_row_twice(con, tmp_path):
    assert refusal(
        con,
        tmp_path,
        "S001.txt,1,1,113 - 107,4,6,4,6,NUMBER,,",
        "S001.txt,1,2,107,6,6,6,6,NUMBER,,",
        "S001.txt,1,2,107,6,6,6,6,NUMBER,,",
    ) == [
        "line 3: overlaps line 2: both mark tokens 6-6 of S001",
        "line 4: overlaps line 3: both mark tokens 6-6 of S001",
    ]


def test_the_tokens_of_a_text_whose_spans_overlap_are_not_compared_with_the_text(con, tmp_path):
    """The list is refused for the overlap; the tokens of that text's spans are not looked up (spans that overlap can
    mark each token of a text any number of times), so their TOKENS are not compared. Another text's are."""
    assert refusal(
        con,
        tmp_path,
        "S001.txt,,1,wrong,,,1,12,NUMBER,,",
        "S001.txt,,2,wrong too,,,2,3,NUMBER,,",
        "S002.txt,,3,wrong,,,2,2,WORD,,",
    ) == [
        "line 3: overlaps line 2: both mark tokens 2-3 of S001",
        "line 4: TOKENS is 'wrong', but tokens 2-2 of S002 are 'Hawks'",
    ]


def test_a_list_of_spans_marking_a_whole_text_again_and_again_is_refused_without_looking_up_their_tokens(tmp_path):
    """600,000 rows marking the 241 tokens of S001 (20 MB) made 145 million token positions to look up: 31 s and
    3.3 GB (now 1.7 s); a hang fails by the timeout (30 s: twice the run on a loaded machine)."""
    rows = "".join(f"S001.txt,,{number},,,,1,241,NAME,,\n" for number in range(600_000))
    (tmp_path / "whole.csv").write_text(f"{HEADER}\n{rows}")
    command = [sys.executable, "-m", "accuracy_db", "evaluate", "--gsml", str(DATA / "gsml.csv")]
    result = subprocess.run(
        [*command, "--submitted", str(tmp_path / "whole.csv")], capture_output=True, text=True, timeout=30
    )
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert f"{tmp_path / 'whole.csv'}: line 3: overlaps line 2: both mark tokens 1-241 of S001" in result.stderr


def forget_list(con, set_id: int) -> None:
    con.execute("DELETE FROM mistakes WHERE set_id = ?", [set_id])
    con.execute("DELETE FROM annotation_sets WHERE set_id = ?", [set_id])


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        # spans within the first 4 tokens of either text (S002 has 4)
        st.tuples(st.sampled_from(["S001", "S002"]), st.integers(1, 4), st.integers(0, 3)).map(
            lambda span: (span[0], span[1], min(span[1] + span[2], 4))
        ),
        min_size=1,
        max_size=7,
    )
)
def test_overlaps_are_reported_exactly_when_two_spans_share_a_token(tmp_path_factory, train_texts, spans):
    """Against every pair of rows: a list is refused for overlaps exactly when two of its spans share a token, each
    message names two such rows and tokens both mark, and every row that shares a token with a row before it in
    position order is named."""
    path = tmp_path_factory.mktemp("overlaps") / "list.csv"
    path.write_text(
        "\n".join([HEADER] + [f"{text}.txt,,{i},,,,{start},{end},WORD,," for i, (text, start, end) in enumerate(spans)])
        + "\n"
    )
    con = train_texts
    lines = {line: span for line, span in enumerate(spans, start=2)}
    shared = {
        (a, b)
        for a, (text_a, start_a, end_a) in lines.items()
        for b, (text_b, start_b, end_b) in lines.items()
        if a != b and text_a == text_b and start_a <= end_b and start_b <= end_a
    }
    try:
        forget_list(con, load_mistake_list(con, path, "submission", "overlaps").set_id)
        problems = []
    except InputError as refused:
        problems = refused.problems
    assert bool(problems) == bool(shared)
    named = set()
    for problem in problems:
        other, first, last, text = re.fullmatch(
            r"overlaps line (\d+): both mark tokens (\d+)-(\d+) of (\w+)", problem.message
        ).groups()
        pair = (problem.line, int(other))
        assert pair in shared and int(other) < problem.line
        for line in pair:
            assert lines[line][0] == text and lines[line][1] <= int(first) <= int(last) <= lines[line][2]
        named |= set(pair)
    in_position_order = sorted(lines, key=lambda line: (lines[line][0], lines[line][1], line))
    for i, line in enumerate(in_position_order):
        if any((line, earlier) in shared for earlier in in_position_order[:i]):
            assert line in named


def test_a_type_outside_the_six_categories_suggests_the_nearest(con, tmp_path):
    assert refusal(
        con,
        tmp_path,
        "S001.txt,1,1,Celtics,2,2,2,2,NAMES,,",
        "S001.txt,1,2,won,3,3,3,3,Word,,",
        "S001.txt,1,3,113,4,4,4,4,GRAMMAR,,",
    ) == [
        "line 2: TYPE 'NAMES' is not a category; did you mean NAME?",
        "line 3: TYPE 'Word' is not a category; did you mean WORD?",
        "line 4: TYPE 'GRAMMAR' is not a category; the categories are NAME, NUMBER, WORD, CONTEXT, NOT_CHECKABLE, OTHER",
    ]


def test_a_missing_required_column(con, tmp_path):
    assert refusal(
        con, tmp_path, "S001.txt,1,Celtics,2,2,2,2,", header=HEADER.replace(",TYPE", "").replace(",COMMENT", "")
    ) == ["line 1: missing required column TYPE"]


def test_an_empty_file(con, tmp_path):
    # A file of no bytes (or of blank lines only) is an error; a header alone is a list of no mistakes.
    assert refusal(con, tmp_path, raw=b"") == ["the file is empty: expected a header and mistake rows"]
    assert refusal(con, tmp_path, raw=b"\r\n\n") == ["the file is empty: expected a header and mistake rows"]


def test_every_problem_is_reported_at_once_with_its_line(con, tmp_path):
    # A quoted comment spanning two lines moves the later rows down, as an editor shows them.
    problems = refusal(
        con,
        tmp_path,
        'S001.txt,1,1,Celtics,2,2,2,2,NAME,,"two\nlines"',
        "S001.txt,1,2,won,x,3,3,3,WORD,,",
        "S001.txt,1,3,won,3,3,3,3,SPELLING,,",
    )
    assert problems == [
        "line 4: SENT_TOKEN_START is 'x', not a whole number",
        "line 5: TYPE 'SPELLING' is not a category; the categories are NAME, NUMBER, WORD, CONTEXT, NOT_CHECKABLE, OTHER",
    ]


def test_harmless_variants_are_accepted(con, tmp_path):
    path = tmp_path / "windows.csv"
    # A UTF-8 BOM, CRLF line ends, TEXT_ID with or without .txt.
    path.write_bytes(
        b"\xef\xbb\xbf"
        + f"{HEADER}\r\nS001.txt,1,1,Celtics,2,2,2,2,NAME,,\r\nS001,2,2,38,3,3,10,10,NUMBER,,\r\n".encode()
    )
    load_mistake_list(con, path, "submission", "windows")
    assert con.execute("SELECT text_id, doc_token_start FROM mistakes ORDER BY line_number").fetchall() == [
        ("S001", 2),
        ("S001", 10),
    ]


def test_a_refused_list_leaves_the_loaded_ones_alone(con, tmp_path):
    good = tmp_path / "good.csv"
    good.write_text(f"{HEADER}\n{GOOD_ROW}\n")
    load_mistake_list(con, good, "submission", "good")
    bad = tmp_path / "bad.csv"
    bad.write_text(f"{HEADER}\nS001.txt,1,1,Celtics,2,2,2,2,NAMES,,\n")
    with pytest.raises(InputError):
        load_mistake_list(con, bad, "submission", "bad")
    assert con.execute("SELECT name, row_count FROM annotation_sets").fetchall() == [("good", 1)]
    assert con.execute("SELECT count(*) FROM mistakes").fetchall() == [(1,)]


def test_the_command_names_file_and_line_and_exits_non_zero_without_traceback(tmp_path):
    texts = tmp_path / "texts"
    texts.mkdir()
    for text_id, text in TEXTS.items():
        (texts / f"{text_id}.txt").write_text(text)
    gold = tmp_path / "gsml.csv"
    gold.write_text(f"{HEADER}\n{GOOD_ROW}\n")
    submitted = tmp_path / "submitted.csv"
    submitted.write_text(f"{HEADER}\n{GOOD_ROW}\nS001.txt,,2,won,,,3,3,WORD,,\n")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "accuracy_db",
            "evaluate",
            "--gsml",
            str(gold),
            "--submitted",
            str(submitted),
            "--text_dir",
            str(texts),
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert f"{submitted}: line 3: uses document ids, but line 2 uses both id schemes" in result.stderr
    assert result.stdout == ""


def test_rows_with_too_few_or_too_many_cells(con, tmp_path):
    # A row may leave out the CORRECTION and COMMENT cells after TYPE (the shared task's scorer reads up to TYPE).
    rows = ["S001.txt,1,1,Celtics,2,2,2,2", 'S001.txt,1,2,"won, they say",3,3,3,3,WORD,,,extra', GOOD_ROW]
    expected = [
        "line 2: has 8 cells, but the header has 11 (and 9 are needed, up to TYPE)",
        "line 3: has 12 cells, but the header has 11",
    ]
    assert refusal(con, tmp_path, *rows) == expected
    # The same with a quoted line break further down: the file is then read record by record.
    multi_line = 'S001.txt,1,3,won,3,3,3,3,WORD,,"two\nlines"'
    assert refusal(con, tmp_path, *rows, multi_line) == expected


def written_list(folder, rows: list[list[str]], quoting: int, line_end: str):
    """A mistake list of the COLUMNS header and the rows, written by the csv module, as read_mistake_file reads it."""
    path = folder / "list.csv"
    with path.open("w", newline="") as out:
        writer = csv.writer(out, quoting=quoting, lineterminator=line_end)
        writer.writerow(COLUMNS)
        writer.writerows(rows)
    return read_mistake_file(path)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.lists(st.text(alphabet='ab ,"\r\n', max_size=4), min_size=1, max_size=13), max_size=6),
    st.sampled_from([csv.QUOTE_MINIMAL, csv.QUOTE_ALL]),
    st.sampled_from(["\n", "\r\n"]),
)
@example([[""] * 11 + ["\r"], [""] * 12], csv.QUOTE_MINIMAL, "\r\n")  # a quoted bare CR: the csv module's line 3 ends
def test_the_fast_reader_reads_what_the_csv_module_reads(tmp_path_factory, rows, quoting, line_end):
    read = written_list(tmp_path_factory.mktemp("csv"), rows, quoting, line_end)
    con = duckdb.connect()
    if stage_rows_fast(con, read):  # else it could not be sure of the lines, and the exact reader is used
        fast = con.execute("SELECT * FROM pending_rows ORDER BY line_number").fetchall()
        exact = exact_rows(read.text, read.header)
        assert [tuple(c or "" for c in row) for row in fast] == [tuple(c or "" for c in row) for row in exact]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.lists(st.text(alphabet='ab ,"\r\n', max_size=4), max_size=13), max_size=8),
    st.sampled_from([csv.QUOTE_MINIMAL, csv.QUOTE_ALL]),
    st.sampled_from(["\n", "\r\n"]),
)
def test_the_numbered_reader_reads_what_the_csv_module_reads(tmp_path_factory, rows, quoting, line_end):
    """A large list DuckDB cannot number is read by the csv module and handed to DuckDB with its line numbers:
    the same rows as exact_rows, but those of blank cells only, which are no mistakes (blank lines, short rows,
    quoted line breaks and empty cells included)."""
    read = written_list(tmp_path_factory.mktemp("csv"), rows, quoting, line_end)
    con = duckdb.connect()
    with mock.patch.object(mistake_lists, "NUMBERED_CHUNK", 2):  # staged two rows at a time
        stage_rows_numbered(con, read)
    numbered = con.execute("SELECT * FROM pending_rows ORDER BY line_number").fetchall()
    exact = [row for row in exact_rows(read.text, read.header) if any((cell or "").strip(" ") for cell in row[2:])]
    assert numbered == exact


@settings(max_examples=200, deadline=None)
@given(
    st.permutations([*COLUMNS, "EXTRA1", "EXTRA2"]),
    st.integers(0, 13),
    st.lists(st.lists(st.text(alphabet="ab ,", max_size=3), max_size=15), max_size=5),
)
def test_exact_rows_take_each_column_from_its_place_in_the_header(names, width, rows):
    """Under any header (columns in any order, some missing, others extra), a row's cell of a column is the one at
    that column's place in the header; None where the header or the row has none."""
    header = names[:width]
    text = "\r\n".join(",".join(f'"{cell}"' for cell in row) for row in [header, *rows]) + "\r\n"
    expected = []
    for line, count, record in mistake_lists.csv_records(text, len(header)):
        cells = dict(zip(header, record))
        expected.append((line, count, *(cells.get(column) for column in COLUMNS)))
    assert list(exact_rows(text, header)) == expected


def test_a_large_list_under_a_header_of_200_000_cells_is_read_by_the_csv_module_not_by_duckdb(tmp_path):
    """DuckDB's reader makes a column of each header cell, at a cost that grows faster than their number (1.5 MB
    under 200,000 cells took 104 s): such a header is read by the csv module, for the columns it needs."""
    rows = [GOOD_ROW.replace(",1,1,", f",1,{number},", 1) for number in range(30_000)]
    narrow, wide = tmp_path / "narrow.csv", tmp_path / "wide.csv"
    narrow.write_text("\n".join([HEADER, *rows]) + "\n")
    wide.write_text("\n".join([HEADER + "".join(f",extra{i}" for i in range(200_000)), *rows]) + "\n")
    assert wide.stat().st_size > mistake_lists.SMALL_FILE_BYTES
    staged = []
    for path in (narrow, wide):
        con = duckdb.connect()
        mistake_lists.stage_rows(con, read_mistake_file(path))
        rows = con.execute(f"SELECT line_number, {', '.join(COLUMNS)} FROM pending_rows ORDER BY 1").fetchall()
        staged.append([tuple(cell or "" for cell in row) for row in rows])  # an empty cell: NULL for DuckDB's reader
    assert staged[0] == staged[1] and len(staged[0]) == 30_000
    with mock.patch.object(mistake_lists, "stage_rows_fast", side_effect=AssertionError("DuckDB's reader")):
        mistake_lists.stage_rows(duckdb.connect(), read_mistake_file(wide))


def test_reading_a_list_never_sets_the_process_wide_csv_field_limit(con, tmp_path):
    """Issue 52: the csv module's field limit is the process's. The loaders raised it around each list and put it
    back, while a build read games.csv in a thread of its own, whose reader then took or refused a cell over 128 kB
    by chance (and two lists read at once could leave it at either's). It is set once, to the largest, when the
    loaders are imported; reading a list, its header or its cells never sets it."""
    comment = "x" * 200_000 + "\nline"  # over the csv module's default 128 kB, on two lines: read by the csv module
    path = tmp_path / "long.csv"
    path.write_text(f'{HEADER}\n{GOOD_ROW}"{comment}"\n')
    with mock.patch.object(csv, "field_size_limit", wraps=csv.field_size_limit) as limit:
        load_mistake_list(con, path, "submission", "long")
        assert first_record(f'"{comment}",b\n') == [comment, "b"]
    assert con.execute("SELECT comment FROM mistakes").fetchall() == [(comment,)]
    assert [call for call in limit.call_args_list if call.args or call.kwargs] == []
    assert csv.field_size_limit() == 2 ** (8 * ctypes.sizeof(ctypes.c_long) - 1) - 1  # the largest it takes


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet='ab ,"\r\n\x00', max_size=24))
def test_the_header_is_the_first_record_the_csv_module_reads(text):
    # first_record reads the first line alone when it can: the header must be the one read from the whole text.
    def whole(text):
        try:
            return next(csv.reader(io.StringIO(text, newline="")), [])
        except csv.Error as error:
            return str(error)

    try:
        header = first_record(text)
    except csv.Error as error:
        header = str(error)
    assert header == whole(text)


@pytest.mark.parametrize(
    "body, fast",
    [
        (f"{GOOD_ROW}\n", True),
        (f'{GOOD_ROW}\nS001.txt,1,2,won,3,3,3,3,WORD,"a, b",""\n', True),
        (f'{GOOD_ROW}\nS001.txt,1,2,won,3,3,3,3,WORD,"two\nlines",\n', False),  # a quoted line break
        (f"{GOOD_ROW}\n\n{GOOD_ROW}\n", False),  # a blank line
        (f"{GOOD_ROW}\nS001.txt,1,2\n", False),  # a short row
    ],
)
def test_duckdb_reads_the_rows_when_it_can_number_the_lines(tmp_path, body, fast):
    path = tmp_path / "list.csv"
    for line_end in ("\n", "\r\n"):
        path.write_bytes(f"{HEADER}\n{body}".replace("\n", line_end).encode())
        assert stage_rows_fast(duckdb.connect(), read_mistake_file(path)) is fast


def test_duckdb_reads_the_rows_on_every_connection_of_a_database(tmp_path):
    # build prepares lists on cursors of one database: DuckDB's reader must read on each (a file object is read by
    # the first connection alone, which would leave the others to the exact reader, three times as slow)
    path = tmp_path / "list.csv"
    path.write_bytes(f"{HEADER}\n{GOOD_ROW}\n".encode())
    con = duckdb.connect()
    for cursor in (con, con.cursor(), con.cursor()):
        assert stage_rows_fast(cursor, read_mistake_file(path))
        assert cursor.execute("SELECT TEXT_ID, TYPE FROM pending_rows").fetchall() == [("S001.txt", "NAME")]


class InterruptedReader:
    """A connection whose CSV reader is interrupted, as pipeline.in_order interrupts the lists it prepares when a
    build is stopped."""

    def __init__(self, con):
        self.con = con

    def read_csv(self, *args, **kwargs):
        raise duckdb.InterruptException("INTERRUPT Error: Interrupted!")

    def __getattr__(self, name):
        return getattr(self.con, name)


def test_an_interrupted_read_is_raised_not_read_again_by_the_exact_reader(tmp_path):
    # taken for a file DuckDB cannot read, it had a stopped build read a million rows again in Python
    path = tmp_path / "list.csv"
    path.write_bytes(f"{HEADER}\n{GOOD_ROW}\n".encode())
    con = duckdb.connect()
    with pytest.raises(duckdb.InterruptException):
        stage_rows_fast(InterruptedReader(con), read_mistake_file(path))
    assert con.execute("SELECT count(*) FROM duckdb_tables() WHERE temporary").fetchall() == [(0,)]


# --- every file is read by its exact path ---

GLOB_NAMES = {  # a name with glob characters -> a name the glob would match
    "a[b].csv": "ab.csv",
    "a?c.csv": "abc.csv",
    "a*.csv": "aa.csv",
    "a{b,c}.csv": "ab.csv",
    "a}b].csv": "a}b.csv",
}


@pytest.mark.parametrize("name, decoy", GLOB_NAMES.items())
def test_a_name_with_glob_characters_is_read_by_its_exact_path(con, tmp_path, name, decoy):
    (tmp_path / decoy).write_text(f"{HEADER}\nS002.txt,,1,Hawks,,,2,2,NAME,,\n")
    path = tmp_path / name
    path.write_text(f"{HEADER}\n{GOOD_ROW}\nS001.txt,1,2,won,3,3,3,3,WORD,,\n")
    load_mistake_list(con, path, "submission", "globbed")
    assert con.execute("SELECT text_id, doc_token_start FROM mistakes ORDER BY line_number").fetchall() == [
        ("S001", 2),
        ("S001", 3),
    ]
    assert con.execute("SELECT source_file, sha256 FROM annotation_sets").fetchall() == [
        (str(path), hashlib.sha256(path.read_bytes()).hexdigest())
    ]


def test_evaluate_reads_a_name_with_glob_characters_by_its_exact_path(tmp_path):
    submitted = tmp_path / "a[b].csv"
    first_rows(EXAMPLES / "submission.csv", submitted, 200)
    first_rows(EXAMPLES / "submission.csv", tmp_path / "ab.csv", 50)
    plain = tmp_path / "plain.csv"
    shutil.copy(submitted, plain)
    result = subprocess.run(
        [sys.executable, "-m", "accuracy_db", "evaluate", "--gsml", str(DATA / "gsml.csv"), "--submitted"]
        + [str(submitted), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == evaluate(DATA / "gsml.csv", plain)
    assert json.loads(result.stdout)[0]["submitted_total"] == 200


def test_repeated_column_names_are_refused_whatever_their_case(con, tmp_path):
    header = HEADER.replace("COMMENT", "type")
    assert refusal(con, tmp_path, GOOD_ROW, header=header) == [
        "line 1: column TYPE is repeated (columns 9 and 11): give it once"
    ]
    # whichever reader reads the rows (here Python's, for the quoted line break)
    assert refusal(con, tmp_path, GOOD_ROW, 'S001.txt,1,2,won,3,3,3,3,WORD,,"two\nlines"', header=header) == [
        "line 1: column TYPE is repeated (columns 9 and 11): give it once"
    ]


# --- the other readers: never a hang, never a traceback; one line naming the file (and the line) ---


def evaluate_cli(*args: str) -> subprocess.CompletedProcess:
    """accuracy-db evaluate as a process: a hang fails by the timeout, not by hanging the suite."""
    result = subprocess.run(
        [sys.executable, "-m", "accuracy_db", "evaluate", *args], capture_output=True, text=True, timeout=60
    )
    assert "Traceback" not in result.stderr, result.stderr
    return result


@pytest.fixture
def small_task(tmp_path):
    """A texts folder, a gold list and a submission for them."""
    texts = tmp_path / "texts"
    texts.mkdir()
    for text_id, text in TEXTS.items():
        (texts / f"{text_id}.txt").write_text(text)
    for name in ("gold.csv", "submitted.csv"):
        (tmp_path / name).write_text(f"{HEADER}\n{GOOD_ROW}\n")
    return tmp_path


def test_evaluate_refuses_what_is_no_regular_file_without_hanging(small_task):
    texts, gold = small_task / "texts", small_task / "gold.csv"
    os.mkfifo(small_task / "fifo.csv")
    result = evaluate_cli("--gsml", str(gold), "--submitted", str(small_task / "fifo.csv"), "--text_dir", str(texts))
    assert (result.returncode, result.stderr.splitlines()[0]) == (
        1,
        f"{small_task / 'fifo.csv'}: not a regular file: it is a FIFO (named pipe)",
    )
    os.mkfifo(texts / "S003.txt")
    (texts / "S004.txt").mkdir()
    (texts / "S005.txt").write_bytes(b"line one\nna\xefve\n")
    result = evaluate_cli("--gsml", str(gold), "--submitted", str(gold), "--text_dir", str(texts))
    assert (result.returncode, result.stderr.splitlines()[:3]) == (
        1,
        [
            f"{texts / 'S003.txt'}: not a regular file: it is a FIFO (named pipe)",
            f"{texts / 'S004.txt'}: not a regular file: it is a directory",
            f"{texts / 'S005.txt'}: line 2: is not UTF-8 text",
        ],
    )


def test_evaluate_says_when_it_cannot_write_csv_out(small_task):
    out = small_task / "missing" / "figures.csv"
    result = evaluate_cli(
        "--gsml", str(small_task / "gold.csv"), "--submitted", str(small_task / "submitted.csv"),
        "--text_dir", str(small_task / "texts"), "--csv_out", str(out),
    )  # fmt: skip
    assert (result.returncode, result.stderr) == (
        1,
        f"error: {out}: cannot write the file (No such file or directory); nothing was written\n",
    )


@pytest.mark.parametrize(
    "lookup, message",
    [
        # an alias bomb: each level doubles the one below it
        (
            "doc_to_sent: &a {S001: {1: {sentence_id: 1, token_id: 1}}}\n"
            + "".join(
                f"l{i}: &l{i} [*{'a' if i == 0 else f'l{i - 1}'}, *{'a' if i == 0 else f'l{i - 1}'}]\n"
                for i in range(40)
            )
            + "sent_to_doc: *l39\n",
            "line 1: YAML anchors and aliases are not allowed in a token lookup",
        ),
        (
            "doc_to_sent: " + "[" * 3000 + "]" * 3000 + "\nsent_to_doc: {}\n",
            "line 1: not valid YAML: nested more than 4 levels deep",
        ),
        ("doc_to_sent: {S001: {1: {sentence_id: x}}}\nsent_to_doc: {}\n", "not a token lookup (expected doc_to_sent"),
        ("doc_to_sent: {S001: [1, 2]}\nsent_to_doc: {}\n", "not a token lookup (expected doc_to_sent"),
    ],
)
def test_a_token_lookup_bomb_or_a_wrong_shape_is_refused_in_one_line(small_task, lookup, message):
    path = small_task / "token_lookup.yaml"
    path.write_text(lookup)
    result = evaluate_cli("--gsml", str(small_task / "gold.csv"), "--submitted", str(small_task / "submitted.csv"),
                          "--token_lookup", str(path))  # fmt: skip
    assert result.returncode == 1
    assert result.stderr.splitlines()[0].startswith(f"{path}: {message}") or result.stderr.startswith(
        f"error: {path}: {message}"
    ), result.stderr


def test_a_games_file_that_is_no_regular_file_is_an_error_not_absent(tmp_path):
    (tmp_path / "games.csv").mkdir()
    os.mkfifo(tmp_path / "shared_task.jsonl")
    with pytest.raises(InputError) as refused:
        load_games(database.open_new(None, models=[]), SplitFiles("train", tmp_path))
    assert [str(p) for p in refused.value.problems] == [
        f"{tmp_path / 'games.csv'}: not a regular file: it is a directory",
        f"{tmp_path / 'shared_task.jsonl'}: not a regular file: it is a FIFO (named pipe)",
    ]


def test_a_box_score_line_nested_too_deeply_is_a_problem_of_its_line(tmp_path):
    (tmp_path / "shared_task.jsonl").write_text("[" * 100_000 + "]" * 100_000 + "\n" + '{"a": ' + "1" * 5000 + "}\n")
    with pytest.raises(InputError) as refused:
        load_games(database.open_new(None, models=[]), SplitFiles("train", tmp_path))
    assert [str(p) for p in refused.value.problems] == [
        f"{tmp_path / 'shared_task.jsonl'}: line 1: malformed JSON: nested too deeply",
        f"{tmp_path / 'shared_task.jsonl'}: line 2: malformed JSON: a number too long to read",
    ]


CELLS = st.sampled_from(["", "S001.txt", "S002", "1", "2", "0003", "00000000000002", "-1", "x", "NAME", "word", "Celtics",
                         '"', ",", "\n", "\r", " ", "\x00", "é", "\ufeff", "99999999999999999999999999999999999999999"])  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(
    st.one_of(
        st.binary(max_size=300),
        st.lists(st.lists(CELLS, max_size=14), max_size=6).map(
            lambda rows: "\n".join([HEADER] + [",".join(row) for row in rows]).encode()
        ),
        st.lists(st.lists(st.text(max_size=5), max_size=14), min_size=1, max_size=5).map(
            lambda rows: "\n".join(",".join(row) for row in rows).encode("utf-8", "surrogatepass")
        ),
    )
)
def test_random_bytes_and_csv_shapes_load_whole_or_are_refused_whole(tmp_path_factory, train_texts, data):
    path = tmp_path_factory.mktemp("random") / "random.csv"
    path.write_bytes(data)
    con = train_texts
    try:
        loaded = load_mistake_list(con, path, "submission", "random")
    except InputError as refused:
        assert refused.problems and all(p.file == str(path) for p in refused.problems)
        assert con.execute("SELECT count(*) FROM mistakes").fetchall() == [(0,)]
        assert con.execute("SELECT count(*) FROM annotation_sets").fetchall() == [(0,)]
    else:
        (row_count,) = con.execute("SELECT row_count FROM annotation_sets").fetchall()[0]
        assert con.execute("SELECT count(*) FROM mistakes").fetchall() == [(row_count,)]
        forget_list(con, loaded.set_id)
