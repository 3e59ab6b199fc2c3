"""accuracy-db check: the box-score checker's list, put in again."""

from __future__ import annotations

from pathlib import Path

import click

from accuracy_db.cli.commands import db_option
from accuracy_db.printable import printable


@click.command()
@db_option
@click.option("--split", help="The split to check (shared task: test or train); default: every split.")
@click.option(
    "--as",
    "name",
    default="boxscore",
    show_default=True,
    help="The name of the checker's list, a submission scored as any other.",
)
def check(db: Path, split: str | None, name: str) -> None:
    """Check the texts against their games' box scores (docs/checker.md) and put the findings in as a submission,
    in place of the checker's list of that name: every scheme scores it."""
    from accuracy_db.ingest.check import check as check_database
    from accuracy_db.scoring.scores import check_corpus_choice, resolve_split
    from accuracy_db.store import database

    con = database.open_existing(db)
    try:  # the split is checked as every command checks it: the checker reads the shared task's texts
        check_corpus_choice(con, "shared-task", split)
        split = resolve_split(con, split, "shared-task")  # dev: the train split, as every command reads it
    finally:
        con.close()
    counts = check_database(db, split, name)
    found = "; ".join(f"{split_name}: {count} finding(s)" for split_name, count in counts.items())
    click.echo(printable(f"Checked {db}: the list {name} ({found}); see the view boxscore_findings."))
