"""accuracy-db validity: how well a submission's mistake counts track the gold list's."""

from __future__ import annotations

from pathlib import Path

import click

from accuracy_db.cli import render
from accuracy_db.cli.commands import (
    corpus_option,
    db_option,
    format_option,
    list_split_option,
    resampling_options,
    scopes_option,
)
from accuracy_db.formatting import p_value_cell, to_csv, to_json, to_markdown
from accuracy_db.printable import printable

LEVELS = ["text", "system", "category"]


@click.command()
@click.argument("submission")
@db_option
@corpus_option
@list_split_option
@scopes_option
@click.option(
    "--level",
    "levels",
    type=click.Choice(LEVELS),
    multiple=True,
    help="text (per text), system (per "
    "generating system) or category (agreement of matched pairs); repeatable (default: all three).",
)
@resampling_options
@format_option
def validity(
    submission: str,
    db: Path,
    corpus: str | None,
    split: str | None,
    scopes: tuple[str, ...],
    levels: tuple[str, ...],
    resamples: int,
    seed: int,
    confidence: float,
    fmt: str,
) -> None:
    """Correlate SUBMISSION's mistakes per text (and per generating system) with the gold list's: Pearson r,
    Spearman rho and Kendall tau-b with p-values and bootstrap intervals; and how often its matched mistakes
    agree on the category (agreement and Cohen's kappa)."""
    from accuracy_db.stats.intervals import Resampling
    from accuracy_db.stats.validity import validity
    from accuracy_db.store import database

    settings = Resampling(resamples, seed, confidence)  # before opening anything: a bad option fails at once
    con = database.open_existing(db)
    print_validity(validity(con, submission, list(scopes), list(levels), split, settings, corpus), fmt)


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
            render.print_table(rows, [c for c in rows[0] if c != "scope"], title=f"Validity, scope {scope}")
            systems = next((r["systems"] for r in in_scope if r["level"] == "system" and r["systems"]), None)
            if systems:
                render.print_table(
                    systems, list(systems[0]), title=f"Mistakes per text by generating system, scope {scope}"
                )
            print(printable(in_scope[0]["signature"]) + "\n")
