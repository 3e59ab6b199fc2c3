"""Every command checks its --split, --corpus and --scope the same way, through scores.check_corpus_choice (issue 48,
finding 9: `calibration --split NOSUCH` printed [] with exit status 0), and says in its --help what it does (finding
10: `metrics compare --help` gave --split a default the command then demanded)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import click
import pytest

from accuracy_db.cli.main import cli, run

# Each command that reads lists of a corpus, with the arguments it needs besides the choice checked: every command
# with --split or --corpus is here, or among those whose --corpus names a corpus they load (NEW_CORPUS).
COMMANDS = {
    ("adjudicate",): ["submission", "submission_doc_based", "--as", "derived", "--min-votes", "1", "--out", "{tmp}"],
    ("agreement",): ["submission", "submission_doc_based"],
    ("calibration",): [],
    ("check",): [],
    ("compare",): ["submission", "submission_doc_based"],
    ("difficulty",): [],
    ("export", "factgenie"): ["--out", "{tmp}/campaign"],
    ("leaderboard",): [],
    ("metrics",): [],
    ("metrics", "compare"): ["bleu", "chrf", "--measure", "pearson"],
    ("systems",): [],
    ("validity",): ["submission"],
}
NEW_CORPUS = {
    ("import", "corpus"),
    ("import", "factgenie"),
    ("import", "mqm"),
    ("import", "mushroom"),
    ("import", "scores"),
}
# What the commands with no corpus of their own say of a split no corpus has; those that read one corpus (by default
# the shared task's) name it.
ANY_CORPUS = "split 'NOSUCH' is not a split of any corpus (shared-task: test, train)"
ONE_CORPUS = "split 'NOSUCH' is not a split of corpus shared-task (test, train)"


def commands(command: click.Command = cli, path: tuple[str, ...] = ()) -> dict[tuple[str, ...], click.Command]:
    """Every command of the command line by its path, the groups' subcommands too."""
    found = {path: command}
    if isinstance(command, click.Group):
        context = click.Context(command)
        for name in command.list_commands(context):
            found |= commands(command.get_command(context, name), (*path, name))
    return found


def options(command: click.Command) -> dict[str, click.Option]:
    return {name: option for option in command.params if isinstance(option, click.Option) for name in option.opts}


def refusal(capsys, args: list[str]) -> str:
    """The one line a command refuses with: exit status 1, nothing on stdout, no traceback."""
    assert run(args) == 1, args
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err, captured
    [line] = captured.err.splitlines()
    return line


def test_every_command_with_a_split_or_a_corpus_is_checked_here():
    chosen = {path for path, command in commands().items() if {"--split", "--corpus"} & set(options(command))}
    assert chosen == set(COMMANDS) | NEW_CORPUS


@pytest.mark.parametrize("path", [path for path in COMMANDS if "--split" in options(commands()[path])])
def test_a_split_no_corpus_has_is_refused_in_one_line(built_db, tmp_path, capsys, path):
    args = [*path, *(arg.format(tmp=tmp_path) for arg in COMMANDS[path]), "--db", str(built_db)]
    one_corpus = (("check",), ("leaderboard",), ("metrics",), ("metrics", "compare"), ("systems",))
    expected = ONE_CORPUS if path in one_corpus else ANY_CORPUS
    assert refusal(capsys, [*args, "--split", "NOSUCH"]) == f"error: {expected}"
    assert not list(tmp_path.iterdir())  # nothing written


@pytest.mark.parametrize("path", [path for path in COMMANDS if "--corpus" in options(commands()[path])])
def test_a_corpus_the_database_does_not_have_is_refused_in_one_line(built_db, tmp_path, capsys, path):
    args = [*path, *(arg.format(tmp=tmp_path) for arg in COMMANDS[path]), "--db", str(built_db)]
    assert (
        refusal(capsys, [*args, "--corpus", "NOSUCH"]) == "error: no corpus named 'NOSUCH' (the corpora: shared-task)"
    )


@pytest.mark.parametrize("path", [path for path in COMMANDS if "--scope" in options(commands()[path])])
def test_a_scope_the_corpus_does_not_have_is_refused_in_one_line(built_db, tmp_path, capsys, path):
    args = [*path, *(arg.format(tmp=tmp_path) for arg in COMMANDS[path]), "--db", str(built_db)]
    assert refusal(capsys, [*args, "--corpus", "shared-task", "--scope", "NOSUCH"]) == (
        "error: scope 'NOSUCH' is not a scope of corpus shared-task (ALL, NAME, NUMBER, WORD, CONTEXT, NOT_CHECKABLE, "
        "OTHER)"
    )


def test_a_split_of_the_corpus_is_taken_as_before(built_db, capsys):
    assert run(["difficulty", "--db", str(built_db), "--split", "dev", "--format", "json"]) == 0  # dev: train
    assert capsys.readouterr().out.count('"split": "train"') > 0


# What --help says


def test_every_option_says_what_it_does():
    for path, command in commands().items():
        for option in command.params:
            if isinstance(option, click.Option):
                assert option.help, (path, option.opts)


def test_an_option_that_speaks_of_names_belongs_to_a_command_that_takes_names():
    for path, command in commands().items():
        takes_names = any(isinstance(param, click.Argument) for param in command.params)
        for name in ("--corpus", "--split"):
            option = options(command).get(name)
            if option is not None and "a name is in more than one" in option.help:
                assert takes_names, (path, name, option.help)


def test_metrics_compare_asks_for_the_split_its_help_says_it_needs(built_db, capsys):
    """metrics takes every split with a gold list by default, as its --help says; metrics compare compares on one,
    and asks for it when the corpus has several, as its --help says (it said: every split)."""
    help_of = {
        path: options(command)["--split"].help for path, command in commands().items() if path[:1] == ("metrics",)
    }
    assert "every split with a gold list" in help_of[("metrics",)]
    assert "give it when there are several" in help_of[("metrics", "compare")]
    assert "every split" not in help_of[("metrics", "compare")]
    args = ["metrics", "--db", str(built_db), "--level", "system", "--resamples", "1", "--trials", "1"]
    assert run([*args, "--format", "json"]) == 0
    assert {row["split"] for row in json.loads(capsys.readouterr().out)} == {"train", "test"}
    assert refusal(capsys, ["metrics", "compare", "bleu", "chrf", "--measure", "pearson", "--db", str(built_db)]) == (
        "error: give --split: corpus shared-task has gold lists of train, test"
    )


def test_adjudicate_asks_for_one_of_the_options_its_help_names(built_db, tmp_path, capsys):
    help_text = options(commands()[("adjudicate",)])["--min-votes"].help
    assert "--soft" in help_text and "not with" not in help_text  # one of the two is needed, not just allowed
    args = [
        "adjudicate",
        "submission",
        "submission_doc_based",
        "--as",
        "x",
        "--out",
        str(tmp_path),
        "--db",
        str(built_db),
    ]
    assert refusal(capsys, args) == "error: give --min-votes K (majority gold) or --soft (soft gold), one of them"


def test_the_dashboard_s_help_names_every_page_it_serves():
    """It named five of the twelve pages (dashboard/app.py lists them; thirteen with Systems)."""
    app = (Path(__file__).resolve().parents[1] / "dashboard" / "app.py").read_text(encoding="utf-8")
    pages = re.findall(r'st\.Page\("app_pages/\w+\.py", title="([^"]+)"', app)
    help_text = " ".join(commands()[("dashboard",)].help.split())
    assert len(pages) == 13 and [page for page in pages if page not in help_text] == []
