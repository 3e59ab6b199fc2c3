"""accuracy-db dashboard: serve the Streamlit dashboard over a database."""

from __future__ import annotations

import errno
import os
import signal
import socket
import subprocess
import sys
from importlib import resources
from pathlib import Path

import click

from accuracy_db.cli.commands import db_option
from accuracy_db.defaults import DB_ENV, SQL_SECONDS_ENV, WARM_ENV
from accuracy_db.errors import AccuracyDbError


def app_file() -> Path:
    """The dashboard's server application where the package is installed (dashboard/lifespan.py: st.App over the
    pages' entry point, app.py)."""
    return Path(str(resources.files("accuracy_db.dashboard") / "lifespan.py"))


def streamlit_command(host: str, port: int) -> list[str]:
    """`streamlit run` on the installed app, through dashboard/server.py (the libraries the pages share imported
    before any visitor's thread runs): headless, on host:port, without usage statistics or file watching; an error a
    page did not catch shows visitors only that there was one (its message and traceback, which name the server's
    files, go to the command's output).

    Nor does it collect all of Python's garbage after every run of a page, as Streamlit does by default: a full
    collection of the server's heap (polars, Altair's schemas, the cached frames) took most of a document page's
    CPU, holding the interpreter lock the other visitors' pages wait for (issue 36). Python's own
    collector still runs as objects are made."""
    return [
        sys.executable,
        "-m",
        "accuracy_db.dashboard.server",
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
        "--runner.postScriptGC",
        "false",
        "--browser.gatherUsageStats",
        "false",
        "--client.toolbarMode",
        "viewer",
        "--client.showErrorDetails",
        "none",
    ]


def check_can_listen(host: str, port: int) -> None:
    """Fail with a clear message when the server could not listen on host:port (the port in use, say), before
    anything says it is serving."""
    try:
        family, kind, protocol, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror as error:
        raise AccuracyDbError(f"--host {host}: not an address to listen on ({error.strerror})") from None
    with socket.socket(family, kind, protocol) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server does
        try:
            probe.bind(address)
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                raise AccuracyDbError(
                    f"port {port} of {host} is already in use; give another one with --port"
                ) from None
            raise AccuracyDbError(f"cannot listen on {host}:{port}: {error.strerror}") from None


# What the server is given to stop by itself, once told to, before it is killed.
STOP_SECONDS = 5


def serve(command: list[str], env: dict[str, str]) -> int:
    """Run the server until it ends or Ctrl+C or SIGTERM stops it (quietly: exit status 0).

    The server starts with SIGINT ignored, so that a Ctrl+C while Python imports Streamlit (a second or so) is no
    traceback; once up, Streamlit sets its own handlers, which stop it with one line. A signal that comes while
    the server is being started is acted on once it has started (this process ignoring SIGINT meanwhile lost a
    Ctrl+C, and both kept running). See stop() for how the server is ended."""
    from accuracy_db.signals import Signals

    with Signals() as signals:
        signals.hold()
        server = subprocess.Popen(command, env=env, preexec_fn=ignore_interrupts)
        try:
            signals.release()
            return server.wait()
        except KeyboardInterrupt:
            signals.hold()  # a second Ctrl+C must not leave the server running without this process to end it
            stop(server, interrupted=signals.received == "SIGINT")
            return 0


def stop(server: subprocess.Popen, interrupted: bool) -> None:
    """End the server: after a Ctrl+C, which a terminal sends the server too, it is given two seconds to stop by
    itself; then it is sent SIGTERM, and killed when it has not stopped STOP_SECONDS later. Streamlit's handlers
    are Python code, which runs only when a thread gets the interpreter lock: a server whose threads all wait for
    it (as under a crowd of visitors in issue 36) never stopped, and this process waited for it forever."""
    if interrupted and ended(server, 2):
        return
    server.terminate()
    if not ended(server, STOP_SECONDS):
        server.kill()
        server.wait()


def ended(server: subprocess.Popen, seconds: float) -> bool:
    """Whether the server ends within seconds."""
    try:
        server.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        return False
    return True


def ignore_interrupts() -> None:
    """Run in the server's process before Streamlit starts: SIGINT ignored (an ignored signal stays so across exec)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@click.command()
@db_option
@click.option("--port", type=click.IntRange(1, 65535), default=8501, show_default=True, help="The port to serve it on.")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="The address to serve it on; the default lets only this machine in.",
)
@click.option(
    "--warm/--no-warm",
    default=True,
    show_default=True,
    help="Compute each page's first view as soon as the server is up, and again when the database is "
    "republished, so that no visitor waits for its first figures.",
)
@click.option(
    "--sql-seconds",
    type=click.FloatRange(1, 3600),
    default=10,
    show_default=True,
    help="How long a query of the SQL page may run before it is stopped.",
)
def dashboard(db: Path, port: int, host: str, warm: bool, sql_seconds: float) -> None:
    """Serve the dashboard at http://HOST:PORT: its pages Leaderboard, Significance, Agreement, Validity,
    Calibration, Metrics, Systems, Difficulty, Errors browser, Document view, Gold explorer, Refresh status and
    SQL.

    It only reads the database, and follows it when `build` or `refresh` republishes it. Ctrl+C stops it."""
    from accuracy_db.store import database

    database.open_existing(db).close()  # a missing or unreadable database is reported here, not in the browser
    check_can_listen(host, port)
    click.echo(f"Serving the dashboard of {db} at http://{host}:{port} (Ctrl+C stops it)", err=True)
    env = {**os.environ, DB_ENV: str(db.resolve()), SQL_SECONDS_ENV: f"{sql_seconds:g}", WARM_ENV: str(int(warm))}
    status = serve(streamlit_command(host, port), env)
    click.get_current_context().exit(status)
