"""DuckDB's parse of SQL (json_serialize_sql: it parses, never runs), as dicts: what the store reads each model's
dependencies from, and what the query guard checks the functions and views of ad-hoc SQL with."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import duckdb


@functools.cache
def parser() -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB of this process with the project's macros (the figures), for its catalog of functions
    and its parser."""
    import duckdb  # here, not at the top: importing the guard stays light

    from accuracy_db.store.database import figure_macros

    con = duckdb.connect(config={"autoload_known_extensions": False, "autoinstall_known_extensions": False})
    con.execute(figure_macros())
    return con


def duckdb_parse(sql: str, con: duckdb.DuckDBPyConnection | None = None) -> dict:
    """DuckDB's parse of sql (json_serialize_sql: it parses, never runs), or its error, as a dict; by con, or by the
    process's parser()."""
    cursor = (con or parser()).cursor()  # a cursor per call: threads may check queries at once
    try:
        return json.loads(cursor.execute("SELECT json_serialize_sql($sql)", {"sql": sql}).fetchone()[0])
    finally:
        cursor.close()


def parse_nodes(tree) -> Iterator[dict]:
    """Every node of a parse tree of DuckDB's (json_serialize_sql's dicts and lists), at any depth."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            yield node
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def read_tables(tree) -> set[str]:
    """The names of the tables and views a parse tree of DuckDB's reads by name, anywhere in it, lower case."""
    return {
        node["table_name"].lower()
        for node in parse_nodes(tree)
        if node.get("type") == "BASE_TABLE" and isinstance(node.get("table_name"), str)
    }


def cte_names(tree) -> set[str]:
    """The names of the common table expressions a parse tree of DuckDB's defines, anywhere in it, lower case."""
    return {
        entry["key"].lower()
        for node in parse_nodes(tree)
        if isinstance(node.get("cte_map"), dict)
        for entry in node["cte_map"].get("map", [])
    }
