"""Read a file of text-level scores, one number a text for one or more metrics, and load it into metrics and
text_scores.

A file is CSV or JSON Lines (by its suffix, .jsonl; anything else is read as CSV). In CSV, the header names the
columns: text_id (in any case) and one column a metric, named by its header; a file of the single column score
(text_id,score) is one metric named by --name or the file's stem, as is any file of one metric when --name is given.
In JSON Lines, each line is an object with the same keys: text_id (a string) and each metric's number. A text id is
given as the texts are named (S001 or S001.txt in the shared task; a corpus's own ids), every text of one split of
the corpus once, with a finite number for each metric.

A file is loaded whole or not at all: the first thing wrong with it is refused in one line naming the file and the
line (InputError with one problem), before anything is written. It is read a line at a time, each row's text checked
as it is read, and never read past its first problem: what it holds in memory is its rows (one a text of the split),
and a row of more than MAX_LINE_BYTES is refused at that size, however long it runs on.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import duckdb
import polars as pl

from accuracy_db.errors import InputError, NameTaken, Problem, cut, quoted
from accuracy_db.names import name_problem
from accuracy_db.regular_files import MAX_INPUT_BYTES, nul_problem, read_text, regular_fd, unreadable

from .frames import create_temp_table
from .sidecars import SIDECAR_BYTES
from .unstorable_text import unstorable_text

MAX_METRICS = 1000  # columns of one file: more than any table of metrics has, and few enough to check each name
SINGLE = "score"  # the column of a file of one metric named by --name or its stem
NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")  # decimal, as CSV writers write floats
NOT_FINITE = re.compile(r"[+-]?(nan|inf|infinity)", re.IGNORECASE)
# The most bytes of one row (a line, or a CSV row whose quoted cell runs over lines): a header of 1,000 metrics of
# 200-character names fits, and a row of numbers is a few kilobytes.
MAX_LINE_BYTES = 1 << 20


@dataclass(frozen=True)
class ScoreFile:
    """A file of scores to load, with what is said about it beside the file: the direction of its metrics (one for
    all, or one a metric by name), a description, the corpus its texts belong to, the name of a file of one metric,
    and whether its metrics replace those of the same names (--replace; a file of the scores folder replaces only
    its own earlier metrics, which it names in folder_file)."""

    path: Path
    higher_is_better: bool | dict[str, bool]
    corpus: str = "shared-task"
    name: str | None = None
    description: str | None = None
    replace: bool = False
    folder_file: str | None = None

    def direction(self, metric: str) -> bool | None:
        if isinstance(self.higher_is_better, bool):
            return self.higher_is_better
        return self.higher_is_better.get(metric)


@dataclass(frozen=True)
class Scores:
    """What a file gives: its metrics, and each row's line, text id and numbers (in metric order). Read against a
    corpus's texts (Texts), a row's text id is the database's, and split the split of the texts."""

    metrics: list[str]
    rows: list[tuple[int, str, list[float]]]
    sha256: str
    split: str | None = None


@dataclass(frozen=True)
class LoadedScores:
    """What a load wrote: the metrics, the split and how many texts each metric scores."""

    corpus: str
    split: str
    metrics: list[str]
    texts: int
    replaced: list[str]


def refused(path: Path | str, line: int | None, message: str) -> InputError:
    return InputError([Problem(str(path), line, message)])


class Texts:
    """The texts of a corpus, that a file's rows are resolved against as they are read: every text of one split,
    each once. A row's id is refused on its line as soon as it is read (an unknown text, one given again, one of
    another split), so that a file is never read past its first problem."""

    def __init__(self, path: Path, corpus: str, splits: dict[str, str]):
        if not splits:
            raise refused(path, None, f"the corpus {quoted(corpus, 60)} has no texts")
        self.path, self.corpus, self.splits = path, corpus, splits
        self.seen: dict[str, int] = {}
        self.first: tuple[int, str] | None = None

    @classmethod
    def of(cls, con: duckdb.DuckDBPyConnection, path: Path, corpus: str) -> Texts:
        return cls(
            path, corpus, dict(con.execute("SELECT text_id, split FROM texts WHERE corpus = ?", [corpus]).fetchall())
        )

    def resolve(self, line: int, given: str) -> str:
        """The database's id of a row's text (S001 for S001.txt in the shared task)."""
        text_id = given if given in self.splits else given.removesuffix(".txt")
        if text_id not in self.splits:
            raise refused(self.path, line, f"text_id {quoted(given, 60)} is not a text of corpus {self.corpus}")
        if text_id in self.seen:
            raise refused(self.path, line, f"{text_id} is given again (first on line {self.seen[text_id]})")
        if self.first is None:
            self.first = (line, text_id)
        elif self.splits[text_id] != self.split:
            raise refused(
                self.path,
                line,
                f"{text_id} is a text of split {self.splits[text_id]}, but {self.first[1]} (line {self.first[0]}) of"
                f" split {self.split}: a file scores the texts of one split",
            )
        self.seen[text_id] = line
        return text_id

    @property
    def split(self) -> str | None:
        return None if self.first is None else self.splits[self.first[1]]

    def check_complete(self) -> None:
        missing = sorted(
            text_id for text_id, of in self.splits.items() if of == self.split and text_id not in self.seen
        )
        if missing:
            raise refused(
                self.path,
                None,
                f"{len(missing):,} text(s) of split {self.split} have no score, the first {missing[0]}:"
                " every text of the split needs one",
            )


class Lines:
    """The lines of a file of scores as text, read one at a time (a file is never held whole): each checked as it is
    read (UTF-8, no NUL; a byte order mark dropped), its bytes added to the file's SHA-256. number is the line last
    read (the first line is 1); row_bytes, the bytes read since the reader set it to 0 at the start of a row, are
    bounded by MAX_LINE_BYTES, as is each line (a 1 GB cell is refused at its first megabyte)."""

    def __init__(self, path: Path, stream: BinaryIO):
        self.path, self.stream = path, stream
        self.sha256 = hashlib.sha256()
        self.number = 0
        self.row_bytes = 0

    def __iter__(self) -> Iterator[str]:
        while data := self.stream.readline(MAX_LINE_BYTES + 1):
            self.number += 1
            self.sha256.update(data)
            self.row_bytes += len(data)
            if self.row_bytes > MAX_LINE_BYTES:
                raise refused(self.path, self.number, f"a row of more than {MAX_LINE_BYTES:,} bytes: too long")
            if self.number == 1 and data.startswith((b"\xff\xfe", b"\xfe\xff")):
                raise refused(self.path, None, "is UTF-16 text: save it as UTF-8")
            try:
                text = data.decode("utf-8-sig" if self.number == 1 else "utf-8")
            except UnicodeDecodeError:
                raise refused(self.path, self.number, "is not UTF-8 text") from None
            if nul := nul_problem(self.path, data):
                raise InputError([Problem(nul.file, self.number, nul.message)])
            yield text


EMPTY = "the file is empty: expected a header text_id,<metric>,… (or JSON Lines)"


def read_scores(path: Path, name: str | None = None, texts: Texts | None = None) -> Scores:
    """The metrics and rows of a file of scores, read a line at a time; with texts, each row's text resolved
    against them as it is read (Texts.resolve), and every text of the split checked at the end. InputError (one
    problem) at the first thing wrong with the file, which is not read any further."""
    with regular_fd(path) as (fd, size), os.fdopen(fd, "rb", closefd=False) as stream:
        if size > MAX_INPUT_BYTES:
            raise refused(path, None, f"more than {MAX_INPUT_BYTES:,} bytes: too big for a file of scores")
        lines = Lines(path, stream)
        read = read_jsonl if path.suffix.lower() == ".jsonl" else read_csv
        try:
            metrics, rows = read(path, lines, name, texts)
        except OSError as error:
            raise refused(path, None, unreadable(path, error)) from None
    if not rows:
        raise refused(path, None, "no scores: the file has a header and no text")
    if texts is not None:
        texts.check_complete()
    return Scores(metrics, rows, lines.sha256.hexdigest(), texts.split if texts is not None else None)


def metric_names(path: Path, line: int, header: list[str], name: str | None) -> list[str]:
    """The metrics of a header (without text_id), on its line: a single column score, or any one column when name
    is given, is the metric name (or the file's stem); else each column is the metric it names."""
    if not header:
        raise refused(path, line, "no metric: expected text_id and at least one column of scores")
    if len(header) > MAX_METRICS:
        raise refused(path, line, f"{len(header):,} metrics: at most {MAX_METRICS:,} a file")
    if name is not None and len(header) > 1:
        raise refused(path, line, f"--name names the metric of a file of one column, and this has {len(header)}")
    metrics = [name if name is not None else path.stem] if header == [SINGLE] or name is not None else header
    seen = set()
    for metric in metrics:
        if wrong := name_problem(metric, "metric"):
            raise refused(path, line, wrong)
        if metric in seen:
            raise refused(path, line, f"the metric {quoted(metric, 60)} is given twice")
        seen.add(metric)
    return metrics


def scored_row(texts: Texts | None, line: int, given: str, values: list[float]) -> tuple[int, str, list[float]]:
    return line, texts.resolve(line, given) if texts is not None else given, values


def records(lines: Lines) -> Iterator[str]:
    """The lines of a CSV file as Python's csv module reads them: a carriage return alone ends a line too."""
    for text in lines:
        if "\r" in text.rstrip("\r\n"):
            yield from io.StringIO(text, newline="")
        else:
            yield text


def read_csv(
    path: Path, lines: Lines, name: str | None, texts: Texts | None
) -> tuple[list[str], list[tuple[int, str, list[float]]]]:
    """The metrics (named by the header) and the rows of a CSV file of scores."""
    reader = csv.reader(records(lines), strict=True)
    try:
        header = next(reader, None)
        if not any(cell.strip() for cell in header or []):  # a blank first line: the file is empty, or has no header
            if header is None or not any(any(cell.strip() for cell in cells) for cells in reader):
                raise refused(path, None, EMPTY)
        text_column = [index for index, cell in enumerate(header) if cell.strip().lower() == "text_id"]
        if len(text_column) != 1:
            problem = "no column text_id" if not text_column else "the column text_id is given twice"
            raise refused(path, 1, f"{problem}: expected a header text_id,<metric>,…")
        (id_at,) = text_column
        columns = header[:id_at] + header[id_at + 1 :]
        metrics = metric_names(path, 1, columns, name)
        rows, line = [], reader.line_num + 1
        lines.row_bytes = 0
        for cells in reader:
            if cells and any(cell.strip() for cell in cells):  # a blank line is skipped
                if len(cells) != len(header):
                    raise refused(path, line, f"{len(cells)} cells, but the header has {len(header)} columns")
                values = [
                    number(path, line, metric, cell)
                    for metric, cell in zip(columns, cells[:id_at] + cells[id_at + 1 :])
                ]
                rows.append(scored_row(texts, line, cells[id_at], values))
            line = reader.line_num + 1
            lines.row_bytes = 0
    except csv.Error as error:
        raise refused(path, reader.line_num, f"not valid CSV: {error}") from None
    return metrics, rows


def number(path: Path, line: int, metric: str, cell: str) -> float:
    """A cell's finite number; a problem naming the metric and the cell otherwise."""
    given = cell.strip()
    if NUMBER.fullmatch(given):
        value = float(given)
        if math.isfinite(value):
            return value
        raise refused(path, line, f"{metric} is {quoted(cell, 40)}, too large to be a finite number")
    if not given:
        raise refused(path, line, f"{metric} is empty: every text needs a number")
    if NOT_FINITE.fullmatch(given):
        raise refused(path, line, f"{metric} is {quoted(cell, 40)}: a score must be a finite number")
    raise refused(path, line, f"{metric} is {quoted(cell, 40)}, not a number")


def read_jsonl(
    path: Path, lines: Lines, name: str | None, texts: Texts | None
) -> tuple[list[str], list[tuple[int, str, list[float]]]]:
    """The metrics (the keys of the first line but text_id) and the rows of a JSON Lines file of scores."""
    keys, metrics, rows = None, [], []
    for content in lines:
        line, lines.row_bytes = lines.number, 0
        if not content.strip():
            continue
        value = json_object(path, line, content)
        if keys is None:
            if "text_id" not in value:
                raise refused(path, line, "no key text_id: each line is an object of text_id and each metric's score")
            keys = [key for key in value if key != "text_id"]
            metrics = metric_names(path, line, keys, name)
        elif list(value) != ["text_id", *keys] and set(value) != {"text_id", *keys}:
            raise refused(
                path,
                line,
                f"the keys are {cut(', '.join(value), 80)}, not those of the first line:"
                f" {cut(', '.join(['text_id', *keys]), 80)}",
            )
        text_id = value["text_id"]
        if not isinstance(text_id, str):
            raise refused(path, line, f"text_id is {quoted(text_id, 40)}, not a string")
        values = [json_number(path, line, key, value[key]) for key in keys]
        rows.append(scored_row(texts, line, text_id, values))
    if keys is None:
        raise refused(path, None, EMPTY)
    return metrics, rows


@dataclass(frozen=True)
class NotFinite:
    """NaN, Infinity or -Infinity as a JSON line gives it (json's parse_constant), told from a number too large."""

    name: str

    def __repr__(self) -> str:
        return self.name


DECODER = json.JSONDecoder(parse_constant=NotFinite)  # made once: json.loads makes a decoder a call when given one


def json_object(path: Path, line: int, content: str) -> dict:
    try:
        value = DECODER.decode(content)
    except (json.JSONDecodeError, RecursionError) as error:
        detail = error.msg if isinstance(error, json.JSONDecodeError) else "nested too deeply"
        raise refused(path, line, f"not valid JSON: {detail}") from None
    except ValueError:  # a number past sys.get_int_max_str_digits(), which json leaves to int()
        raise refused(path, line, "not valid JSON: a number too long to read") from None
    if unstorable := unstorable_text(value, content):
        raise refused(path, line, unstorable)
    if not isinstance(value, dict):
        raise refused(path, line, "not a JSON object")
    return value


def json_number(path: Path, line: int, metric: str, value) -> float:
    """A JSON number as a finite double; a problem naming the key otherwise (an integer or a float beyond a
    double's range is too large)."""
    if isinstance(value, NotFinite):
        raise refused(path, line, f"{metric} is {value}: a score must be a finite number")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise refused(path, line, f"{metric} is {quoted(value, 40)}, not a number")
    try:
        result = float(value)
    except OverflowError:  # an integer of more than 308 digits
        result = math.inf
    if not math.isfinite(result):
        raise refused(path, line, f"{metric} is too large to be a finite number")
    return result


def check_names(con: duckdb.DuckDBPyConnection, score_file: ScoreFile, metrics: list[str], split: str) -> list[str]:
    """The metrics of the names that a load with --replace replaces; NameTaken (one problem) when a name is taken:
    by a submission of the corpus, or another metric of the corpus's split (unless import scores --replace replaces
    a metric of import scores; the built-ins' names are reserved, accuracy_db/names.py)."""
    path = score_file.path
    for metric in metrics:
        if score_file.direction(metric) is None:
            raise refused(path, 1, f"no direction for the metric {quoted(metric, 60)}: is higher better?")
    submissions = con.execute(
        "SELECT DISTINCT name FROM annotation_sets"
        " WHERE kind = 'submission' AND corpus = $corpus AND name = ANY($names) ORDER BY name",
        {"corpus": score_file.corpus, "names": metrics},
    ).fetchall()
    if submissions:
        (taken,) = submissions[0]
        message = f"the metric name {quoted(taken, 60)} is a submission's of corpus {score_file.corpus}: rename it"
        raise NameTaken([Problem(str(path), 1, message)])
    rows = con.execute(
        "SELECT metric, coalesce(source_file, kind), folder_file FROM metrics"
        " WHERE corpus = $corpus AND split = $split AND metric = ANY($names) ORDER BY metric",
        {"corpus": score_file.corpus, "split": split, "names": metrics},
    ).fetchall()
    replaced = []
    for metric, source, folder_file in rows:
        own = score_file.folder_file is not None and folder_file == score_file.folder_file
        # import scores --replace replaces what import scores loaded; a file of the scores folder has no --replace,
        # and replaces only what it loaded itself (its metric replaced, it would be left loading nothing)
        replaceable = score_file.folder_file is None and folder_file is None
        if not (own or (score_file.replace and replaceable)):
            remedy = "give --replace to replace it, or rename it" if replaceable else "rename it"
            message = f"the metric {quoted(metric, 60)} of split {split} is loaded already (from {source}): {remedy}"
            raise NameTaken([Problem(str(path), 1, message)])
        replaced.append(metric)
    return replaced


def load_score_file(con: duckdb.DuckDBPyConnection, score_file: ScoreFile) -> LoadedScores:
    """Read, check and load a file of scores, in one transaction: its metrics replace those of the same names in
    the split (see check_names). InputError (one problem, nothing written) when refused."""
    scores = read_scores(score_file.path, score_file.name, Texts.of(con, score_file.path, score_file.corpus))
    split, text_ids = scores.split, [text_id for _, text_id, _ in scores.rows]
    replaced = check_names(con, score_file, scores.metrics, split)
    columns = {str(index): [row[2][index] for row in scores.rows] for index in range(len(scores.metrics))}
    frame = pl.DataFrame(
        {"text_id": text_ids, **columns}, schema={"text_id": pl.String, **dict.fromkeys(columns, pl.Float64)}
    )
    metric_rows = pl.DataFrame(
        {
            "position": list(map(str, range(len(scores.metrics)))),
            "metric": scores.metrics,
            "higher_is_better": [score_file.direction(metric) for metric in scores.metrics],
        },
        schema={"position": pl.String, "metric": pl.String, "higher_is_better": pl.Boolean},
    )
    parameters = {
        "corpus": score_file.corpus,
        "split": split,
        "description": score_file.description,
        "source": str(score_file.path),
        "folder": score_file.folder_file,
        "sha256": scores.sha256,
    }
    create_temp_table(con, "metric_rows", metric_rows)
    create_temp_table(con, "score_rows", frame)
    con.begin()
    try:
        forget_metrics(con, score_file.corpus, split, scores.metrics)
        if score_file.folder_file is not None:  # what the file gave before, whatever its metrics' names were
            forget_folder_file(con, score_file.folder_file)
        con.execute(
            "INSERT INTO metrics (corpus, split, metric, kind, higher_is_better, description, source_file, folder_file,"
            " sha256) SELECT $corpus, $split, metric, 'import', higher_is_better, $description, $source, $folder,"
            " $sha256 FROM metric_rows",
            parameters,
        )
        # the columns are named by position (a metric's name may be anything the rule of names allows)
        con.execute(
            "INSERT INTO text_scores SELECT $corpus, metric_rows.metric, scores.text_id, $split, scores.score"
            " FROM (UNPIVOT score_rows ON COLUMNS(* EXCLUDE (text_id)) INTO NAME position VALUE score) AS scores"
            " JOIN metric_rows USING (position)",
            {"corpus": score_file.corpus, "split": split},
        )
        con.commit()
    except BaseException:
        con.rollback()
        raise
    finally:
        con.execute("DROP TABLE metric_rows; DROP TABLE score_rows")
    return LoadedScores(score_file.corpus, split, scores.metrics, len(text_ids), replaced)


def forget_metrics(con: duckdb.DuckDBPyConnection, corpus: str, split: str, metrics: list[str]) -> None:
    """Remove the named imported metrics of a corpus's split and their scores."""
    parameters = {"corpus": corpus, "split": split, "names": metrics}
    con.execute(
        "DELETE FROM text_scores WHERE corpus = $corpus AND split = $split AND metric = ANY($names)", parameters
    )
    con.execute(
        "DELETE FROM metrics WHERE kind = 'import' AND corpus = $corpus AND split = $split AND metric = ANY($names)",
        parameters,
    )


def forget_folder_file(con: duckdb.DuckDBPyConnection, folder_file: str) -> None:
    """Remove the metrics a file of the scores folder loaded, and their scores."""
    con.execute(
        "DELETE FROM text_scores USING metrics WHERE metrics.folder_file = $file"
        " AND text_scores.corpus = metrics.corpus AND text_scores.split = metrics.split"
        " AND text_scores.metric = metrics.metric",
        {"file": folder_file},
    )
    con.execute("DELETE FROM metrics WHERE folder_file = $file", {"file": folder_file})


SCORE_SIDECAR_KEYS = ("higher_is_better", "description", "corpus")


def read_score_sidecar(path: Path) -> dict:
    """What a scores file's sidecar NAME.json says: higher_is_better (true or false for every metric of the file, or
    an object giving each metric's), description (a text) and corpus (default shared-task); InputError (one problem)
    when it is not such an object."""
    text = read_text(path, SIDECAR_BYTES, "sidecar")
    try:
        value = json.loads(text)
    except (json.JSONDecodeError, RecursionError, ValueError):
        raise refused(path, None, "not valid JSON: expected an object of higher_is_better and description") from None
    if not isinstance(value, dict):
        raise refused(path, None, f"expected an object with the keys {', '.join(SCORE_SIDECAR_KEYS)}")
    unknown = [key for key in value if key not in SCORE_SIDECAR_KEYS]
    if unknown:
        raise refused(path, None, f"unknown key {quoted(unknown[0], 60)}: the keys are {', '.join(SCORE_SIDECAR_KEYS)}")
    direction = value.get("higher_is_better")
    by_metric = isinstance(direction, dict) and all(isinstance(flag, bool) for flag in direction.values())
    if not (isinstance(direction, bool) or by_metric):
        raise refused(
            path,
            None,
            f"higher_is_better is {quoted(direction, 60)}: true or false (or an object of each metric's true or false)",
        )
    for key in ("description", "corpus"):
        if value.get(key) is not None and not isinstance(value[key], str):
            raise refused(path, None, f"{key} is {quoted(value[key], 60)}, not a text")
    if unstorable := unstorable_text(value, text):
        raise refused(path, None, unstorable)
    if wrong := name_problem(value.get("corpus", "shared-task"), "corpus"):
        raise refused(path, None, wrong)
    return value
