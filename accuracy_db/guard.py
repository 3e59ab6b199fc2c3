"""The one guarded path for ad-hoc SQL: the query command, the Python API and the dashboard's SQL page.

Two walls, each enough on its own for what it guards:

* check_query parses the SQL with sqlglot and walks the whole tree: one statement, a query, nothing anywhere in
  it that writes, changes the schema or the settings, touches files or extensions, or that sqlglot only knows as
  a generic command; and no function DuckDB does not have (sqlglot passes unknown ones through unchanged).
* run_query runs the SQL check_query returns on a DuckDB of its own, the database attached read-only, with
  external access (files, network), extension loading and configuration changes locked off, a memory limit, a
  time limit and a cap on the rows it returns; the connection is closed before it returns. The parser cannot
  see what a function will read (read_csv('/etc/passwd') is a plain SELECT), so for files the engine is the
  boundary.

The Python API, accuracy_db.query(sql) and accuracy_db.connect(), calls connect() and query() here.
"""

from __future__ import annotations

import functools
import logging
import os
import re
import threading
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import AccuracyDbError

if TYPE_CHECKING:
    import duckdb
    import polars as pl
    from sqlglot import exp

DEFAULT_ROW_LIMIT = 10_000  # rows a query returns at most, unless told otherwise
PYTHON_ROW_LIMIT = 1_000_000  # query()'s: a notebook wants whole tables, but not a runaway result
DEFAULT_TIMEOUT = 30.0  # seconds a query may run
MEMORY_LIMIT = "1GB"
THREADS = 2
DB_ENV = "ACCURACY_DB_PATH"  # the database of connect() and query() when none is given
DEFAULT_DB = "accuracy.duckdb"
CATALOG = "accuracy"  # the name the database is attached under
READ_ONLY = "only one query that reads runs here"

# Statements that read: a query, and DuckDB's read-only statements that describe tables.
QUERY_STARTS = {"SELECT", "WITH", "FROM", "VALUES", "TABLE", "PIVOT", "UNPIVOT", "DESCRIBE", "SUMMARIZE", "SHOW", "("}
# Functions that run SQL given as a string, which the guard cannot see into.
RUNS_SQL_TEXT = {"query", "json_execute_serialized_sql"}


class QueryRefused(AccuracyDbError):
    """The guard (or the engine's locked settings) would not run a query; the message says what and why."""


class QueryStopped(QueryRefused):
    """A query ran into the time or memory limit and was stopped."""


class QueryFailed(AccuracyDbError):
    """DuckDB could not run a query that the guard let through (a mistyped column, a bad cast…)."""


@dataclass
class QueryResult:
    """The rows of a query (at most the limit), whether there were more, and the DuckDB SQL that ran."""

    frame: pl.DataFrame
    truncated: bool
    sql: str


def forbidden() -> dict[type, tuple[str, str]]:
    """sqlglot node -> (what it is, why it is refused), for the nodes refused wherever they are in a tree."""
    from sqlglot import exp

    writes = "it changes data"
    schema = "it changes the schema"
    outside = "it reaches files or other databases"
    settings = "it changes settings"
    return {
        exp.Insert: ("INSERT", writes),
        exp.Update: ("UPDATE", writes),
        exp.Delete: ("DELETE", writes),
        exp.Merge: ("MERGE", writes),
        exp.TruncateTable: ("TRUNCATE", writes),
        exp.Into: ("SELECT INTO", "it creates a table"),
        exp.Create: ("CREATE", schema),
        exp.Drop: ("DROP", schema),
        exp.Alter: ("ALTER", schema),
        exp.Comment: ("COMMENT ON", schema),
        exp.Analyze: ("ANALYZE", "it updates statistics"),
        exp.Grant: ("GRANT", "it changes privileges"),
        exp.Revoke: ("REVOKE", "it changes privileges"),
        exp.Refresh: ("REFRESH", schema),
        exp.Cache: ("CACHE", schema),
        exp.Uncache: ("UNCACHE", schema),
        exp.Attach: ("ATTACH", outside),
        exp.Detach: ("DETACH", outside),
        exp.Copy: ("COPY", outside),
        exp.Export: ("EXPORT", outside),
        exp.LoadData: ("LOAD DATA", outside),
        exp.Install: ("INSTALL", "it installs an extension"),
        exp.Set: ("SET", settings),
        exp.Pragma: ("PRAGMA", "it can change settings"),
        exp.Use: ("USE", "it changes the current database"),
        exp.Declare: ("DECLARE", settings),
        exp.Transaction: ("BEGIN TRANSACTION", "it controls transactions"),
        exp.Commit: ("COMMIT", "it controls transactions"),
        exp.Rollback: ("ROLLBACK", "it controls transactions"),
        exp.Kill: ("KILL", "it stops other work"),
        exp.Execute: ("EXECUTE", "it runs a prepared statement the guard cannot see"),
    }


def allowed_roots() -> tuple[type, ...]:
    from sqlglot import exp

    return (exp.Query, exp.Values, exp.Pivot, exp.Describe, exp.Summarize, exp.Show)


class _Quiet(logging.Filter):
    """sqlglot logs a warning when it falls back to a generic command; the refusal says it once, on one line."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "Falling back to parsing as a 'Command'" not in record.getMessage()


_quiet = _Quiet()
logging.getLogger("sqlglot").addFilter(_quiet)


def first_word(sql: str) -> str:
    """The statement's first keyword, after comments: what a refusal names when the SQL cannot be parsed."""
    text = re.sub(r"--[^\n]*|/\*.*?\*/", " ", sql, flags=re.DOTALL).lstrip()
    match = re.match(r"\(|\w+", text)
    return match.group(0).upper() if match else ""


def parse(sql: str, dialect: str) -> exp.Expression:
    """The one statement of sql as a tree, or a refusal saying why there is not exactly one."""
    import sqlglot
    from sqlglot.errors import ParseError, TokenError

    try:
        statements = [s for s in sqlglot.parse(sql, dialect=dialect) if s is not None]
    except (ParseError, TokenError) as error:
        word = first_word(sql)
        if word and word not in QUERY_STARTS:
            raise QueryRefused(f"{word} refused: it is not a query; {READ_ONLY}") from None
        message = str(error).splitlines()[0]
        raise QueryRefused(f"cannot parse the SQL as {dialect}: {message}") from None
    if not statements:
        raise QueryRefused("no query: the SQL is empty")
    if len(statements) > 1:
        raise QueryRefused(f"{len(statements)} statements refused: give one query at a time")
    return statements[0]


def check_tree(tree: exp.Expression, sql: str) -> None:
    """Refuse a tree that is not a reading query, or that has a refused node anywhere in it."""
    from sqlglot import exp

    refused = forbidden()
    for node in tree.walk():
        if isinstance(node, exp.Command):
            raise QueryRefused(f"{node.name.upper()} refused: it is not a query; {READ_ONLY}")
        for kind, (what, why) in refused.items():
            if isinstance(node, kind):
                where = " (inside a WITH clause)" if node.find_ancestor(exp.CTE) else ""
                raise QueryRefused(f"{what}{where} refused: {why}; {READ_ONLY}")
    if not isinstance(tree, allowed_roots()):
        raise QueryRefused(f"{first_word(sql) or 'the statement'} refused: it is not a query; {READ_ONLY}")
    for function in tree.find_all(exp.Anonymous):
        if function.name.lower() in RUNS_SQL_TEXT:
            raise QueryRefused(
                f"{function.name}() refused: it runs SQL given as text, which the guard cannot check; "
                "write that query itself"
            )


@functools.cache
def duckdb_functions() -> frozenset[str]:
    """The names of every function DuckDB has (scalar, aggregate, table, macro), and of the project's own macros
    (the figures: pure expressions), lower case."""
    import duckdb

    from .database import figure_macros

    con = duckdb.connect(config={"autoload_known_extensions": False, "autoinstall_known_extensions": False})
    try:
        con.execute(figure_macros())
        rows = con.execute("SELECT DISTINCT lower(function_name) FROM duckdb_functions()").fetchall()
        return frozenset(name for (name,) in rows)
    finally:
        con.close()


def check_functions(tree: exp.Expression, dialect: str) -> None:
    """Refuse a call of a function DuckDB does not have, naming it (and the nearest one DuckDB has)."""
    import difflib

    from sqlglot import exp

    known = duckdb_functions()
    for function in tree.find_all(exp.Anonymous):
        name = function.name
        if name.lower() in known:
            continue
        close = difflib.get_close_matches(name.lower(), known, n=1)
        hint = f"; did you mean {close[0]}()?" if close else ""
        source = "" if dialect == "duckdb" else f" (sqlglot has no DuckDB translation of this {dialect} function)"
        raise QueryRefused(f"unknown function {name}(): DuckDB has no function of that name{source}{hint}")


def guarded(sql: str, dialect: str | None = None) -> exp.Expression:
    """The checked DuckDB tree of one reading query written in a dialect (DuckDB's when None)."""
    from sqlglot.dialects.dialect import Dialect
    from sqlglot.errors import ErrorLevel, UnsupportedError

    dialect = (dialect or "duckdb").lower()
    try:
        Dialect.get_or_raise(dialect)
    except ValueError:
        raise QueryRefused(f"unknown SQL dialect {dialect!r}") from None
    tree = parse(sql, dialect)
    check_tree(tree, sql)
    if dialect != "duckdb":
        try:
            duckdb_sql = tree.sql(dialect="duckdb", unsupported_level=ErrorLevel.RAISE)
        except UnsupportedError as error:
            raise QueryRefused(f"cannot translate the {dialect} SQL to DuckDB: {error}") from None
        tree = parse(duckdb_sql, "duckdb")  # what will run is what is checked
        check_tree(tree, duckdb_sql)
    check_functions(tree, dialect)
    return tree


def check_query(sql: str, dialect: str | None = None) -> str:
    """The DuckDB SQL to run for one reading query written in a dialect (DuckDB's when None).

    Raises QueryRefused, with a one-line message, for anything else."""
    return guarded(sql, dialect).sql(dialect="duckdb")


def default_db() -> Path:
    """The database of the Python API: $ACCURACY_DB_PATH, else ./accuracy.duckdb."""
    return Path(os.environ.get(DB_ENV) or DEFAULT_DB)


def connect(db: Path | str | None = None) -> duckdb.DuckDBPyConnection:
    """A read-only connection to a built database, locked down as the guarded queries run.

    The database is attached, read-only, to an in-memory DuckDB of its own, and only then are external access
    and the configuration locked: a fresh instance per call, whatever other connections this process holds to
    the file (DuckDB refuses a second connection to the same file with other settings)."""
    import duckdb

    path = Path(db) if db is not None else default_db()
    if not path.is_file():
        raise AccuracyDbError(f"no database at {path}: run `accuracy-db build` first (or give --db)")
    con = duckdb.connect(
        ":memory:",
        config={
            "autoinstall_known_extensions": False,
            "autoload_known_extensions": False,
            "allow_community_extensions": False,
            "allow_unsigned_extensions": False,
            "python_enable_replacements": False,
            "memory_limit": MEMORY_LIMIT,
            "threads": THREADS,
            "temp_directory": "",  # nothing spills to disk: a query that needs more memory stops
        },
    )
    try:
        con.execute(f"ATTACH $path AS {CATALOG} (READ_ONLY)", {"path": str(path)})
        con.execute(f"USE {CATALOG}")
        con.execute("SET enable_external_access = false")
        con.execute("SET lock_configuration = true")
    except duckdb.Error as error:
        con.close()
        raise AccuracyDbError(f"{path}: cannot open the database ({one_line(error)})") from None
    return con


def one_line(error: Exception) -> str:
    """DuckDB's message on one line, without the echo of the query and its caret."""
    lines = [line.strip() for line in str(error).splitlines()]
    return " ".join(line for line in lines if line and not line.startswith("LINE ") and set(line) != {"^"})


def placeholders(tree: exp.Expression) -> set[str]:
    """The named parameters ($name) of a query."""
    from sqlglot import exp

    names = {node.name for node in tree.find_all(exp.Placeholder)}
    return {name for name in names if name and name != "?" and not name.isdigit()}


def check_params(tree: exp.Expression, params) -> None:
    if params is not None and not isinstance(params, dict):
        return  # positional: DuckDB counts them
    named, given = placeholders(tree), set(params or {})
    if named - given:
        missing = ", ".join(f"${name}" for name in sorted(named - given))
        raise QueryRefused(f"the query needs a value for {missing}")
    if given - named:
        extra = ", ".join(f"${name}" for name in sorted(given - named))
        raise QueryRefused(f"the query has no parameter {extra}")


def run_query(
    db: Path | str,
    sql: str,
    params=None,
    dialect: str | None = None,
    limit: int | None = DEFAULT_ROW_LIMIT,
    timeout: float = DEFAULT_TIMEOUT,
) -> QueryResult:
    """Check a query and run it on a locked-down read-only connection of its own, closed before returning.

    params: a dict for $name parameters, a list for ? or $1. At most limit rows are returned (all when None);
    truncated says there were more. A query running longer than timeout seconds is interrupted."""
    import duckdb
    import polars as pl

    tree = guarded(sql, dialect)
    check_params(tree, params)
    duckdb_sql = tree.sql(dialect="duckdb")
    con = connect(db)
    watchdog = Watchdog(con, timeout)
    try:
        relation = con.sql(duckdb_sql, params=params)
        if limit is not None:
            relation = relation.limit(limit + 1)
        frame = relation.pl()
    except duckdb.InterruptException:
        raise QueryStopped(f"the query ran longer than {timeout:g} s and was stopped") from None
    except duckdb.OutOfMemoryException:
        raise QueryStopped(f"the query needed more than {MEMORY_LIMIT} of memory and was stopped") from None
    except duckdb.PermissionException as error:
        raise QueryRefused(f"refused by the database: {one_line(error)}; queries read the database only") from None
    except duckdb.Error as error:
        raise QueryFailed(one_line(error)) from None
    except pl.exceptions.PolarsError as error:
        reason = one_line(error).split(". ")[0]
        raise QueryFailed(f"a column of the result has a type polars cannot hold ({reason}): cast it") from None
    finally:
        watchdog.close()
    truncated = limit is not None and frame.height > limit
    return QueryResult(frame.head(limit) if truncated else frame, truncated, duckdb_sql)


class Watchdog:
    """Interrupts a connection's query once it has run for timeout seconds (DuckDB has no statement timeout),
    and again every tenth of a second until it stops: an interrupt that comes before the query starts is lost.
    close() ends the watch and closes the connection; the two never run at once."""

    def __init__(self, con: duckdb.DuckDBPyConnection, timeout: float):
        self.con, self.timeout = con, timeout
        self.done = threading.Event()
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self.watch, name="query-watchdog", daemon=True)
        self.thread.start()

    def watch(self) -> None:
        if self.done.wait(self.timeout):
            return
        while True:
            with self.lock:
                if self.done.is_set():
                    return
                self.con.interrupt()
            self.done.wait(0.1)

    def close(self) -> None:
        with self.lock:
            self.done.set()
            self.con.close()
        self.thread.join()


def query(
    sql: str,
    params=None,
    dialect: str | None = None,
    db: Path | str | None = None,
    *,
    limit: int | None = PYTHON_ROW_LIMIT,
    timeout: float = DEFAULT_TIMEOUT,
) -> pl.DataFrame:
    """The Python API: run one read-only query through the guard and return its rows as a polars DataFrame.

    params: a dict for $name parameters (or a list for ?). dialect: the SQL dialect the query is written in
    (postgres, sqlite, mysql…), translated to DuckDB. db: default $ACCURACY_DB_PATH, else ./accuracy.duckdb.
    A result longer than limit rows is cut, with a warning; limit=None returns every row."""
    result = run_query(db if db is not None else default_db(), sql, params, dialect, limit, timeout)
    if result.truncated:
        warnings.warn(f"the result was cut at {limit} rows: pass limit=None for all of them", stacklevel=2)
    return result.frame
