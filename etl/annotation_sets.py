"""A new list's row of annotation_sets and the block of mistake ids its rows take: what every loader of a list
does first, CSV mistake lists (mistake_lists.py) and span lists (span_lists.py) alike. Kept apart from both, with
no polars: the drop-in evaluate races the shared task's scorer and never imports it."""

from __future__ import annotations

from pathlib import Path

import duckdb


def insert_annotation_set(
    con: duckdb.DuckDBPyConnection, kind: str, name: str, split: str, source: Path, sha256: str, rows: int, corpus: str
) -> int:
    """A new list's row of annotation_sets (every loader's, CSV mistake lists and span lists alike); its set_id."""
    return con.execute(
        "INSERT INTO annotation_sets (kind, name, split, source_file, sha256, row_count, corpus)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING set_id",
        [kind, name, split, str(source), sha256, rows, corpus],
    ).fetchall()[0][0]


def reserve_mistake_ids(con: duckdb.DuckDBPyConnection, count: int) -> int:
    """The first of count ids taken from the sequence as one block. The block is unbroken: the database has one
    writer, which inserts one list at a time."""
    return con.execute(
        "SELECT min(id) FROM (SELECT nextval('mistake_ids') AS id FROM range($count))", {"count": count}
    ).fetchall()[0][0]
