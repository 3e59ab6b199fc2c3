"""accuracy-db demo: build the demo database (make demo)."""

from __future__ import annotations

from pathlib import Path

import click

from accuracy_db.cli.commands import data_option, db_option, print_refusals, print_warnings, showing_steps, stderr
from accuracy_db.printable import printable


@click.command()
@data_option
@db_option
@click.option(
    "--lists",
    "folder",
    type=click.Path(file_okay=False, path_type=Path),
    default="demo-lists",
    show_default=True,
    help="The scratch folder the generated lists are written into, beside links to the example submissions and "
    "the participants' files (the demo's submissions folder).",
)
@click.option(
    "--participants",
    type=click.Path(file_okay=False, path_type=Path),
    help="A folder of the participants' submissions to put in too (default: the one `fetch-data --participants` "
    "fills, when it was run).",
)
def demo(data: Path | None, db: Path, folder: Path, participants: Path | None) -> None:
    """Build a demo database: the shared-task data, lists generated from the gold list by seeded degradations
    (named generated-…), the example submissions, the box-score checker's list, the participants' submissions when
    fetched, and a Mu-SHROOM and an MQM corpus when their files are beside the data folder (docs/demo.md)."""
    from accuracy_db.etl.data_folder import resolve_data_dir
    from accuracy_db.ingest.fetch_data import participants_dir
    from accuracy_db.interchange.demo import build_demo

    data_dir = resolve_data_dir(data)
    with stderr.status("Building the demo", spinner="dots") as status:
        report = build_demo(data_dir, db, folder, participants or participants_dir(), step=showing_steps(status))
    print_warnings(report.build)
    print_refusals(report.build, db)
    for path in report.missing:
        stderr.print(f"[yellow]warning:[/] {printable(path)} not found: its corpus is left out", soft_wrap=True)
    loaded = ", ".join(report.build.loaded)
    click.echo(
        printable(
            f"Built the demo database {db} in {report.build.seconds:.1f} s: submissions {loaded}, boxscore;"
            f" corpora shared-task{''.join(', ' + corpus for corpus in report.corpora)}."
            + ("" if report.participants else " The participants' submissions: accuracy-db fetch-data --participants.")
        )
    )
