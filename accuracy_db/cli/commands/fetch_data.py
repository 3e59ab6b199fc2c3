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
@click.option(
    "--participants",
    is_flag=True,
    help="Download the participants' public test submissions instead (Laval's human protocol, Charles-UPF's "
    "metric), each from its team's repository at a pinned commit, its SHA-256 checked, into --dest (default: the "
    "per-user folder `demo` reads them from).",
)
def fetch_data(url: str | None, sha256: str | None, dest: Path | None, participants: bool) -> None:
    """Download the shared task's public data (only its data files), or the participants' submissions."""
    from rich.progress import DownloadColumn, Progress, TransferSpeedColumn

    from accuracy_db.errors import AccuracyDbError
    from accuracy_db.ingest.fetch_data import fetch_data as fetch
    from accuracy_db.ingest.fetch_data import fetch_participants

    if participants and (url or sha256):
        raise AccuracyDbError("--participants downloads pinned files: it takes no --url or --sha256")
    columns = (*Progress.get_default_columns(), DownloadColumn(), TransferSpeedColumn())
    with Progress(*columns, console=stderr, disable=not stderr.is_terminal) as progress:
        task = progress.add_task("Downloading", total=None)
        shown = lambda done, total: progress.update(task, completed=done, total=total)  # noqa: E731
        if participants:
            files = fetch_participants(dest, progress=shown)
        else:
            folder = fetch(url, dest, progress=shown, sha256=sha256)
    if participants:
        click.echo(f"The participants' submissions in {files[0].parent}: {', '.join(f.name for f in files)}")
    else:
        click.echo(f"Shared-task data in {folder}")
