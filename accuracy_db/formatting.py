"""Rows of figures as people and papers read them, the same on the command line and the dashboard: a figure at 3
decimals, "undefined" where it has nothing to divide by, a figure with its interval, a p-value; and rows as JSON,
CSV, Markdown or LaTeX (JSON keeps every number as it is)."""

from __future__ import annotations

import csv
import io
import json
import math
from decimal import Decimal

from accuracy_db.printable import printable

FORMATS = ("table", "json", "csv", "markdown", "latex")
DISPLAY_CHARS = 1_000  # a table's cells are cut after so many characters: a terminal is no place for a 1 MB value
QUERY_FORMATS = (*FORMATS, "parquet")  # the query command's: any columns, and files for papers

# What the table for people shows, and under which heading; the other formats give every key.
TABLE_COLUMNS = {
    "rank": "rank",
    "submission": "submission",
    "relation": "table or view",
    "kind": "kind",
    "split": "split",
    "categories": "scope",
    "texts": "texts",
    "found_by": "found by k",
    "annotators": "annotators",
    "recall": "recall",
    "precision": "precision",
    "f1": "F1",
    "token_recall": "token recall",
    "token_precision": "token precision",
    "token_f1": "token F1",
    "iou": "IoU",  # the mushroom scheme's
    "cor": "cor",
    "iou_loo": "IoU vs others",  # an annotator's, against the other annotators of its texts
    "cor_loo": "cor vs others",
    "matched": "matched",
    "gold_total": "gold",
    "submitted_total": "submitted",
    "correct": "COR",
    "incorrect": "INC",
    "partial": "PAR",
    "missed": "MIS",
    "spurious": "SPU",
    "cluster": "cluster",
    "column": "column",
    "type": "type",
    "description": "description",
    "file": "file",
    "line": "line",
    "message": "message",
}


UNDEFINED = "undefined"  # the one word for a figure with nothing to divide by, or a test with nothing to test
NULL = "–"  # any other missing value (a query's NULL, a team not given)


# The one place that decides how a figure is written, on the command line and on every page: a figure at DECIMALS
# decimals, its interval's bounds at INTERVAL_DECIMALS (0.691 [0.64, 0.74]); the same as formats for Streamlit's
# number columns (printf) and for the charts' tooltips and labels (d3).
DECIMALS = 3
INTERVAL_DECIMALS = 2
FIGURE_PRINTF = f"%.{DECIMALS}f"
INTERVAL_PRINTF = f"%.{INTERVAL_DECIMALS}f"
COUNT_PRINTF = "%d"
FIGURE_D3 = f".{DECIMALS}f"
DIFFERENCE_D3 = f"+.{DECIMALS}f"
# The smallest p-value written as a number: below it, "< 0.0001", as the leaderboard writes the floor of its
# 9,999 trials; a p-value is never written in exponent notation (4.04e-06) nor as 0.00.
SMALLEST_P = 0.0001


def cell(value) -> str:
    """A value as people read it: a figure at DECIMALS decimals, – for NULL, text printable."""
    if value is None:
        return NULL
    if isinstance(value, float):
        return f"{value:.{DECIMALS}f}"
    return printable(str(value))


def figure_text(value: float | None, signed: bool = False) -> str:
    """A figure as people read it: DECIMALS decimals (with its sign, when signed: a difference), or undefined."""
    if value is None:
        return UNDEFINED
    return f"{value:+.{DECIMALS}f}" if signed else f"{value:.{DECIMALS}f}"


def interval_text(bounds, signed: bool = False) -> str:
    """An interval as people read it: [0.64, 0.74] (signed: [−0.01, +0.06]); – when there is none."""
    if bounds is None or None in bounds:
        return NULL
    sign = "+" if signed else ""
    return f"[{bounds[0]:{sign}.{INTERVAL_DECIMALS}f}, {bounds[1]:{sign}.{INTERVAL_DECIMALS}f}]"


def with_interval(row: dict, key: str, signed: bool = False) -> str:
    """A figure for people, with its interval when it has one: 0.691 [0.64, 0.74] (signed, a difference: +0.024
    [−0.01, +0.06]); undefined when it is."""
    bounds = row.get(f"{key}_ci")
    if bounds is None or None in bounds or row[key] is None:
        return figure_text(row[key], signed)
    return f"{figure_text(row[key], signed)} {interval_text(bounds, signed)}"


def p_value_text(p: float | None, trials: int | None = None) -> str:
    """A p-value as people read it, the one way the command line and every page write it.

    Of a test by random trials (trials: how many counted), a p-value at the test's floor (no trial as extreme as
    the observed difference: p = 1/(trials + 1) as queries/stats/paired_tests.sql counts, or 0 as PERM-BOTH counts)
    says only that p is below the test's resolution: "< 1/(trials + 1)", the bound rounded up to 3 significant
    digits so that it stays a bound: "< 0.0001" for 9,999 trials, and for 10,000 (1/10,001). Any p-value below
    SMALLEST_P (a test's by formula, such as Pearson's, or of more trials) is "< 0.0001" too; any other at 3
    significant digits: 0.0312, 0.550, 0.000123; undefined when there is none."""
    if p is None:
        return UNDEFINED
    if trials and p <= (1 + 1e-9) / (trials + 1):
        return f"< {max(rounded_up(1 / (trials + 1)), SMALLEST_P):.3g}"
    if p < SMALLEST_P:
        return f"< {SMALLEST_P:.3g}"
    return f"{p:#.3g}"


def rounded_up(x: float, digits: int = 3) -> float:
    """A positive number rounded up to so many significant digits (a float's last bit of error forgiven)."""
    scale = 10.0 ** (math.floor(math.log10(x)) - digits + 1)
    return math.ceil(x / scale * (1 - 1e-12)) * scale


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


MARKDOWN_ESCAPES = str.maketrans({"\\": "\\\\", "|": "\\|"})


def markdown_cell(text: str) -> str:
    """Text as a cell of a Markdown table: printable (a line break, which would end the row, shown as \\n), its |
    escaped (one would end the cell) and its backslashes too (so that one before a | stays a backslash)."""
    return printable(text).translate(MARKDOWN_ESCAPES)


def to_markdown(rows: list[dict], columns: list[str] | None = None) -> str:
    """A GitHub-flavoured Markdown table: every row has a cell per column, whatever its values and names hold."""
    columns = columns if columns is not None else list(rows[0]) if rows else []
    if not columns:
        return ""
    lines = ["| " + " | ".join(map(markdown_cell, columns)) + " |", "|" + "|".join(" --- " for _ in columns) + "|"]
    lines += ["| " + " | ".join(markdown_cell(cell(row[c])) for c in columns) + " |" for row in rows]
    return "\n".join(lines) + "\n"


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
    """The columns whose values are all numbers (or NULL, or undefined), with at least one number."""
    return {
        column
        for column in columns
        if any(is_number(row[column]) for row in rows)
        and all(row[column] in (None, UNDEFINED) or is_number(row[column]) for row in rows)
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
        return f"{cell(row[key])} {{\\small {interval_text(bounds)}}}"

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
