"""The weights that turn MQM errors into scores: google (the database's mqm_weights, as the schema fills it),
count (every error 1), or a file of rules (etl/mqm_weights.py)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb

from accuracy_db.etl.mqm_weights import ANY, read_weights

GOOGLE, COUNT = "google", "count"
NAMED = (GOOGLE, COUNT)


def rules_of(weights: str) -> list[tuple[str, str, float]] | None:
    """The rules (severity, category, weight) of a --weights value: None for google (the database's own)."""
    if weights == GOOGLE:
        return None
    if weights == COUNT:
        return [(ANY, "", 1.0)]
    return read_weights(Path(weights))


@contextmanager
def weighted_by(con: duckdb.DuckDBPyConnection, weights: str) -> Iterator[None]:
    """Within the block, the MQM views of this connection weigh errors by these weights: a temporary mqm_weights
    shadows the database's (nothing is written to the file; a read-only connection will do)."""
    rules = rules_of(weights)
    if rules is None:
        yield
        return
    con.execute("CREATE TEMP TABLE mqm_weights (severity VARCHAR, category VARCHAR, weight DOUBLE)")
    try:
        con.executemany("INSERT INTO temp.main.mqm_weights VALUES (?, ?, ?)", rules)
        yield
    finally:
        con.execute("DROP TABLE IF EXISTS temp.main.mqm_weights")
