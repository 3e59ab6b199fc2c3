"""accuracy-db export: the database in another engine."""

from __future__ import annotations

from pathlib import Path

import click

from . import db_option


@click.group()
def export() -> None:
    """Copy the database into another engine (the models transpiled from DuckDB's SQL)."""


@export.command()
@db_option
@click.option("--dsn", required=True, help="libpq connection string of an empty PostgreSQL database")
def postgres(db: Path, dsn: str) -> None:
    """Tables with their constraints and rows (COPY), the models as views, the incremental models as tables."""
    from ..export_postgres import export_postgres

    copied = export_postgres(db, dsn)
    click.echo(f"exported {sum(copied.values())} rows of {len(copied)} tables to PostgreSQL")
