"""Create the database: the tables of schema/ and the views of queries/."""

from __future__ import annotations

import atexit
import functools
import graphlib
import hashlib
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path

import duckdb

from accuracy_db import sql_parse
from accuracy_db.errors import AccuracyDbError
from accuracy_db.store import model_headers
from accuracy_db.store.model_headers import BATCHED, GOLD_TABLE, INCREMENTAL, QUERY, TABLE

# DuckDB takes up to 80% of the machine's memory by default. The largest step (scoring a million-mistake corpus)
# runs in far less, spilling to disk past the limit, and leaves the dashboard and other readers room.
MEMORY_LIMIT_VARIABLE = "ACCURACY_DB_MEMORY_LIMIT"


def config() -> dict[str, str]:
    """The settings of every connection the package opens (the query guard adds its own limits)."""
    memory_limit = os.environ.get(MEMORY_LIMIT_VARIABLE) or "3GB"
    if not re.fullmatch(r"[0-9]+(\.[0-9]+)? *[KMGT]i?B", memory_limit, re.IGNORECASE):
        raise AccuracyDbError(f"{MEMORY_LIMIT_VARIABLE} is {memory_limit!r}: expected a size such as 2GB or 500MB")
    return {"memory_limit": memory_limit}


def connect(path: str, read_only: bool = False, threads: int | None = None) -> duckdb.DuckDBPyConnection:
    """A connection with the settings of config(); threads: how many threads DuckDB may use (default: one a core)."""
    con = duckdb.connect(path, read_only=read_only, config=config() | ({"threads": threads} if threads else {}))
    con.execute("SET enable_progress_bar = false")  # DuckDB's own bar would print into a command's output
    return con


VIEW_LAYERS = ("staging", "intermediate", "marts", "stats")  # the folders of queries/ whose files are models
# A model's header names its materialization on a line of its own, "-- Materialized: VALUE (why …)" (model_headers
# parses it and holds the values); a model without the line is a view. The values:
# incremental: a table filled as submissions are loaded, not a view (dbt's "incremental" materialization): the
# scoring views read the expensive steps, computed once, when a submission is loaded. Such a model computes the rows
# of the submissions in its parameter $submission_ids, which it filters on where it reads them (a filter on its
# result would come too late: DuckDB does not push one into a common table expression that is read twice).
# incremental, a batch of submissions at a time: an incremental model filled a batch of submissions at a time
# (submission_batches), as its rows of every submission at once come close to the memory limit, for no gain in time
# (scored_mistakes: 24 million rows at scale 1000).
# table: a table computed again, whole, whenever submissions are scored or removed (dbt's "table" materialization):
# a figure over all the submissions of a split, which no per-submission rows give (how many of them found each gold
# mistake). It reads no $submission_ids.
# table of the gold lists: a table computed again, whole, only when the gold lists differ from those it was last
# computed from (recorded in model_inputs): a figure of the gold lists alone, which scoring a submission does not
# change. A list's mistakes never change under its set_id (a list loaded again gets a new one).
# query: a query run with parameters over sums computed for the run (the stats layer's intervals and tests), not a
# view of the database.


def sql_files(package: str) -> list[resources.abc.Traversable]:
    """The .sql files shipped in a package folder, in name order."""
    return sorted((f for f in resources.files(package).iterdir() if f.name.endswith(".sql")), key=lambda f: f.name)


def table_definitions() -> str:
    """The DDL of every table, in order."""
    return "\n".join(ddl.read_text(encoding="utf-8") for ddl in sql_files("accuracy_db.schema"))


def create_tables(con: duckdb.DuckDBPyConnection, described: bool = True) -> None:
    """Create every table; undescribed, without the comments on them and their columns (each a line of its own in
    schema/), which take most of the time of a scratch database's DDL."""
    ddl = table_definitions()
    con.execute(ddl if described else re.sub(r"(?m)^COMMENT ON .*;\n", "", ddl))


def model_definitions() -> dict[str, str]:
    """Every model of queries/, views, tables and queries: name (the file stem) -> SELECT statement. A header whose
    Key or Materialized line is not well formed is an error naming its file."""
    return dict(read_models())


@functools.cache  # the package's files do not change under a running process: a build asks a dozen times
def read_models() -> dict[str, str]:
    definitions = {}
    for layer in VIEW_LAYERS:
        for file in sql_files(f"accuracy_db.queries.{layer}"):
            sql = file.read_text(encoding="utf-8")
            model_headers.parse(sql, f"queries/{layer}/{file.name}")
            definitions[file.name.removesuffix(".sql")] = sql
    return definitions


def view_definitions() -> dict[str, str]:
    """The models of queries/ that are views or tables: name (the file stem) -> SELECT statement."""
    return {name: sql for name, sql in model_definitions().items() if materialization(sql) != QUERY}


@functools.cache  # asked for every model, many times a build
def materialization(sql: str) -> str:
    """How a model is materialized, as its header's Materialized line says (VIEW without one)."""
    return model_headers.parse(sql).materialized


def is_incremental(sql: str) -> bool:
    """Whether a model is a table filled a submission at a time (incremental)."""
    return materialization(sql) in (INCREMENTAL, BATCHED)


def stats_query(name: str) -> str:
    """A query model of the stats layer (queries/stats/NAME.sql)."""
    return resources.files("accuracy_db.queries.stats").joinpath(f"{name}.sql").read_text(encoding="utf-8")


RELATIONS_READ: dict[str, frozenset[str]] = {}  # model SQL -> what it reads: asked for every model, many times a build


def relations_read(name: str, sql: str, con: duckdb.DuckDBPyConnection | None = None) -> frozenset[str]:
    """The tables and views a model's SELECT reads by name, from DuckDB's parse: a column, an alias, a comment or a
    string that shares a model's name reads nothing, and a common table expression of the model's own shadows the
    model of its name. name: the model's, for the error when its SQL does not parse. con: the connection that
    parses it (json_serialize_sql reads nothing; a scratch database's own spares opening another), or the
    process's parser."""
    if sql not in RELATIONS_READ:
        tree = sql_parse.duckdb_parse(sql, con)
        if tree.get("error"):
            raise AccuracyDbError(f"model {name} does not parse: {tree.get('error_message', '')}")
        statements = tree["statements"]
        RELATIONS_READ[sql] = frozenset(sql_parse.read_tables(statements) - sql_parse.cte_names(statements))
    return RELATIONS_READ[sql]


def models_read(definitions: dict[str, str], con: duckdb.DuckDBPyConnection | None = None) -> dict[str, set[str]]:
    """For each model, the models of definitions it reads (con as relations_read takes it)."""
    return {name: relations_read(name, sql, con) & definitions.keys() - {name} for name, sql in definitions.items()}


def views_in_dependency_order(definitions: dict[str, str], con: duckdb.DuckDBPyConnection | None = None) -> list[str]:
    """View names ordered so that each comes after the views it reads (con as relations_read takes it)."""
    return list(graphlib.TopologicalSorter(models_read(definitions, con)).static_order())


def with_what_they_read(
    definitions: dict[str, str], models: list[str], con: duckdb.DuckDBPyConnection | None = None
) -> dict[str, str]:
    """The definitions of some models and of every model they read, directly or not (only those are parsed; con as
    relations_read takes it)."""
    needed, pending = set(), list(models)
    while pending:
        name = pending.pop()
        if name not in needed:
            needed.add(name)
            pending += relations_read(name, definitions[name], con) & definitions.keys()
    return {name: sql for name, sql in definitions.items() if name in needed}


def incremental_models() -> list[str]:
    """The models materialized as tables filled a submission at a time, in dependency order."""
    definitions = view_definitions()
    return [name for name in views_in_dependency_order(definitions) if is_incremental(definitions[name])]


def is_table(sql: str) -> bool:
    """Whether a model is materialized as a table (incremental, or computed whole), not a view."""
    return materialization(sql) in (INCREMENTAL, BATCHED, TABLE, GOLD_TABLE)


def table_models() -> list[str]:
    """The models materialized as tables, incremental or computed whole, in dependency order."""
    definitions = view_definitions()
    return [name for name in views_in_dependency_order(definitions) if is_table(definitions[name])]


def create_views(con: duckdb.DuckDBPyConnection, models: list[str] | None = None) -> None:
    """Create (or replace) the views of queries/, and create the tables of its models that are tables if missing.
    Given models, only those and what they read are created, undescribed: a scratch database that answers one
    question (the drop-in `evaluate`'s scores) is then ready in a fraction of the time."""
    definitions = view_definitions() if models is None else with_what_they_read(view_definitions(), models, con)
    order = views_in_dependency_order(definitions, con)
    for name in order:
        sql = definitions[name]
        if is_table(sql):  # a database with other definitions of these is rebuilt (build.schema_source)
            con.execute(
                f"CREATE TABLE IF NOT EXISTS {name} AS SELECT * FROM (\n{sql}\n) WITH NO DATA",
                {"submission_ids": []} if is_incremental(sql) else None,
            )
        else:
            con.execute(f"CREATE OR REPLACE VIEW {name} AS\n{sql}")
    if models is None:
        describe(con, {name: definitions[name] for name in order})


def describe(con: duckdb.DuckDBPyConnection, definitions: dict[str, str]) -> None:
    """Write each model's header into the database as comments on the model and on each of its columns; a column
    the header does not list takes the comment of its namesake in the relation the header names, if it names one.
    The models come in dependency order, so that relation is described before. One statement for all of them."""
    comments = column_comments(con)
    statements = []
    for name, sql in definitions.items():
        header = model_headers.parse(sql)
        kind = "TABLE" if is_table(sql) else "VIEW"
        statements.append(f"COMMENT ON {kind} {name} IS {sql_string(header.description)}")
        for column in [column for relation, column in comments if relation == name]:
            description = header.columns.get(column) or comments.get((header.columns_from, column))
            if description:
                comments[name, column] = description
                statements.append(f'COMMENT ON COLUMN {name}."{column}" IS {sql_string(description)}')
    con.execute(";\n".join(statements))


def sql_string(text: str) -> str:
    """A string literal (COMMENT ON takes no parameters)."""
    return "'" + text.replace("'", "''") + "'"


def column_comments(con: duckdb.DuckDBPyConnection) -> dict[tuple[str, str], str | None]:
    """The comment of every column of every table and view, by (relation, column), in column order."""
    return {
        (relation, column): comment
        for relation, column, comment in con.execute(
            "SELECT table_name, column_name, comment FROM duckdb_columns() WHERE schema_name = 'main' "
            "ORDER BY table_name, column_index"
        ).fetchall()
    }


def tables_in(con: duckdb.DuckDBPyConnection) -> set[str]:
    """The tables the database has (a scratch database made for some models has only those they read)."""
    return {name for (name,) in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}


def materialize(con: duckdb.DuckDBPyConnection, submission_ids: list[int] | None = None) -> None:
    """Compute the rows of the incremental models for some submissions (None: every submission, into empty
    tables): one statement per model for all of them at once, or per submission where the model says so; then
    compute the models materialized whole again, from every submission's rows (also when submission_ids is empty:
    submissions may have been removed since). Only the models the database has are filled (a scratch database made
    for some models has only those they read)."""
    if submission_ids is None:
        submission_ids = [set_id for (set_id,) in con.execute("SELECT submission_id FROM evaluations").fetchall()]
    definitions = view_definitions()
    present = tables_in(con)
    for name in [name for name in table_models() if name in present]:
        sql = f"INSERT INTO {name} SELECT * FROM (\n{definitions[name]}\n)"
        materialized = materialization(definitions[name])
        if materialized in (TABLE, GOLD_TABLE):
            gold_ids = gold_list_ids(con) if materialized == GOLD_TABLE else None
            if gold_ids is not None and gold_ids == computed_from(con, name):
                continue
            con.execute(f"DELETE FROM {name}")
            con.execute(sql)
            if gold_ids is not None:
                con.execute("INSERT OR REPLACE INTO model_inputs VALUES (?, ?)", [name, gold_ids])
            continue
        batches = submission_batches(con, submission_ids) if materialized == BATCHED else [submission_ids]
        for batch in batches:
            con.execute(sql, {"submission_ids": batch})


# A batched model computes the submissions of a batch in one statement: its memory grows with the mistakes of the
# batch, and each statement costs the same however small (the shared task's lists, a few hundred mistakes each).
BATCH_MISTAKES = 1_000_000


def submission_batches(con: duckdb.DuckDBPyConnection, submission_ids: list[int]) -> list[list[int]]:
    """The submissions in batches of at most BATCH_MISTAKES mistakes of theirs and of their gold lists (a larger one
    alone: scale 1000's, 2.4 million), in the order given."""
    sizes = dict(
        con.execute(
            "WITH sizes AS (SELECT set_id, count(*) AS mistakes FROM mistakes GROUP BY set_id)"
            " SELECT submission_id, coalesce(submitted.mistakes, 0) + coalesce(gold.mistakes, 0) FROM evaluations"
            " LEFT JOIN sizes AS submitted ON submitted.set_id = submission_id"
            " LEFT JOIN sizes AS gold ON gold.set_id = gold_id WHERE submission_id = ANY($ids)",
            {"ids": submission_ids},
        ).fetchall()
    )
    batches: list[list[int]] = []
    size = 0
    for submission_id in submission_ids:
        mistakes = sizes.get(submission_id, 0)
        if not batches or size + mistakes > BATCH_MISTAKES:
            batches.append([])
            size = 0
        batches[-1].append(submission_id)
        size += mistakes
    return batches


DEFAULT_THRESHOLD = 0.5  # scoring_threshold's row in a new database (schema/04_annotations.sql)


def check_threshold(threshold) -> None:
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0 <= threshold <= 1:
        raise AccuracyDbError(f"threshold is {threshold!r}: a probability from 0 to 1, such as 0.5")


def set_threshold(con: duckdb.DuckDBPyConnection, threshold: float) -> None:
    """The threshold a database scores at (a scratch database, before its lists are scored)."""
    check_threshold(threshold)
    con.execute("UPDATE scoring_threshold SET threshold = ?", [threshold])


DEFAULT_PARTIAL_CREDIT = 0.5  # esa_partial_credit's row in a new database (schema/12_mqm.sql)


def check_partial_credit(credit) -> None:
    if isinstance(credit, bool) or not isinstance(credit, (int, float)) or not 0 <= credit <= 1:
        raise AccuracyDbError(f"partial credit is {credit!r}: a credit from 0 to 1, such as 0.5")


@contextmanager
def credited(con: duckdb.DuckDBPyConnection, credit: float | None) -> Iterator[None]:
    """Within the block, the esa scheme gives a count at the wrong severity this credit, on this connection alone
    (None: the database's): a temporary esa_partial_credit shadows the database's, in its views too (the scheme's
    models are views). Nothing is written to the file."""
    if credit is None:
        yield
        return
    check_partial_credit(credit)
    con.execute("CREATE TEMP TABLE esa_partial_credit AS SELECT ?::DOUBLE AS credit", [credit])
    try:
        yield
    finally:
        con.execute("DROP TABLE IF EXISTS temp.main.esa_partial_credit")


@contextmanager
def scored_at(con: duckdb.DuckDBPyConnection, threshold: float | None, submission_ids: list[int]) -> Iterator[None]:
    """Within the block, some submissions scored at another probability threshold than the database's, on this
    connection alone (None: the database's). A temporary scoring_threshold and, in dependency order, a temporary
    table of each incremental model with these submissions' rows shadow the database's relations, in its views too;
    so the views read these submissions at that threshold, and no other submission's rows of those models (the
    models computed whole, such as found-by-k, stay at the database's threshold). Nothing is written to the file:
    a read-only connection will do. Nothing is computed when none of the submissions nor their gold lists has a
    span with a probability: their figures are those of any threshold."""
    if threshold is not None:
        check_threshold(threshold)
    with_probabilities = (
        threshold is not None
        and con.execute(
            "SELECT 1 FROM mistakes WHERE probability IS NOT NULL AND set_id IN ("
            " SELECT submission_id FROM evaluations WHERE submission_id = ANY($ids)"
            " UNION ALL SELECT gold_id FROM evaluations WHERE submission_id = ANY($ids)) LIMIT 1",
            {"ids": submission_ids},
        ).fetchall()
    )
    if not with_probabilities or con.execute("SELECT threshold FROM scoring_threshold").fetchall() == [(threshold,)]:
        yield
        return
    created = ["scoring_threshold"]
    con.execute("CREATE TEMP TABLE scoring_threshold AS SELECT ?::DOUBLE AS threshold", [threshold])
    try:
        definitions = view_definitions()
        for name in incremental_models():
            created.append(name)
            con.execute(
                f"CREATE TEMP TABLE {name} AS SELECT * FROM (\n{definitions[name]}\n)",
                {"submission_ids": submission_ids},
            )
        yield
    finally:
        for name in reversed(created):
            con.execute(f"DROP TABLE IF EXISTS temp.main.{name}")


def gold_list_ids(con: duckdb.DuckDBPyConnection) -> str:
    """The set_ids of the loaded gold lists, in order, separated by spaces (as model_inputs records them)."""
    return con.execute(
        "SELECT coalesce(string_agg(set_id::VARCHAR, ' ' ORDER BY set_id), '') FROM annotation_sets WHERE kind = 'gold'"
    ).fetchall()[0][0]


def computed_from(con: duckdb.DuckDBPyConnection, model: str) -> str | None:
    """The gold lists a model of the gold lists was last computed from (None: never computed)."""
    rows = con.execute("SELECT gold_ids FROM model_inputs WHERE model = ?", [model]).fetchall()
    return rows[0][0] if rows else None


def forget(con: duckdb.DuckDBPyConnection, submission_ids: list[int]) -> None:
    """Remove the rows of the incremental models for some submissions (every caller scores afterwards: the
    materialize() that follows computes the models materialized whole again). Only the models the database has
    (see materialize)."""
    if not submission_ids:  # a new list, as every list of a build: a statement per model for nothing
        return
    present = tables_in(con)
    for name in [name for name in incremental_models() if name in present]:
        con.execute(f"DELETE FROM {name} WHERE submission_id = ANY($ids)", {"ids": submission_ids})


def create_database(con: duckdb.DuckDBPyConnection, models: list[str] | None = None) -> None:
    """Create every table and view (or only the views some models need) on an empty database."""
    create_tables(con, described=models is None)
    create_views(con, models)


def open_new(
    path: Path | str | None, models: list[str] | None = None, threads: int | None = None
) -> duckdb.DuckDBPyConnection:
    """A connection to a fresh database with the schema and views (or only the views some models need): in
    memory when path is None; threads as connect() takes it. A new file with every model is a copy of the
    process's empty database (an error if the path exists, as creating a table in it would be)."""
    empty = empty_database() if path is not None and models is None else None
    if empty is not None:
        with open(empty, "rb") as source, open(path, "xb") as copy:
            shutil.copyfileobj(source, copy)
        return connect(str(path), threads=threads)
    con = connect(":memory:" if path is None else str(path), threads=threads)
    create_database(con, models)
    return con


def empty_database() -> Path | None:
    """A database file with every table and view and no rows, made once per process: creating the views binds each
    one, copying the file takes a twentieth of that time, and a process that builds more than once (a
    watch, the tests, the benchmarks) pays once. Made again if the file went (a cleaner of the temporary folder);
    None when the temporary folder cannot hold it, and the database is then created in place."""
    try:
        file = empty_database_file()
        if not file.is_file():
            empty_database_file.cache_clear()
            file = empty_database_file()
    except (OSError, duckdb.Error):
        return None
    return file


@functools.cache
def empty_database_file() -> Path:
    """The empty database, checkpointed: a copy takes the file alone, so a checkpoint that failed (no room to write)
    would leave its tables in a write-ahead log the copy has not, and is an error here."""
    folder = Path(tempfile.mkdtemp(prefix="accuracy-db-empty-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    file = folder / "empty.duckdb"
    con = connect(str(file))
    try:
        create_database(con)
        con.execute("CHECKPOINT")
    except BaseException:
        con.close()
        shutil.rmtree(folder, ignore_errors=True)
        raise
    con.close()
    return file


def connect_writable(path: Path | str) -> duckdb.DuckDBPyConnection:
    """A read-write connection to a database file (only writers holding the writer lock use this)."""
    return connect(str(path))


@functools.cache  # the package's files do not change under a running process; every reader opening a file asks
def definitions_digest() -> str:
    """The SHA-256 of every definition of this version of the package: the DDL, the views and the query models."""
    return hashlib.sha256("\n".join([table_definitions(), *model_definitions().values()]).encode()).hexdigest()


def open_existing(path: Path | str, read_only: bool = True, same_version: bool = True) -> duckdb.DuckDBPyConnection:
    """A connection to a built database; a clear error when there is none, or (same_version) when it was built
    with other definitions than this version's: its views would be missing or stale."""
    path = Path(path)
    if not path.is_file():
        raise AccuracyDbError(f"no database at {path}: run `accuracy-db build` first (or give --db)")
    try:
        con = connect(str(path), read_only=read_only)
        built_with = con.execute(
            "SELECT any_value(sha256) FROM source_files WHERE role = 'version' AND name = 'definitions'"
        ).fetchall()
    except duckdb.Error as error:
        raise AccuracyDbError(f"{path}: cannot open the database ({error})") from None
    if same_version and built_with[0][0] != definitions_digest():
        con.close()
        raise AccuracyDbError(
            f"{path} was built by another version of accuracy-db: run `accuracy-db refresh` (or `build`) to bring it"
            " up to date"
        )
    return con
