"""Print rows of figures as a table, JSON, CSV or Markdown; and query results in those formats, LaTeX or Parquet."""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import AccuracyDbError
from .printable import markup_free, printable
from .signature import SCHEME

if TYPE_CHECKING:
    import polars as pl

FORMATS = ("table", "json", "csv", "markdown", "latex")
DISPLAY_CHARS = 1_000  # a table's cells are cut after so many characters: a terminal is no place for a 1 MB value
QUERY_FORMATS = (*FORMATS, "parquet")  # the query command's: any columns, and files for papers

# What the table for people shows, and under which heading; the other formats give every key.
TABLE_COLUMNS = {
    "rank": "rank",
    "submission": "submission",
    "split": "split",
    "categories": "scope",
    "found_by": "found by k",
    "annotators": "annotators",
    "recall": "recall",
    "precision": "precision",
    "f1": "F1",
    "token_recall": "token recall",
    "token_precision": "token precision",
    "token_f1": "token F1",
    "matched": "matched",
    "gold_total": "gold",
    "submitted_total": "submitted",
    "correct": "COR",
    "incorrect": "INC",
    "partial": "PAR",
    "missed": "MIS",
    "spurious": "SPU",
    "cluster": "cluster",
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
    """A value as people read it: 3 decimals, – for undefined (NULL), text printable."""
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.3f}"
    return printable(str(value))


def with_interval(row: dict, key: str) -> str:
    """A figure for people, with its interval when it has one: 0.691 [0.64, 0.74]."""
    bounds = row.get(f"{key}_ci")
    if bounds is None or row[key] is None:
        return cell(row[key])
    low, high = (cell(bound) if bound is None else f"{bound:.2f}" for bound in bounds)
    return f"{cell(row[key])} [{low}, {high}]"


def flat(rows: list[dict]) -> list[dict]:
    """Rows for a flat format (CSV, Markdown): an interval [low, high] becomes the columns <key>_low and
    <key>_high, a mapping {name: value} the columns <key>_<name>."""
    flattened = []
    for row in rows:
        out = {}
        for key, value in row.items():
            if isinstance(value, list) and key.endswith("_ci"):
                out[f"{key}_low"], out[f"{key}_high"] = value
            elif isinstance(value, dict):
                out |= {f"{key}_{name}": item for name, item in value.items()}
            else:
                out[key] = value
        flattened.append(out)
    return flattened


def signatures(rows: list[dict]) -> list[str]:
    """The distinct signatures of rows, in order."""
    return list(dict.fromkeys(row["signature"] for row in rows if row.get("signature")))


def to_json(rows: list[dict]) -> str:
    return json.dumps(rows, indent=1, default=str)  # dates, decimals… as their text


def to_csv(rows: list[dict], columns: list[str] | None = None) -> str:
    out = io.StringIO()
    fieldnames = columns if columns is not None else list(rows[0]) if rows else []
    writer = csv.DictWriter(out, fieldnames=fieldnames, lineterminator="\n")
    writer.writeheader()
    writer.writerows({k: "" if v is None else v for k, v in row.items()} for row in rows)
    return out.getvalue()


def to_markdown(rows: list[dict], columns: list[str] | None = None) -> str:
    columns = columns if columns is not None else list(rows[0]) if rows else []
    if not columns:
        return ""
    lines = ["| " + " | ".join(columns) + " |", "|" + "|".join(" --- " for _ in columns) + "|"]
    lines += ["| " + " | ".join(cell(row[c]) for c in columns) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def print_rows(rows: list[dict], fmt: str, title: str | None = None, hide: tuple[str, ...] = ()) -> None:
    """Print rows of figures in a format. The table is for people: 3 decimals, – for undefined, intervals
    compactly beside their figures, without the hidden columns, and the signatures under it. The other formats
    give every key (CSV and Markdown with intervals in two columns); LaTeX sets the figures of a paper's table."""
    if fmt == "table":
        from rich.console import Console
        from rich.table import Table
        from rich.text import Text

        columns = [key for key in TABLE_COLUMNS if rows and key in rows[0] and key not in hide]
        table = Table(title=title and markup_free(title), caption="– : undefined (nothing to divide by)")
        for key in columns:  # text left-aligned, figures and counts right-aligned
            text = any(isinstance(row.get(key), str) for row in rows)
            table.add_column(TABLE_COLUMNS[key], justify="left" if text else "right")
        for row in rows:
            table.add_row(*(Text(with_interval(row, key)) for key in columns))  # Text: a [bracket] is not markup
        console = Console(highlight=False)
        if not console.is_terminal:
            console.width = 200  # a log or a pipe: never cut a column
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


LATEX_SPECIALS = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def latex_escape(text: str) -> str:
    return "".join(LATEX_SPECIALS.get(char, char) for char in text)


def is_number(value) -> bool:
    return isinstance(value, (int, float, Decimal)) and not isinstance(value, bool)


def numeric_columns(rows: list[dict], columns: list[str]) -> set[str]:
    """The columns whose values are all numbers (or NULL), with at least one number."""
    return {
        column
        for column in columns
        if any(row[column] is not None for row in rows)
        and all(row[column] is None or is_number(row[column]) for row in rows)
    }


def to_latex(rows: list[dict], columns: list[str] | None = None) -> str:
    """A tabular environment with booktabs rules, as the shared task's results were published: numbers right
    aligned at 3 decimals, -- for undefined (NULL), LaTeX's special characters escaped."""
    columns = columns if columns is not None else list(rows[0]) if rows else []
    numbers = numeric_columns(rows, columns)
    spec = "".join("r" if column in numbers else "l" for column in columns)

    def latex_cell(value) -> str:
        return "--" if value is None else latex_escape(cell(value))

    lines = [f"\\begin{{tabular}}{{{spec}}}", "\\toprule", " & ".join(map(latex_escape, columns)) + r" \\", "\\midrule"]
    lines += [" & ".join(latex_cell(row[column]) for column in columns) + r" \\" for row in rows]
    lines += ["\\bottomrule", "\\end{tabular}"]
    return "\n".join(lines) + "\n"


FIGURE_KEYS = ("recall", "precision", "f1", "token_recall", "token_precision", "token_f1")


def figures_latex(rows: list[dict], hide: tuple[str, ...] = ()) -> str:
    """Rows of figures as a booktabs tabular: a figure with its interval as 0.691 {\\small [0.64, 0.74]}, a rule
    between significance clusters (a submission below a rule is significantly worse than one above it), and the
    signatures as a footnote row."""
    keys = ("rank", "submission", "split", "categories", *FIGURE_KEYS, "cluster")
    columns = [key for key in keys if rows and key in rows[0] and key not in hide]

    def latex_cell(row: dict, key: str) -> str:
        if row[key] is None:
            return "--"
        bounds = row.get(f"{key}_ci")
        if bounds is None or None in bounds:
            return latex_escape(cell(row[key]))
        return f"{cell(row[key])} {{\\small [{bounds[0]:.2f}, {bounds[1]:.2f}]}}"

    spec = "".join("l" if key in ("submission", "split", "categories") else "r" for key in columns)
    lines = [f"\\begin{{tabular}}{{{spec}}}", "\\toprule"]
    lines += [" & ".join(latex_escape(TABLE_COLUMNS.get(key, key)) for key in columns) + r" \\", "\\midrule"]
    for previous, row in zip([None, *rows], rows):
        if previous is not None and row.get("cluster") not in (None, previous.get("cluster")):
            lines.append("\\midrule")
        lines.append(" & ".join(latex_cell(row, key) for key in columns) + r" \\")
    lines.append("\\bottomrule")
    for signature in signatures(rows):
        lines.append(
            f"\\multicolumn{{{len(columns)}}}{{l}}{{\\footnotesize\\texttt{{{latex_escape(signature)}}}}} \\\\"
        )
    lines.append("\\end{tabular}")
    return "\n".join(lines) + "\n"


def print_comparison(result: dict, fmt: str) -> None:
    """The result of compare: JSON as it is; for people, one line per figure and the signature; in LaTeX, a
    sentence a paper can quote."""
    if fmt == "json":
        print(json.dumps(result, indent=1))
        return
    low, high = (cell(bound) for bound in result["difference_ci"])
    p_value = cell(result["p_value"]) if result["p_value"] is None or result["p_value"] >= 0.001 else "< 0.001"
    if fmt == "latex":
        p_text = p_value if p_value.startswith("<") else f"= {p_value}"
        footnote = f"\\footnote{{\\texttt{{{latex_escape(result['signature'])}}}}}"
        print(
            f"{latex_escape(result['a'])} {cell(result['a_value'])} vs {latex_escape(result['b'])} "
            f"{cell(result['b_value'])}: difference {cell(result['difference'])} {{\\small [{low}, {high}]}}, "
            f"$p {p_text}${footnote}"
        )
        return
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table(title=markup_free(f"{result['a']} vs {result['b']}: {result['metric']}, scope {result['scope']}"))
    table.add_column("")
    table.add_column("value", justify="right")
    for label, value in (
        (result["a"], cell(result["a_value"])),
        (result["b"], cell(result["b_value"])),
        ("difference (A - B)", f"{cell(result['difference'])} [{low}, {high}]"),
        (f"p-value ({result['test']}, {result['trials']} trials)", p_value),
    ):
        table.add_row(Text(printable(label)), Text(value))
    console = Console(highlight=False)
    if not console.is_terminal:
        console.width = 200
    console.print(table)
    if result["excluded_trials"]:
        console.print(Text(f"{result['excluded_trials']} trials left out: the figure is undefined in them"))
    console.print(Text(printable(f"signature: {result['signature']}")))


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
    from rich.console import Console
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
    console = Console()
    if not console.is_terminal:
        console.width = 200  # a log or a pipe: never cut a column
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


def p_value_cell(p: float | None) -> str:
    """A p-value as people read it: 3 decimals, or 2 significant digits below 0.001."""
    if p is None:
        return "–"
    return f"{p:.3f}" if p >= 0.001 else f"{p:.1e}"


def validity_rows(results: list[dict]) -> list[dict]:
    """The figures of accuracy-db validity as people read them: the interval compact, a note on what is
    undefined or left out."""
    rows = []
    for result in results:
        if result["reason"] is not None:
            note = result["reason"]
        elif result["undefined_resamples"]:
            note = f"{result['undefined_resamples']} resamples undefined, left out"
        else:
            note = ""
        ci = result["ci"]
        rows.append(
            {
                "scope": result["scope"],
                "level": result["level"],
                "measure": result["measure"],
                "value": result["value"],
                "interval": "–" if ci is None else f"[{ci[0]:.2f}, {ci[1]:.2f}]",
                "p": p_value_cell(result["p_value"]),
                "n": result["n"],
                "note": note,
            }
        )
    return rows


def print_validity(results: list[dict], fmt: str) -> None:
    """Print accuracy-db validity's figures: a table per scope with its signature under it (and the mistakes per
    text of each generating system, at the system level); JSON as they are; CSV with the interval in two columns;
    Markdown as the table, with the signatures under it."""
    if fmt == "json":
        print(to_json(results))
    elif fmt == "csv":
        flat = [
            {
                **{key: value for key, value in result.items() if key not in ("ci", "systems", "signature")},
                "ci_low": None if result["ci"] is None else result["ci"][0],
                "ci_high": None if result["ci"] is None else result["ci"][1],
                "signature": result["signature"],
            }
            for result in results
        ]
        print(to_csv(flat), end="")
    elif fmt == "markdown":
        rows = validity_rows(results)
        print(to_markdown(rows), end="")
        print("\n" + "\n".join(f"`{stamp}`  " for stamp in dict.fromkeys(r["signature"] for r in results)))
    else:
        for scope in dict.fromkeys(result["scope"] for result in results):
            in_scope = [result for result in results if result["scope"] == scope]
            rows = validity_rows(in_scope)
            print_table(rows, [c for c in rows[0] if c != "scope"], title=f"Validity, scope {scope}")
            systems = next((r["systems"] for r in in_scope if r["level"] == "system" and r["systems"]), None)
            if systems:
                print_table(systems, list(systems[0]), title=f"Mistakes per text by generating system, scope {scope}")
            print(printable(in_scope[0]["signature"]) + "\n")


AGREEMENT_TABLES = {
    "pairs": ["reference", "compared", "scope", "recall", "precision", "f1", "token_f1", "matched", "reference_total",
              "compared_total", "correct", "incorrect", "partial", "missed", "spurious", "kappa", "kappa_pairs"],
    "correlations": ["a", "b", "scope", "measure", "value", "p_value", "n", "reason"],
    "categories": ["measure", "value", "units", "min_votes", "reason"],
}  # fmt: skip


def print_agreement(result: dict, fmt: str) -> None:
    """accuracy-db agreement's figures: JSON as they are; otherwise three tables (the pairs' figures, the per-text
    correlations, and the categories' reliability for three lists or more), in CSV one table with a leading column
    naming the table."""
    if fmt == "json":
        print(to_json(result))
        return
    tables = {name: result[name] or [] for name in AGREEMENT_TABLES}
    # a scheme's pairs have the keys it reports: token_f1 under the shared task's alone, COR… under nervaluate's
    shown = {**AGREEMENT_TABLES, "pairs": [c for c in AGREEMENT_TABLES["pairs"] if c in result["pairs"][0]]}
    if fmt == "csv":
        columns = ["table", *dict.fromkeys(c for names in shown.values() for c in names), "signature"]
        rows = [{"table": name, **row} for name, rows in tables.items() for row in rows]
        print(to_csv([{c: row.get(c) for c in columns} for row in rows], columns), end="")
        return
    for name, rows in tables.items():
        if not rows:
            continue
        columns = shown[name]
        shown_rows = [{c: p_value_cell(row[c]) if c == "p_value" else row[c] for c in columns} for row in rows]
        if fmt == "table":
            scheme = "" if result["scheme"] == SCHEME else f", scheme {result['scheme']}"
            title = f"Agreement of {', '.join(result['sets'])} ({result['split']}{scheme}): {name}"
            print_table(shown_rows, columns, title=title)
        elif fmt == "markdown":
            print(to_markdown(shown_rows, columns))
        else:
            print(to_latex(shown_rows, columns))
    stamps = signatures([row for rows in tables.values() for row in rows])
    print("\n".join(printable(f"signature: {stamp}") for stamp in stamps))
