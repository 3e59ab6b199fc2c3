"""Print rows of figures as a table, JSON, CSV or Markdown."""

from __future__ import annotations

import csv
import io
import json

FORMATS = ("table", "json", "csv", "markdown")

# What the table for people shows, and under which heading; the other formats give every key.
TABLE_COLUMNS = {
    "rank": "rank",
    "submission": "submission",
    "split": "split",
    "categories": "scope",
    "recall": "recall",
    "precision": "precision",
    "f1": "F1",
    "token_recall": "token recall",
    "token_precision": "token precision",
    "token_f1": "token F1",
    "matched": "matched",
    "gold_total": "gold",
    "submitted_total": "submitted",
    "relation": "table or view",
    "kind": "kind",
    "column": "column",
    "type": "type",
    "description": "description",
    "file": "file",
    "line": "line",
    "message": "message",
}


def cell(value) -> str:
    """A value as people read it: 3 decimals, – for undefined (NULL)."""
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def to_json(rows: list[dict]) -> str:
    return json.dumps(rows, indent=1)


def to_csv(rows: list[dict]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]) if rows else [], lineterminator="\n")
    writer.writeheader()
    writer.writerows({k: "" if v is None else v for k, v in row.items()} for row in rows)
    return out.getvalue()


def to_markdown(rows: list[dict]) -> str:
    if not rows:
        return ""
    columns = list(rows[0])
    lines = ["| " + " | ".join(columns) + " |", "|" + "|".join(" --- " for _ in columns) + "|"]
    lines += ["| " + " | ".join(cell(row[c]) for c in columns) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def print_rows(rows: list[dict], fmt: str, title: str | None = None, hide: tuple[str, ...] = ()) -> None:
    """Print rows in a format; the table is for people (3 decimals, – for undefined, without the hidden
    columns), the rest for programs."""
    if fmt == "table":
        from rich.console import Console
        from rich.table import Table

        columns = [key for key in TABLE_COLUMNS if rows and key in rows[0] and key not in hide]
        table = Table(title=title, caption="– : undefined (nothing to divide by)")
        for key in columns:
            table.add_column(
                TABLE_COLUMNS[key], justify="left" if key in ("submission", "split", "categories") else "right"
            )
        for row in rows:
            table.add_row(*(cell(row[key]) for key in columns))
        console = Console()
        if not console.is_terminal:
            console.width = 200  # a log or a pipe: never cut a column
        console.print(table)
    else:
        render = {"json": to_json, "csv": to_csv, "markdown": to_markdown}[fmt]
        print(render(rows), end="" if fmt != "json" else "\n")
