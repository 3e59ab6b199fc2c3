"""What the commands share: their common options and the console for messages."""

from __future__ import annotations

import functools
from pathlib import Path

import click

from accuracy_db.defaults import DB_ENV, DEFAULT_DB  # not from guard: the drop-in evaluate never imports it
from accuracy_db.printable import markup_free


class StderrConsole:
    """rich's console on stderr, made when first used: importing rich takes time, which the drop-in evaluate (raced
    against the shared task's scorer as a whole process) needs only to print warnings."""

    @functools.cached_property
    def console(self):
        from rich.console import Console

        return Console(stderr=True, highlight=False)

    def __getattr__(self, name: str):
        return getattr(self.console, name)


stderr = StderrConsole()
FORMATS = ["table", "json", "csv", "markdown", "latex"]
SHOWN_PROBLEMS = 3  # of a refused submission, in the build summary; `rejections` lists them all

db_option = click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=Path),
    envvar=DB_ENV,
    show_envvar=True,
    default=DEFAULT_DB,
    show_default=True,
    help="The database file.",
)
data_option = click.option(
    "--data",
    type=click.Path(file_okay=False, path_type=Path),
    help="The shared-task data folder (default: $ACCURACY_DB_DATA, ../shared/data/accuracy-shared-task, "
    "or the folder `fetch-data` fills).",
)
corpus_dirs_option = click.option(
    "--corpus-dir",
    "corpus_dirs",
    multiple=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="A corpus folder (texts.jsonl, categories.yaml, lists/) to load as the corpus named after it, and to keep "
    "registered with the database; repeatable. Folders registered before (by this option or by import) are kept.",
)
scores_option = click.option(
    "--scores",
    "scores_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="A folder of files of text-level scores (NAME.csv or NAME.jsonl, each one import of `import scores`), each "
    "with a sidecar NAME.json giving higher_is_better (and a description, a corpus).",
)
format_option = click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="table",
    show_default=True,
    help="table for people; json, csv, markdown or latex for programs and papers.",
)


scopes_option = click.option(
    "--scope",
    "scopes",
    multiple=True,
    help="ALL or a category of the lists' corpus; repeatable (default: every scope).",
)
corpus_option = click.option(
    "--corpus", help="The lists' corpus, when a name is in more than one (default: the corpus the names are in)."
)
list_split_option = click.option(
    "--split", help="The lists' split, when a name is in more than one (shared task: test or train; dev is train)."
)

force_option = click.option(
    "--force",
    is_flag=True,
    help="Replace a file that exists (never a link, a folder or a FIFO, nor an input of the database or of the "
    "command).",
)


def scheme_option(command, mushroom: bool = False, of_corpus: bool = False):
    """--scheme: the match scheme the figures are computed under (accuracy_db/scoring/schemes.py); evaluate,
    leaderboard and compare take the mushroom and esa schemes too, agreement esa (mushroom=False). of_corpus: by
    default the scheme the lists' corpus opens on (schemes.opening_scheme), not the shared task's."""
    from accuracy_db.scoring.schemes import (
        DESCRIPTION,
        ESA_DESCRIPTION,
        MUSHROOM_DESCRIPTION,
        PAIR_SCHEMES,
        RANKING_SCHEMES,
    )

    help = f"{DESCRIPTION} {MUSHROOM_DESCRIPTION if mushroom else ESA_DESCRIPTION}"
    if of_corpus:
        help += (
            " Default: mushroom for a corpus whose gold list is read with character labels (and whose lists it"
            " ranks), else (and with --threshold) shared-task."
        )
    return click.option(
        "--scheme",
        type=click.Choice(RANKING_SCHEMES if mushroom else PAIR_SCHEMES),
        default=None if of_corpus else PAIR_SCHEMES[0],
        show_default=not of_corpus,
        help=help,
    )(command)


threshold_option = click.option(
    "--threshold",
    type=float,
    help="Score the spans that have a probability at or above this one (default: 0.5, the database's); a span "
    "without one is always scored. For the match schemes (the mushroom scheme reads the probabilities themselves).",
)

partial_credit_option = click.option(
    "--partial-credit",
    type=float,
    help="Under the esa scheme, the credit of an error counted at the wrong severity, from 0 to 1 (default: 0.5, "
    "WMT25's); the signature names another.",
)


def resampling_options(command):
    """--resamples, --seed and --confidence: how the bootstrap resamples the texts (checked by Resampling)."""
    for option in reversed(
        [
            click.option(
                "--resamples", type=int, default=1000, show_default=True, help="Bootstrap replicates (1 to 100,000)."
            ),
            click.option("--seed", type=int, default=12345, show_default=True, help="Seed of the resampling."),
            click.option(
                "--confidence", type=float, default=0.95, show_default=True, help="Confidence level of intervals."
            ),
        ]
    ):
        command = option(command)
    return command


def print_warnings(report) -> None:
    """The warnings of a build or refresh report (what was accepted, and why it was worth saying), on stderr."""
    for warning in report.warnings:
        stderr.print(f"[yellow]warning:[/] {markup_free(warning)}", soft_wrap=True)


def print_problems(problems, more: str = "") -> None:
    """A file's problems as build lists them: the first SHOWN_PROBLEMS, indented, then how many more there are."""
    for problem in problems[:SHOWN_PROBLEMS]:
        click.echo(f"  {problem}", err=True)
    if len(problems) > SHOWN_PROBLEMS:
        click.echo(f"  … and {len(problems) - SHOWN_PROBLEMS} more{more}", err=True)


def print_refusals(report, db: Path) -> None:
    """The refused files of a build or refresh report, with their first problems, on stderr."""
    refusals = [(name, problems, "nothing of it loaded") for name, problems in report.refused.items()]
    refusals += [(name, problems, "its metadata unchanged") for name, problems in report.refused_sidecars.items()]
    for name, problems, outcome in refusals:
        what = "submission" if outcome.startswith("nothing") else "the sidecar of submission"
        stderr.print(f"[red]refused[/] {what} {markup_free(name)}: {len(problems)} problem(s), {outcome}")
        print_problems(problems, f": accuracy-db rejections --db {db}")
    for file, problems in report.corpus_refusals.items():
        stderr.print(
            f"[red]refused[/] {markup_free(file)}: {len(problems)} problem(s), nothing of it loaded",
            soft_wrap=True,
        )
        print_problems(problems, f": accuracy-db rejections --db {db}")
    for name, problems in report.scores_refused.items():
        stderr.print(f"[red]refused[/] scores file {markup_free(name)}: nothing of it loaded", soft_wrap=True)
        print_problems(problems, f": accuracy-db query 'FROM score_rejections' --db {db}")


def showing_steps(status):
    """A build's or a refresh's step callback that shows each step on a status line: its text (which may name a
    submission) printable, and not read as markup."""
    return lambda step: status.update(markup_free(step))
