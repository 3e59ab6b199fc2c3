"""The connections the package opens: the memory limit every one of them gets, and the version they expect; and the
models it makes tables or views, as their headers say."""

import re
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


def test_a_model_reads_submission_ids_exactly_when_its_header_says_it_is_incremental():
    definitions = database.model_definitions()
    reading = {name for name, sql in definitions.items() if "$submission_ids" in re.sub(r"--[^\n]*", "", sql)}
    assert reading == {name for name, sql in definitions.items() if database.is_incremental(sql)}
    assert database.materialization(definitions["scored_mistakes"]) == database.BATCHED
    assert database.materialization(definitions["gold_token_counts"]) == database.GOLD_TABLE


def test_the_models_a_header_says_are_tables_are_tables_and_the_others_views(built):
    tables = {name for (name,) in built.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
    views = {name for (name,) in built.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall()}
    models = database.view_definitions()
    assert set(database.table_models()) == tables & set(models)
    assert set(models) - set(database.table_models()) == views
    assert "query" not in {database.materialization(sql) for sql in models.values()}


@pytest.mark.parametrize("bound", [1, 800, 10**6])
def test_batched_models_take_the_submissions_in_order_in_batches_up_to_the_bound(built, monkeypatch, bound):
    ids = [i for (i,) in built.execute("SELECT submission_id FROM evaluations ORDER BY submission_id DESC").fetchall()]
    sizes = dict(
        built.execute(
            "SELECT submission_id, (SELECT count(*) FROM mistakes WHERE set_id IN (gold_id, submission_id))"
            " FROM evaluations"
        ).fetchall()
    )
    monkeypatch.setattr(database, "BATCH_MISTAKES", bound)
    batches = database.submission_batches(built, ids)
    assert [i for batch in batches for i in batch] == ids
    for batch, following in zip(batches, batches[1:] + [None]):
        assert len(batch) == 1 or sum(sizes[i] for i in batch) <= bound
        if following:  # no batch could have taken the next one too
            assert sum(sizes[i] for i in batch) + sizes[following[0]] > bound
    sql = database.view_definitions()["scored_mistakes"]
    batched = sorted(row for batch in batches for row in built.execute(sql, {"submission_ids": batch}).fetchall())
    assert batched == sorted(built.execute("SELECT * FROM scored_mistakes").fetchall())
