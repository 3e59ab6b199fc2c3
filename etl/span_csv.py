"""Read an annotation list of a corpus folder written as CSV: the columns are the keys of a JSONL list's lines
(etl/corpus_files.py), one span a row, so that both read into the same (line, mapping) pairs and are checked by one
set of rules.

The header names the columns, each once (in any case): text_id and category, then comment, probability (or prob),
and start with end or text (characters), or token_start and token_end (tokens). An empty cell is a key not given; a
whole number is written in digits (a minus sign allowed, so that factgenie's -1 is refused as a span, not as a
number); a probability as Python's float() reads it. A row is numbered by the line it starts on (the header is
line 1).
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from pathlib import Path

from accuracy_db.errors import InputError, Problem, quoted
from accuracy_db.regular_files import decode, read_bytes

REQUIRED = ("text_id", "category")
TEXTS = ("text_id", "category", "comment", "text")
NUMBERS = ("start", "end", "token_start", "token_end")
PROBABILITIES = ("probability", "prob")  # a decimal number; a cell that is none is left as text, refused as a span
COLUMNS = TEXTS + NUMBERS + PROBABILITIES
WHOLE = re.compile(r"-?[0-9]{1,18}")  # int() refuses over 4,300 digits; no offset needs 19


def decimal_or_text(cell: str) -> float | str:
    try:
        return float(cell)
    except ValueError:
        return cell


def csv_objects(path: Path, problems: list[Problem], data: bytes | None = None) -> list[tuple[int, dict]]:
    """(line, mapping) of every row of a CSV list (its bytes when read already); a problem for each row (or the
    header) that cannot be read."""
    file = str(path)
    try:
        text = decode(path, read_bytes(path) if data is None else data)
    except InputError as error:
        problems += error.problems
        return []
    if not text.strip():
        problems.append(Problem(file, None, f"the file is empty: expected a header ({', '.join(COLUMNS)})"))
        return []
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)  # an unclosed quote is an error, not a cell
    rows = []
    try:
        header = [name.strip().lower() for name in next(reader)]
        line = reader.line_num + 1
        for cells in reader:
            rows.append((line, cells))
            line = reader.line_num + 1
    except csv.Error as error:
        problems.append(Problem(file, reader.line_num, f"not valid CSV: {error}"))
        return []
    counts = Counter(header)  # (header.count of each name took minutes under a header of 200,000 cells)
    header_problems = [f"column {quoted(name, 60)} is given twice" for name in sorted(counts) if counts[name] > 1] + [
        f"unknown column {quoted(name, 60)}: the columns are {', '.join(COLUMNS)}"
        for name in header
        if name not in COLUMNS
    ]
    header_problems += [f"no column {name}" for name in REQUIRED if name not in header]
    if header_problems:
        problems += [Problem(file, 1, message) for message in header_problems]
        return []
    objects = []
    for line, cells in rows:
        if not any(cell.strip() for cell in cells):
            continue  # a blank line
        if len(cells) != len(header):
            problems.append(Problem(file, line, f"{len(cells)} cells, but the header has {len(header)} columns"))
            continue
        value, wrong = {}, []
        for name, cell in zip(header, cells, strict=True):
            if cell == "":
                continue
            if name in NUMBERS:
                if not WHOLE.fullmatch(cell.strip()):
                    wrong.append(f"{name} is {cell[:40]!r}, not a whole number")
                    continue
                value[name] = int(cell.strip())
            elif name in PROBABILITIES:
                value[name] = decimal_or_text(cell)
            else:
                value[name] = cell
        if wrong:
            problems += [Problem(file, line, message) for message in wrong]
        else:
            objects.append((line, value))
    return objects
