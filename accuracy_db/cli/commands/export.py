"""accuracy-db export: the database in another engine, or its lists in another tool's format."""

from __future__ import annotations

from pathlib import Path

import click

from accuracy_db.cli.commands import db_option


@click.group()
def export() -> None:
    """Copy the database into another engine (postgres), or its lists into another tool's format (factgenie)."""


@export.command()
@db_option
@click.option("--dsn", required=True, help="libpq connection string of an empty PostgreSQL database")
def postgres(db: Path, dsn: str) -> None:
    """Tables with their constraints and rows (COPY), the models as views, the incremental models as tables."""
    from accuracy_db.interchange.export_postgres import export_postgres

    copied = export_postgres(db, dsn)
    click.echo(f"exported {sum(copied.values())} rows of {len(copied)} tables to PostgreSQL")


@export.command()
@db_option
@click.option("--corpus", default="shared-task", show_default=True, help="The corpus whose lists are exported.")
@click.option("--sets", "names", multiple=True, help="Only the list of this name (repeatable; gold for a gold list).")
@click.option("--out", type=click.Path(path_type=Path), required=True, help="A new folder: the campaign folder.")
def factgenie(db: Path, corpus: str, names: tuple[str, ...], out: Path) -> None:
    """A corpus's lists as a factgenie campaign folder (metadata.json, db.csv, files/*.jsonl) that factgenie opens."""
    from accuracy_db.interchange.export_factgenie import export_factgenie

    lists = export_factgenie(db, corpus, out, list(names) or None)
    click.echo(f"exported {lists} list(s) of corpus {corpus} to {out}")
