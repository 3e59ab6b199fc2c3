"""accuracy-db export postgres: a private PostgreSQL server gets the database, and its models give DuckDB's rows."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import psycopg
import pytest

from accuracy_db import database, portable
from accuracy_db.analyses import saved_analyses
from accuracy_db.cli import run

PARAMETERS = {"submission": "submission", "first": "submission", "second": "gsml_doc_based"}
# every submission of the shared-task data finds some gold mistake: gsml_doc_based is the gold list itself
EMPTY_ON_SHARED_TASK = {"missed_by_every_submission"}


def server_binaries() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    assert found, "PostgreSQL is not installed: apt-get install postgresql (.ci/run and make test do)"
    return Path(found[-1]).parent


@pytest.fixture(scope="session")
def postgres_server():
    """A PostgreSQL server of the test session, listening only on a Unix socket in its own folder; as nobody when
    the tests run as root (PostgreSQL refuses root)."""
    binaries = server_binaries()
    folder = Path(tempfile.mkdtemp(prefix="accuracy-pg-"))  # short: a socket path has at most 107 bytes
    as_user = []
    if os.geteuid() == 0:
        shutil.chown(folder, "nobody")
        as_user = ["runuser", "-u", "nobody", "--"]
    data = folder / "data"
    subprocess.run(
        [*as_user, binaries / "initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale"],
        check=True,
        capture_output=True,
    )
    subprocess.run(
        [
            *as_user,
            binaries / "pg_ctl",
            "-D",
            data,
            "-l",
            folder / "log",
            "-w",
            "-o",
            f"-c listen_addresses='' -k {folder}",
            "start",
        ],
        check=True,
        capture_output=True,
    )
    try:
        yield folder
    finally:
        subprocess.run([*as_user, binaries / "pg_ctl", "-D", data, "-m", "fast", "-w", "stop"], capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def exported(postgres_server, built_db):
    """The shared-task database exported by the command into a fresh PostgreSQL database."""
    with psycopg.connect(f"host={postgres_server} user=postgres dbname=postgres", autocommit=True) as admin:
        admin.execute("CREATE DATABASE shared_task")
    dsn = f"host={postgres_server} user=postgres dbname=shared_task"
    assert run(["export", "postgres", "--db", str(built_db), "--dsn", dsn]) == 0
    with psycopg.connect(dsn) as pg:
        yield pg


def rows_of(con, sql: str) -> list[tuple]:
    return [tuple(row) for row in con.execute(sql).fetchall()]


@pytest.mark.parametrize("view", ["scores", "leaderboard"])
def test_views_equal_duckdb_row_for_row(exported, built, view):
    columns = [c for (c,) in built.execute(f"SELECT column_name FROM (DESCRIBE {view})").fetchall()]
    order = f"ORDER BY {', '.join(columns[:6])}"
    duck = rows_of(built, f"SELECT {', '.join(columns)} FROM {view} {order}")
    pg = rows_of(exported, f"SELECT {', '.join(columns)} FROM {view} {order}")
    assert len(duck) == 35 and pg == duck


@pytest.mark.parametrize("analysis", saved_analyses(), ids=lambda a: a.name)
def test_saved_analyses_equal_duckdb_row_for_row(exported, built, analysis):
    params = {name: PARAMETERS[name] for name in analysis.parameters}
    duck = [tuple(row) for row in built.execute(analysis.sql, params).fetchall()]
    pg = rows_of(exported, portable.transpile(analysis.sql, "postgres", params))
    assert pg == duck
    assert bool(duck) != (analysis.name in EMPTY_ON_SHARED_TASK)


def test_constraints_are_kept(exported):
    with pytest.raises(psycopg.errors.CheckViolation):
        exported.execute("INSERT INTO team_games (text_id, side, team_name, team_city) VALUES ('x', 'away', 'a', 'b')")
    exported.rollback()
    with pytest.raises(psycopg.errors.UniqueViolation):
        exported.execute("INSERT INTO categories SELECT * FROM categories LIMIT 1")
    exported.rollback()


def test_incremental_models_are_tables_with_every_submission(exported, built):
    for name in database.incremental_models():
        kind = exported.execute("SELECT table_type FROM information_schema.tables WHERE table_name = %s", [name])
        assert kind.fetchone() == ("BASE TABLE",)
        assert (
            exported.execute(f"SELECT count(*) FROM {name}").fetchone()
            == built.execute(f"SELECT count(*) FROM {name}").fetchone()
        )
