"""accuracy-db leaderboard: every scored submission, ranked; with --ci, intervals and significance clusters."""

from __future__ import annotations

import functools
from pathlib import Path

import click

from accuracy_db.cli.commands import (
    db_option,
    format_option,
    partial_credit_option,
    resampling_options,
    scheme_option,
    threshold_option,
)


@click.command()
@db_option
@click.option("--corpus", default="shared-task", show_default=True, help="The corpus whose lists are ranked.")
@click.option("--split", help="Only this split (shared task: test or train; dev is train).")
@click.option("--scope", default="ALL", show_default=True, help="ALL or one category of the corpus (NAME, …).")
@click.option(
    "--ci", is_flag=True, help="Add each figure's bootstrap interval and the significance clusters of the ranking."
)
@resampling_options
@click.option(
    "--trials", type=int, default=10_000, show_default=True, help="Permutation trials of each test behind the clusters."
)
@functools.partial(scheme_option, mushroom=True, of_corpus=True)
@threshold_option
@partial_credit_option
@format_option
def leaderboard(
    db: Path,
    corpus: str,
    split: str | None,
    scope: str,
    ci: bool,
    resamples: int,
    seed: int,
    confidence: float,
    trials: int,
    scheme: str | None,
    threshold: float | None,
    partial_credit: float | None,
    fmt: str,
) -> None:
    """Every loaded submission ranked by mistake recall, then precision (under the mushroom scheme: by iou, then
    cor). When none is ranked, says why."""
    from accuracy_db.cli import render
    from accuracy_db.errors import AccuracyDbError
    from accuracy_db.scoring import schemes, scores
    from accuracy_db.stats import ranking
    from accuracy_db.stats.intervals import Resampling, check_count
    from accuracy_db.stats.significance import MAX_TRIALS
    from accuracy_db.store import database

    settings = Resampling(resamples, seed, confidence)
    check_count("trials", trials, MAX_TRIALS)
    con = database.open_existing(db)
    scores.check_corpus_choice(con, corpus, split, [scope])
    scheme = schemes.opening_scheme(con, corpus, scheme, threshold)
    rows = ranking.leaderboard(
        con, split, scope, settings if ci else None, trials, corpus, scheme, threshold, partial_credit
    )
    if not rows:
        raise AccuracyDbError(schemes.not_scored(con, corpus, split, scheme))
    title = f"Leaderboard, scope {scope}" + ("" if scheme == schemes.SCHEME else f", scheme {scheme}")
    title += "" if threshold is None else f", threshold {threshold:g}"
    title += "" if partial_credit is None else f", partial credit {partial_credit:g}"
    render.print_rows(rows, fmt, title=title, hide=("categories",))
