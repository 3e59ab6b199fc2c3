"""accuracy-db rejections: the refused submissions and why."""

from __future__ import annotations

from pathlib import Path

import click

from . import db_option, format_option


@click.command()
@db_option
@format_option
def rejections(db: Path, fmt: str) -> None:
    """The refused submissions, with every problem (file, line, message)."""
    from .. import database, output, scores

    con = database.open_existing(db)
    rows = scores.fetch_dicts(con, "SELECT submission, file, line, message FROM rejections ORDER BY submission, line")
    output.print_rows(rows, fmt, title="Refused submissions")
