"""Read a JSON Lines file of predicted error spans, as metrics that output spans give them (xCOMET, GEMBA-MQM, an LLM
judge), as an MQM rating of the texts of a corpus loaded from an MQM file: a submission.

A line is an item: {"system", "doc", "seg_id", "errors": [{"start", "end", "severity", "category"}]}, other keys read
past. system, doc and seg_id name a text of the corpus (seg_id a string or a whole number); start and end are
offsets in characters of its target without markers (Python's str offsets), 0 <= start < end <= its length;
severity is Major, Minor, Critical or Neutral in any case; category, when given, a category name (else
UNCATEGORISED). Blank lines are read past. A line's errors are one rater's, named spans.

Refused, nothing loaded, one line a kind of problem with its first line and count: a line that is not a JSON object,
a missing or empty system, doc or seg_id, an item given twice, errors that are not a list of objects, an offset that
is not a whole number or lies outside the target, an unknown severity, a bad category name; and the file as a gold
list (it has no texts).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from accuracy_db.errors import InputError, Problem, quoted
from accuracy_db.names import name_problem
from accuracy_db.regular_files import read_bytes

from .corpus_files import jsonl_objects
from .mqm_files import SEVERITIES, Error, Item, MqmFile, Problems
from .wmt_task2 import UNCATEGORISED

RATER = "spans"
KEYS = ("system", "doc", "seg_id")


def key_of(value: dict) -> tuple[str, str, str] | str:
    """(system, doc, seg_id) of a line, or what is wrong with them."""
    key = []
    for name in KEYS:
        cell = value.get(name)
        if isinstance(cell, int) and not isinstance(cell, bool) and name == "seg_id":
            cell = str(cell)
        if not isinstance(cell, str) or not cell:
            return f"{name} is missing or not a non-empty string"
        key.append(cell)
    return tuple(key)


def read_file(path: Path, targets: dict[tuple[str, str, str], str] | None) -> MqmFile:
    """Every item of a predicted-spans file, its errors checked against the target of targets (the corpus's texts
    by (system, doc, seg_id); an item not among them has the empty target, which the loader refuses by name)."""
    if targets is None:
        message = "a JSON Lines file of predicted spans has no texts: import it --as submission of an MQM corpus"
        raise InputError([Problem(str(path), None, message)])
    data = read_bytes(path)
    problems = Problems(path)
    json_problems: list[Problem] = []
    items: dict[tuple[str, str, str], Item] = {}
    for line, value in jsonl_objects(path, json_problems, data):
        key = key_of(value)
        if isinstance(key, str):
            problems.add("key", line, key)
            continue
        if key in items:
            problems.add("twice", line, f"the item (system, doc, seg_id) of line {items[key].line} again")
            continue
        target = targets.get(key, "")
        errors, wrong = errors_of(value.get("errors"), line, len(target))
        if wrong:
            problems.add(wrong[0], line, wrong[1])
            continue
        items[key] = Item(line, *key, "", target, {RATER: line}, {RATER: errors})
    for problem in json_problems:
        problems.add(problem.message.split(":")[0], problem.line, problem.message)
    if not items and not problems.kinds:
        problems.add("empty", None, "the file has no line")
    problems.raise_any()
    return MqmFile(path, hashlib.sha256(data).hexdigest(), list(items.values()))


def errors_of(errors, line: int, length: int) -> tuple[list[Error], tuple[str, str] | None]:
    """A line's errors, or (kind, message) of the first thing wrong with them."""
    if not isinstance(errors, list):
        return [], ("errors", "errors is missing or not a list")
    found = []
    for error in errors:
        if not isinstance(error, dict):
            return [], ("errors", "an error is not a JSON object")
        start, end = error.get("start"), error.get("end")
        if not all(isinstance(offset, int) and not isinstance(offset, bool) for offset in (start, end)):
            return [], ("offset", "an error's start or end is missing or not a whole number")
        if not 0 <= start < end <= length:
            return [], ("range", f"the span {start}–{end} is not within the target's {length} characters")
        severity = error.get("severity")
        if not isinstance(severity, str) or severity.lower() not in SEVERITIES:
            shown = quoted(severity, 40) if isinstance(severity, str) else "missing"
            return [], ("severity", f"the severity {shown} is not Major, Minor, Critical or Neutral")
        category = error.get("category", UNCATEGORISED)
        wrong = name_problem(category, "category") if isinstance(category, str) else "the category is not a string"
        if wrong:
            return [], ("category", wrong)
        found.append(Error(line, category, severity, "target", (start, end), len(found)))
    return found, None
