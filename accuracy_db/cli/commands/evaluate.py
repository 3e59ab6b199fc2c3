"""accuracy-db evaluate: the drop-in for the shared task's scorer."""

from __future__ import annotations

import functools
from pathlib import Path

import click

from accuracy_db.cli.commands import (
    force_option,
    format_option,
    partial_credit_option,
    print_problems,
    scheme_option,
    stderr,
    threshold_option,
)
from accuracy_db.printable import markup_free


def print_warnings(warnings) -> None:
    """A file's warnings of its whole are one line each; those of its rows (scored as the shared task's scorer
    scores them) are counted on one line and listed as build lists problems."""
    if not warnings:
        return  # without importing rich
    for file in sorted({warning.file for warning in warnings}):
        of_file = [warning for warning in warnings if warning.file == file]
        for warning in of_file:
            if warning.line is None:
                stderr.print(f"[yellow]warning:[/] {markup_free(str(warning))}", soft_wrap=True)
        rows = [warning for warning in of_file if warning.line is not None]
        if rows:
            stderr.print(
                f"[yellow]warning:[/] {markup_free(file)}: {len(rows)} row(s) scored as the shared task's scorer"
                " scores them (by their token ids; a row whose TYPE is no category is left out); --strict refuses them",
                soft_wrap=True,
            )
            print_problems(rows)


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
    type=click.Path(path_type=Path),  # (what it may be, output_files checks: one line, as the command's other errors)
    help="Also write the figures to this CSV file: a new one (an existing one with --force).",
)
@click.option(
    "--strict",
    is_flag=True,
    help="Refuse what the shared task's scorer scores anyway: TOKENS that differ from the text at the token ids "
    "(beyond case, dashes, quotes and spacing), and a TYPE that is no category (that scorer leaves the row out). "
    "With --scheme mushroom: empty spans (start = end) and annotations that cannot be read, which the task's "
    "scorer reads as nothing or never reads.",
)
@force_option
@functools.partial(scheme_option, mushroom=True)
@threshold_option
@partial_credit_option
@format_option
def evaluate(
    gsml: Path,
    submitted: Path,
    token_lookup: Path | None,
    text_dir: Path | None,
    csv_out: Path | None,
    force: bool,
    strict: bool,
    scheme: str,
    threshold: float | None,
    partial_credit: float | None,
    fmt: str,
) -> None:
    """Score a submission against a gold list, as the shared task's evaluate.py does (same flags)."""
    from accuracy_db import output_files
    from accuracy_db.cli import render
    from accuracy_db.errors import AccuracyDbError
    from accuracy_db.scoring.evaluate import evaluate_mushroom, evaluate_with_warnings
    from accuracy_db.scoring.schemes import MUSHROOM, check_partial_credit_scheme

    beside = (gsml.parent / "texts", gsml.parent / "token_lookup.yaml")  # read when not given
    inputs = output_files.command_inputs((gsml, submitted, token_lookup, text_dir, *beside))
    if csv_out is not None:
        output_files.check(csv_out, force, inputs)  # before the lists are read
    check_partial_credit_scheme(partial_credit, scheme)
    if scheme == MUSHROOM:
        if token_lookup is not None or text_dir is not None or threshold is not None:
            raise AccuracyDbError(
                "--token_lookup, --text_dir and --threshold read the shared task's CSV lists, not mushroom's"
            )
        evaluation = evaluate_mushroom(gsml, submitted, strict)
        for warning in evaluation.warnings:
            stderr.print(f"[yellow]warning:[/] {markup_free(str(warning))}", soft_wrap=True)
    else:
        evaluation = evaluate_with_warnings(
            gsml,
            submitted,
            token_lookup=token_lookup,
            text_dir=text_dir,
            strict=strict,
            scheme=scheme,
            threshold=threshold,
            partial_credit=partial_credit,
        )
        print_warnings(evaluation.warnings)
    report = evaluation.report
    if csv_out is not None:
        output_files.write_file(csv_out, render.to_csv(report).encode(), force, inputs)
    render.print_rows(report, fmt, title=f"{submitted} against {gsml}")
