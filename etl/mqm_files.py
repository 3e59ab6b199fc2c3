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
import gc
import hashlib
import json
import operator
import re
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import polars as pl

from accuracy_db.errors import AccuracyDbError, InputError, Problem, quoted
from accuracy_db.names import MAX_CATEGORIES, name_problem, too_many_categories
from accuracy_db.regular_files import open_regular, read_bytes

from .annotation_sets import cover_texts, insert_annotation_sets
from .corpus_texts import Category, CorpusText, create_corpus, held_texts, insert_texts
from .frames import create_temp_table, insert_rows
from .span_lists import ImportReport, insert_campaign_spans

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

    with open_regular(path) as stream:  # its start alone: the reader reads it whole
        start = stream.read(65536)
    first = start.decode("utf-8-sig", errors="replace").split("\n", 1)[0]
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
    width = len(header)
    cells = operator.itemgetter(*columns.values())  # the cells of REQUIRED, in its order
    well_named: set[tuple[str, str, str, str]] = set()  # (system, rater, category, severity) of rows that passed
    for number, raw in enumerate(lines[1:], start=2):
        fields = raw.rstrip("\r").split("\t")
        if len(fields) != width:
            if len(fields) > width and not any(fields[width:]):
                fields = fields[:width]
            else:
                problems.add(f"fields {len(fields)}", number, f"{len(fields)} field(s) where the header has {width}")
                continue
        system, doc, seg_id, rater, source_cell, target_cell, category, severity = cells(fields)
        named = (system, rater, category, severity)  # a file repeats a few of these on every row
        if named not in well_named or not doc or not seg_id:
            row_problem = check_row(system, doc, seg_id, rater, category, severity)
            if row_problem:
                problems.add(row_problem[0], number, row_problem[1])
                continue
            well_named.add(named)
        # a cell without "v>" has no marker: the markers' rules are applied to the others alone
        target = unmarked(target_cell) if "v>" in target_cell else (target_cell, None, False)
        source = unmarked(source_cell) if "v>" in source_cell else (source_cell, None, False)
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
        key = (system, doc, seg_id)
        item = items.get(key)
        if item is None:
            item = items[key] = Item(number, system, doc, seg_id, source[0], target[0])
        elif item.target != target[0]:
            problems.add(
                "target", number, f"the target differs from line {item.line}'s, of the same system, doc and seg_id"
            )
            continue
        first = sources.setdefault((doc, seg_id), (number, source[0]))
        if first[1] != source[0]:
            problems.add("source", number, f"the source differs from line {first[0]}'s, of the same doc and seg_id")
            continue
        errors = item.errors.get(rater)
        if errors is None:
            item.raters[rater] = number
            errors = item.errors[rater] = []
        if severity.lower() != NO_ERROR and category.lower() != NO_ERROR:
            side = "target" if target[1] is not None else "source" if source[1] is not None else "none"
            span = target[1] if target[1] is not None else source[1]
            errors.append(Error(number, category, severity, side, span))
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


def check_row(system: str, doc: str, seg_id: str, rater: str, category: str, severity: str) -> tuple[str, str] | None:
    """(kind, message) of what is wrong with a row's cells; None when nothing is."""
    for name, cell in (("system", system), ("doc", doc), ("seg_id", seg_id), ("rater", rater)):
        if not cell:
            return f"empty {name}", f"{name} is empty"
    for name, cell, kind in (("system", system, "system"), ("rater", rater, "annotator")):
        wrong = cell_name_problem(cell, kind)
        if wrong:
            return f"name {name}", wrong
    lowered = severity.lower()
    if lowered != NO_ERROR and category.lower() != NO_ERROR:
        if lowered not in SEVERITIES:
            return (
                "severity",
                f"the severity {quoted(severity, 40)} is not Major, Minor, Critical, Neutral or No-error",
            )
        if not category:
            return "category", "the error has no category"
        wrong = cell_name_problem(category, "category")
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


def stage_ratings(con: duckdb.DuckDBPyConnection, mqm: MqmFile, text_ids: list[str]) -> None:
    """The file's rated items and its errors (every rater's, wherever their span), in the temporary tables
    mqm_file_ratings and mqm_file_errors, each row numbered in the file's order: item by item (by its first line),
    rater by rater, error by error, the order of the gold list's spans."""
    ratings: dict[str, list] = {name: [] for name in ("text_id", "rater", "line_number")}
    errors: dict[str, list] = {name: [] for name in ERROR_COLUMNS}
    for item, text in zip(mqm.items, text_ids, strict=True):
        for rater, line in item.raters.items():
            for name, value in zip(ratings, (text, rater, line), strict=True):
                ratings[name].append(value)
            for error in item.errors[rater]:
                start, end = error.span if error.span is not None else (None, None)
                row = (text, rater, error.line, error.index, error.category, error.severity, error.side, start, end)
                for name, value in zip(errors, row, strict=True):
                    errors[name].append(value)
    create_temp_table(con, "mqm_file_ratings", pl.DataFrame(ratings, schema=RATING_COLUMNS).with_row_index("number"))
    create_temp_table(con, "mqm_file_errors", pl.DataFrame(errors, schema=ERROR_COLUMNS).with_row_index("number"))


RATING_COLUMNS = {"text_id": pl.String, "rater": pl.String, "line_number": pl.Int32}
ERROR_COLUMNS = RATING_COLUMNS | {
    "error_index": pl.Int32,
    "category": pl.String,
    "severity": pl.String,
    "side": pl.String,
    "char_start": pl.Int32,
    "char_end": pl.Int32,
}

# Each target error placed on its text's tokens, as TokenIndex.locate places a span read at its offset
# (etl/char_spans.py): the tokens its characters touch, widened to them ("widened") or trimmed of white space at an
# edge ("trimmed"); an error whose marked characters are empty or only white space touches none and is left out
# (it stays in mqm_errors). The text's characters are the marked ones: a span is never relocated.
PLACE_ERRORS = """
CREATE OR REPLACE TEMP TABLE mqm_placed AS
WITH touched AS (
    SELECT errors.number, min(tokens.doc_token) AS doc_token_start, max(tokens.doc_token) AS doc_token_end,
        min(tokens.char_start) AS char_start, max(tokens.char_end) AS char_end
    FROM mqm_file_errors AS errors
    JOIN tokens ON tokens.text_id = errors.text_id
        AND tokens.char_end > errors.char_start AND tokens.char_start < errors.char_end
    WHERE errors.side = 'target' AND errors.char_end > errors.char_start
    GROUP BY errors.number
)
SELECT errors.number, errors.text_id, errors.rater, errors.line_number, errors.category, errors.severity,
    errors.char_start AS given_start,
    substring(texts.generated_text, errors.char_start + 1, errors.char_end - errors.char_start) AS given_text,
    touched.doc_token_start, touched.doc_token_end, touched.char_start, touched.char_end,
    CASE
        WHEN touched.char_start < errors.char_start OR touched.char_end > errors.char_end THEN 'widened'
        WHEN touched.char_start <> errors.char_start OR touched.char_end <> errors.char_end THEN 'trimmed'
    END AS adjustment
FROM touched
JOIN mqm_file_errors AS errors USING (number)
JOIN texts ON texts.text_id = errors.text_id
"""


def insert_mqm_lists(
    con: duckdb.DuckDBPyConnection,
    mqm: MqmFile,
    corpus: str,
    text_ids: list[str],
    lists: list[tuple[str, str, str | None]],
    report: ImportReport,
) -> None:
    """Lists of the file, (kind, name, rater) each: a rater's list has that rater's target errors as spans, covers
    the items it rated alone (list_texts) and is that person's (annotation_sets.annotator); rater None: every
    rater's, of every item. Each error is placed on its tokens once, in SQL (PLACE_ERRORS), and the lists' spans,
    rated items and errors (mqm_ratings, mqm_errors, each error linked to the span it became) are inserted from
    there; the spans' mistake ids follow the file's order, list after list."""
    stage_ratings(con, mqm, text_ids)
    try:
        con.execute(PLACE_ERRORS)
        raters = [rater for _, _, rater in lists]
        counts = dict(con.execute("SELECT rater, count(*) FROM mqm_placed GROUP BY rater").fetchall())
        set_ids = insert_annotation_sets(
            con,
            mqm.path,
            mqm.sha256,
            corpus,
            [
                (kind, name, DEFAULT_SPLIT, sum(counts.values()) if rater is None else counts.get(rater, 0))
                for kind, name, rater in lists
            ],
            raters,
        )
        cover_texts(
            con,
            {
                set_id: [text for item, text in zip(mqm.items, text_ids, strict=True) if rater in item.raters]
                for set_id, rater in zip(set_ids, raters, strict=True)
                if rater is not None
            },
        )
        con.execute(
            "CREATE OR REPLACE TEMP TABLE mqm_file_lists AS"
            " SELECT unnest($orders) AS list_order, unnest($sets) AS set_id, unnest($raters) AS rater",
            {"orders": list(range(len(lists))), "sets": set_ids, "raters": raters},
        )
        con.execute(
            """
            CREATE OR REPLACE TEMP TABLE campaign_spans AS
            SELECT row_number() OVER (ORDER BY lists.list_order, placed.number) - 1 AS span_number,
                lists.set_id, placed.number AS error_number, placed.line_number, $file AS file, placed.text_id,
                placed.doc_token_start, placed.doc_token_end, placed.category, NULL::VARCHAR AS comment,
                NULL::VARCHAR AS correction, placed.adjustment, placed.given_start, placed.given_text,
                placed.char_start, placed.char_end, NULL::DOUBLE AS probability, placed.severity
            FROM mqm_placed AS placed
            JOIN mqm_file_lists AS lists ON lists.rater IS NULL OR lists.rater = placed.rater
            """,
            {"file": str(mqm.path)},
        )
        con.execute(
            "CREATE OR REPLACE TEMP TABLE mqm_list_spans AS SELECT set_id, error_number, span_number"
            " FROM campaign_spans"
        )
        first_id = insert_campaign_spans(
            con, set_ids, [(name, DEFAULT_SPLIT) for _, name, _ in lists], report, reported=True, seal=True
        )
        con.execute(
            """
            INSERT INTO mqm_ratings
            SELECT lists.set_id, ratings.text_id, ratings.rater, ratings.line_number
            FROM mqm_file_ratings AS ratings
            JOIN mqm_file_lists AS lists ON lists.rater IS NULL OR lists.rater = ratings.rater
            ORDER BY lists.list_order, ratings.number
            """
        )
        con.execute(
            """
            INSERT INTO mqm_errors
            SELECT lists.set_id, errors.text_id, errors.rater, errors.line_number, errors.error_index,
                errors.category, errors.severity, errors.side, errors.char_start, errors.char_end,
                $first_id + spans.span_number
            FROM mqm_file_errors AS errors
            JOIN mqm_file_lists AS lists ON lists.rater IS NULL OR lists.rater = errors.rater
            LEFT JOIN mqm_list_spans AS spans ON spans.set_id = lists.set_id AND spans.error_number = errors.number
            ORDER BY lists.list_order, errors.number
            """,
            {"first_id": first_id},
        )
    finally:
        for table in ("mqm_file_ratings", "mqm_file_errors", "mqm_placed", "mqm_file_lists", "mqm_list_spans"):
            con.execute(f"DROP TABLE IF EXISTS {table}")


@contextmanager
def cycles_uncollected():
    """Python's collector of reference cycles paused: a load makes an object or more a row of the file (its items,
    errors, texts and tokens), which live until it ends and hold no cycle, and each of the collector's passes over
    them, more frequent and longer as they grow, took 4 s of the 10 s of reading a 1,000,000-row file. Memory
    that is not in a cycle is freed as ever."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@cycles_uncollected()
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
    raters = sorted({rater for item in mqm.items for rater in item.raters})
    lists = [("gold", "gold", None), *(("submission", f"rater/{rater}", rater) for rater in raters)]
    insert_mqm_lists(con, mqm, corpus, text_ids, lists, report)
    unknown = [system for system in humans or [] if system not in {item.system for item in mqm.items}]
    if unknown:
        report.warnings.append(Problem(str(path), None, f"--human names no system of the file: {', '.join(unknown)}"))
    return report


@cycles_uncollected()
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
    insert_mqm_lists(con, mqm, corpus, text_ids, [("submission", name, None)], report)
    return report
