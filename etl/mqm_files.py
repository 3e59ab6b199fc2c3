"""Read Google's MQM TSV (google/wmt-mqm-human-evaluation), and load it as the gold list of a new corpus or as a
submission of one.

A file is tab-separated, unquoted, UTF-8, with a header naming its columns: system, doc, seg_id, rater, source,
target, category, severity (doc_id and any other column are read past, as mt-metrics-eval's score_mqm.py reads
them by name). A row is one error of one rater on one target: the error's span is marked <v>…</v> in the target, or
in the source (an omission, a source error), or nowhere (a Non-translation! of the whole segment); an item without
an error has a row of severity No-error. Severities are Major, Minor, Critical, Neutral and No-error, in any case.

A gold file makes a new corpus: a text per (system, doc, seg_id) target with the markers removed (its split
DEFAULT_SPLIT), the source as its input (texts.source_data {"source": …}, the same for every system's text of a
segment), its system (text_systems, human references flagged), its categories as given (Accuracy/Mistranslation:
the level names joined by /; queries/staging/category_levels.sql splits them), and two kinds of list: the gold list,
every rater's errors in the targets, and a submission rater/NAME of each rater's. Every error, wherever its span,
and every item a rater rated are kept beside (mqm_errors, mqm_ratings): they make the MQM score
(queries/marts/mqm_segments.sql). An error in the target is also a span of the list (mistakes, with its severity),
widened to whole tokens as every character span is (etl/char_spans.py); one in the source or without a span is not:
a list's spans are spans of its texts. A file loaded as a submission names texts of its corpus by (system, doc,
seg_id), with their targets as the corpus has them; its errors and ratings are kept the same way.

Refused, nothing loaded, one line a kind of problem with its count and first line: a file that is not UTF-8 or has
no header, a header without a required column or naming one twice, a row with another number of fields than the
header (trailing empty fields aside), an empty system, doc, seg_id or rater, a name that is not one line of visible
text, markers that are not one <v>…</v> pair, markers in both the source and the target, an unknown severity, an
error with no category, a target (or source) that differs between the rows of one item (or segment), and, for a
submission, an item that is not a text of the corpus.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import polars as pl

from accuracy_db.errors import AccuracyDbError, InputError, Problem, quoted
from accuracy_db.names import MAX_CATEGORIES, name_problem, too_many_categories
from accuracy_db.regular_files import read_bytes

from .char_spans import TokenIndex
from .corpus_texts import Category, CorpusText, create_corpus, held_texts, insert_texts
from .frames import insert_rows
from .span_lists import ImportReport, NewList, Record, Span, insert_lists

DEFAULT_SPLIT = "test"
REQUIRED = ("system", "doc", "seg_id", "rater", "source", "target", "category", "severity")
SEVERITIES = ("major", "minor", "critical", "neutral")
NO_ERROR = "no-error"
OPEN, CLOSE = "<v>", "</v>"
# The names the repository gives its human references: ref, refA, ref-B, ref.A (TED), Human-A, Human-B.0 (2020).
HUMAN = re.compile(r"(?i)^(ref|human)([-._ ]?[a-z])?(\.\d+)?$")


def is_human(system: str) -> bool:
    return HUMAN.match(system) is not None


@dataclass
class Error:
    line: int
    category: str
    severity: str
    side: str  # target, source or none
    span: tuple[int, int] | None
    index: int = 0  # its place among its line's errors (an MQM row has one; a task-2 row or a JSON line several)


@dataclass
class Item:
    """One target of one system: its text, its input, and each rater's errors (a rater with no error has none)."""

    line: int
    system: str
    doc: str
    seg_id: str
    source: str
    target: str
    raters: dict[str, int] = field(default_factory=dict)  # rater -> first line
    errors: dict[str, list[Error]] = field(default_factory=dict)  # rater -> errors


@dataclass
class MqmFile:
    path: Path
    sha256: str
    items: list[Item]
    warnings: list[Problem] = field(default_factory=list)  # what was read all the same


class Problems:
    """The problems of a file, one line a kind: its first occurrence, with how many more lines have it."""

    def __init__(self, path: Path):
        self.path = path
        self.kinds: dict[str, list] = {}

    def add(self, kind: str, line: int | None, message: str) -> None:
        found = self.kinds.setdefault(kind, [line, message, 0])
        found[2] += 1

    def raise_any(self) -> None:
        if self.kinds:
            raise InputError(
                [
                    Problem(
                        str(self.path),
                        line,
                        message + (f" (and {count - 1} more line(s) like it)" if count > 1 else ""),
                    )
                    for line, message, count in self.kinds.values()
                ]
            )


def unmarked(text: str) -> tuple[str, tuple[int, int] | None, bool] | None:
    """The text without its <v>…</v> markers, the span they enclosed (offsets in the text without them), and whether
    a marker was missing: a <v> never closed runs to the end of the text, a </v> never opened from its start (a real
    file has one, which the repository's own scores count). None when the markers are not one pair in order."""
    opens, closes = text.count(OPEN), text.count(CLOSE)
    if opens == closes == 0:
        return text, None, False
    if opens > 1 or closes > 1 or (opens == closes == 1 and text.index(OPEN) > text.index(CLOSE)):
        return None
    start = text.index(OPEN) if opens else 0
    clean = text.replace(OPEN, "", 1).replace(CLOSE, "", 1)
    end = text.index(CLOSE) - len(OPEN) * opens if closes else len(clean)
    return clean, (start, end), opens != closes


def header_columns(header: list[str], problems: Problems) -> dict[str, int] | None:
    repeated = sorted(name for name, count in Counter(header).items() if count > 1 and name in REQUIRED)
    missing = [name for name in REQUIRED if name not in header]
    if missing:
        problems.add("header", 1, f"the header has no column {', '.join(missing)}: expected {' '.join(REQUIRED)}")
        return None
    if repeated:
        problems.add("header", 1, f"the header names {', '.join(repeated)} twice")
        return None
    return {name: header.index(name) for name in REQUIRED}


def decoded(path: Path) -> tuple[bytes, str, Problems]:
    """A file's bytes, its text (a byte order mark dropped), and its Problems; InputError when it is not UTF-8."""
    data = read_bytes(path)
    problems = Problems(path)
    try:
        return data, data.decode("utf-8-sig"), problems
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        problems.add("utf8", line, "the file is not UTF-8 text")
        problems.raise_any()
        raise  # unreachable: raise_any raised


def read_rated(path: Path, targets: dict[tuple[str, str, str], str] | None = None) -> MqmFile:
    """A rating in any of the formats read as an MQM file, told by its first line: a WMT25 task-2 TSV (a header
    with start_indices, end_indices, error_types: etl/wmt_task2.py), a JSON Lines file of predicted spans (a line
    opening with { or [: etl/predicted_spans.py), or else Google's MQM TSV. targets: the texts of the corpus a
    submission rates, by (system, doc, seg_id) (None: a gold file)."""
    from . import predicted_spans, wmt_task2  # they build on this module's items

    first = read_bytes(path)[:65536].decode("utf-8-sig", errors="replace").split("\n", 1)[0]
    if wmt_task2.is_task2(first):
        return wmt_task2.read_file(path, targets)
    if first.lstrip()[:1] in ("{", "["):
        return predicted_spans.read_file(path, targets)
    return read_file(path)


def read_file(path: Path) -> MqmFile:
    """Every item of an MQM file, in the order of their first lines; InputError listing the problems by kind."""
    data, text, problems = decoded(path)
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines:
        problems.add("empty", None, f"the file is empty: expected a header ({' '.join(REQUIRED)}) and rows")
        problems.raise_any()
    header = lines[0].rstrip("\r").split("\t")
    columns = header_columns(header, problems)
    problems.raise_any()
    items: dict[tuple[str, str, str], Item] = {}
    unclosed: list[str] = []  # where a marker of a pair is missing
    sources: dict[tuple[str, str], tuple[int, str]] = {}
    for number, raw in enumerate(lines[1:], start=2):
        fields = raw.rstrip("\r").split("\t")
        if len(fields) > len(header) and not any(fields[len(header) :]):
            fields = fields[: len(header)]
        if len(fields) != len(header):
            problems.add(f"fields {len(fields)}", number, f"{len(fields)} field(s) where the header has {len(header)}")
            continue
        row = {name: fields[index] for name, index in columns.items()}
        row_problem = check_row(row)
        if row_problem:
            problems.add(row_problem[0], number, row_problem[1])
            continue
        target, source = unmarked(row["target"]), unmarked(row["source"])
        if target is None or source is None:
            side = "target" if target is None else "source"
            problems.add("markers", number, f"the {side}'s <v>…</v> markers are not one pair, opened then closed")
            continue
        if target[2] or source[2]:
            side = "target" if target[2] else "source"
            unclosed.append(f"line {number}'s {side}")
        if target[1] is not None and source[1] is not None:
            problems.add("both", number, "both the source and the target have <v>…</v> markers: one error has one span")
            continue
        key = (row["system"], row["doc"], row["seg_id"])
        item = items.get(key)
        if item is None:
            item = items[key] = Item(number, *key, source[0], target[0])
        elif item.target != target[0]:
            problems.add(
                "target", number, f"the target differs from line {item.line}'s, of the same system, doc and seg_id"
            )
            continue
        first = sources.setdefault(key[1:], (number, source[0]))
        if first[1] != source[0]:
            problems.add("source", number, f"the source differs from line {first[0]}'s, of the same doc and seg_id")
            continue
        rater = row["rater"]
        item.raters.setdefault(rater, number)
        errors = item.errors.setdefault(rater, [])
        if NO_ERROR not in (row["severity"].lower(), row["category"].lower()):
            side = "target" if target[1] is not None else "source" if source[1] is not None else "none"
            span = target[1] if target[1] is not None else source[1]
            errors.append(Error(number, row["category"], row["severity"], side, span))
    if not items and not problems.kinds:
        problems.add("empty", None, "the file has a header but no row")
    problems.raise_any()
    warnings = []
    if unclosed:
        warnings.append(
            Problem(
                str(path),
                None,
                f"{len(unclosed)} span(s) with a <v> or </v> missing, read as running to the end (or from the start)"
                f" of their text: {', '.join(unclosed[:3])}" + (" …" if len(unclosed) > 3 else ""),
            )
        )
    return MqmFile(path, hashlib.sha256(data).hexdigest(), list(items.values()), warnings)


@functools.lru_cache(maxsize=1 << 16)
def cell_name_problem(name: str, kind: str) -> str | None:
    """name_problem of a system, rater or category cell: a file repeats a few of each on every row (at a million
    rows, checking each cell anew took a quarter of an import's time)."""
    return name_problem(name, kind)


def check_row(row: dict[str, str]) -> tuple[str, str] | None:
    """(kind, message) of what is wrong with a row's cells; None when nothing is."""
    for name in ("system", "doc", "seg_id", "rater"):
        if not row[name]:
            return f"empty {name}", f"{name} is empty"
    for name, kind in (("system", "system"), ("rater", "annotator")):
        wrong = cell_name_problem(row[name], kind)
        if wrong:
            return f"name {name}", wrong
    severity = row["severity"].lower()
    if severity != NO_ERROR and row["category"].lower() != NO_ERROR:
        if severity not in SEVERITIES:
            return (
                "severity",
                f"the severity {quoted(row['severity'], 40)} is not Major, Minor, Critical, Neutral or No-error",
            )
        if not row["category"]:
            return "category", "the error has no category"
        wrong = cell_name_problem(row["category"], "category")
        if wrong:
            return "name category", wrong
    return None


def text_id(corpus: str, item: Item) -> str:
    return f"{corpus}/{item.system}/{item.doc}/{item.seg_id}"


def categories_of(mqm: MqmFile) -> list[Category]:
    """The file's error categories, by top level then name."""
    names = sorted(
        {error.category for item in mqm.items for errors in item.errors.values() for error in errors},
        key=lambda name: (name.split("/")[0].casefold(), name.casefold(), name),
    )
    return [Category(name, f"MQM error category {name}", None) for name in names]


@dataclass
class Loaded:
    """What a file gives a corpus whose texts are known: each item's text id and token index, and each item's target
    errors, with their raters, each placed on the item's tokens once (the gold list and its rater's list share it)."""

    mqm: MqmFile
    text_ids: list[str]
    indexes: dict[str, TokenIndex]
    spans: list[list[tuple[str, Error, Span]]] = field(init=False)

    def __post_init__(self) -> None:
        self.spans = [spans_of(self, index) for index in range(len(self.mqm.items))]


def spans_of(loaded: Loaded, index: int) -> list[tuple[str, Error, Span]]:
    """The target errors of an item, each with its rater and its span placed on the item's tokens; an error whose
    marked characters are only white space or empty is left out (it stays in mqm_errors)."""
    item, text = loaded.mqm.items[index], loaded.text_ids[index]
    token_index = loaded.indexes[text]
    path = str(loaded.mqm.path)
    spans = []
    for rater, errors in item.errors.items():
        for error in errors:
            if error.side != "target":
                continue
            start, end = error.span
            given = token_index.text[start:end]
            placed = token_index.locate(start, given)
            if not isinstance(placed, str):
                span = Span(path, error.line, start, given, error.category, None, placed, None, error.severity)
                spans.append((rater, error, span))
    return spans


def new_list(loaded: Loaded, kind: str, name: str, rater: str | None) -> tuple[NewList, list[tuple[int, int]]]:
    """The list of the rater named (None: of all, the gold): a rater's covers the items it rated alone (list_texts),
    and is one person's (annotation_sets.annotator); with the (line, index) of the error each of its spans is, in
    the order of the spans (their mistake ids')."""
    records, placed = [], []
    for item, text, spans in zip(loaded.mqm.items, loaded.text_ids, loaded.spans, strict=True):
        if rater is not None and rater not in item.raters:
            continue
        kept = [(error, span) for by, error, span in spans if rater is None or by == rater]
        placed += [(error.line, error.index) for error, _ in kept]
        records.append(
            Record(
                str(loaded.mqm.path),
                item.line,
                text,
                DEFAULT_SPLIT,
                loaded.indexes[text].text,
                "",
                [span for _, span in kept],
            )
        )
    if rater is None:
        return NewList(kind, name, DEFAULT_SPLIT, records), placed
    texts = [record.text_id for record in records]
    return NewList(kind, name, DEFAULT_SPLIT, records, texts, rater), placed


def insert_ratings(
    con: duckdb.DuckDBPyConnection,
    set_id: int,
    loaded: Loaded,
    placed: list[tuple[int, int]],
    rater_sets: dict[str, int] | None = None,
) -> None:
    """The list's rated items and errors (mqm_ratings, mqm_errors; every rater's), each error linked to the span it
    became (placed: the (line, index) of the error of each of the list's spans, in order). rater_sets: the list of
    each rater of a gold file, given the gold's items and errors of its rater, each error linked to the span of the
    rater's list it became: the rater's spans are the gold's of the rater, in the same order."""
    mistake_ids = [
        row[0]
        for row in con.execute(
            "SELECT mistake_id FROM mistakes WHERE set_id = ? ORDER BY mistake_id", [set_id]
        ).fetchall()
    ]
    span_of = dict(zip(placed, mistake_ids, strict=True))
    ratings, errors = [], []
    for item, text in zip(loaded.mqm.items, loaded.text_ids, strict=True):
        for rater, line in item.raters.items():
            ratings.append((set_id, text, rater, line))
            for error in item.errors[rater]:
                start, end = error.span if error.span is not None else (None, None)
                errors.append(
                    (
                        set_id,
                        text,
                        rater,
                        error.line,
                        error.index,
                        error.category,
                        error.severity,
                        error.side,
                        start,
                        end,
                        span_of.get((error.line, error.index)),
                    )
                )
    insert_rows(
        con,
        "mqm_ratings",
        ratings,
        {"set_id": pl.Int32, "text_id": pl.String, "rater": pl.String, "line_number": pl.Int32},
    )
    insert_rows(
        con,
        "mqm_errors",
        errors,
        {
            "set_id": pl.Int32,
            "text_id": pl.String,
            "rater": pl.String,
            "line_number": pl.Int32,
            "error_index": pl.Int32,
            "category": pl.String,
            "severity": pl.String,
            "side": pl.String,
            "char_start": pl.Int32,
            "char_end": pl.Int32,
            "mistake_id": pl.Int64,
        },
    )
    if not rater_sets:
        return
    raters = {"gold": set_id, "raters": list(rater_sets), "sets": list(rater_sets.values())}
    con.execute(
        """
        INSERT INTO mqm_ratings
        SELECT lists.set_id, gold.text_id, gold.rater, gold.line_number
        FROM mqm_ratings AS gold
        JOIN (SELECT unnest($raters) AS rater, unnest($sets) AS set_id) AS lists USING (rater)
        WHERE gold.set_id = $gold
        ORDER BY lists.set_id, gold.line_number
        """,
        raters,
    )
    # the n-th span of a rater's list is the n-th of the gold's spans of that rater
    con.execute(
        """
        INSERT INTO mqm_errors
        WITH gold_spans AS (
            SELECT mistake_id, row_number() OVER (PARTITION BY rater ORDER BY mistake_id) AS number
            FROM mqm_errors
            WHERE set_id = $gold AND mistake_id IS NOT NULL
        ),
        rater_spans AS (
            SELECT set_id, mistake_id, row_number() OVER (PARTITION BY set_id ORDER BY mistake_id) AS number
            FROM mistakes
            WHERE set_id = ANY($sets)
        )
        SELECT lists.set_id, gold.text_id, gold.rater, gold.line_number, gold.error_index, gold.category,
            gold.severity, gold.side, gold.char_start, gold.char_end, rater_spans.mistake_id
        FROM mqm_errors AS gold
        JOIN (SELECT unnest($raters) AS rater, unnest($sets) AS set_id) AS lists USING (rater)
        LEFT JOIN gold_spans USING (mistake_id)
        LEFT JOIN rater_spans ON rater_spans.set_id = lists.set_id AND rater_spans.number = gold_spans.number
        WHERE gold.set_id = $gold
        ORDER BY lists.set_id, gold.line_number, gold.error_index
        """,
        raters,
    )


def load_gold(con: duckdb.DuckDBPyConnection, path: Path, corpus: str, humans: list[str] | None = None) -> ImportReport:
    """A file as a new corpus: its texts, systems, categories, gold list and a list per rater. humans: the systems
    that are human references (None: those named like one, HUMAN)."""
    wrong = name_problem(corpus, "corpus")
    if wrong:
        raise InputError([Problem(str(path), None, wrong)])
    if con.execute("SELECT 1 FROM corpora WHERE corpus = ?", [corpus]).fetchall():
        raise AccuracyDbError(f"corpus {corpus} exists already: give another --corpus")
    mqm = read_rated(path)
    categories = categories_of(mqm)
    if len(categories) > MAX_CATEGORIES:
        raise InputError([Problem(str(path), None, too_many_categories(len(categories)))])
    text_ids = [text_id(corpus, item) for item in mqm.items]
    first_of: dict[str, Item] = {}
    for item, text in zip(mqm.items, text_ids, strict=True):
        first = first_of.setdefault(text, item)
        if first is not item:
            message = f"the text id {text} is line {first.line}'s too: a / in a system or doc makes them one"
            raise InputError([Problem(str(path), item.line, message)])
    taken = held_texts(con, text_ids)
    if taken:
        first = next(iter(taken))
        line = mqm.items[text_ids.index(first)].line
        raise InputError([Problem(str(path), line, f"text id {first} is a text of {taken[first]} already")])
    report = ImportReport(corpus, warnings=list(mqm.warnings))
    create_corpus(con, corpus, f"MQM file {path.name}", str(path), categories)
    texts = [
        CorpusText(text, DEFAULT_SPLIT, item.target, json.dumps({"source": item.source}, ensure_ascii=False))
        for item, text in zip(mqm.items, text_ids, strict=True)
    ]
    insert_texts(con, corpus, texts)
    report.texts_added = len(texts)
    insert_rows(
        con,
        "text_systems",
        [
            (
                text,
                item.system,
                item.system in humans if humans is not None else is_human(item.system),
                item.doc,
                item.seg_id,
            )
            for item, text in zip(mqm.items, text_ids, strict=True)
        ],
        {"text_id": pl.String, "system": pl.String, "human": pl.Boolean, "doc": pl.String, "seg_id": pl.String},
    )
    loaded = Loaded(mqm, text_ids, {text.text_id: TokenIndex(text.text) for text in texts})
    raters = sorted({rater for item in mqm.items for rater in item.raters})
    gold, placed = new_list(loaded, "gold", "gold", None)
    made = [gold, *(new_list(loaded, "submission", f"rater/{rater}", rater)[0] for rater in raters)]
    set_ids = insert_lists(con, path, mqm.sha256, corpus, made, report)
    insert_ratings(con, set_ids[0], loaded, placed, dict(zip(raters, set_ids[1:], strict=True)))
    unknown = [system for system in humans or [] if system not in {item.system for item in mqm.items}]
    if unknown:
        report.warnings.append(Problem(str(path), None, f"--human names no system of the file: {', '.join(unknown)}"))
    return report


def load_submission(con: duckdb.DuckDBPyConnection, path: Path, corpus: str, name: str) -> ImportReport:
    """A file rating texts of a corpus loaded from an MQM file, as a submission named name."""
    wrong = name_problem(name, "list")
    if wrong:
        raise InputError([Problem(str(path), None, wrong)])
    if not con.execute(
        "SELECT 1 FROM annotation_sets JOIN mqm_ratings USING (set_id) WHERE corpus = ? AND kind = 'gold' LIMIT 1",
        [corpus],
    ).fetchall():
        raise AccuracyDbError(f"corpus {corpus} has no MQM gold file: import one first (--as gold)")
    if con.execute(
        "SELECT 1 FROM annotation_sets WHERE corpus = ? AND kind = 'submission' AND name = ?", [corpus, name]
    ).fetchall():
        raise AccuracyDbError(f"corpus {corpus} has a submission {name} already: give another --name")
    corpus_texts = con.execute(
        "SELECT text_id, system, doc, seg_id, generated_text FROM texts JOIN text_systems USING (text_id)"
        " WHERE corpus = ?",
        [corpus],
    ).fetchall()
    known = {text: target for text, *_, target in corpus_texts}
    mqm = read_rated(path, {(system, doc, seg_id): target for _, system, doc, seg_id, target in corpus_texts})
    problems = Problems(path)
    text_ids = [text_id(corpus, item) for item in mqm.items]
    for item, text in zip(mqm.items, text_ids, strict=True):
        if text not in known:
            problems.add("unknown", item.line, f"no text of corpus {corpus} has system, doc and seg_id {text}")
        elif known[text] != item.target:
            problems.add("differs", item.line, f"the target differs from the text {text} of corpus {corpus}")
    problems.raise_any()
    report = ImportReport(corpus, warnings=list(mqm.warnings))
    loaded = Loaded(mqm, text_ids, {text: TokenIndex(known[text]) for text in text_ids})
    new, placed = new_list(loaded, "submission", name, None)
    set_ids = insert_lists(con, path, mqm.sha256, corpus, [new], report)
    insert_ratings(con, set_ids[0], loaded, placed)
    return report
