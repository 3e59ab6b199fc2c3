"""accuracy-db evaluate: the drop-in for the shared task's scorer."""

from __future__ import annotations

from pathlib import Path

import click

from . import format_option


@click.command()
@click.option(
    "--gsml",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="The gold-standard mistake list (CSV).",
)
@click.option(
    "--submitted",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="The submitted mistake list (CSV).",
)
@click.option(
    "--token_lookup",
    "--token-lookup",
    type=click.Path(dir_okay=False, path_type=Path),
    help="token_lookup.yaml of the texts.",
)
@click.option(
    "--text_dir",
    "--text-dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="The folder of the texts (S001.txt …). Default: texts/ or token_lookup.yaml beside --gsml.",
)
@click.option(
    "--csv_out",
    "--csv-out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the figures to this CSV file.",
)
@format_option
def evaluate(
    gsml: Path, submitted: Path, token_lookup: Path | None, text_dir: Path | None, csv_out: Path | None, fmt: str
) -> None:
    """Score a submission against a gold list, as the shared task's evaluate.py does (same flags)."""
    from .. import output
    from ..errors import AccuracyDbError
    from ..evaluate import evaluate as evaluate_submission

    report = evaluate_submission(gsml, submitted, token_lookup=token_lookup, text_dir=text_dir)
    if csv_out is not None:
        try:
            csv_out.write_text(output.to_csv(report), encoding="utf-8")
        except OSError as error:
            raise AccuracyDbError(f"{csv_out}: cannot write the figures ({error.strerror or error})") from None
    output.print_rows(report, fmt, title=f"{submitted} against {gsml}")
