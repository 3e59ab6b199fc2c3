"""accuracy-db compare: is the difference between two submissions real? A paired significance test."""

from __future__ import annotations

from pathlib import Path

import click

from . import corpus_option, db_option, resampling_options, scheme_option

FIGURES = ["recall", "precision", "f1", "token_recall", "token_precision", "token_f1"]


@click.command()
@click.argument("a")
@click.argument("b")
@db_option
@corpus_option
@click.option("--scope", default="ALL", show_default=True, help="ALL or one category of the submissions' corpus.")
@click.option("--metric", type=click.Choice(FIGURES), default="recall", show_default=True, help="The figure compared.")
@click.option(
    "--test",
    type=click.Choice(["permutation", "bootstrap"]),
    default="permutation",
    show_default=True,
    help="permutation: approximate randomization (texts swapped between A and B); bootstrap: paired bootstrap.",
)
@click.option("--trials", type=int, help="Trials of the test (default: 10000 permutation, 1000 bootstrap).")
@resampling_options
@scheme_option
@click.option("--format", "fmt", type=click.Choice(["table", "json", "latex"]), default="table", show_default=True)
def compare(
    a: str,
    b: str,
    db: Path,
    corpus: str | None,
    scope: str,
    metric: str,
    test: str,
    trials: int | None,
    resamples: int,
    seed: int,
    confidence: float,
    scheme: str,
    fmt: str,
) -> None:
    """Compare submission A with submission B (scored against the same gold list) on one figure: both figures,
    the difference A - B with its bootstrap interval, and the p-value of a paired test on the texts."""
    from .. import database, output
    from ..intervals import Resampling, check_figure
    from ..significance import compare as compare_submissions

    check_figure(metric, scheme)
    con = database.open_existing(db)
    settings = Resampling(resamples, seed, confidence)
    result = compare_submissions(con, a, b, scope, metric, test, trials, settings, corpus, scheme)
    output.print_comparison(result, fmt)
