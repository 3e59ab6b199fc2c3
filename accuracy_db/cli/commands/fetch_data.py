"""accuracy-db fetch-data: download the shared task's public data."""

from __future__ import annotations

from pathlib import Path

import click

from accuracy_db.cli.commands import stderr


@click.command("fetch-data")
@click.option(
    "--url",
    help="Where to download the repository archive from (default: GitHub's archive of the commit the data is "
    "pinned to, its SHA-256 checked).",
)
@click.option(
    "--sha256",
    help="The SHA-256 the data files of --url's archive must have (that of their sha256sum listing, sorted by "
    "path): other data is refused. Without it, --url's data is taken as it is.",
)
@click.option(
    "--dest",
    type=click.Path(path_type=Path),  # (what it may be, fetch_data checks: one line, exit 1, as its other failures)
    help="Where to unpack the data files (default: the per-user cache): a new or empty folder, or one that "
    "fetch-data filled before, which is replaced.",
)
def fetch_data(url: str | None, sha256: str | None, dest: Path | None) -> None:
    """Download the shared task's public data (only its data files)."""
    from rich.progress import DownloadColumn, Progress, TransferSpeedColumn

    from accuracy_db.ingest.fetch_data import fetch_data as fetch

    columns = (*Progress.get_default_columns(), DownloadColumn(), TransferSpeedColumn())
    with Progress(*columns, console=stderr, disable=not stderr.is_terminal) as progress:
        task = progress.add_task("Downloading", total=None)
        folder = fetch(
            url,
            dest,
            progress=lambda done, total: progress.update(task, completed=done, total=total),
            sha256=sha256,
        )
    click.echo(f"Shared-task data in {folder}")
