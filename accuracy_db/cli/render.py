"""How the commands print: rows of figures in any format, any rows as a table for people, a query result in a
format or to a file; every table on one console."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from accuracy_db import output_files
from accuracy_db.errors import AccuracyDbError
from accuracy_db.formatting import (
    DISPLAY_CHARS,
    FIGURE_KEYS,
    TABLE_COLUMNS,
    UNDEFINED,
    cell,
    figures_latex,
    flat,
    numeric_columns,
    to_csv,
    to_json,
    to_latex,
    to_markdown,
    with_interval,
)
from accuracy_db.output_files import NO_INPUTS, Inputs
from accuracy_db.printable import markup_free, printable

if TYPE_CHECKING:
    import polars as pl


def make_console():
    """The one console every table is printed on: no highlighting of numbers and words; as wide as the terminal,
    and 200 columns wide when the output goes to a log or a pipe."""
    from rich.console import Console

    printer = Console(highlight=False)
    if not printer.is_terminal:
        printer.width = 200
    return printer


def import_table_printer(_seconds: float = 0.0) -> None:
    """Import what printing a table takes (rich's console and table): a query's tick, so that the imports are made
    while the query's process works (on two cores they overlap)."""
    import rich.console  # noqa: F401
    import rich.table  # noqa: F401


@dataclass(frozen=True)
class Column:
    """A column of a table for people: its heading, one cell per row (a cell may hold lines), how its cells are
    aligned, and whether they may wrap (a message, a note) or are set whole (a name, a figure)."""

    heading: str
    cells: list[str]
    justify: str = "left"
    wraps: bool = False


def print_fitted(
    console, columns: list[Column], keys: int = 1, title: str | None = None, caption: str | None = None
) -> None:
    """Columns as a table that fits the console: as one table if they fit, else as several, each under the title
    with the first keys columns (what names a row, never cut) and as many of the others as fit beside them, in
    order. A name or a figure is not wrapped unless it alone is too wide to stand beside the names; a column that
    wraps (a message) is, where the table would not fit otherwise."""
    from rich.text import Text

    named, others = columns[:keys], columns[keys:]
    alone = {id(column): table_width(console, [column]) for column in columns}  # each column measured once

    def width(part: list[Column]) -> int:  # a table is as wide as its columns alone, less the borders they share
        return sum(alone[id(column)] for column in part) - len(part) + 1

    parts: list[list[Column]] = []
    for column in others:
        if parts and width(named + parts[-1] + [column]) <= console.width:
            parts[-1].append(column)
        else:
            parts.append([column])
    for number, part in enumerate(parts or [[]]):
        if width(named + part) > console.width:  # one column too wide beside the names: it wraps
            part = [replace(column, wraps=True) for column in part]
        if title is not None:  # a line of its own: a narrow table would wrap it to its width
            console.print(Text(printable(title if number == 0 else f"{title} (continued)"), style="italic"))
        console.print(table_of(named + part, caption if number == len(parts) - 1 else None))


def table_of(columns: list[Column], caption: str | None = None):
    from rich.table import Table
    from rich.text import Text

    table = Table(caption=caption and lines_free(caption))
    for column in columns:
        table.add_column(lines_free(column.heading), justify=column.justify, no_wrap=not column.wraps, overflow="fold")
    for row in zip(*(column.cells for column in columns)):
        table.add_row(*(Text(text) for text in row))  # Text: a [bracket] is not markup
    return table


def lines_free(text: str) -> str:
    """Text of our own lines (a heading, notes) as rich shows it: each line free of markup, the lines kept."""
    return "\n".join(markup_free(line) for line in text.split("\n"))


def table_width(console, columns: list[Column]) -> int:
    """How wide the table of these columns is at the least: every column that does not wrap at its widest cell,
    one that wraps at its longest word."""
    from rich.measure import Measurement

    table = table_of(columns)
    for column in table.columns:
        if column.no_wrap:
            cells = [column.header, *column.cells]
            column.min_width = max(Measurement.get(console, console.options, cell).maximum for cell in cells)
    return Measurement.get(console, console.options.update_width(10**6), table).minimum


def print_signatures(console, signed: list[tuple[str, str]]) -> None:
    """Each signature beside what it signs (label: a submission, a scope), once: the labels of rows with the same
    signature (lists of the same content, scored the same way) together, broken after a | where it would be wider
    than the console."""
    from rich.table import Table
    from rich.text import Text

    labels: dict[str, list[str]] = {}
    for label, stamp in signed:
        labels.setdefault(stamp, []).append(label)
    signed = [(stamp, ", ".join(dict.fromkeys(named))) for stamp, named in labels.items()]
    label_width = max(len(printable(label)) for _, label in signed)
    room = max(console.width - label_width - 1, 20)
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    for stamp, label in signed:
        grid.add_row(Text(printable(label)), Text("\n".join(signature_lines(printable(stamp), room))))
    console.print(grid)


def signature_lines(stamp: str, width: int) -> list[str]:
    """A signature in lines of at most width characters, each broken after a | (a field longer than a line is
    folded by the table)."""
    lines = [""]
    for field in re.findall(r"[^|]+\|?", stamp):
        if lines[-1] and len(lines[-1]) + len(field) > width:
            lines.append("")
        lines[-1] += field
    return lines


def print_rows(
    rows: list[dict],
    fmt: str,
    title: str | None = None,
    hide: tuple[str, ...] = (),
    headings: dict[str, str] = TABLE_COLUMNS,
) -> None:
    """Print rows of figures in a format. The table is for people: the keys of headings (by default those of every
    command's figures) under their headings, one table per split, 3 decimals, undefined for a
    figure with nothing to divide by, intervals compactly beside their figures, without the hidden columns, fitted
    to the terminal (fitted_figures), and each row's signature beside its name under it. The other formats give
    every key (CSV and Markdown with intervals in two columns); LaTeX sets the figures of a paper's table."""
    if fmt == "table":
        from rich.text import Text

        console = make_console()
        for split in dict.fromkeys(row.get("split") for row in rows):
            in_split = [row for row in rows if row.get("split") == split]
            heading = title if split is None else f"{title or 'Figures'}, split {split}"
            fitted_figures(console, in_split, heading, (*hide, "split"), headings)
            for line in excluded_notes(in_split):
                console.print(Text(printable(line)))
            signed = [(signature_label(row), row["signature"]) for row in in_split if row.get("signature")]
            if signed:
                print_signatures(console, signed)
        if not rows:
            fitted_figures(console, rows, title, hide, headings)
    elif fmt == "latex":
        print(figures_latex(rows, hide), end="")
    elif fmt == "markdown":  # for people too: an undefined figure so named
        named = [
            {key: UNDEFINED if value is None and key in FIGURE_KEYS else value for key, value in row.items()}
            for row in flat(rows)
        ]
        print(to_markdown(named), end="")
    else:
        print(to_json(rows) if fmt == "json" else to_csv(flat(rows)), end="" if fmt == "csv" else "\n")


def signature_label(row: dict) -> str:
    """What a row's signature signs: its submission, or its scope."""
    if row.get("submission"):
        return row["submission"]
    return f"scope {row['categories']}" if row.get("categories") else "signature"


def excluded_notes(rows: list[dict]) -> list[str]:
    """What the intervals leave out: the replicates in which a figure is undefined."""
    notes = []
    for row in rows:
        left_out = {figure: count for figure, count in (row.get("excluded_replicates") or {}).items() if count}
        if left_out:
            counts = ", ".join(f"{figure} {count}" for figure, count in left_out.items())
            notes.append(f"{row.get('submission', '')}: replicates left out of the interval (undefined): {counts}")
    return notes


# The columns that name a row, repeated in every part of a table too wide for the terminal.
NAMING_COLUMNS = ("rank", "submission", "categories")


def fitted_figures(
    console, rows: list[dict], title: str | None, hide: tuple[str, ...], headings: dict[str, str] = TABLE_COLUMNS
) -> None:
    """Rows of figures as a table fitted to the console: the columns that name a row first (rank, submission, scope),
    then the figures, each with its interval, the cluster first among them."""
    keys = [key for key in headings if rows and key in rows[0] and key not in hide]
    keys = sorted(keys, key=lambda key: (key not in NAMING_COLUMNS, key != "cluster"))
    figures = {key for key in keys if key in FIGURE_KEYS or any(isinstance(row[key], float) for row in rows)}
    counted = all(key in keys for key in COUNTS)
    columns = [
        Column(
            headings[key],
            [with_interval(row, key) if key in figures else cell(row[key]) for row in rows],
            justify="left" if any(isinstance(row[key], str) for row in rows) else "right",
            wraps=key in WRAPPING_COLUMNS,
        )
        for key in keys
        if not (counted and key in COUNTS)
    ]
    if counted:  # one column for the three: narrow beside the figures' intervals
        counts = ["/".join(cell(row[key]) for key in COUNTS) for row in rows]
        columns.append(Column("/".join(headings[key] for key in COUNTS).replace("/sub", "/\nsub"), counts, "right"))
    undefined = any(row[key] is None for row in rows for key in figures)
    caption = f"{UNDEFINED}: nothing to divide by" if undefined else None
    print_fitted(console, columns, sum(key in NAMING_COLUMNS for key in keys), title, caption)


# The counts behind the figures, shown in one column: matched/gold/submitted.
COUNTS = ("matched", "gold_total", "submitted_total")

# Long texts that wrap in their cells where a table would not fit otherwise.
WRAPPING_COLUMNS = ("file", "message", "description")


def shown(value, cut: list[int]) -> str:
    """A value as the table shows it: cut after DISPLAY_CHARS characters (counted in cut), like every cell."""
    text = cell(value)
    if len(text) <= DISPLAY_CHARS:
        return text
    cut[0] += 1
    return text[:DISPLAY_CHARS] + "…"


def print_table(
    rows: list[dict], columns: list[str], title: str | None = None, notes: tuple[str, ...] = (), keys: int = 0
) -> None:
    """Any rows as a table for people, fitted to the terminal (print_fitted: the first keys columns name a row and
    are never cut): headings as they are, 3 decimals, – for NULL, numbers right aligned, texts wrapped, long values
    cut (the caption says how many); notes go into the caption too."""
    numbers = numeric_columns(rows, columns)
    cut = [0]
    cells = {column: [shown(row[column], cut) for row in rows] for column in columns}
    notes = list(notes)
    if any(None in row.values() for row in rows):
        notes.insert(0, "– : NULL")
    if cut[0]:
        notes.append(
            f"{cut[0]:,} values longer than {DISPLAY_CHARS:,} characters are cut (…); the other formats give them whole"
        )
    fitted = [
        Column(
            column,
            cells[column],
            "right" if column in numbers else "left",
            wraps=index >= keys and column not in numbers,
        )
        for index, column in enumerate(columns)
    ]
    print_fitted(make_console(), fitted, keys, title, "\n".join(notes) or None)


def write_frame(
    frame: pl.DataFrame | tuple[list[dict], list[str]],
    fmt: str,
    output: Path | None = None,
    title: str | None = None,
    notes: tuple[str, ...] = (),
    force: bool = False,
    inputs: Inputs = NO_INPUTS,
) -> None:
    """Print a query result in a format, or write it to a file (as output_files writes one: an existing file only
    with force, never an input). Parquet needs a file; a table is for the terminal only, and its caption carries
    the notes. frame: a polars frame, or, for every format but parquet, the rows as dicts (polars' to_dicts) and
    their columns."""
    if fmt == "parquet":
        if output is None:
            raise AccuracyDbError("parquet is a binary format: give --output FILE.parquet")
        data = io.BytesIO()
        frame.write_parquet(data)
        output_files.write_file(output, data.getvalue(), force, inputs)
        return
    rows, columns = frame if isinstance(frame, tuple) else (frame.to_dicts(), frame.columns)
    if fmt == "table":
        if output is not None:
            raise AccuracyDbError(
                "a table is for the terminal: give --format csv, json, markdown, latex or parquet with --output"
            )
        print_table(rows, columns, title, notes)
        return
    render = {"json": to_json, "csv": to_csv, "markdown": to_markdown, "latex": to_latex}[fmt]
    text = render(rows) if fmt == "json" else render(rows, columns)
    text = text + "\n" if fmt == "json" else text
    if output is None:
        print(text, end="")
    else:
        output_files.write_file(output, text.encode(), force, inputs)
