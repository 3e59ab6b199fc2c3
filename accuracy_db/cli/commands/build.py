"""accuracy-db build: create or rebuild the database."""

from __future__ import annotations

from pathlib import Path

import click

from accuracy_db.cli.commands import (
    corpus_dirs_option,
    data_option,
    db_option,
    print_refusals,
    print_warnings,
    scores_option,
    showing_steps,
    stderr,
)
from accuracy_db.printable import printable


@click.command()
@data_option
@db_option
@click.option(
    "--submissions",
    type=click.Path(file_okay=False, path_type=Path),
    help="A folder of submission CSV files, one submission per file, named by its stem.",
)
@corpus_dirs_option
@scores_option
@click.option(
    "--check/--no-check",
    default=True,
    show_default=True,
    help="Put in the box-score checker's list, a submission named boxscore (docs/checker.md).",
)
def build(
    data: Path | None,
    db: Path,
    submissions: Path | None,
    corpus_dirs: tuple[Path, ...],
    scores_dir: Path | None,
    check: bool,
) -> None:
    """Create or rebuild the database from the shared-task data and a folder of submissions."""
    from accuracy_db.etl.data_folder import resolve_data_dir
    from accuracy_db.ingest.build import build as build_database

    data_dir = resolve_data_dir(data)
    with stderr.status("Building", spinner="dots") as status:
        report = build_database(
            data_dir,
            db,
            submissions,
            step=showing_steps(status),
            corpus_dirs=corpus_dirs,
            scores_dir=scores_dir,
            check=check,
        )
    print_warnings(report)
    print_refusals(report, db)
    splits = "; ".join(
        f"{split}: {report.texts[split]} texts, {report.gold.get(split, 0)} gold mistakes" for split in report.texts
    )
    click.echo(
        printable(
            f"Built {db} from {data_dir} in {report.seconds:.1f} s ({splits}); "
            f"{len(report.loaded)} submission(s) loaded, {len(report.refused)} refused{report.corpus_summary()}"
            f"{report.scores_summary()}."
        )
    )
