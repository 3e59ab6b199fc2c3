"""accuracy-db leaderboard: every scored submission, ranked."""

from __future__ import annotations

from pathlib import Path

import click

from . import SCOPES, db_option, format_option


@click.command()
@db_option
@click.option("--split", type=click.Choice(["test", "train", "dev"]), help="Only this split (dev is train).")
@click.option("--scope", type=click.Choice(SCOPES), default="ALL", show_default=True, help="ALL or one category.")
@format_option
def leaderboard(db: Path, split: str | None, scope: str, fmt: str) -> None:
    """Every loaded submission ranked by mistake recall, then precision."""
    from .. import database, output, scores

    con = database.open_existing(db)
    output.print_rows(
        scores.leaderboard(con, split, scope), fmt, title=f"Leaderboard, scope {scope}", hide=("categories",)
    )
