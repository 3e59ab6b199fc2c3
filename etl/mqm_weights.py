"""Read a file of MQM weights: a rule a line, (category, severity, weight), for accuracy-db systems --weights FILE.

Comma- or tab-separated (a tab in the header: tab-separated), with a header naming the columns category, severity
and weight in any order. category is a category with its sub-categories (Fluency applies to Fluency/Punctuation),
empty or * for any; severity a severity, * for any; both are compared without case. An error takes the weight of
the rule whose category is the longest prefix of its own (queries/intermediate/mqm_weighted_errors.sql), 0 when
none applies. Refused, with file and line: a header without the three columns, a severity empty, a weight that is
not a finite number, a rule given twice.
"""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

from accuracy_db.errors import InputError, Problem, quoted
from accuracy_db.regular_files import read_bytes

COLUMNS = ("category", "severity", "weight")
ANY = "*"


def read_weights(path: Path) -> list[tuple[str, str, float]]:
    """The rules of a weights file as (severity, category, weight), category '' for any."""
    try:
        text = read_bytes(path).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError([Problem(str(path), None, "the file is not UTF-8 text")]) from None
    lines = text.splitlines()
    delimiter = "\t" if lines and "\t" in lines[0] else ","
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    header = [cell.strip() for cell in next(reader, [])]
    missing = [column for column in COLUMNS if column not in header]
    if missing:
        raise InputError(
            [Problem(str(path), 1, f"the header has no column {', '.join(missing)}: expected category,severity,weight")]
        )
    problems, rules, seen = [], [], {}
    for row in reader:
        line = reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        cells = dict(zip(header, (cell.strip() for cell in row)))
        category = cells.get("category", "")
        category = "" if category == ANY else category
        severity, given = cells.get("severity", ""), cells.get("weight", "")
        try:
            weight = float(given)
        except ValueError:
            weight = math.nan
        if not severity:
            problems.append(Problem(str(path), line, "severity is empty: a severity, or * for any"))
        elif not math.isfinite(weight):
            problems.append(Problem(str(path), line, f"weight {quoted(given, 40)} is not a finite number"))
        elif (severity.lower(), category.lower()) in seen:
            first = seen[(severity.lower(), category.lower())]
            problems.append(
                Problem(
                    str(path), line, f"the rule of {severity} {category or ANY} is given again (first on line {first})"
                )
            )
        else:
            seen[(severity.lower(), category.lower())] = line
            rules.append((severity, category, weight))
    if not problems and not rules:
        problems.append(Problem(str(path), None, "the file has no rule: expected category,severity,weight lines"))
    if problems:
        raise InputError(problems)
    return rules
