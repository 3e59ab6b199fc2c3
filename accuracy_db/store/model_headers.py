"""The opening comment of a model of queries/: what the model holds, and a description of each of its columns,
written into the database with COMMENT ON (database.create_views), so that `accuracy-db schema` shows them.

A header reads (the column list is indented by two spaces, a description's further lines by four):

    -- What the model holds, in whole sentences, on as many lines as it takes.
    -- Materialized: incremental (only for a model that is not a view; may run on).
    -- Grain: one row per (submission, scope).
    -- Columns:
    --   submission_id: The submission (annotation_sets.set_id), on one line
    --     or on several.
    --   (the other columns are those of scores)
    -- Anything after the list (how the model computes its rows) is left to the reader of the file.

"(the other columns are those of X)" gives every column not listed the description of the column of the same name
in X, a table or a model that is created before this one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

SECTION = re.compile(r"(Materialized|Grain|Columns):\s*(.*)")
COLUMN = re.compile(r"  (\w+): (\S.*)")
CONTINUATION = re.compile(r"    (\S.*)")
INHERITED = re.compile(r"  \(the other columns are those of (\w+)\)")


@dataclass
class ModelHeader:
    description: str = ""  # what the model holds, then its grain
    columns: dict[str, str] = field(default_factory=dict)  # column -> description
    columns_from: str | None = None  # the relation the columns not listed take their descriptions from


def opening_comment(sql: str) -> list[str]:
    """The lines of the comment a model opens with, without their leading '--' and the space after it."""
    lines = []
    for line in sql.splitlines():
        if not line.startswith("--"):
            break
        lines.append(line.removeprefix("--").removeprefix(" "))
    return lines


def parse(sql: str) -> ModelHeader:
    """The description and the column descriptions of a model, from its opening comment."""
    header, sections, section, column = ModelHeader(), {"": []}, "", None
    for line in opening_comment(sql):
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
        elif not line.strip():
            if section:  # a blank comment line ends the sections
                break
        else:
            sections[section].append(line.strip())
    grain = " ".join(sections.get("Grain", []))
    header.description = " ".join([*sections[""], *([f"Grain: {grain}"] if grain else [])])
    return header
