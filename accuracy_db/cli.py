"""The accuracy-db command: it parses arguments and calls the functions that do the work."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.console import Console

from .errors import AccuracyDbError, InputError

stderr = Console(stderr=True, highlight=False)
SCOPES = ["ALL", "NAME", "NUMBER", "WORD", "CONTEXT", "NOT_CHECKABLE", "OTHER"]
FORMATS = ["table", "json", "csv", "markdown"]
SHOWN_PROBLEMS = 3  # of a refused submission, in the build summary; `rejections` lists them all

db_option = click.option(
    "--db", type=click.Path(dir_okay=False, path_type=Path), default="accuracy.duckdb", show_default=True,
    help="The database file.",
)
data_option = click.option(
    "--data", type=click.Path(file_okay=False, path_type=Path),
    help="The shared-task data folder (default: $ACCURACY_DB_DATA, ../shared/data/accuracy-shared-task, "
    "or the folder `fetch-data` fills).",
)
format_option = click.option(
    "--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
    help="table for people; json, csv or markdown for programs and papers.",
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="accuracy-db")
def cli() -> None:
    """An SQL-backed evaluation database for the Accuracy Evaluation Shared Task (INLG 2021)."""


@cli.command()
@data_option
@db_option
@click.option(
    "--submissions", type=click.Path(file_okay=False, path_type=Path),
    help="A folder of submission CSV files, one submission per file, named by its stem.",
)
def build(data: Path | None, db: Path, submissions: Path | None) -> None:
    """Create or rebuild the database from the shared-task data and a folder of submissions."""
    from .build import build as build_database
    from .data_folder import resolve_data_dir

    data_dir = resolve_data_dir(data)
    with stderr.status("Building", spinner="dots") as status:
        report = build_database(data_dir, db, submissions, step=lambda name: status.update(f"Loading {name}"))
    for warning in report.warnings:
        stderr.print(f"[yellow]warning:[/] {warning}")
    for name, problems in report.refused.items():
        stderr.print(f"[red]refused[/] submission {name}: {len(problems)} problem(s), nothing of it loaded")
        for problem in problems[:SHOWN_PROBLEMS]:
            click.echo(f"  {problem}", err=True)
        if len(problems) > SHOWN_PROBLEMS:
            click.echo(f"  … and {len(problems) - SHOWN_PROBLEMS} more: accuracy-db rejections --db {db}", err=True)
    splits = "; ".join(
        f"{split}: {report.texts[split]} texts, {report.gold.get(split, 0)} gold mistakes" for split in report.texts
    )
    click.echo(
        f"Built {db} from {data_dir} in {report.seconds:.1f} s ({splits}); "
        f"{len(report.submissions)} submission(s) loaded, {len(report.refused)} refused."
    )


@cli.command()
@click.option("--gsml", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The gold-standard mistake list (CSV).")
@click.option("--submitted", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The submitted mistake list (CSV).")
@click.option("--token_lookup", "--token-lookup", type=click.Path(dir_okay=False, path_type=Path),
              help="token_lookup.yaml of the texts.")
@click.option("--text_dir", "--text-dir", type=click.Path(file_okay=False, path_type=Path),
              help="The folder of the texts (S001.txt …). Default: texts/ or token_lookup.yaml beside --gsml.")
@click.option("--csv_out", "--csv-out", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write the figures to this CSV file.")
@format_option
def evaluate(gsml: Path, submitted: Path, token_lookup: Path | None, text_dir: Path | None,
             csv_out: Path | None, fmt: str) -> None:
    """Score a submission against a gold list, as the shared task's evaluate.py does (same flags)."""
    from . import output
    from .evaluate import evaluate as evaluate_submission

    report = evaluate_submission(gsml, submitted, token_lookup=token_lookup, text_dir=text_dir)
    if csv_out is not None:
        csv_out.write_text(output.to_csv(report), encoding="utf-8")
    output.print_rows(report, fmt, title=f"{submitted} against {gsml}")


@cli.command()
@db_option
@click.option("--split", type=click.Choice(["test", "train", "dev"]), help="Only this split (dev is train).")
@click.option("--scope", type=click.Choice(SCOPES), default="ALL", show_default=True, help="ALL or one category.")
@format_option
def leaderboard(db: Path, split: str | None, scope: str, fmt: str) -> None:
    """Every loaded submission ranked by mistake recall, then precision."""
    from . import database, output, scores

    con = database.open_existing(db)
    output.print_rows(scores.leaderboard(con, split, scope), fmt, title=f"Leaderboard, scope {scope}",
                      hide=("categories",))


@cli.command()
@db_option
@format_option
def rejections(db: Path, fmt: str) -> None:
    """The refused submissions, with every problem (file, line, message)."""
    from . import database, output, scores

    con = database.open_existing(db)
    rows = scores.fetch_dicts(con, "SELECT submission, file, line, message FROM rejections ORDER BY submission, line")
    output.print_rows(rows, fmt, title="Refused submissions")


@cli.command()
@db_option
@format_option
def schema(db: Path, fmt: str) -> None:
    """Every table and view with its columns, types and descriptions, read from the database itself."""
    from . import database, output, scores

    con = database.open_existing(db)
    output.print_rows(scores.fetch_dicts(con, SCHEMA_QUERY), fmt, title=f"Tables and views of {db}")


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


@cli.command("fetch-data")
@click.option("--url", help="Where to download the repository archive from (default: its GitHub archive).")
@click.option("--dest", type=click.Path(file_okay=False, path_type=Path),
              help="Where to unpack the data files (default: the per-user cache).")
def fetch_data(url: str | None, dest: Path | None) -> None:
    """Download the shared task's public data (only its data files)."""
    from rich.progress import DownloadColumn, Progress, TransferSpeedColumn

    from .fetch_data import DEFAULT_URL
    from .fetch_data import fetch_data as fetch

    columns = (*Progress.get_default_columns(), DownloadColumn(), TransferSpeedColumn())
    with Progress(*columns, console=stderr, disable=not stderr.is_terminal) as progress:
        task = progress.add_task("Downloading", total=None)
        folder = fetch(url or DEFAULT_URL, dest, progress=lambda done, total: progress.update(task, completed=done, total=total))
    click.echo(f"Shared-task data in {folder}")


def main(args: list[str] | None = None) -> None:
    """Run the command; a failure the user can act on is printed as a message, without a traceback."""
    try:
        cli.main(args=args, prog_name="accuracy-db", standalone_mode=False)
    except click.exceptions.Exit as exit:
        sys.exit(exit.exit_code)
    except click.ClickException as error:
        error.show()
        sys.exit(error.exit_code)
    except click.Abort:
        stderr.print("Aborted.")
        sys.exit(130)
    except InputError as error:
        for problem in error.problems:
            click.echo(str(problem), err=True)
        files = ", ".join(sorted({p.file for p in error.problems}))
        click.echo(f"{len(error.problems)} problem(s) in {files}; nothing was loaded.", err=True)
        sys.exit(1)
    except AccuracyDbError as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(1)
