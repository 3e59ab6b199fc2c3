"""How the commands print: rows of figures in any format, any rows as a table for people, a query result in a
format or to a file; every table on one console."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from accuracy_db.errors import AccuracyDbError
from accuracy_db.formatting import (
    DISPLAY_CHARS,
    TABLE_COLUMNS,
    cell,
    figures_latex,
    flat,
    numeric_columns,
    signatures,
    to_csv,
    to_json,
    to_latex,
    to_markdown,
    with_interval,
)
from accuracy_db.printable import markup_free, printable

if TYPE_CHECKING:
    import polars as pl


def make_console():
    """The one console every table is printed on: no highlighting of numbers and words, and never a column cut
    when the output goes to a log or a pipe."""
    from rich.console import Console

    printer = Console(highlight=False)
    if not printer.is_terminal:
        printer.width = 200
    return printer


def print_rows(
    rows: list[dict],
    fmt: str,
    title: str | None = None,
    hide: tuple[str, ...] = (),
    headings: dict[str, str] = TABLE_COLUMNS,
) -> None:
    """Print rows of figures in a format. The table is for people: the keys of headings (by default those of
    every command's figures), under their headings, 3 decimals, – for undefined, intervals compactly beside their
    figures, without the hidden columns, and the signatures under it. The other formats give every key (CSV and
    Markdown with intervals in two columns); LaTeX sets the figures of a paper's table."""
    if fmt == "table":
        from rich.table import Table
        from rich.text import Text

        columns = [key for key in headings if rows and key in rows[0] and key not in hide]
        table = Table(title=title and markup_free(title), caption="– : undefined (nothing to divide by)")
        for key in columns:  # text left-aligned, figures and counts right-aligned
            text = any(isinstance(row.get(key), str) for row in rows)
            table.add_column(headings[key], justify="left" if text else "right")
        for row in rows:
            table.add_row(*(Text(with_interval(row, key)) for key in columns))  # Text: a [bracket] is not markup
        console = make_console()
        console.print(table)
        notes = excluded_notes(rows)
        for line in notes + [f"signature: {signature}" for signature in signatures(rows)]:
            console.print(Text(printable(line)))
    elif fmt == "latex":
        print(figures_latex(rows, hide), end="")
    else:
        render = {"json": to_json, "csv": to_csv, "markdown": to_markdown}[fmt]
        print(render(rows if fmt == "json" else flat(rows)), end="" if fmt != "json" else "\n")


def excluded_notes(rows: list[dict]) -> list[str]:
    """What the intervals leave out: the replicates in which a figure is undefined."""
    notes = []
    for row in rows:
        left_out = {figure: count for figure, count in (row.get("excluded_replicates") or {}).items() if count}
        if left_out:
            counts = ", ".join(f"{figure} {count}" for figure, count in left_out.items())
            notes.append(f"{row.get('submission', '')}: replicates left out of the interval (undefined): {counts}")
    return notes


def shown(value, cut: list[int]) -> str:
    """A value as the table shows it: cut after DISPLAY_CHARS characters (counted in cut), like every cell."""
    text = cell(value)
    if len(text) <= DISPLAY_CHARS:
        return text
    cut[0] += 1
    return text[:DISPLAY_CHARS] + "…"


def print_table(rows: list[dict], columns: list[str], title: str | None = None, notes: tuple[str, ...] = ()) -> None:
    """Any rows as a table for people: headings as they are, 3 decimals, – for NULL, numbers right aligned, long
    values cut (the caption says how many); notes go into the caption too."""
    from rich.table import Table
    from rich.text import Text

    numbers = numeric_columns(rows, columns)
    cut = [0]
    cells = [[Text(shown(row[column], cut)) for column in columns] for row in rows]  # Text: [brackets] stay text
    notes = list(notes)
    if any(None in row.values() for row in rows):
        notes.insert(0, "– : NULL")
    if cut[0]:
        notes.append(
            f"{cut[0]:,} values longer than {DISPLAY_CHARS:,} characters are cut (…); the other formats give them whole"
        )
    table = Table(title=title and markup_free(title), caption="\n".join(map(markup_free, notes)) or None)
    for column in columns:
        table.add_column(markup_free(column), justify="right" if column in numbers else "left", overflow="fold")
    for row in cells:
        table.add_row(*row)
    console = make_console()
    console.print(table)


def write_frame(
    frame: pl.DataFrame, fmt: str, output: Path | None = None, title: str | None = None, notes: tuple[str, ...] = ()
) -> None:
    """Print a query result in a format, or write it to a file. Parquet needs a file; a table is for the
    terminal only, and its caption carries the notes."""
    if fmt == "parquet":
        if output is None:
            raise AccuracyDbError("parquet is a binary format: give --output FILE.parquet")
        frame.write_parquet(output)
        return
    rows, columns = frame.to_dicts(), frame.columns
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
        output.write_text(text, encoding="utf-8")
