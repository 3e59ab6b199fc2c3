"""accuracy-db adjudicate: a majority gold list made from several lists."""

from __future__ import annotations

import re
from pathlib import Path

import click

from accuracy_db.cli.commands import corpus_option, db_option, list_split_option, stderr
from accuracy_db.printable import printable


@click.command()
@click.argument("sets", nargs=-1, required=True)
@db_option
@click.option("--min-votes", type=int, required=True, help="K: keep the tokens that at least K of the lists mark.")
@click.option("--as", "name", required=True, help="The derived list's name: NAME.csv and NAME.json are written.")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("."),
    show_default=True,
    help="The folder to write them to (a submissions folder loads the list at the next refresh).",
)
@corpus_option
@list_split_option
def adjudicate(
    sets: tuple[str, ...], db: Path, min_votes: int, name: str, out: Path, corpus: str | None, split: str | None
) -> None:
    """Derive a gold list from SETS (gold or submission names of one split) by majority: the token spans marked by
    at least --min-votes of them, merged and categorised by the rule of Majority gold (docs/agreement.md). Writes
    NAME.csv, a mistake list in the shared task's format (usable as evaluate --gsml, or as a submission), and
    NAME.json, its sidecar, which records the lists and the rule."""
    from accuracy_db.errors import AccuracyDbError
    from accuracy_db.names import check_option
    from accuracy_db.stats.agreement import adjudicate as derive
    from accuracy_db.stats.agreement import write_derived_list
    from accuracy_db.store import database

    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", name):
        raise AccuracyDbError(f"--as {name!r}: a name is letters, digits, _ . and -, starting with a letter or digit")
    check_option("--as", name, "list")  # (gold and ALL pass the pattern)
    con = database.open_existing(db)
    adjudication = derive(con, list(sets), min_votes, split, corpus)
    csv_path = write_derived_list(con, adjudication, out, name)
    click.echo(printable(f"{csv_path}: {len(adjudication.spans)} mistakes, {len(adjudication.ties)} category tie(s)"))
    for tie in adjudication.ties:
        stderr.print(
            printable(
                f"tie: {tie['text_id']} tokens {tie['span_start']}-{tie['span_end']}: {tie['tied_categories']};"
                f" {tie['category']} taken (the first in report order)"
            ),
            markup=False,
            highlight=False,
        )
