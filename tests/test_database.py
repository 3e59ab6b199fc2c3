"""The connections the package opens: the memory limit every one of them gets."""

import pytest

from accuracy_db import database
from accuracy_db.errors import AccuracyDbError


def memory_limit(con) -> str:
    return con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0]


def test_connections_get_a_memory_limit_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv(database.MEMORY_LIMIT_VARIABLE, "500MB")
    database.open_new(tmp_path / "made.duckdb").close()
    for con in (database.open_new(None), database.open_existing(tmp_path / "made.duckdb")):
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
