"""The connections the package opens: the memory limit every one of them gets, and the version they expect."""

import shutil

import pytest
from shared_data import DATA

from accuracy_db.errors import AccuracyDbError
from accuracy_db.ingest.refresh import refresh
from accuracy_db.store import database


def memory_limit(con) -> str:
    return con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0]


def test_connections_get_a_memory_limit_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv(database.MEMORY_LIMIT_VARIABLE, "500MB")
    database.open_new(tmp_path / "made.duckdb").close()
    for con in (database.open_new(None), database.open_existing(tmp_path / "made.duckdb", same_version=False)):
        assert memory_limit(con) == "476.8 MiB"  # DuckDB shows 500 MB in MiB
        con.close()


def test_the_default_leaves_the_machine_room(monkeypatch):
    monkeypatch.delenv(database.MEMORY_LIMIT_VARIABLE, raising=False)
    con = database.open_new(None)
    assert memory_limit(con) == "2.7 GiB"  # 3 GB


def test_a_limit_that_is_no_size_is_refused_clearly(monkeypatch):
    monkeypatch.setenv(database.MEMORY_LIMIT_VARIABLE, "lots")
    with pytest.raises(AccuracyDbError, match="ACCURACY_DB_MEMORY_LIMIT is 'lots': expected a size"):
        database.open_new(None)


def test_a_database_of_another_version_is_refused_until_a_refresh_brings_it_up_to_date(built_db, tmp_path):
    db = tmp_path / "old.duckdb"
    shutil.copy(built_db, db)
    con = database.connect_writable(db)
    con.execute("DROP VIEW scores CASCADE")  # as a version without this view would have left it
    con.execute("UPDATE source_files SET sha256 = 'older' WHERE role = 'version'")
    con.close()
    with pytest.raises(
        AccuracyDbError, match="old.duckdb was built by another version of accuracy-db: run `accuracy-db refresh`"
    ):
        database.open_existing(db)
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    report = refresh(db, DATA, inbox)
    assert report.published
    con = database.open_existing(db)
    assert con.execute("SELECT count(*) FROM scores").fetchall() == [(0,)]
    con.close()
