"""accuracy-db query: one read-only SQL query, or a saved analysis, on the database."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import click

from accuracy_db.cli.commands import db_option, force_option, stderr
from accuracy_db.formatting import QUERY_FORMATS
from accuracy_db.sqlbox.guard import DEFAULT_MAX_BYTES, DEFAULT_ROW_LIMIT, DEFAULT_TIMEOUT

UNITS = {"": 1, "B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9, "KIB": 2**10, "MIB": 2**20, "GIB": 2**30}


def parse_params(values: tuple[str, ...]) -> dict[str, str]:
    """--param NAME=VALUE options as a dict (DuckDB casts the text to the type the query needs)."""
    params = {}
    for value in values:
        name, equals, text = value.partition("=")
        if not equals or not name.strip():
            raise click.BadParameter(f"{value!r} is not NAME=VALUE", param_hint="--param")
        params[name.strip().removeprefix("$")] = text
    return params


def parse_size(_context, _param, value: str) -> int:
    """--max-bytes: a number of bytes, or a size such as 50MB or 2GB."""
    match = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]*)\s*", value)
    if not match or match.group(2).upper() not in UNITS:
        raise click.BadParameter(f"{value!r} is not a size such as 50MB or 2GB")
    size = int(float(match.group(1)) * UNITS[match.group(2).upper()])
    if size <= 0:
        raise click.BadParameter(f"{value!r} is no room for a result")
    return size


@click.command()
@click.argument("sql", required=False)
@click.option(
    "-f", "--file", "sql_file", type=click.Path(dir_okay=False, path_type=Path), help="Read the query from a file."
)
@click.option("--saved", metavar="NAME", help="Run a saved analysis (--list shows them).")
@click.option("--list", "list_saved", is_flag=True, help="List the saved analyses and the questions they answer.")
@click.option(
    "--param",
    "params",
    multiple=True,
    metavar="NAME=VALUE",
    help="The value of the query's parameter $NAME; repeat for each parameter.",
)
@db_option
@click.option(
    "--dialect",
    help="The SQL dialect the query is written in: duckdb (the default), postgres, sqlite, mysql, or any other "
    "sqlglot reads. It is translated to DuckDB first.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(QUERY_FORMATS),
    default="table",
    show_default=True,
    help="table for people; json, csv, markdown, latex (a booktabs tabular) or parquet (needs --output).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),  # (what it may be, output_files checks: one line, as the command's other errors)
    help="Write the result to a new file (an existing one with --force).",
)
@force_option
@click.option(
    "--limit",
    type=click.IntRange(min=0),
    help=f"Rows to return at most; 0 for all. Default: {DEFAULT_ROW_LIMIT:,} on the terminal, all with --output.",
)
@click.option(
    "--timeout",
    type=float,
    default=DEFAULT_TIMEOUT,
    show_default=True,
    help="Seconds after which the query is stopped.",
)
@click.option(
    "--max-bytes",
    default=f"{DEFAULT_MAX_BYTES // 10**6}MB",
    show_default=True,
    callback=parse_size,
    help="The bound on the bytes a result may hold (as Arrow data); a larger result is refused.",
)
def query(
    sql: str | None,
    sql_file: Path | None,
    saved: str | None,
    list_saved: bool,
    params: tuple[str, ...],
    db: Path,
    dialect: str | None,
    fmt: str,
    output: Path | None,
    force: bool,
    limit: int | None,
    timeout: float,
    max_bytes: int,
) -> None:
    """Run one read-only SQL query (or a saved analysis) on the database and print its rows.

    Only a single query that reads runs: anything that would write, change settings, or reach files, other
    databases or extensions is refused. It runs in a process of its own, stopped at the time limit or when it
    needs more memory than it is given; a result larger than --max-bytes is refused."""
    # Imported as needed (each import is a cost of every query: tests/test_query_cli.py checks what a plain one
    # imports); a small plain result is printed without polars and pyarrow.
    from accuracy_db.cli import render as out
    from accuracy_db.errors import AccuracyDbError
    from accuracy_db.output_files import NO_INPUTS, check
    from accuracy_db.sqlbox.guard import ResultTooLarge
    from accuracy_db.sqlbox.sandbox import run_query

    if fmt == "parquet" and output is None:
        raise click.UsageError("--format parquet needs --output FILE")
    if fmt == "table" and output is not None:
        raise click.UsageError("--output needs --format csv, json, markdown, latex or parquet")
    inputs = NO_INPUTS
    if output is not None:
        from accuracy_db.ingest.sources import registered_inputs

        inputs = registered_inputs(db)
        check(output, force, inputs)  # before the query runs
    write = functools.partial(out.write_frame, output=output, force=force, inputs=inputs)
    if list_saved:
        import polars as pl

        from accuracy_db.store.analyses import saved_analyses

        rows = [
            {"name": a.name, "parameters": " ".join(a.parameters), "question": a.question} for a in saved_analyses()
        ]
        write(pl.DataFrame(rows), fmt, title="Saved analyses (accuracy-db query --saved NAME)")
        return
    if sum(source is not None for source in (sql, sql_file, saved)) != 1:
        raise click.UsageError("give one query: as an argument, with -f FILE, or with --saved NAME")
    title = None
    if saved is not None:
        from accuracy_db.store.analyses import saved_analysis

        if dialect not in (None, "duckdb"):
            raise click.UsageError("saved analyses are DuckDB SQL: --dialect is for your own queries")
        analysis = saved_analysis(saved)
        sql, title = analysis.sql, analysis.question
    elif sql_file is not None:
        try:
            sql = sql_file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise AccuracyDbError(f"{sql_file}: cannot read the query ({error})") from None
    if limit is None:
        limit = DEFAULT_ROW_LIMIT if output is None else 0  # a file gets every row unless told otherwise
    limit = limit or None
    as_rows = fmt != "parquet"  # a small plain result then comes without polars (sandbox.plain_rows)
    tick = out.import_table_printer if fmt == "table" else None
    try:
        result = run_query(
            db, sql, parse_params(params) or None, dialect, limit, timeout, max_bytes, tick, rows=as_rows
        )
    except ResultTooLarge as error:
        raise ResultTooLarge(f"{error}; --max-bytes raises the bound") from None
    notes = ()
    if result.truncated:
        notes = (f"the result has more than {limit:,} rows; only the first {limit:,} are given (--limit)",)
    write(result.rows() if as_rows else result.frame, fmt, title=title, notes=notes)
    if notes:
        stderr.print(f"[yellow]note:[/] {notes[0]}")
