"""accuracy-db refresh: load new and changed submissions, retire deleted ones, publish; once or on watch."""

from __future__ import annotations

import time
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
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="The inbox: one submission CSV a file, named by its stem, with an optional <stem>.json or .yaml sidecar.",
)
@corpus_dirs_option
@scores_option
@click.option("--watch", is_flag=True, help="Keep running, and refresh whenever the folder changes.")
@click.option(
    "--interval",
    type=click.FloatRange(min=0.1),
    default=5.0,
    show_default=True,
    help="With --watch: seconds between looks at the folder.",
)
def refresh(
    data: Path | None,
    db: Path,
    submissions: Path,
    corpus_dirs: tuple[Path, ...],
    scores_dir: Path | None,
    watch: bool,
    interval: float,
) -> None:
    """Bring the database up to date with the submissions folder, loading only what changed.

    With --watch it runs until stopped by Ctrl+C or SIGTERM (exit status 0); see accuracy_db/ingest/watch.py for what
    it does when a writer holds the lock or a refresh fails."""
    from accuracy_db.etl.data_folder import resolve_data_dir
    from accuracy_db.ingest.corpus_folders import corpus_folder, published_registrations
    from accuracy_db.ingest.refresh import refresh as refresh_database
    from accuracy_db.ingest.watch import folder_state
    from accuracy_db.ingest.watch import watch as watch_folder
    from accuracy_db.signals import Signals

    def stamped(line: str) -> str:
        """A line to print (it may name a submission, or quote an error): printable, and timed when watching."""
        return printable(f"{time.strftime('%Y-%m-%d %H:%M:%S')} {line}" if watch else line)

    def refresh_once() -> None:
        with stderr.status("Refreshing", spinner="dots") as status:
            report = refresh_database(db, data_dir, submissions, showing_steps(status), corpus_dirs, scores_dir)
        print_warnings(report)
        print_refusals(report, db)
        click.echo(stamped(report.summary()))

    data_dir = resolve_data_dir(data)
    if not watch:
        with Signals():  # Ctrl+C inside a DuckDB query is an interrupt too, not an error with a traceback
            refresh_once()
        return
    stopped_by = watch_folder(
        refresh_once,
        lambda: folder_state(
            submissions, data_dir, [*published_registrations(db), *(corpus_folder(d) for d in corpus_dirs)]
        ),
        interval,
        log=lambda line: click.echo(stamped(line), err=True),
    )
    click.echo(stamped(f"stopped watching {submissions} ({stopped_by})"), err=True)
