"""accuracy-db calibration: how good the probabilities of a corpus's lists are, over its characters."""

from __future__ import annotations

from pathlib import Path

import click

from accuracy_db.cli.commands import db_option, format_option

HEADINGS = {  # the table's columns: the views' (queries/stats/probability_*.sql)
    "submission": "submission",
    "split": "split",
    "read_with": "read with",
    "bin": "bin",
    "low": "from",
    "high": "to",
    "threshold": "threshold",
    "precision": "precision",
    "recall": "recall",
    "true_positives": "TP",
    "false_positives": "FP",
    "characters": "characters",
    "gold_characters": "gold characters",
    "mean_probability": "mean probability",
    "observed_rate": "observed rate",
    "gap": "gap",
    "average_precision": "AP",
    "calibration_error": "ECE",
}


@click.command()
@db_option
@click.option(
    "--corpus",
    help="A corpus with lists with probabilities (soft labels, or spans with one); by default the only such corpus.",
)
@click.option("--split", help="Only this split (a Mu-SHROOM corpus's splits are its languages).")
@click.option(
    "--submission",
    help="Show this list's reliability diagram: per bin of probability, the mean probability and the share of "
    "characters the gold marks.",
)
@click.option(
    "--curve", is_flag=True, help="With --submission: its precision-recall curve instead, a point a threshold."
)
@format_option
def calibration(db: Path, corpus: str | None, split: str | None, submission: str | None, curve: bool, fmt: str) -> None:
    """The average precision and expected calibration error of each list with probabilities against its gold list,
    over the characters of a split; with --submission, one list's reliability diagram or curve. A character's
    probability is a Mu-SHROOM list's soft label, or the highest among the list's spans covering it (a span without
    one counts as 1)."""
    from accuracy_db.cli import render
    from accuracy_db.errors import AccuracyDbError
    from accuracy_db.scoring.scores import check_corpus_choice
    from accuracy_db.stats import calibration as quality
    from accuracy_db.store import database

    if curve and submission is None:
        raise AccuracyDbError("--curve draws one list's curve: give --submission")
    con = database.open_existing(db)
    check_corpus_choice(con, corpus, split)
    if submission is None:
        corpus = quality.chosen_corpus(con, corpus)
        rows, title = quality.soft_label_quality(con, corpus, split), f"Probabilities of corpus {corpus}"
    else:
        rows = quality.curve_or_diagram(con, submission, corpus, split, curve)
        title = f"{'Precision-recall curve' if curve else 'Reliability diagram'} of {submission}"
    render.print_rows(rows, fmt, title=title, headings=HEADINGS)
