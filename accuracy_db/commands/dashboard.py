"""accuracy-db dashboard: serve the Streamlit dashboard over a database."""

from __future__ import annotations

import os
import sys
from importlib import resources
from pathlib import Path

import click

from ..dashboard import DB_ENV
from . import db_option


def app_file() -> Path:
    """The dashboard's entry point where the package is installed."""
    return Path(str(resources.files("accuracy_db.dashboard") / "app.py"))


def streamlit_command(host: str, port: int) -> list[str]:
    """`streamlit run` on the installed app: headless, on host:port, without usage statistics or file watching."""
    return [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(app_file()),
        "--server.address",
        host,
        "--server.port",
        str(port),
        "--server.headless",
        "true",
        "--server.fileWatcherType",
        "none",
        "--browser.gatherUsageStats",
        "false",
        "--client.toolbarMode",
        "viewer",
    ]


@click.command()
@db_option
@click.option("--port", type=int, default=8501, show_default=True, help="The port to serve the dashboard on.")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="The address to serve it on; the default lets only this machine in.",
)
def dashboard(db: Path, port: int, host: str) -> None:
    """Serve the dashboard (leaderboard, errors, documents, gold list, refresh status) at http://HOST:PORT.

    It only reads the database, and follows it when `build` or `refresh` republishes it."""
    from .. import database

    database.open_existing(db).close()  # a missing or unreadable database is reported here, not in the browser
    click.echo(f"Serving the dashboard of {db} at http://{host}:{port} (Ctrl+C stops it)", err=True)
    command = streamlit_command(host, port)
    os.execve(command[0], command, {**os.environ, DB_ENV: str(db.resolve())})
