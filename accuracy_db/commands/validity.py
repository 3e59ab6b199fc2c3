"""accuracy-db validity: how well a submission's mistake counts track the gold list's."""

from __future__ import annotations

from pathlib import Path

import click

from . import corpus_option, db_option, format_option, list_split_option, resampling_options, scopes_option

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
    from .. import database, output
    from ..intervals import Resampling
    from ..validity import validity

    settings = Resampling(resamples, seed, confidence)  # before opening anything: a bad option fails at once
    con = database.open_existing(db)
    output.print_validity(validity(con, submission, list(scopes), list(levels), split, settings, corpus), fmt)
