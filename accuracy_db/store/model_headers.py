"""The opening comment of a model of queries/: what the model holds, and a description of each of its columns,
written into the database with COMMENT ON (database.create_views), so that `accuracy-db schema` shows them.

A header reads (the column list is indented by two spaces, a description's further lines by four):

    -- What the model holds, in whole sentences, on as many lines as it takes.
    -- Materialized: incremental (only for a model that is not a view; may run on).
    -- Grain: one row per (submission, scope).
    -- Key: submission_id, scope
    -- Columns:
    --   submission_id: The submission (annotation_sets.set_id), on one line
    --     or on several.
    --   (the other columns are those of scores)
    -- Anything after the list (how the model computes its rows) is left to the reader of the file.

"Materialized:" opens with one of MATERIALIZATIONS (database.py says what each means), the rest of the line and
the lines after it saying why; a model without the line is a view. "Key:" names, on one line, the columns whose
values identify one row, as the grain says (tests/test_model_grain.py checks that no two rows share them, as dbt's
`unique` test does). "(the other columns are those of X)" gives every column not listed the description of the
column of the same name in X, a table or a model that is created before this one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from accuracy_db.errors import AccuracyDbError, Problem

SECTION = re.compile(r"(Materialized|Grain|Key|Columns):\s*(.*)")
COLUMN = re.compile(r"  (\w+): (\S.*)")
CONTINUATION = re.compile(r"    (\S.*)")
INHERITED = re.compile(r"  \(the other columns are those of (\w+)\)")
KEY = re.compile(r"\w+(, \w+)*")
MATERIALIZATION = re.compile(r"(?P<value>[^(]*?)(?: \(.*)?")  # the value, then why in parentheses

VIEW = "view"  # a model without a Materialized line
INCREMENTAL = "incremental"
BATCHED = "incremental, a batch of submissions at a time"
TABLE = "table"
GOLD_TABLE = "table of the gold lists"
QUERY = "query"
MATERIALIZATIONS = (INCREMENTAL, BATCHED, TABLE, GOLD_TABLE, QUERY)


@dataclass
class ModelHeader:
    description: str = ""  # what the model holds, then its grain
    columns: dict[str, str] = field(default_factory=dict)  # column -> description
    columns_from: str | None = None  # the relation the columns not listed take their descriptions from
    key: list[str] = field(default_factory=list)  # the columns that identify a row; empty when the header has none
    materialized: str = VIEW  # one of MATERIALIZATIONS, or VIEW


def opening_comment(sql: str) -> list[str]:
    """The lines of the comment a model opens with, without their leading '--' and the space after it."""
    lines = []
    for line in sql.splitlines():
        if not line.startswith("--"):
            break
        lines.append(line.removeprefix("--").removeprefix(" "))
    return lines


def parse(sql: str, source: str = "the model") -> ModelHeader:
    """The description, the column descriptions, the key and the materialization of a model, from its opening
    comment; a Key or Materialized line that is not well formed is an error naming source (the model's file) and
    the line."""
    header, sections, section, column = ModelHeader(), {"": []}, "", None
    for number, line in enumerate(opening_comment(sql), start=1):
        if section == "Columns":
            if match := COLUMN.fullmatch(line):
                column = match[1]
                header.columns[column] = match[2]
                continue
            if (match := CONTINUATION.fullmatch(line)) and column:
                header.columns[column] += " " + match[1]
                continue
            if match := INHERITED.fullmatch(line):
                header.columns_from, column = match[1], None
                continue
            break  # the list ends: notes follow
        if match := SECTION.fullmatch(line):
            section, column = match[1], None
            sections[section] = [match[2]] if match[2] else []
            if section == "Key":
                header.key = key(match[2], source, number)
            elif section == "Materialized":
                header.materialized = materialization(match[2], source, number)
        elif not line.strip():
            if section:  # a blank comment line ends the sections
                break
        elif section == "Key":
            raise problem(source, number, "the Key line runs on: name the key's columns on one line")
        else:
            sections[section].append(line.strip())
    grain = " ".join(sections.get("Grain", []))
    header.description = " ".join([*sections[""], *([f"Grain: {grain}"] if grain else [])])
    return header


def key(text: str, source: str, number: int) -> list[str]:
    """The columns a Key line names."""
    if not KEY.fullmatch(text):
        raise problem(source, number, f"Key: {text!r} is not a list of column names separated by ', '")
    return text.split(", ")


def materialization(text: str, source: str, number: int) -> str:
    """The materialization a Materialized line opens with."""
    value = MATERIALIZATION.fullmatch(text)["value"]
    if value not in MATERIALIZATIONS:
        expected = ", ".join(map(repr, MATERIALIZATIONS))
        raise problem(source, number, f"Materialized: unknown materialization {value!r}: expected one of {expected}")
    return value


def problem(source: str, number: int, message: str) -> AccuracyDbError:
    """The error of a header line that is not well formed, naming the file and the line."""
    return AccuracyDbError(str(Problem(source, number, message)))
