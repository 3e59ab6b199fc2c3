"""accuracy-db agreement: how far two or more annotation sets agree."""

from __future__ import annotations

from pathlib import Path

import click

from . import corpus_option, db_option, format_option, list_split_option, scheme_option, scopes_option


@click.command()
@click.argument("sets", nargs=-1, required=True)
@db_option
@corpus_option
@list_split_option
@scopes_option
@scheme_option
@format_option
def agreement(
    sets: tuple[str, ...],
    db: Path,
    corpus: str | None,
    split: str | None,
    scopes: tuple[str, ...],
    scheme: str,
    fmt: str,
) -> None:
    """Agreement of two or more lists (SETS: gold or submission names) of one split: each scored against each
    other as if it were the gold list (under the match scheme), the correlations of their mistakes per text, and,
    for three lists or more, Fleiss' kappa and Krippendorff's alpha of the categories of the spans a majority
    marks."""
    from .. import database, output
    from ..agreement import agreement as compute

    con = database.open_existing(db)
    output.print_agreement(compute(con, list(sets), split, list(scopes) or None, corpus, scheme), fmt)
