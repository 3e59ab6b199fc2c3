"""Read a file of text-level scores, one number a text for one or more metrics, and load it into metrics and
text_scores.

A file is CSV or JSON Lines (by its suffix, .jsonl; anything else is read as CSV). In CSV, the header names the
columns: text_id (in any case) and one column a metric, named by its header; a file of the single column score
(text_id,score) is one metric named by --name or the file's stem, as is any file of one metric when --name is given.
In JSON Lines, each line is an object with the same keys: text_id (a string) and each metric's number. A text id is
given as the texts are named (S001 or S001.txt in the shared task; a corpus's own ids), every text of one split of
the corpus once, with a finite number for each metric.

A file is loaded whole or not at all: the first thing wrong with it is refused in one line naming the file and the
line (InputError with one problem), before anything is written.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

import duckdb
import polars as pl

from accuracy_db.errors import InputError, Problem, quoted
from accuracy_db.names import name_problem
from accuracy_db.regular_files import decode, read_bytes, read_text

from .frames import create_temp_table
from .mistake_lists import csv_fields_up_to
from .sidecars import SIDECAR_BYTES
from .unstorable_text import unstorable_text

MAX_METRICS = 1000  # columns of one file: more than any table of metrics has, and few enough to check each name
SINGLE = "score"  # the column of a file of one metric named by --name or its stem
NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")  # decimal, as CSV writers write floats
NOT_FINITE = re.compile(r"[+-]?(nan|inf|infinity)", re.IGNORECASE)


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
    """What a file gives: its metrics, and each row's line, text id as given and numbers (in metric order)."""

    metrics: list[str]
    rows: list[tuple[int, str, list[float]]]
    sha256: str


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


def read_scores(path: Path, name: str | None = None) -> Scores:
    """The metrics and rows of a file of scores; InputError (one problem) at the first thing wrong with it."""
    data = read_bytes(path, what="file of scores")
    text = decode(path, data)
    if not text.strip():
        raise refused(path, None, "the file is empty: expected a header text_id,<metric>,… (or JSON Lines)")
    header, rows = read_jsonl(path, text) if path.suffix.lower() == ".jsonl" else read_csv(path, text)
    metrics = metric_names(path, header, name)
    if not rows:
        raise refused(path, None, "no scores: the file has a header and no text")
    return Scores(metrics, rows, hashlib.sha256(data).hexdigest())


def metric_names(path: Path, header: list[str], name: str | None) -> list[str]:
    """The metrics of a header (without text_id): a single column score, or any one column when name is given, is
    the metric name (or the file's stem); else each column is the metric it names."""
    if not header:
        raise refused(path, 1, "no metric: expected text_id and at least one column of scores")
    if len(header) > MAX_METRICS:
        raise refused(path, 1, f"{len(header):,} metrics: at most {MAX_METRICS:,} a file")
    if name is not None and len(header) > 1:
        raise refused(path, 1, f"--name names the metric of a file of one column, and this has {len(header)}")
    metrics = [name if name is not None else path.stem] if header == [SINGLE] or name is not None else header
    seen = set()
    for metric in metrics:
        if wrong := name_problem(metric, "metric"):
            raise refused(path, 1, wrong)
        if metric in seen:
            raise refused(path, 1, f"the metric {quoted(metric, 60)} is given twice")
        seen.add(metric)
    return metrics


def read_csv(path: Path, text: str) -> tuple[list[str], list[tuple[int, str, list[float]]]]:
    """The header (the metric columns) and the rows of a CSV file of scores."""
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        with csv_fields_up_to(len(text)):
            header = next(reader)
            text_column = [index for index, cell in enumerate(header) if cell.strip().lower() == "text_id"]
            if len(text_column) != 1:
                problem = "no column text_id" if not text_column else "the column text_id is given twice"
                raise refused(path, 1, f"{problem}: expected a header text_id,<metric>,…")
            (id_at,) = text_column
            metrics = header[:id_at] + header[id_at + 1 :]
            rows, line = [], reader.line_num + 1
            for cells in reader:
                if cells and any(cell.strip() for cell in cells):  # a blank line is skipped
                    if len(cells) != len(header):
                        raise refused(path, line, f"{len(cells)} cells, but the header has {len(header)} columns")
                    values = [
                        number(path, line, metric, cell)
                        for metric, cell in zip(metrics, cells[:id_at] + cells[id_at + 1 :])
                    ]
                    rows.append((line, cells[id_at], values))
                line = reader.line_num + 1
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


def read_jsonl(path: Path, text: str) -> tuple[list[str], list[tuple[int, str, list[float]]]]:
    """The keys of the first line but text_id (the metrics) and the rows of a JSON Lines file of scores."""
    keys, rows = None, []
    for line, content in enumerate(text.split("\n"), start=1):
        if not content.strip():
            continue
        value = json_object(path, line, content)
        if keys is None:
            if "text_id" not in value:
                raise refused(path, line, "no key text_id: each line is an object of text_id and each metric's score")
            keys = [key for key in value if key != "text_id"]
        elif list(value) != ["text_id", *keys] and set(value) != {"text_id", *keys}:
            first = ", ".join(["text_id", *keys])
            raise refused(
                path,
                line,
                f"the keys are {', '.join(map(str, value))[:200]}, not those of the first line: {first[:200]}",
            )
        text_id = value["text_id"]
        if not isinstance(text_id, str):
            raise refused(path, line, f"text_id is {quoted(text_id, 40)}, not a string")
        rows.append((line, text_id, [json_number(path, line, key, value[key]) for key in keys]))
    return keys or [], rows


def json_object(path: Path, line: int, content: str) -> dict:
    try:
        value = json.loads(content)
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
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise refused(path, line, f"{metric} is {quoted(value, 40)}, not a number")
    if not math.isfinite(value):  # json reads NaN and Infinity
        raise refused(path, line, f"{metric} is {value}: a score must be a finite number")
    result = float(value)  # an integer beyond a double's range
    if not math.isfinite(result):
        raise refused(path, line, f"{metric} is too large to be a finite number")
    return result


def resolve(con: duckdb.DuckDBPyConnection, score_file: ScoreFile, scores: Scores) -> tuple[str, list[str]]:
    """The split of the file's texts and their ids as the database has them, row by row: every text of one split
    of the corpus, each once; InputError (one problem) otherwise."""
    path = score_file.path
    splits = dict(con.execute("SELECT text_id, split FROM texts WHERE corpus = ?", [score_file.corpus]).fetchall())
    if not splits:
        raise refused(path, None, f"the corpus {quoted(score_file.corpus, 60)} has no texts")
    ids, seen, split = [], {}, None
    for line, given, _ in scores.rows:
        text_id = given if given in splits else given.removesuffix(".txt")
        if text_id not in splits:
            raise refused(path, line, f"text_id {quoted(given, 60)} is not a text of corpus {score_file.corpus}")
        if text_id in seen:
            raise refused(path, line, f"{text_id} is given again (first on line {seen[text_id]})")
        if split is None:
            split, first = splits[text_id], (line, text_id)
        elif splits[text_id] != split:
            raise refused(
                path,
                line,
                f"{text_id} is a text of split {splits[text_id]}, but {first[1]} (line {first[0]}) of split {split}:"
                " a file scores the texts of one split",
            )
        seen[text_id] = line
        ids.append(text_id)
    missing = sorted(text_id for text_id, of in splits.items() if of == split and text_id not in seen)
    if missing:
        raise refused(
            path,
            None,
            f"{len(missing):,} text(s) of split {split} have no score, the first {missing[0]}:"
            " every text of the split needs one",
        )
    return split, ids


def check_names(con: duckdb.DuckDBPyConnection, score_file: ScoreFile, metrics: list[str], split: str) -> list[str]:
    """The metrics of the names that a load with --replace replaces; InputError (one problem) when a name is taken:
    by a submission of the corpus, or (unless replaced) another metric of the corpus's split (the built-ins' names
    are reserved, accuracy_db/names.py)."""
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
        raise refused(
            path, 1, f"the metric name {quoted(taken, 60)} is a submission's of corpus {score_file.corpus}: rename it"
        )
    rows = con.execute(
        "SELECT metric, coalesce(source_file, kind), folder_file FROM metrics"
        " WHERE corpus = $corpus AND split = $split AND metric = ANY($names) ORDER BY metric",
        {"corpus": score_file.corpus, "split": split, "names": metrics},
    ).fetchall()
    replaced = []
    for metric, source, folder_file in rows:
        own = score_file.folder_file is not None and folder_file == score_file.folder_file
        if not (own or (score_file.replace and score_file.folder_file is None)):
            raise refused(
                path,
                1,
                f"the metric {quoted(metric, 60)} of split {split} is loaded already (from {source}):"
                " give --replace to replace it, or rename it",
            )
        replaced.append(metric)
    return replaced


def load_score_file(
    con: duckdb.DuckDBPyConnection, score_file: ScoreFile, scores: Scores | None = None
) -> LoadedScores:
    """Read (unless read already), check and load a file of scores, in one transaction: its metrics replace those
    of the same names in the split (see check_names). InputError (one problem, nothing written) when refused."""
    scores = scores or read_scores(score_file.path, score_file.name)
    split, text_ids = resolve(con, score_file, scores)
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
