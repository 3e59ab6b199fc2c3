"""Hand polars frames to DuckDB."""

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
