"""accuracy-db systems: the generating systems of a corpus ranked by their mean errors per text."""

from __future__ import annotations

from pathlib import Path

import click

from accuracy_db.cli.commands import db_option, format_option, resampling_options

HEADINGS = {name: name for name in ("rank", "system", "split", "human", "texts", "score", "cluster")}


@click.command()
@db_option
@click.option("--corpus", default="shared-task", show_default=True, help="The corpus whose systems are ranked.")
@click.option("--split", help="Only this split (default: each split of the corpus).")
@click.option(
    "--weights",
    default="google",
    show_default=True,
    help="How an MQM corpus's errors weigh: google (Major 5, Minor 1, Minor Fluency/Punctuation 0.1, "
    "Non-translation 25, Neutral 0), count (each error 1), or a file of category,severity,weight rules. "
    "A corpus without severities counts its gold list's mistakes.",
)
@click.option("--ci", is_flag=True, help="Add each score's bootstrap interval and the significance clusters.")
@resampling_options
@click.option(
    "--trials", type=int, default=10_000, show_default=True, help="Permutation trials of each test behind the clusters."
)
@format_option
def systems(
    db: Path,
    corpus: str,
    split: str | None,
    weights: str,
    ci: bool,
    resamples: int,
    seed: int,
    confidence: float,
    trials: int,
    fmt: str,
) -> None:
    """The systems that generated a corpus's texts, ranked by their mean weighted errors per text (an MQM corpus:
    the MQM score; otherwise the gold list's mistakes), lower first; human references flagged."""
    from accuracy_db.cli import render
    from accuracy_db.scoring import scores
    from accuracy_db.stats.intervals import Resampling, check_count
    from accuracy_db.stats.significance import MAX_TRIALS
    from accuracy_db.stats.system_ranking import ranked_systems
    from accuracy_db.store import database

    settings = Resampling(resamples, seed, confidence)
    check_count("trials", trials, MAX_TRIALS)
    con = database.open_existing(db)
    scores.check_corpus_choice(con, corpus, split, ["ALL"])
    rows = ranked_systems(con, corpus, split, weights, settings if ci else None, trials)
    if fmt == "table":  # the interval beside its score
        rows = [row | {"score_ci": row["ci"]} for row in rows]
    title = f"Systems of corpus {corpus}, mean errors per text ({weights})"
    render.print_rows(rows, fmt, title=title, headings=HEADINGS)
