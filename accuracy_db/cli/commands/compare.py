"""accuracy-db compare: is the difference between two submissions real? A paired significance test."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import click

from accuracy_db.cli import render
from accuracy_db.cli.commands import (
    corpus_option,
    db_option,
    list_split_option,
    resampling_options,
    scheme_option,
    threshold_option,
)
from accuracy_db.formatting import cell, latex_escape
from accuracy_db.printable import markup_free, printable

FIGURES = ["recall", "precision", "f1", "token_recall", "token_precision", "token_f1", "iou", "cor"]


@click.command()
@click.argument("a")
@click.argument("b")
@db_option
@corpus_option
@list_split_option
@click.option("--scope", default="ALL", show_default=True, help="ALL or one category of the submissions' corpus.")
@click.option(
    "--metric",
    type=click.Choice(FIGURES),
    help="The figure compared (default: recall; iou under the mushroom scheme, whose figures are iou and cor).",
)
@click.option(
    "--test",
    type=click.Choice(["permutation", "bootstrap"]),
    default="permutation",
    show_default=True,
    help="permutation: approximate randomization (texts swapped between A and B); bootstrap: paired bootstrap.",
)
@click.option("--trials", type=int, help="Trials of the test (default: 10000 permutation, 1000 bootstrap).")
@resampling_options
@functools.partial(scheme_option, mushroom=True)
@threshold_option
@click.option("--format", "fmt", type=click.Choice(["table", "json", "latex"]), default="table", show_default=True)
def compare(
    a: str,
    b: str,
    db: Path,
    corpus: str | None,
    split: str | None,
    scope: str,
    metric: str | None,
    test: str,
    trials: int | None,
    resamples: int,
    seed: int,
    confidence: float,
    scheme: str,
    threshold: float | None,
    fmt: str,
) -> None:
    """Compare submission A with submission B (scored against the same gold list) on one figure: both figures,
    the difference A - B with its bootstrap interval, and the p-value of a paired test on the texts."""
    from accuracy_db.stats.intervals import Resampling, check_figure
    from accuracy_db.stats.significance import compare as compare_submissions
    from accuracy_db.store import database

    if metric is not None:
        check_figure(metric, scheme)
    con = database.open_existing(db)
    settings = Resampling(resamples, seed, confidence)
    result = compare_submissions(con, a, b, scope, metric, test, trials, settings, corpus, scheme, split, threshold)
    print_comparison(result, fmt)


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
    console = render.make_console()
    console.print(table)
    if result["excluded_trials"]:
        console.print(Text(f"{result['excluded_trials']} trials left out: the figure is undefined in them"))
    console.print(Text(printable(f"signature: {result['signature']}")))
