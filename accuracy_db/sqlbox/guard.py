"""The one guarded path for ad-hoc SQL: the query command, the Python API and the dashboard's SQL page.

Three walls, each enough on its own for what it guards:

* check_query refuses a query too long or nested too deep to read cheaply, then parses the SQL with sqlglot and
  walks the whole tree: one statement, a query, nothing anywhere in it that writes, changes the schema or the
  settings, touches files or extensions, or that sqlglot only knows as a generic command; and no function DuckDB
  does not have (sqlglot passes unknown ones through unchanged).
* check_functions_allowed reads the DuckDB SQL that will run with DuckDB's own parser and refuses every function
  call not marked allowed in functions.tsv, the classification of every function of duckdb_functions(): nothing
  that runs SQL or a function given as text, changes the engine's state, reads files, or shows where the server
  keeps its files; and every view of DuckDB's own whose definition calls such a function (pg_settings…).
* the query runs in a child process (accuracy_db/sqlbox/sandbox.py) on a DuckDB of its own, the database attached
  read-only, with external access, extension loading and configuration changes locked off, DuckDB's memory
  limit, an address-space limit the operating system enforces, a time limit at which the process is killed, and
  bounds on the rows and bytes it returns. The parser cannot see what a function will read
  (read_csv('/etc/passwd') is a plain SELECT), so for files the engine is the boundary too.

The Python API, accuracy_db.query(sql) and accuracy_db.connect(), calls connect() and query() here.
"""

from __future__ import annotations

import functools
import logging
import math
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from accuracy_db.defaults import default_db
from accuracy_db.errors import AccuracyDbError
from accuracy_db.sql_parse import duckdb_parse, figure_macro_names, parse_nodes, parser, read_tables

if TYPE_CHECKING:
    import duckdb
    import polars as pl
    from sqlglot import exp

DEFAULT_ROW_LIMIT = 10_000  # rows a query returns at most, unless told otherwise
PYTHON_ROW_LIMIT = 1_000_000  # query()'s: a notebook wants whole tables, but not a runaway result
DEFAULT_TIMEOUT = 30.0  # seconds a query may run
MAX_TIMEOUT = 86_400.0  # a day: a time limit is a number of seconds, never inf
DEFAULT_MAX_BYTES = 50_000_000  # bytes a result may hold (its Arrow buffers), unless told otherwise
MEMORY_LIMIT = "1GB"
THREADS = 2
# Parsing costs grow with the text and its nesting (sqlglot recurses): both are bounded before anything parses.
MAX_QUERY_CHARS = 100_000
MAX_NESTING = 64  # parentheses inside parentheses
CATALOG = "accuracy"  # the name the database is attached under
READ_ONLY = "only one query that reads runs here"
FUNCTIONS_FILE = "functions.tsv"  # every DuckDB function: "allowed", or why it is refused
ALLOWED = "allowed"

# Statements that read: a query, and DuckDB's read-only statements that describe tables.
QUERY_STARTS = {"SELECT", "WITH", "FROM", "VALUES", "TABLE", "PIVOT", "UNPIVOT", "DESCRIBE", "SUMMARIZE", "SHOW", "("}
# The first words of statements that are not queries: SQL that starts so and cannot be parsed is refused as such,
# any other unparsable SQL is a syntax error.
STATEMENT_WORDS = {
    "ABORT", "ALTER", "ANALYZE", "ATTACH", "BEGIN", "CALL", "CHECKPOINT", "COMMENT", "COMMIT", "COPY", "CREATE",
    "DEALLOCATE", "DELETE", "DETACH", "DROP", "END", "EXECUTE", "EXPORT", "FORCE", "GRANT", "IMPORT", "INSERT",
    "INSTALL", "LOAD", "MERGE", "PRAGMA", "PREPARE", "RESET", "REVOKE", "ROLLBACK", "SET", "TRUNCATE", "UNINSTALL",
    "UPDATE", "UPSERT", "USE", "VACUUM",
}  # fmt: skip
# Literals and comments, whose parentheses do not nest anything.
NOT_NESTING = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|\$\$.*?\$\$|--[^\n]*|/\*.*?\*/", re.DOTALL)


class QueryRefused(AccuracyDbError):
    """The guard (or the engine's locked settings) would not run a query; the message says what and why."""


class QueryStopped(QueryRefused):
    """A query ran into the time or memory limit and was stopped."""


class ResultTooLarge(QueryStopped):
    """A result passed the bound on the bytes a query may return."""


class QueryFailed(AccuracyDbError):
    """DuckDB could not run a query that the guard let through (a mistyped column, a bad cast…)."""


@dataclass
class QueryResult:
    """The rows of a query (at most the limit), whether there were more, and the DuckDB SQL that ran. The rows are
    a polars frame, or, when they were asked for as Python values and the result is small and of plain types
    (sandbox.plain_rows), records and columns, with frame None."""

    frame: pl.DataFrame | None
    truncated: bool
    sql: str
    records: list[dict] | None = None
    columns: list[str] | None = None

    def rows(self) -> tuple[list[dict], list[str]]:
        """The rows as dicts (polars' to_dicts) and the column names, however they came."""
        if self.frame is None:
            return self.records, self.columns
        return self.frame.to_dicts(), self.frame.columns


@dataclass(frozen=True)
class Limits:
    """What a guarded query may take: rows returned (None: all), seconds, bytes returned."""

    rows: int | None = DEFAULT_ROW_LIMIT
    seconds: float = DEFAULT_TIMEOUT
    bytes: int = DEFAULT_MAX_BYTES

    def __post_init__(self):
        if isinstance(self.seconds, bool) or not isinstance(self.seconds, (int, float)):
            raise AccuracyDbError(f"the time limit must be a number of seconds, not {self.seconds!r}")
        if not (math.isfinite(self.seconds) and 0 < self.seconds <= MAX_TIMEOUT):
            raise AccuracyDbError(
                f"the time limit must be more than 0 and at most {MAX_TIMEOUT:g} seconds, not {self.seconds:g}"
            )
        if self.rows is not None and (isinstance(self.rows, bool) or not isinstance(self.rows, int) or self.rows < 0):
            raise AccuracyDbError(f"the row limit must be a whole number of rows (or none), not {self.rows!r}")
        if isinstance(self.bytes, bool) or not isinstance(self.bytes, int) or self.bytes <= 0:
            raise AccuracyDbError(f"the bound on a result's bytes must be a whole number above 0, not {self.bytes!r}")


def megabytes(size: int) -> str:
    return f"{size / 1e6:g} MB"


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


def check_size(sql: str) -> None:
    """Refuse, before anything parses it, a query too long or nested too deep to be read in a moment."""
    if not isinstance(sql, str):
        raise QueryRefused(f"the query must be text, not {type(sql).__name__}")
    if len(sql) > MAX_QUERY_CHARS:
        raise QueryRefused(f"the query is {len(sql):,} characters long; at most {MAX_QUERY_CHARS:,} are read")
    depth = deepest = 0
    for char in NOT_NESTING.sub(" ", sql):
        if char == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif char == ")":
            depth -= 1
    if deepest > MAX_NESTING:
        raise QueryRefused(f"the query nests parentheses {deepest} deep; at most {MAX_NESTING} are read")


def line_and_column(sql: str, offset: int) -> tuple[int, int]:
    before = sql[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


def duckdb_syntax_error(sql: str) -> str | None:
    """What DuckDB's own parser says is wrong with sql, with the place; None when it reads it."""
    parsed = duckdb_parse(sql)
    if not parsed.get("error") or parsed.get("error_type") != "parser":
        return None
    message = parsed.get("error_message", "").splitlines()[0]
    if str(parsed.get("position", "")).isdigit():
        line, column = line_and_column(sql, int(parsed["position"]))
        return f"{message} (line {line}, column {column})"
    return message


def syntax_error(sql: str, dialect: str, error: Exception) -> QueryRefused:
    """A parse error as a syntax error with its place: DuckDB's parser's words for DuckDB's SQL, else the place
    sqlglot stopped at (never its dump of the tokens)."""
    word = first_word(sql)
    if word in STATEMENT_WORDS:
        return QueryRefused(f"{word} refused: it is not a query; {READ_ONLY}")
    if dialect == "duckdb":
        message = duckdb_syntax_error(sql)
        if message is not None:
            return QueryRefused(f"syntax error: {message}")
    details = getattr(error, "errors", None) or [{}]
    line, column, near = details[0].get("line"), details[0].get("col"), details[0].get("highlight")
    where = f" at line {line}, column {column}" if line and column else ""
    where += f", near {near[:40]!r}" if near else ""
    if dialect == "duckdb":  # DuckDB reads it, sqlglot does not
        return QueryRefused(f"the guard cannot read this SQL{where}: write that part another way")
    return QueryRefused(f"syntax error in the {dialect} SQL{where}")


def parse(sql: str, dialect: str) -> exp.Expression:
    """The one statement of sql as a tree, or a refusal saying why there is not exactly one."""
    import sqlglot
    from sqlglot.errors import ParseError, TokenError

    try:
        statements = [s for s in sqlglot.parse(sql, dialect=dialect) if s is not None]
    except (ParseError, TokenError) as error:
        raise syntax_error(sql, dialect, error) from None
    except RecursionError:
        raise QueryRefused("the query is nested too deeply to be checked") from None
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


@functools.cache
def duckdb_functions() -> frozenset[str]:
    """The names of every function DuckDB has (scalar, aggregate, table, macro), lower case."""
    rows = parser().cursor().execute("SELECT DISTINCT lower(function_name) FROM duckdb_functions()").fetchall()
    return frozenset(name for (name,) in rows)


@functools.cache
def function_verdicts() -> dict[str, str]:
    """Every DuckDB function the guard has classified: name -> "allowed", or why a query may not call it; and the
    project's own macros (ratio, f1: pure expressions), allowed."""
    text = resources.files("accuracy_db.sqlbox").joinpath(FUNCTIONS_FILE).read_text(encoding="utf-8")
    lines = (line.split("\t") for line in text.splitlines() if line and not line.startswith("#"))
    return {name: verdict for name, verdict in lines} | dict.fromkeys(figure_macro_names(), ALLOWED)


def called_functions(tree) -> set[str]:
    """The names of the functions a parse tree of DuckDB's calls, anywhere in it, lower case."""
    return {node["function_name"].lower() for node in parse_nodes(tree) if isinstance(node.get("function_name"), str)}


VIEW_QUERY = re.compile(r"CREATE (?:TEMP )?VIEW .*? AS (.*?);?\s*", re.DOTALL)  # the form of duckdb_views().sql
NOT_CLASSIFIED = "it is not among the functions the guard lets a query call"


@functools.cache
def engine_views() -> dict[str, str]:
    """DuckDB's own views (duckdb_databases, pg_settings…) by name, lower case: their definitions."""
    return dict(parser().cursor().execute("SELECT lower(view_name), sql FROM duckdb_views() WHERE internal").fetchall())


@functools.cache
def engine_view_verdict(name: str) -> str | None:
    """Why a query may not read DuckDB's own view `name`: the verdict of the first function its definition calls
    that the guard refuses (a view shows what the functions it reads show); None when it calls none. Worked out
    for the views a query reads by name only: parsing all ninety definitions took 0.18 s of every query."""
    definition = duckdb_parse(VIEW_QUERY.fullmatch(engine_views()[name]).group(1))
    if definition.get("error"):
        return f"the guard cannot check its definition ({definition.get('error_message', '')})"
    verdicts = function_verdicts()
    called = sorted(called_functions(definition["statements"]))
    reasons = [verdicts.get(function, NOT_CLASSIFIED) for function in called if verdicts.get(function) != ALLOWED]
    return reasons[0] if reasons else None


def check_functions_allowed(duckdb_sql: str) -> None:
    """Refuse a query that calls any function not marked allowed in functions.tsv, or reads a view of DuckDB's
    that does, as DuckDB's parser reads it (whatever sqlglot made of it). A table of the database named as such a
    view is refused too: the name alone does not tell them apart."""
    parsed = duckdb_parse(duckdb_sql)
    if parsed.get("error"):
        why = parsed.get("error_message", "")
        if re.search(r"\bPIVOT\b", duckdb_sql, re.IGNORECASE):
            why = "DuckDB finds a PIVOT's columns with a query of its own: list them, as in ON category IN ('NAME')"
        raise QueryRefused(f"the guard cannot check this statement: {why}")
    verdicts = function_verdicts()
    for name in sorted(called_functions(parsed["statements"])):
        verdict = verdicts.get(name)
        if verdict is None:
            raise QueryRefused(f"{name}() refused: {NOT_CLASSIFIED}")
        if verdict != ALLOWED:
            raise QueryRefused(f"{name}() refused: {verdict}")
    tables = read_tables(parsed["statements"])  # DuckDB's views are listed only for a query that reads one by name
    for name in sorted(tables & engine_views().keys() if tables else ()):
        verdict = engine_view_verdict(name)
        if verdict is not None:
            raise QueryRefused(f"{name} refused: {verdict}")


def check_functions(tree: exp.Expression, dialect: str) -> None:
    """Refuse a call of a function DuckDB does not have, naming it (and the nearest one DuckDB has)."""
    import difflib

    from sqlglot import exp

    for function in tree.find_all(exp.Anonymous):  # DuckDB's list is read only when a query calls one
        name, known = function.name, duckdb_functions()
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

    check_size(sql)
    dialect = (dialect or "duckdb").lower() if isinstance(dialect, (str, type(None))) else repr(dialect)
    try:
        Dialect.get_or_raise(dialect)
    except ValueError:
        raise QueryRefused(f"unknown SQL dialect {dialect!r}") from None
    tree = parse(sql, dialect)
    try:
        check_tree(tree, sql)
        if dialect != "duckdb":
            try:
                duckdb_sql = tree.sql(dialect="duckdb", unsupported_level=ErrorLevel.RAISE)
            except UnsupportedError as error:
                raise QueryRefused(f"cannot translate the {dialect} SQL to DuckDB: {one_line(error)}") from None
            check_size(duckdb_sql)
            tree = parse(duckdb_sql, "duckdb")  # what will run is what is checked
            check_tree(tree, duckdb_sql)
        check_functions(tree, dialect)
    except RecursionError:
        raise QueryRefused("the query is nested too deeply to be checked") from None
    return tree


def check_query(sql: str, dialect: str | None = None, params=None) -> str:
    """The DuckDB SQL to run for one reading query written in a dialect (DuckDB's when None), given its
    parameters: checked by sqlglot's reading of it, then every function it calls by DuckDB's.

    Raises QueryRefused, with a one-line message, for anything else."""
    tree = guarded(sql, dialect)
    check_params(tree, params)
    try:
        duckdb_sql = tree.sql(dialect="duckdb")
    except RecursionError:
        raise QueryRefused("the query is nested too deeply to be checked") from None
    check_functions_allowed(duckdb_sql)
    return duckdb_sql


def connect(db: Path | str | None = None) -> duckdb.DuckDBPyConnection:
    """A read-only connection to a built database, locked down as the guarded queries run.

    The database is attached, read-only, to an in-memory DuckDB of its own, and only then are external access
    and the configuration locked: a fresh instance per call, whatever other connections this process holds to
    the file (DuckDB refuses a second connection to the same file with other settings)."""
    import duckdb

    path = Path(db) if db is not None else default_db()
    if not path.is_file():
        raise AccuracyDbError(f"no database at {path}: build one with `accuracy-db build`")
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
