"""accuracy-db schema: the schema reference, read from the database itself."""

from __future__ import annotations

from pathlib import Path

import click

from accuracy_db.cli.commands import db_option, format_option


@click.command()
@db_option
@format_option
def schema(db: Path, fmt: str) -> None:
    """Every table and view with its columns, types and descriptions, read from the database itself."""
    from accuracy_db.cli import render
    from accuracy_db.scoring import scores
    from accuracy_db.store import database

    con = database.open_existing(db)
    render.print_rows(scores.fetch_dicts(con, SCHEMA_QUERY), fmt, title=f"Tables and views of {db}")


SCHEMA_QUERY = """
WITH relations AS (
    SELECT table_name AS relation, 'table' AS kind, comment FROM duckdb_tables() WHERE schema_name = 'main'
    UNION ALL
    SELECT view_name, 'view', comment FROM duckdb_views() WHERE schema_name = 'main' AND NOT internal
)
SELECT relation, kind, "column", type, description
FROM (
    SELECT relation, kind, '' AS "column", '' AS type, comment AS description, -1 AS column_index
    FROM relations
    UNION ALL
    SELECT relation, kind, column_name, data_type, coalesce(columns.comment, ''), column_index
    FROM relations
    JOIN duckdb_columns() AS columns ON columns.schema_name = 'main' AND columns.table_name = relations.relation
)
ORDER BY kind, relation, column_index
"""
