"""accuracy-db adjudicate: a majority gold list made from several lists, or a soft one (the share that marks each
character)."""

from __future__ import annotations

import re
from pathlib import Path

import click

from accuracy_db.cli.commands import corpus_option, db_option, force_option, list_split_option, stderr
from accuracy_db.printable import printable


@click.command()
@click.argument("sets", nargs=-1, required=True)
@db_option
@click.option("--min-votes", type=int, help="K: keep the tokens that at least K of the lists mark (this or --soft).")
@click.option(
    "--soft",
    is_flag=True,
    help="Soft gold instead: per character, the share of the lists that mark it, written as NAME.jsonl, a Mu-SHROOM "
    "file (soft labels of that probability; hard labels where it is above one half).",
)
@click.option(
    "--as",
    "name",
    required=True,
    help="The derived list's name: NAME.csv and NAME.json are written (NAME.jsonl with --soft).",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("."),
    show_default=True,
    help="The folder to write them to (a submissions folder loads the list at the next refresh).",
)
@force_option
@corpus_option
@list_split_option
def adjudicate(
    sets: tuple[str, ...],
    db: Path,
    min_votes: int | None,
    soft: bool,
    name: str,
    out: Path,
    force: bool,
    corpus: str | None,
    split: str | None,
) -> None:
    """Derive a gold list from SETS (gold or submission names of one split) by majority: the token spans marked by
    at least --min-votes of them, merged and categorised by the rule of Majority gold (docs/agreement.md). Writes
    NAME.csv, a mistake list in the shared task's format (usable as evaluate --gsml, or as a submission), and
    NAME.json, its sidecar, which records the lists and the rule. With --soft, writes NAME.jsonl instead: soft gold,
    per character the share of SETS that mark it (Soft gold, docs/agreement.md). An existing file is replaced only
    with --force, and never an input of the database, a link, or anything but a file (Files the commands write,
    docs/building.md)."""
    from accuracy_db.errors import AccuracyDbError
    from accuracy_db.ingest.sources import registered_inputs
    from accuracy_db.names import check_option
    from accuracy_db.scoring.scores import check_corpus_choice
    from accuracy_db.stats.agreement import adjudicate as derive
    from accuracy_db.stats.agreement import soft_adjudicate, write_derived_list, write_soft_gold
    from accuracy_db.store import database

    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", name):
        raise AccuracyDbError(f"--as {name!r}: a name is letters, digits, _ . and -, starting with a letter or digit")
    check_option("--as", name, "list")  # (gold and ALL pass the pattern)
    if soft == (min_votes is not None):
        raise AccuracyDbError("give --min-votes K (majority gold) or --soft (soft gold), one of them")
    con = database.open_existing(db)
    check_corpus_choice(con, corpus, split)
    inputs = registered_inputs(db, con)
    if soft:
        soft_gold = soft_adjudicate(con, list(sets), split, corpus)
        path = write_soft_gold(con, soft_gold, out, name, force, inputs)
        click.echo(printable(f"{path}: {len(soft_gold.spans)} soft labels, {soft_gold.provenance()}"))
        return
    adjudication = derive(con, list(sets), min_votes, split, corpus)
    csv_path = write_derived_list(con, adjudication, out, name, force, inputs)
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
