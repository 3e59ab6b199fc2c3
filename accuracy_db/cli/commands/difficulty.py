"""accuracy-db difficulty: each submission's recall by how hard the gold mistakes were to find."""

from __future__ import annotations

from pathlib import Path

import click

from accuracy_db.cli.commands import db_option, format_option

TITLES = {
    "found_by": "Recall over the gold mistakes found by k submissions of the split",
    "annotators": "Recall over the gold mistakes marked by k of the three annotators (– : not in the curation)",
}


@click.command()
@db_option
@click.option("--corpus", help="Only this corpus's submissions (default: every corpus's).")
@click.option("--split", help="Only this split (shared task: test or train; dev is train).")
@click.option(
    "--by",
    "measure",
    type=click.Choice(["found-by", "annotators"]),
    default="found-by",
    show_default=True,
    help="found-by: how many submissions of the split found the gold mistake (0: missed by all); annotators: how "
    "many of the three annotators marked it (from the curation exports).",
)
@format_option
def difficulty(db: Path, corpus: str | None, split: str | None, measure: str, fmt: str) -> None:
    """Each submission's recall over the gold mistakes of each difficulty level, with the counts behind it (under
    the shared task's matching). When no submission is scored, says why."""
    from accuracy_db.cli import render
    from accuracy_db.errors import AccuracyDbError
    from accuracy_db.scoring import schemes, scores
    from accuracy_db.store import database

    measure = measure.replace("-", "_")
    con = database.open_existing(db)
    scores.check_corpus_choice(con, corpus, split)
    rows = scores.recall_by_difficulty(con, measure, split, corpus)
    if not rows:
        raise AccuracyDbError(schemes.not_scored(con, corpus, split, schemes.SCHEME))
    render.print_rows(rows, fmt, title=TITLES[measure])
