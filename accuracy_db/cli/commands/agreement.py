"""accuracy-db agreement: how far two or more annotation sets agree."""

from __future__ import annotations

from pathlib import Path

import click

from accuracy_db.cli import render
from accuracy_db.cli.commands import (
    corpus_option,
    db_option,
    format_option,
    list_split_option,
    scheme_option,
    scopes_option,
)
from accuracy_db.formatting import UNDEFINED, p_value_text, signatures, to_csv, to_json, to_latex, to_markdown
from accuracy_db.printable import printable
from accuracy_db.scoring.signature import SCHEME


@click.command()
@click.argument("sets", nargs=-1, required=True)
@db_option
@corpus_option
@list_split_option
@scopes_option
@scheme_option
@format_option
def agreement(
    sets: tuple[str, ...],
    db: Path,
    corpus: str | None,
    split: str | None,
    scopes: tuple[str, ...],
    scheme: str,
    fmt: str,
) -> None:
    """Agreement of two or more lists (SETS: gold or submission names) of one split: each scored against each
    other as if it were the gold list (under the match scheme), the correlations of their mistakes per text, and,
    for three lists or more, Fleiss' kappa and Krippendorff's alpha of the categories of the spans a majority
    marks."""
    from accuracy_db.scoring.scores import check_corpus_choice
    from accuracy_db.stats.agreement import agreement as compute
    from accuracy_db.store import database

    con = database.open_existing(db)
    check_corpus_choice(con, corpus, split, list(scopes))
    print_agreement(compute(con, list(sets), split, list(scopes) or None, corpus, scheme), fmt)


AGREEMENT_TABLES = {
    "pairs": ["reference", "compared", "scope", "texts", "recall", "precision", "f1", "token_f1", "matched",
              "reference_total", "compared_total", "correct", "incorrect", "partial", "missed", "spurious", "kappa",
              "kappa_pairs"],
    "correlations": ["a", "b", "scope", "measure", "value", "p_value", "n", "reason"],
    "categories": ["measure", "value", "units", "min_votes", "reason"],
}  # fmt: skip


# The columns of figures, undefined where they have nothing to divide by.
FIGURE_COLUMNS = ("recall", "precision", "f1", "token_f1", "kappa", "value")


def shown_value(column: str, value):
    """A value as the tables for people show it: a p-value as written everywhere, an undefined figure so named."""
    if column == "p_value":
        return p_value_text(value)
    return UNDEFINED if value is None and column in FIGURE_COLUMNS else value


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
        shown_rows = [{c: shown_value(c, row[c]) for c in columns} for row in rows]
        if fmt == "table":
            scheme = "" if result["scheme"] == SCHEME else f", scheme {result['scheme']}"
            title = f"Agreement of {', '.join(result['sets'])} ({result['split']}{scheme}): {name}"
            render.print_table(shown_rows, columns, title=title, keys=1 if name == "categories" else 2)
        elif fmt == "markdown":
            print(to_markdown(shown_rows, columns))
        else:
            print(to_latex(shown_rows, columns))
    stamps = signatures([row for rows in tables.values() for row in rows])
    print("\n".join(printable(f"signature: {stamp}") for stamp in stamps))
