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
    partial_credit_option,
    resampling_options,
    scheme_option,
    threshold_option,
)
from accuracy_db.formatting import cell, figure_text, latex_escape, p_value_text
from accuracy_db.printable import printable

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
@functools.partial(scheme_option, mushroom=True, of_corpus=True)
@threshold_option
@partial_credit_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "json", "latex"]),
    default="table",
    show_default=True,
    help="table for people; json for programs; latex: a sentence a paper can quote.",
)
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
    scheme: str | None,
    threshold: float | None,
    partial_credit: float | None,
    fmt: str,
) -> None:
    """Compare submission A with submission B (scored against the same gold list) on one figure: both figures,
    the difference A - B with its bootstrap interval, and the p-value of a paired test on the texts."""
    from accuracy_db.stats.intervals import Resampling, check_figure

    settings = Resampling(resamples, seed, confidence)  # before the statistics' imports: a bad option fails at once
    from accuracy_db.scoring import schemes, scores
    from accuracy_db.stats.significance import compare as compare_submissions
    from accuracy_db.store import database

    con = database.open_existing(db)
    scores.check_corpus_choice(con, corpus, split)
    scheme = schemes.scheme_of_lists(con, scheme, corpus, [a, b], threshold)
    if metric is not None:
        check_figure(metric, scheme)
    result = compare_submissions(
        con, a, b, scope, metric, test, trials, settings, corpus, scheme, split, threshold, partial_credit
    )
    print_comparison(result, fmt)


def print_comparison(result: dict, fmt: str) -> None:
    """The result of compare: JSON as it is; for people, a table naming A and B with one line per figure, and the
    signature; in LaTeX, a sentence a paper can quote."""
    if fmt == "json":
        print(json.dumps(result, indent=1))
        return
    low, high = (cell(bound) for bound in result["difference_ci"])
    p_value = p_value_text(result["p_value"], result["trials"] - result["excluded_trials"])
    if fmt == "latex":
        p_text = p_value if p_value.startswith("<") else f"= {p_value}"
        footnote = f"\\footnote{{\\texttt{{{latex_escape(result['signature'])}}}}}"
        print(
            f"{latex_escape(result['a'])} {figure_text(result['a_value'])} vs {latex_escape(result['b'])} "
            f"{figure_text(result['b_value'])}: difference {figure_text(result['difference'])} "
            f"{{\\small [{low}, {high}]}}, $p {p_text}${footnote}"
        )
        return
    from rich.text import Text

    difference = figure_text(result["difference"]) + ("" if result["difference"] is None else f" [{low}, {high}]")
    labels = [
        f"A: {result['a']}",
        f"B: {result['b']}",
        "difference A - B",
        f"p-value ({result['test']}, {result['trials']:,} trials)",
    ]
    values = [figure_text(result["a_value"]), figure_text(result["b_value"]), difference, p_value]
    console = render.make_console()
    render.print_fitted(
        console,
        [render.Column("", [printable(label) for label in labels]), render.Column(result["metric"], values, "right")],
        title=f"Compare {result['a']} (A) with {result['b']} (B): {result['metric']}, scope {result['scope']}",
    )
    if result["excluded_trials"]:
        console.print(Text(f"{result['excluded_trials']} trials left out: the figure is undefined in them"))
    render.print_signatures(console, [("signature", result["signature"])])
