"""Hand polars frames to DuckDB."""

from collections.abc import Iterable

import duckdb
import polars as pl


def create_temp_table(con: duckdb.DuckDBPyConnection, name: str, frame: pl.DataFrame) -> None:
    """Copy a frame into a temporary table, through its Arrow C stream (so pyarrow is never imported)."""
    stream = f"{name}_stream"
    con.register(stream, frame.__arrow_c_stream__())
    try:
        con.execute(f"CREATE OR REPLACE TEMP TABLE {name} AS SELECT * FROM {stream}")
    finally:
        con.unregister(stream)


def insert_frame(con: duckdb.DuckDBPyConnection, frame: pl.DataFrame, insert: str) -> None:
    """Run an INSERT that reads the frame as new_rows, through its Arrow C stream (so pyarrow is never imported)."""
    con.register("new_rows", frame.__arrow_c_stream__())
    try:
        con.execute(insert)
    finally:
        con.unregister("new_rows")


def insert_rows(
    con: duckdb.DuckDBPyConnection, table: str, rows: list[tuple], schema: dict, verb: str = "INSERT"
) -> None:
    """Insert plain tuples (their columns named and typed by schema) into a table in one statement."""
    frame = pl.DataFrame(rows, schema=schema, orient="row")
    insert_frame(con, frame, f"{verb} INTO {table} BY NAME SELECT * FROM new_rows")


def insert_all(con: duckdb.DuckDBPyConnection, frames: Iterable[tuple[str, pl.DataFrame]]) -> None:
    """Insert each frame into its table, in one transaction, so that a failure (in making a frame too: they may be
    made as they are inserted, so that one at a time takes memory) leaves none of them. Each is read once, through
    its Arrow C stream (a frame registered as such would import pyarrow, which the loading does not need)."""
    con.begin()
    try:
        for table, frame in frames:
            con.register("new_rows", frame.__arrow_c_stream__())
            con.execute(f"INSERT INTO {table} BY NAME SELECT * FROM new_rows")
        con.commit()
    except BaseException:
        con.rollback()
        raise
    finally:
        con.unregister("new_rows")  # after the rollback: an aborted transaction refuses it
