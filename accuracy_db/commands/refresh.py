"""accuracy-db refresh: load new and changed submissions, retire deleted ones, publish; once or on watch."""

from __future__ import annotations

import time
from pathlib import Path

import click

from . import data_option, db_option, print_refusals, stderr


@click.command()
@data_option
@db_option
@click.option(
    "--submissions",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="The inbox: one submission CSV a file, named by its stem, with an optional <stem>.json or .yaml sidecar.",
)
@click.option("--watch", is_flag=True, help="Keep running, and refresh whenever the folder changes.")
@click.option(
    "--interval",
    type=click.FloatRange(min=0.1),
    default=5.0,
    show_default=True,
    help="With --watch: seconds between looks at the folder.",
)
def refresh(data: Path | None, db: Path, submissions: Path, watch: bool, interval: float) -> None:
    """Bring the database up to date with the submissions folder, loading only what changed."""
    from ..data_folder import resolve_data_dir
    from ..refresh import refresh as refresh_database
    from ..watch import folder_state

    data_dir = resolve_data_dir(data)
    while True:
        seen = folder_state(submissions, data_dir) if watch else None
        with stderr.status("Refreshing", spinner="dots") as status:
            report = refresh_database(db, data_dir, submissions, step=status.update)
        print_refusals(report, db)
        click.echo(f"{time.strftime('%Y-%m-%d %H:%M:%S')} {report.summary()}" if watch else report.summary())
        if not watch:
            return
        while folder_state(submissions, data_dir) == seen:
            time.sleep(interval)
