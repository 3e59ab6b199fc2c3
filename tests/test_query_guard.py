"""The query guard: attempts to get around it fail with a one-line refusal, and legitimate queries, written in
DuckDB's, PostgreSQL's, SQLite's or MySQL's SQL, return the right rows. Nothing typed here changes the database.

Each attack is judged by the function a query's child process runs (sandbox.fetch: the guard's checks, then the
query on the locked-down read-only connection), here in this process, on a copy of the built database whose
SHA-256 is checked after every attempt: the child adds only the bounds of time and memory, and those attacks, and
the legitimate queries, run through run_query, the path the query command, the Python API and the dashboard share
(a child process each; test_query_cli runs refusals through the command too).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import time
from pathlib import Path

import duckdb
import polars as pl
import pytest

import accuracy_db
from accuracy_db.errors import AccuracyDbError
from accuracy_db.sqlbox.guard import (
    Limits,
    QueryFailed,
    QueryRefused,
    QueryStopped,
    check_query,
    check_size,
    connect,
    duckdb_functions,
    function_verdicts,
)
from accuracy_db.sqlbox.sandbox import fetch, request_for, run_query


def sha256(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def target(built_db, tmp_path_factory):
    """A copy of the built database to attack, and its SHA-256 before any attack."""
    path = tmp_path_factory.mktemp("guarded") / "accuracy.duckdb"
    shutil.copy(built_db, path)
    return path, sha256(path)


def judged_here(path: Path, sql: str, params=None, dialect: str | None = None) -> None:
    """Check and run a query as its child process would (a child costs a second on a busy machine: over a hundred
    attacks, minutes of the suite)."""
    check_size(sql)
    fetch(request_for(path, sql, params, dialect, Limits()))


@pytest.fixture
def refused(target):
    """A query that must fail, judged here: returns the error, after checking that the database file did not
    change."""
    path, checksum = target

    def attempt(sql: str, expected: type[AccuracyDbError] = QueryRefused, **options) -> AccuracyDbError:
        with pytest.raises(expected) as caught:
            judged_here(path, sql, **options)
        assert "\n" not in str(caught.value), "a refusal is one line"
        assert sha256(path) == checksum, "the database file changed"
        return caught.value

    return attempt


@pytest.fixture
def stopped(target):
    """A query that the child's bounds must stop, through run_query: returns the error."""
    path, checksum = target

    def attempt(sql: str, **options) -> AccuracyDbError:
        with pytest.raises(QueryStopped) as caught:
            run_query(path, sql, **options)
        assert sha256(path) == checksum, "the database file changed"
        return caught.value

    return attempt


@pytest.fixture
def secret_files(tmp_path):
    """Files the queries must not read, in each format DuckDB reads, and the secret they hold."""
    secret = "the-secret-is-42"
    (tmp_path / "secret.csv").write_text(f"word\n{secret}\n")
    (tmp_path / "secret.json").write_text(f'{{"word": "{secret}"}}\n')
    (tmp_path / "secret.txt").write_text(secret)
    pl.DataFrame({"word": [secret]}).write_parquet(tmp_path / "secret.parquet")
    other = duckdb.connect(str(tmp_path / "secret.duckdb"))
    other.execute(f"CREATE TABLE words AS SELECT '{secret}' AS word")
    other.close()
    return tmp_path, secret


# --- writes, wherever they hide ---


@pytest.mark.parametrize(
    "sql, message",
    [
        (
            "WITH x AS (DELETE FROM mistakes RETURNING *) SELECT * FROM x",
            "DELETE (inside a WITH clause) refused: it changes data",
        ),
        (
            "WITH x AS (UPDATE mistakes SET category = 'WORD' RETURNING *) SELECT count(*) FROM x",
            "UPDATE (inside a WITH clause) refused: it changes data",
        ),
        (
            "WITH x AS (INSERT INTO categories VALUES ('NEW', 7, 'new') RETURNING *) SELECT * FROM x",
            "INSERT (inside a WITH clause) refused: it changes data",
        ),
        ("DELETE FROM mistakes", "DELETE refused: it changes data"),
        ("UPDATE texts SET split = 'test'", "UPDATE refused: it changes data"),
        ("INSERT INTO categories VALUES ('NEW', 7, 'new')", "INSERT refused: it changes data"),
        ("TRUNCATE mistakes", "TRUNCATE refused: it changes data"),
        ("SELECT * INTO copied FROM texts", "SELECT INTO refused: it creates a table"),
        ("CREATE TABLE copied AS SELECT * FROM texts", "CREATE refused: it changes the schema"),
        ("CREATE TEMP TABLE copied AS SELECT * FROM texts", "CREATE refused: it changes the schema"),
        ("CREATE MACRO twice(x) AS x * 2", "CREATE refused: it changes the schema"),
        ("DROP VIEW scores", "DROP refused: it changes the schema"),
        ("ALTER TABLE texts ADD COLUMN x INTEGER", "ALTER refused: it changes the schema"),
        ("COMMENT ON TABLE texts IS 'changed'", "COMMENT ON refused: it changes the schema"),
    ],
)
def test_writes_are_refused_wherever_they_are(refused, sql, message):
    assert str(refused(sql)).startswith(message)


def test_a_second_statement_is_refused_even_after_a_harmless_one(refused):
    assert str(refused("SELECT 1; DELETE FROM mistakes")) == "2 statements refused: give one query at a time"
    assert str(refused("SELECT 1; SELECT 2")) == "2 statements refused: give one query at a time"


def test_an_empty_query_is_refused(refused):
    assert str(refused("   -- only a comment")) == "no query: the SQL is empty"


# --- statements that reach outside the database, or change how it runs ---


@pytest.mark.parametrize(
    "sql, message",
    [
        ("ATTACH '{tmp}/other.duckdb' AS other", "ATTACH refused: it reaches files or other databases"),
        ("ATTACH ':memory:' AS scratch", "ATTACH refused: it reaches files or other databases"),
        ("DETACH accuracy", "DETACH refused: it reaches files or other databases"),
        ("COPY mistakes TO '{tmp}/stolen.csv'", "COPY refused: it reaches files or other databases"),
        ("COPY (SELECT * FROM texts) TO '{tmp}/stolen.parquet' (FORMAT parquet)", "COPY refused"),
        ("COPY categories FROM '{tmp}/secret.csv'", "COPY refused"),
        ("EXPORT DATABASE '{tmp}/exported'", "EXPORT refused: it is not a query"),
        ("IMPORT DATABASE '{tmp}/exported'", "IMPORT refused: it is not a query"),
        ("SET enable_external_access = true", "SET refused: it changes settings"),
        ("SET threads = 64", "SET refused: it changes settings"),
        ("SET VARIABLE x = 1", "SET refused: it changes settings"),
        ("RESET memory_limit", "RESET refused: it is not a query"),
        ("PRAGMA enable_profiling", "PRAGMA refused: it can change settings"),
        ("PRAGMA table_info('mistakes')", "PRAGMA refused"),
        ("INSTALL httpfs", "INSTALL refused: it installs an extension"),
        ("LOAD httpfs", "LOAD refused: it is not a query"),
        ("CALL pragma_version()", "CALL refused: it is not a query"),
        ("USE memory", "USE refused: it changes the current database"),
        ("BEGIN TRANSACTION", "BEGIN TRANSACTION refused: it controls transactions"),
        ("COMMIT", "COMMIT refused: it controls transactions"),
        ("CHECKPOINT", "CHECKPOINT refused: it is not a query"),
        ("VACUUM", "VACUUM refused: it is not a query"),
    ],
)
def test_statements_that_reach_outside_or_change_settings_are_refused(refused, tmp_path, sql, message):
    error = refused(sql.format(tmp=tmp_path))
    assert str(error).startswith(message)
    assert str(error).endswith("only one query that reads runs here")
    assert list(tmp_path.iterdir()) == [], "nothing was written"


@pytest.mark.parametrize(
    "sql, function",
    [
        ("SELECT * FROM query('DELETE FROM mistakes')", "query"),
        ("SELECT * FROM query_table('mistakes')", "query_table"),
        ("SELECT json_execute_serialized_sql(json_serialize_sql('SELECT 1'))", "json_execute_serialized_sql"),
        ("SELECT * FROM destroy_external_resource('query', 'DELETE FROM mistakes')", "destroy_external_resource"),
        ("SELECT * FROM register_external_resource('query', 'x')", "register_external_resource"),
        ("SELECT upper(text_id) FROM texts WHERE length(QUERY_TABLE('texts')::text) > 0", "query_table"),
    ],
)
def test_functions_that_run_sql_or_a_function_given_as_text_are_refused(refused, sql, function):
    assert str(refused(sql)) == (
        f"{function}() refused: it runs SQL or a function given as text, which the guard cannot check"
    )


@pytest.mark.parametrize(
    "sql, function, why",
    [
        ("SELECT * FROM checkpoint()", "checkpoint", "it changes the engine's state"),
        ("SELECT * FROM enable_logging()", "enable_logging", "it changes the engine's state"),
        ("SELECT setseed(0.5)", "setseed", "it changes the engine's state"),
        (
            "SELECT * FROM (SELECT 1) AS t(x) WHERE EXISTS (SELECT write_log('x'))",
            "write_log",
            "it changes the engine's state",
        ),
        ("SELECT sleep_ms(100000)", "sleep_ms", "it only waits"),
    ],
)
def test_functions_that_change_the_engines_state_are_refused_wherever_they_are(refused, sql, function, why):
    assert str(refused(sql)) == f"{function}() refused: {why}"


def test_every_duckdb_function_is_classified_so_an_upgrade_cannot_open_a_hole():
    """functions.tsv classifies every function DuckDB has; a DuckDB that adds one fails here until it is."""
    verdicts = function_verdicts()
    unclassified = sorted(duckdb_functions() - set(verdicts))
    assert unclassified == [], (
        f"DuckDB {duckdb.__version__} has functions accuracy_db/functions.tsv does not classify: {unclassified}; "
        "add each as 'allowed' or with the reason a query may not call it"
    )
    assert all(verdict for verdict in verdicts.values())
    refused = {name for name, verdict in verdicts.items() if verdict != "allowed"}
    assert {"query", "query_table", "json_execute_serialized_sql", "read_csv", "glob", "checkpoint"} <= refused
    assert {name for name in verdicts if "external_resource" in name} <= refused


def test_a_function_unknown_to_the_classification_is_refused(target, monkeypatch):
    monkeypatch.setitem(function_verdicts(), "upper", None)
    del function_verdicts()["upper"]
    with pytest.raises(QueryRefused, match=r"^upper\(\) refused: it is not among the functions the guard lets"):
        check_query("SELECT upper(text_id) FROM texts")


# --- where the server keeps its files: the SQL page may be open to anyone ---

SERVER_FILES = "it shows where the server keeps its files, or its settings"


@pytest.mark.parametrize(
    "sql, refused_name",
    [
        ("SELECT * FROM duckdb_settings()", "duckdb_settings()"),
        ("SELECT current_setting('allowed_paths')", "current_setting()"),
        ("SELECT name FROM texts WHERE current_setting('secret_directory') <> ''", "current_setting()"),
        ("SELECT * FROM duckdb_databases()", "duckdb_databases()"),
        ("SELECT * FROM duckdb_temporary_files()", "duckdb_temporary_files()"),
        ("SELECT * FROM duckdb_extensions()", "duckdb_extensions()"),
        ("SELECT * FROM duckdb_profiling_settings()", "duckdb_profiling_settings()"),
        # DuckDB's views over those functions, however they are named
        ("SELECT path FROM duckdb_databases", "duckdb_databases"),
        ("SELECT file FROM pragma_database_list", "pragma_database_list"),
        ("SELECT * FROM pg_catalog.pg_settings", "pg_settings"),
        ('SELECT * FROM "PG_SETTINGS"', "pg_settings"),
        ("SELECT * FROM texts WHERE text_id IN (SELECT setting FROM pg_settings)", "pg_settings"),
        ("SUMMARIZE pg_settings", "pg_settings"),
        ("TABLE pragma_database_list", "pragma_database_list"),
    ],
)
def test_what_shows_where_the_server_keeps_its_files_is_refused(refused, sql, refused_name):
    assert str(refused(sql)) == f"{refused_name} refused: {SERVER_FILES}"


def test_a_view_of_the_engine_is_refused_as_the_function_it_reads(refused):
    assert str(refused("SELECT * FROM duckdb_logs")) == "duckdb_logs refused: it shows secrets or logs of the engine"


def test_nothing_a_query_may_read_names_the_folder_of_the_database_or_the_home_folder(target):
    """Every view of DuckDB's and every table function of no argument: refused by the guard, or what it gives (its
    rows, or its error) names neither folder."""
    path = target[0]
    catalog = duckdb.connect()
    views = catalog.execute("SELECT schema_name || '.' || view_name FROM duckdb_views() WHERE internal").fetchall()
    functions = catalog.execute(
        "SELECT DISTINCT function_name || '()' FROM duckdb_functions()"
        " WHERE function_type = 'table' AND len(parameters) = 0"
    ).fetchall()
    catalog.close()
    assert len(views) > 40 and len(functions) > 40
    guarded, shown = connect(path), {}
    try:
        for (relation,) in views + functions:
            sql = f"SELECT * FROM {relation}"
            try:
                check_query(sql)
            except QueryRefused:
                continue
            try:
                given = str(guarded.execute(sql).fetchall())
            except duckdb.Error as error:
                given = str(error)
            if str(path.parent) in given or str(Path.home()) in given:
                shown[relation] = given[:200]
    finally:
        guarded.close()
    assert shown == {}


# --- files: the parser cannot see them, the engine refuses them ---

FILE_READERS = [
    "SELECT * FROM read_csv('{dir}/secret.csv')",
    "SELECT * FROM read_csv_auto('{dir}/secret.csv')",
    "SELECT * FROM read_csv(['{dir}/secret.csv'])",
    "SELECT * FROM read_csv('{dir}/sec' || 'ret.csv')",
    "SELECT * FROM sniff_csv('{dir}/secret.csv')",
    "SELECT * FROM read_parquet('{dir}/secret.parquet')",
    "SELECT * FROM parquet_scan('{dir}/secret.parquet')",
    "SELECT * FROM parquet_metadata('{dir}/secret.parquet')",
    "SELECT * FROM parquet_schema('{dir}/secret.parquet')",
    "SELECT * FROM parquet_file_metadata('{dir}/secret.parquet')",
    "SELECT * FROM read_json('{dir}/secret.json')",
    "SELECT * FROM read_json_auto('{dir}/secret.json')",
    "SELECT * FROM read_ndjson('{dir}/secret.json')",
    "SELECT * FROM read_json_objects('{dir}/secret.json')",
    "SELECT * FROM read_text('{dir}/secret.txt')",
    "SELECT * FROM read_blob('{dir}/secret.txt')",
    "SELECT * FROM glob('{dir}/*')",
    "SELECT * FROM glob('/etc/*')",
    "SELECT * FROM read_duckdb('{dir}/secret.duckdb', table_name = 'words')",
    "SELECT * FROM '{dir}/secret.csv'",
    "SELECT * FROM '{dir}/secret.parquet'",
    "SELECT * FROM read_csv('/etc/passwd', sep = ':')",
    "SELECT * FROM read_text('/etc/passwd')",
    "SELECT * FROM read_csv('https://example.com/data.csv')",
    "SELECT * FROM duckdb_secrets()",
]


@pytest.mark.parametrize("sql", FILE_READERS)
def test_no_table_function_reads_or_lists_a_file(refused, secret_files, sql):
    folder, secret = secret_files
    error = refused(sql.format(dir=folder))
    by_guard = (
        r"\w+\(\) refused: it (reads files, other databases or Python objects|shows secrets or logs of the engine)"
    )
    by_engine = "file system operations are disabled by configuration"  # a file named as a table: no function
    assert re.fullmatch(by_guard, str(error)) or by_engine in str(error)
    assert secret not in str(error)


@pytest.mark.parametrize("sql", FILE_READERS[:3] + FILE_READERS[-6:-4])
def test_behind_the_guard_the_engine_refuses_files_too(target, secret_files, sql):
    folder, secret = secret_files
    con = connect(target[0])
    try:
        with pytest.raises(duckdb.Error, match="disabled by configuration") as caught:
            con.execute(sql.format(dir=folder)).fetchall()
    finally:
        con.close()
    assert secret not in str(caught.value)


@pytest.mark.parametrize("sql", ["SELECT * FROM '/etc/passwd'", "SELECT * FROM '{dir}/secret.txt'"])
def test_a_file_name_as_a_table_is_only_a_missing_table(refused, secret_files, sql):
    folder, secret = secret_files
    error = refused(sql.format(dir=folder), expected=QueryFailed)
    assert "does not exist" in str(error)
    assert secret not in str(error)


def test_a_python_variable_is_not_a_table(refused):
    secret_frame = pl.DataFrame({"word": ["the-secret-is-42"]})  # DuckDB's Python client could scan it by name
    error = refused("SELECT * FROM secret_frame", expected=QueryFailed)
    assert "does not exist" in str(error)
    assert secret_frame.height == 1


# --- time, memory and rows ---


def test_an_endless_recursive_query_is_stopped_by_the_time_limit(stopped):
    started = time.perf_counter()
    error = stopped("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r", timeout=1)
    assert str(error) == "the query ran longer than 1 s and was stopped"
    assert time.perf_counter() - started < 10


def test_a_cross_join_that_would_exhaust_memory_is_stopped_by_the_memory_limit(stopped):
    error = stopped("SELECT list(a.mistake_id) FROM mistakes AS a, mistakes AS b, mistakes AS c")
    assert str(error) == "the query needed more than 1GB of memory and was stopped"


def test_a_long_result_is_cut_at_the_limit_and_says_so(target):
    path, _ = target
    cut = run_query(path, "SELECT mistake_id FROM mistakes ORDER BY mistake_id DESC", limit=5)
    assert cut.truncated
    every = run_query(path, "SELECT mistake_id FROM mistakes", limit=None).frame["mistake_id"].to_list()
    assert cut.frame["mistake_id"].to_list() == sorted(every, reverse=True)[:5]
    whole = run_query(path, "SELECT * FROM categories", limit=6)
    assert not whole.truncated and whole.frame.height == 6


# --- what is not refused ---


def test_functions_duckdb_does_not_have_are_named(refused):
    assert str(refused("SELECT lenght(text_id) FROM texts")) == (
        "unknown function lenght(): DuckDB has no function of that name; did you mean length()?"
    )
    error = refused("SELECT to_tsvector(generated_text) FROM texts", dialect="postgres")
    assert str(error).startswith("unknown function TO_TSVECTOR(): DuckDB has no function of that name")
    assert "postgres" in str(error)


def test_a_query_error_is_one_line_without_the_echo_of_the_query(refused):
    error = refused("SELECT no_such_column FROM texts", expected=QueryFailed)
    assert str(error).startswith('Binder Error: Referenced column "no_such_column" not found')


def test_an_unknown_dialect_is_refused(refused):
    assert str(refused("SELECT 1", dialect="cobol")) == "unknown SQL dialect 'cobol'"


# The gold mistakes of each split by category, from the data's README.
GOLD = {
    ("test", "CONTEXT"): 8,
    ("test", "NAME"): 212,
    ("test", "NOT_CHECKABLE"): 38,
    ("test", "NUMBER"): 224,
    ("test", "WORD"): 140,
    ("train", "CONTEXT"): 51,
    ("train", "NAME"): 317,
    ("train", "NOT_CHECKABLE"): 37,
    ("train", "NUMBER"): 474,
    ("train", "OTHER"): 1,
    ("train", "WORD"): 334,
}


@pytest.mark.parametrize(
    "dialect, sql",
    [
        ("duckdb", "FROM gold_mistakes SELECT split, category, count(*) AS n GROUP BY ALL ORDER BY ALL"),
        (
            "postgres",
            "SELECT split::text, category, COUNT(*)::int AS n FROM gold_mistakes GROUP BY 1, 2 ORDER BY 1, 2",
        ),
        (
            "sqlite",
            "SELECT split, category, count(*) AS n FROM gold_mistakes GROUP BY split, category ORDER BY 1, 2",
        ),
        (
            "mysql",
            "SELECT `split`, `category`, COUNT(*) AS `n` FROM `gold_mistakes` GROUP BY `split`, `category` "
            "ORDER BY `split`, `category`",
        ),
    ],
)
def test_each_dialect_counts_the_gold_mistakes_of_the_readme(target, dialect, sql):
    result = run_query(target[0], sql, dialect=dialect)
    assert {(split, category): n for split, category, n in result.frame.iter_rows()} == GOLD


@pytest.mark.parametrize(
    "dialect, sql",
    [
        (
            "postgres",
            "SELECT text_id, string_agg(DISTINCT category, ',' ORDER BY category) AS categories "
            "FROM gold_mistakes WHERE text_id = 'S001' GROUP BY text_id",
        ),
        (
            "sqlite",
            "SELECT text_id, group_concat(category, ',') AS categories FROM "
            "(SELECT DISTINCT text_id, category FROM gold_mistakes WHERE text_id = 'S001' ORDER BY category) "
            "GROUP BY text_id",
        ),
        (
            "mysql",
            "SELECT text_id, GROUP_CONCAT(DISTINCT category ORDER BY category SEPARATOR ',') AS categories "
            "FROM gold_mistakes WHERE text_id = 'S001' GROUP BY text_id",
        ),
    ],
)
def test_each_dialect_has_its_string_aggregation_translated(target, dialect, sql):
    result = run_query(target[0], sql, dialect=dialect)
    assert result.frame.rows() == [("S001", "NAME,NUMBER,WORD")]


def test_check_query_returns_the_duckdb_sql_it_will_run():
    assert check_query("SELECT text_id::text FROM texts LIMIT 1", "postgres") == (
        "SELECT CAST(text_id AS TEXT) FROM texts LIMIT 1"
    )
    assert check_query("SELECT IFNULL(`x`, 0) FROM `t`", "mysql") == 'SELECT COALESCE("x", 0) FROM "t"'


def test_describing_and_summarizing_tables_is_reading(target):
    path = target[0]
    assert "category" in run_query(path, "DESCRIBE mistakes").frame["column_name"].to_list()
    assert run_query(path, "SUMMARIZE categories").frame.height == 5  # a row per column: corpus … colour


def test_parameters_are_named_or_positional_and_each_must_be_given(target, refused):
    path = target[0]
    named = run_query(path, "SELECT count(*) AS n FROM gold_mistakes WHERE split = $split", {"split": "test"})
    assert named.frame["n"][0] == 622
    positional = run_query(path, "SELECT count(*) AS n FROM gold_mistakes WHERE split = ?", ["train"])
    assert positional.frame["n"][0] == 1214
    assert str(refused("SELECT * FROM texts WHERE split = $split")) == "the query needs a value for $split"
    assert str(refused("SELECT 1", params={"split": "test"})) == "the query has no parameter $split"


# --- the engine is a wall of its own ---


def test_the_connection_itself_refuses_writes_files_and_settings(target, secret_files):
    folder, _ = secret_files
    con = connect(target[0])
    try:
        with pytest.raises(duckdb.Error, match="read-only"):
            con.execute("DELETE FROM mistakes")
        with pytest.raises(duckdb.PermissionException):
            con.execute(f"SELECT * FROM read_csv('{folder}/secret.csv')")
        with pytest.raises(duckdb.Error, match="locked"):
            con.execute("SET enable_external_access = true")
        with pytest.raises(duckdb.Error):
            con.execute("LOAD httpfs")
    finally:
        con.close()
    assert sha256(target[0]) == target[1]


def test_a_query_runs_while_this_process_holds_another_connection_to_the_file(built, built_db):
    """The dashboard keeps default-configured connections open; the guarded one is a DuckDB of its own."""
    assert built.execute("SELECT count(*) FROM texts").fetchone() == (90,)
    assert run_query(built_db, "SELECT count(*) AS n FROM texts").frame["n"][0] == 90


def test_no_connection_outlives_a_call_so_a_republished_file_is_read_anew(tmp_path):
    path = tmp_path / "accuracy.duckdb"
    for texts in (1, 2):
        new = tmp_path / "new.duckdb"
        con = duckdb.connect(str(new))
        con.execute(f"CREATE TABLE texts AS SELECT range AS text_id FROM range({texts})")
        con.close()
        os.replace(new, path)  # as build and refresh publish
        assert run_query(path, "SELECT count(*) AS n FROM texts").frame["n"][0] == texts


def test_the_python_api_reads_through_the_same_guard(target, monkeypatch):
    monkeypatch.setenv("ACCURACY_DB_PATH", str(target[0]))
    frame = accuracy_db.query("SELECT split, count(*) AS texts FROM texts GROUP BY split ORDER BY split")
    assert frame.rows() == [("test", 30), ("train", 60)]
    with pytest.raises(QueryRefused):
        accuracy_db.query("DROP TABLE texts")
    with pytest.warns(UserWarning, match="cut at 2 rows"):
        assert accuracy_db.query("SELECT * FROM texts", limit=2).height == 2
    con = accuracy_db.connect()
    try:
        assert con.execute("SELECT count(*) FROM mistakes WHERE text_id = $t", {"t": "S001"}).fetchone()[0] > 0
    finally:
        con.close()


def test_after_every_attempt_the_database_is_unchanged(target, built):
    path, checksum = target
    assert sha256(path) == checksum
    count = "SELECT (SELECT count(*) FROM mistakes), (SELECT count(*) FROM texts), (SELECT count(*) FROM rejections)"
    assert run_query(path, count).frame.rows() == built.execute(count).fetchall()
