"""Read the TSV of WMT25's error-span task (task 2: wmt-conference/wmt25-mteval, scripts/scoring/task2/scoring_esa.py)
as an MQM rating: a gold file (the task's task2_refs.tsv) or a prediction (its predictions.tsv).

A file is tab-separated with a header, quoted as Python's csv module (and pandas) quote: the test set's columns
(doc_id, segment_id, source_lang, target_lang, set_id, system_id, source_segment, hypothesis_segment,
reference_segment, domain_name, method) and three more: start_indices, end_indices and error_types, each a list
separated by single spaces, the n-th of each making the n-th error of the row's hypothesis. A row is an item,
(system_id, doc_id, segment_id), the names of an MQM file's system, doc and seg_id. Read as the scorer reads it
(get_error_list, get_counts): error_types no-error is a row without errors; the three lists are read pairwise to the
shortest; a row with an empty piece among them has no error (the scorer warns and reads it so); a start of missing is
an error without a span (an omission); severities major, minor, critical, and undecided (which the scorer leaves
out, as the esa scheme leaves out Neutral); an end past the hypothesis is cut at its end, as numpy slices it. Only
the rows of set_id official are scored by the scorer: the others are left out (a file without set_id has only
those). A row's errors are one rater's, named task2; their category is UNCATEGORISED.

Refused, nothing loaded, one line a kind of problem with its first line and count: a header without a required
column, a row with another number of fields than the header, an empty system_id, doc_id or segment_id, a
system_id that is not one line of visible text, an item given twice, a start or end that is not a whole number (or
is negative), a start after its end, and an unknown severity. A gold file needs hypothesis_segment and
source_segment; a prediction without hypothesis_segment is matched to its corpus's texts by its keys alone.
"""

from __future__ import annotations

import csv
import hashlib
import io
from pathlib import Path

from accuracy_db.errors import Problem, quoted
from accuracy_db.names import name_problem

from .mqm_files import Error, Item, MqmFile, Problems, decoded

KEYS = ("system_id", "doc_id", "segment_id")
LISTS = ("start_indices", "end_indices", "error_types")
GOLD = ("source_segment", "hypothesis_segment")
RATER = "task2"
UNCATEGORISED = "Uncategorised"
NO_ERROR, MISSING, OFFICIAL = "no-error", "missing", "official"
SEVERITIES = ("major", "minor", "critical", "undecided")


def is_task2(header: str) -> bool:
    """Whether a file's first line is a task-2 header."""
    return all(name in header.rstrip("\r\n").split("\t") for name in LISTS)


def read_file(path: Path, targets: dict[tuple[str, str, str], str] | None = None) -> MqmFile:
    """Every official item of a task-2 file. targets: the hypotheses of the corpus a prediction rates, by (system,
    doc, seg_id), for a file without hypothesis_segment (None: a gold file, which must have it)."""
    data, text, problems = decoded(path)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter="\t")
    header = next(reader, [])
    required = KEYS + LISTS + (GOLD if targets is None else ())
    missing = [name for name in required if name not in header]
    if missing:
        problems.add(
            "header", 1, f"the header has no column {', '.join(missing)}: a WMT25 task-2 file has {' '.join(required)}"
        )
        problems.raise_any()
    column = {name: header.index(name) for name in header}
    items: dict[tuple[str, str, str], Item] = {}
    ignored: list[int] = []  # lines of rows left out (another set_id), of errors read as the scorer reads them
    emptied: list[int] = []
    for fields in reader:
        number = reader.line_num  # a quoted cell may hold a line end: the line where the row ends
        if len(fields) != len(header):
            problems.add(f"fields {len(fields)}", number, f"{len(fields)} field(s) where the header has {len(header)}")
            continue
        row = {name: fields[index] for name, index in column.items()}
        if "set_id" in row and row["set_id"] != OFFICIAL:
            ignored.append(number)
            continue
        empty = [name for name in KEYS if not row[name]]
        if empty:
            problems.add(f"empty {empty[0]}", number, f"{empty[0]} is empty")
            continue
        wrong = name_problem(row["system_id"], "system")
        if wrong:
            problems.add("name system", number, wrong)
            continue
        key = (row["system_id"], row["doc_id"], row["segment_id"])
        if key in items:
            problems.add("twice", number, f"the item (system_id, doc_id, segment_id) of line {items[key].line} again")
            continue
        target = row["hypothesis_segment"] if "hypothesis_segment" in row else (targets or {}).get(key, "")
        item = items[key] = Item(number, *key, row.get("source_segment", ""), target, {RATER: number}, {RATER: []})
        errors = errors_of(row, number, len(target), problems)
        if errors is None:
            emptied.append(number)
        else:
            item.errors[RATER] = errors
    if not items and not problems.kinds:
        problems.add("empty", None, "the file has no row of set_id official")
    problems.raise_any()
    warnings = []
    if ignored:
        warnings.append(
            Problem(
                str(path),
                ignored[0],
                f"{len(ignored)} row(s) of a set_id other than official left out, as the scorer leaves them",
            )
        )
    if emptied:
        warnings.append(
            Problem(
                str(path),
                emptied[0],
                f"{len(emptied)} row(s) with an empty start, end or error type read as no error, as the scorer does",
            )
        )
    return MqmFile(path, hashlib.sha256(data).hexdigest(), list(items.values()), warnings)


def errors_of(row: dict[str, str], line: int, length: int, problems: Problems) -> list[Error] | None:
    """A row's errors as get_error_list reads them; None when an empty piece makes them none; problems added."""
    if row["error_types"] == NO_ERROR:
        return []
    errors = []
    for start, end, severity in zip(*(row[name].split(" ") for name in LISTS)):
        if not start or not end or not severity:
            return None
        if severity not in SEVERITIES:
            problems.add(
                "severity",
                line,
                f"the error type {quoted(severity, 40)} is not major, minor, critical, undecided or no-error",
            )
            return []
        if start == MISSING:
            errors.append(Error(line, UNCATEGORISED, severity, "none", None, len(errors)))
            continue
        if not (start.isdigit() and end.isdigit()):
            problems.add(
                "index", line, f"the span {quoted(start, 20)}–{quoted(end, 20)} is not two whole numbers from 0"
            )
            return []
        if int(start) > int(end):
            problems.add("order", line, f"the span {start}–{end} starts after its end")
            return []
        span = (min(int(start), length), min(int(end), length))
        errors.append(Error(line, UNCATEGORISED, severity, "target", span, len(errors)))
    return errors
