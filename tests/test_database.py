"""The connections the package opens: the memory limit every one of them gets, and the version they expect; and the
models it makes tables or views, as their headers say."""

import re
import shutil

import pytest
import sqlglot
from shared_data import DATA
from sqlglot import exp

from accuracy_db.errors import AccuracyDbError
from accuracy_db.ingest.refresh import refresh
from accuracy_db.scoring.evaluate import MODELS
from accuracy_db.scoring.schemes import SCHEME
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


CATALOG = {
    "tables": "SELECT table_name, comment, sql FROM duckdb_tables() WHERE NOT internal",
    "views": "SELECT view_name, comment, sql FROM duckdb_views() WHERE NOT internal",
    "columns": "SELECT table_name, column_name, column_index, data_type, comment FROM duckdb_columns() "
    "WHERE NOT internal",
    "constraints": "SELECT table_name, constraint_type, constraint_text FROM duckdb_constraints()",
    "indexes": "SELECT index_name, table_name, sql FROM duckdb_indexes()",
    "macros": "SELECT function_name, macro_definition FROM duckdb_functions() WHERE NOT internal",
    "sequences": "SELECT sequence_name, start_value, last_value FROM duckdb_sequences()",
}


def catalog(con) -> dict[str, list[tuple]]:
    return {kind: sorted(con.execute(sql).fetchall(), key=repr) for kind, sql in CATALOG.items()}


def test_a_new_database_file_is_a_copy_of_the_processs_empty_database_and_equals_one_made_in_place(tmp_path):
    made_in_place = database.connect(str(tmp_path / "in-place.duckdb"))
    database.create_database(made_in_place)
    expected = catalog(made_in_place)
    assert len(expected["views"]) > 30 and all(comment for _, comment, _ in expected["views"])
    for name in ("first.duckdb", "second.duckdb"):  # the first may make the empty database, the second copies it
        con = database.open_new(tmp_path / name)
        assert catalog(con) == expected
        con.execute("INSERT INTO nlg_systems SELECT * FROM nlg_systems")  # writable
        con.close()
    assert database.empty_database().stat().st_size == (tmp_path / "second.duckdb").stat().st_size
    with pytest.raises(FileExistsError):  # as creating a table in it would fail: never written over
        database.open_new(tmp_path / "first.duckdb")


def test_the_empty_database_is_made_again_when_its_file_went_and_in_place_when_it_cannot_be(tmp_path, monkeypatch):
    gone = database.empty_database()
    gone.unlink()
    con = database.open_new(tmp_path / "after-a-cleaner.duckdb")
    assert database.empty_database() != gone and database.empty_database().is_file()
    expected = catalog(con)
    con.close()

    def no_room(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(database.tempfile, "mkdtemp", no_room)
    database.empty_database_file.cache_clear()
    assert database.empty_database() is None
    con = database.open_new(tmp_path / "in-place.duckdb")
    assert catalog(con) == expected
    con.close()
    monkeypatch.undo()
    database.empty_database_file.cache_clear()


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
    # the empty inbox's refresh retired every submission of a file; the box-score checker's list stays, scored in
    # each scope of each split (docs/checker.md: `check` puts it in anew)
    assert con.execute("SELECT submission, count(*) FROM scores GROUP BY ALL").fetchall() == [("boxscore", 14)]
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


def sqlglot_reads(definitions: dict[str, str]) -> dict[str, set[str]]:
    """The reference for what each model reads: the tables sqlglot's parse names, less the model's own common table
    expressions, that are models."""
    reads = {}
    for name, sql in definitions.items():
        tree = sqlglot.parse_one(sql, read="duckdb")
        ctes = {cte.alias_or_name.lower() for cte in tree.find_all(exp.CTE)}
        tables = {table.name.lower() for table in tree.find_all(exp.Table)}
        reads[name] = (tables - ctes) & definitions.keys() - {name}
    return reads


def test_what_each_model_reads_is_what_sqlglot_parses_it_to_read():
    definitions = database.model_definitions()
    assert database.models_read(definitions) == sqlglot_reads(definitions)


def test_a_column_an_alias_a_comment_or_a_string_named_like_a_model_is_no_dependency():
    definitions = {
        "texts_by_size": "SELECT 1 AS sizes",
        "sizes": "SELECT sizes.texts_by_size, t.x AS texts_by_size FROM (SELECT 1 AS texts_by_size, 2 AS x) AS t, "
        "(SELECT 1 AS texts_by_size) AS sizes",
        "labels": "/* reads texts_by_size?\n sizes */ SELECT 'texts_by_size' AS label, \"sizes\" FROM (SELECT 1) AS t(sizes)",
        "own": "WITH sizes AS (SELECT 1) SELECT * FROM sizes",
        "reader": "SELECT * FROM texts_by_size JOIN own USING (x) WHERE x IN (SELECT x FROM labels)",
        "subquery": "SELECT (SELECT count(*) FROM sizes) AS n",
    }
    assert database.models_read(definitions) == {
        "texts_by_size": set(),
        "sizes": set(),
        "labels": set(),
        "own": set(),
        "reader": {"texts_by_size", "own", "labels"},
        "subquery": {"sizes"},
    }
    # a column named like a model that reads it back is no cycle
    order = database.views_in_dependency_order(definitions)
    assert order.index("texts_by_size") < order.index("reader") and order.index("sizes") < order.index("subquery")


def test_a_model_that_does_not_parse_is_named():
    with pytest.raises(AccuracyDbError, match='^model broken does not parse: syntax error at or near "WHERE"$'):
        database.models_read({"broken": "SELECT FROM WHERE"})


def test_evaluate_s_scratch_database_holds_what_the_scores_read_and_no_more():
    """The drop-in `evaluate` creates `scores` and what it reads, directly or not, as sqlglot parses the models."""
    definitions = database.view_definitions()
    reads, needed, pending = sqlglot_reads(definitions), set(), list(MODELS[SCHEME])
    while pending:
        name = pending.pop()
        if name not in needed:
            needed.add(name)
            pending += reads[name]
    con = database.open_new(None, models=MODELS[SCHEME], threads=1)
    made = {name for (name,) in con.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall()}
    made |= {name for (name,) in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()} & set(definitions)
    assert made == needed
    assert con.execute("SELECT count(*) FROM scores").fetchall() == [(0,)]
