"""Create the database: the tables of schema/ and the views of queries/."""

from __future__ import annotations

import graphlib
from importlib import resources
from pathlib import Path

import duckdb
import sqlglot
from sqlglot import exp

DEFAULT_DB = Path("accuracy.duckdb")


def sql_files(package: str) -> list[resources.abc.Traversable]:
    """Every .sql file shipped in a package folder, subfolders included, in name order."""
    found = []

    def walk(folder):
        for entry in folder.iterdir():
            if entry.is_dir():
                walk(entry)
            elif entry.name.endswith(".sql"):
                found.append(entry)

    walk(resources.files(package))
    return sorted(found, key=lambda f: f.name)


def create_tables(con: duckdb.DuckDBPyConnection) -> None:
    for ddl in sql_files("accuracy_db.schema"):
        con.execute(ddl.read_text(encoding="utf-8"))


def view_definitions() -> dict[str, str]:
    """The views of queries/: name (the file stem) -> SELECT statement."""
    return {f.name.removesuffix(".sql"): f.read_text(encoding="utf-8") for f in sql_files("accuracy_db.queries")}


def view_description(sql: str) -> str:
    """The first line of a view's opening comment."""
    for line in sql.splitlines():
        if line.startswith("--"):
            return line.removeprefix("--").strip()
    return ""


def views_in_dependency_order(definitions: dict[str, str]) -> list[str]:
    """View names ordered so that each comes after the views it reads."""
    graph = {}
    for name, sql in definitions.items():
        tree = sqlglot.parse_one(sql, read="duckdb")
        ctes = {cte.alias_or_name for cte in tree.find_all(exp.CTE)}
        graph[name] = {t.name for t in tree.find_all(exp.Table)} & definitions.keys() - ctes - {name}
    return list(graphlib.TopologicalSorter(graph).static_order())


def create_views(con: duckdb.DuckDBPyConnection) -> None:
    definitions = view_definitions()
    for name in views_in_dependency_order(definitions):
        sql = definitions[name]
        con.execute(f"CREATE OR REPLACE VIEW {name} AS\n{sql}")
        con.execute(f"COMMENT ON VIEW {name} IS $${view_description(sql)}$$")


def create_database(con: duckdb.DuckDBPyConnection) -> None:
    """Create every table and view on an empty database."""
    create_tables(con)
    create_views(con)


def open_new(path: Path | str | None) -> duckdb.DuckDBPyConnection:
    """A connection to a fresh database with the schema and views: in memory when path is None."""
    con = duckdb.connect(":memory:" if path is None else str(path))
    create_database(con)
    return con
