"""DuckDB's parse of SQL (json_serialize_sql: it parses, never runs), as dicts: what the store reads each model's
dependencies from, and what the query guard checks the functions and views of ad-hoc SQL with; and the project's
macros (the figures), which the parser knows."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import duckdb


def figure_macros() -> str:
    """The macros that define the figures (ratio, f1): part of the DDL (schema/00_figures.sql), and known to the
    query guard."""
    return resources.files("accuracy_db.schema").joinpath("00_figures.sql").read_text(encoding="utf-8")


def figure_macro_names() -> list[str]:
    """The names of the figure macros, lower case."""
    return [name.lower() for name in re.findall(r"CREATE MACRO (\w+)", figure_macros())]


_borrowed: duckdb.DuckDBPyConnection | None = None  # the connection parser() gives while parsing_with lends one


def parser() -> duckdb.DuckDBPyConnection:
    """The DuckDB this process parses with, for its parser and its catalog of functions: the connection
    parsing_with lends, else an in-memory DuckDB of the process's own with the project's macros (the figures)."""
    return _borrowed if _borrowed is not None else own_parser()


@functools.cache
def own_parser() -> duckdb.DuckDBPyConnection:
    import duckdb  # here, not at the top: importing the guard stays light

    con = duckdb.connect(config={"autoload_known_extensions": False, "autoinstall_known_extensions": False})
    con.execute(figure_macros())
    return con


def drop_own_parser() -> None:
    """Close the process's own parser, if it made one (a spare query process, once its warm-up is done)."""
    if own_parser.cache_info().currsize:
        own_parser().close()
        own_parser.cache_clear()


@contextmanager
def parsing_with(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """parser() is con within the block: a process that runs one query parses it with the query's own connection
    (a built database holds the figure macros), and starts one DuckDB instead of two."""
    global _borrowed
    _borrowed = con
    try:
        yield
    finally:
        _borrowed = None


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
