"""The README documents every command and every option: each command has a synopsis in backticks
(`accuracy-db CMD [--option …]`, as a heading or in the text) that names each of its options and arguments, read
from the click commands themselves, so a new option without documentation fails here."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from accuracy_db.cli import cli

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
COMMANDS = {name: cli.get_command(click.Context(cli), name) for name in cli.list_commands(click.Context(cli))}


def synopses(command: str) -> list[str]:
    """Every inline code span of the README that starts with `accuracy-db COMMAND`."""
    return [span for span in re.findall(r"`([^`\n]+)`", README) if re.match(rf"accuracy-db {command}( |$)", span)]


def named(span: str, param: click.Parameter) -> bool:
    """Whether a synopsis names an option (by any of its spellings) or an argument (upper case, as a word)."""
    if isinstance(param, click.Argument):
        return re.search(rf"\b{param.name.upper()}\b", span) is not None
    return any(re.search(rf"(?<![\w-]){re.escape(opt)}(?![\w-])", span) for opt in param.opts)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_option_of_every_command_is_in_its_synopsis(name):
    spans = synopses(name)
    assert spans, f"the README has no synopsis `accuracy-db {name} …`"
    synopsis = max(spans, key=len)
    missing = [param.opts[0] for param in COMMANDS[name].params if not named(synopsis, param)]
    assert missing == [], f"`accuracy-db {name}` in the README lacks {missing}"


def test_every_command_has_a_section():
    headings = re.findall(r"^#{2,3} `accuracy-db ([\w-]+)", README, re.MULTILINE)
    assert set(COMMANDS) - {"dashboard"} <= set(headings)
    assert "## Dashboard" in README


def test_the_top_level_options_and_the_python_api_are_documented():
    assert "`accuracy-db --version`" in README and "`accuracy-db --help`" in README
    assert [param.opts[0] for param in cli.params] == ["--version"]
    for function in ("accuracy_db.query(", "accuracy_db.connect("):
        assert f"`{function}" in README, function


def test_the_check_finds_a_missing_option():
    spans = synopses("query")
    (option,) = [param for param in COMMANDS["query"].params if param.name == "list_saved"]
    assert any(named(span, option) for span in spans)
    assert not named("accuracy-db query [--listing]", option)
