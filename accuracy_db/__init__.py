"""accuracy-db: an SQL-backed evaluation database for the Accuracy Evaluation Shared Task (INLG 2021).

From Python or a notebook, accuracy_db.connect() and accuracy_db.query() read a built database through the
guard of the query command (accuracy_db/sqlbox/guard.py), imported when first used so that importing the package
(and starting the evaluate command) stays fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

    import duckdb
    import polars as pl

from accuracy_db.defaults import DB_ENV, DEFAULT_DB  # noqa: F401  the names the API has always offered
from accuracy_db.defaults import VERSION as __version__  # noqa: F401


def connect(db: Path | str | None = None) -> duckdb.DuckDBPyConnection:
    """A read-only DuckDB connection to a built database (default: $ACCURACY_DB_PATH, else ./accuracy.duckdb),
    locked down like the query command's: no files, no extensions, no settings changes. Close it when done."""
    from accuracy_db.sqlbox.guard import connect as locked_connection

    return locked_connection(db)


def query(sql: str, params=None, dialect: str | None = None, db: Path | str | None = None, **limits) -> pl.DataFrame:
    """Run one read-only query through the guard and return its rows as a polars DataFrame.

    params: a dict for $name parameters (or a list for ?). dialect: the SQL dialect the query is written in
    (postgres, sqlite, mysql…), translated to DuckDB. db: default $ACCURACY_DB_PATH, else ./accuracy.duckdb.
    limits: limit (rows, default 1,000,000; None for all, a longer result is cut with a warning), timeout
    (seconds, default 30) and max_bytes (default 50 MB: a larger result is refused). The query runs in a process
    of its own, which the operating system bounds (see accuracy_db/sqlbox/sandbox.py)."""
    from accuracy_db.sqlbox.sandbox import query as guarded_query

    return guarded_query(sql, params, dialect, db, **limits)
