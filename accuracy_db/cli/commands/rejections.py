"""accuracy-db rejections: the refused files and why; with --offsets, the offset audit of the corpora's spans."""

from __future__ import annotations

from pathlib import Path

import click

from accuracy_db.cli.commands import db_option, format_option

# The refused submissions of the submissions folder, then the refused files of the registered corpus folders and
# factgenie campaigns (whose submission is NULL: a file may be no list, such as texts.jsonl).
REFUSALS = """
SELECT corpus, submission, file, line, message
FROM (
    SELECT 'shared-task' AS corpus, submission, file, line, message, 1 AS part FROM rejections
    UNION ALL
    SELECT corpus, NULL, file, line, message, 2 FROM corpus_rejections
)
ORDER BY part, corpus, submission, file, line NULLS FIRST, message
"""


@click.command()
@db_option
@format_option
@click.option(
    "--offsets",
    is_flag=True,
    help="List the offset audit instead: every span widened, trimmed or relocated to whole tokens, and every span "
    "refused (the saved analysis offset_audit).",
)
def rejections(db: Path, fmt: str, offsets: bool) -> None:
    """The refused files, with every problem (file, line, message): submissions, and files of registered corpus
    folders and factgenie campaigns."""
    from accuracy_db.cli import render
    from accuracy_db.scoring import scores
    from accuracy_db.store import database
    from accuracy_db.store.analyses import saved_analysis

    con = database.open_existing(db)
    if offsets:
        rows = scores.fetch_dicts(con, saved_analysis("offset_audit").sql)
        render.print_rows(rows, fmt, title="Spans adjusted or refused")
    else:
        render.print_rows(scores.fetch_dicts(con, REFUSALS), fmt, title="Refused files")
