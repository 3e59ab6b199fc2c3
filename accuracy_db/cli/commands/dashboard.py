"""accuracy-db dashboard: serve the Streamlit dashboard over a database."""

from __future__ import annotations

import errno
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from importlib import resources
from pathlib import Path

import click

from accuracy_db.cli.commands import db_option
from accuracy_db.defaults import DB_ENV, SQL_SECONDS_ENV
from accuracy_db.errors import AccuracyDbError


def app_file() -> Path:
    """The dashboard's entry point where the package is installed."""
    return Path(str(resources.files("accuracy_db.dashboard") / "app.py"))


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


def serve(command: list[str], env: dict[str, str], warm_at: str | None = None) -> int:
    """Run the server until it ends or Ctrl+C or SIGTERM stops it (quietly: exit status 0); with warm_at (the
    server's address), visit each page once as soon as it answers, and whenever the database is republished
    (warm_pages).

    The server starts with SIGINT ignored, so that a Ctrl+C while Python imports Streamlit (a second or so) is no
    traceback; once up, Streamlit sets its own handlers, which stop it with one line. A signal that comes while
    the server is being started is acted on once it has started (this process ignoring SIGINT meanwhile lost a
    Ctrl+C, and both kept running). See stop() for how the server is ended."""
    from accuracy_db.signals import Signals

    with Signals() as signals:
        signals.hold()
        server = subprocess.Popen(command, env=env, preexec_fn=ignore_interrupts)
        if warm_at:
            threading.Thread(target=warm_pages, args=(warm_at, server, Path(env[DB_ENV])), daemon=True).start()
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


# How often the command looks whether `build` or `refresh` has republished the database.
REWARM_SECONDS = 2
WARMED = "Computed the first view of"  # how the command says it has visited the pages (benchmarks wait for it)


def warm_pages(base: str, server: subprocess.Popen, db: Path) -> None:
    """Visit each page of the server at base once, as a browser would but drawing nothing, so that the first
    visitor of a page finds its figures computed (at scale 100 the leaderboard's and the metrics page's first views
    took seconds each: issue 36, benchmarks/results/code-timings.md), and again each time `build` or `refresh`
    republishes the database, whose figures the pages would otherwise compute for their next visitors; each time,
    say so in one line, naming any page left cold and why."""
    from accuracy_db.page_visits import warm
    from accuracy_db.store.publish import publication

    def running() -> bool:
        return server.poll() is None

    seen = None
    while running():
        try:
            now = publication(db)  # as the pages tell a republished database (dashboard.data.identity)
        except OSError:
            now = None
        if now is not None and now != seen:
            republished, seen = seen is not None, now
            visited, failed, seconds = warm(base, running)
            if visited and running():
                again = ", for the database as republished" if republished else ""
                cold = f"; left cold: {'; '.join(failed)}" if failed else ""
                click.echo(f"{WARMED} {visited} pages in {seconds:.1f} s{again}{cold}", err=True)
        time.sleep(REWARM_SECONDS)


def local_address(host: str, port: int) -> str:
    """The address this machine reaches a server listening on host:port at (all addresses: the loopback's)."""
    host = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


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
    help="Visit each page once as soon as the server is up, so that no visitor waits for its first figures.",
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
    env = {**os.environ, DB_ENV: str(db.resolve()), SQL_SECONDS_ENV: f"{sql_seconds:g}"}
    status = serve(streamlit_command(host, port), env, local_address(host, port) if warm else None)
    click.get_current_context().exit(status)
