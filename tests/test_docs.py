"""The docs are true to the code: every command and option has a synopsis in the guides (read from the click
commands themselves, so a new option without documentation fails here), the command-line reference is the commands'
own --help, the site builds with no broken link, and the README stays a front door."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import click
import pytest

from accuracy_db.cli.main import cli
from accuracy_db.cli.reference import reference

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
GUIDES = "\n".join(page.read_text(encoding="utf-8") for page in sorted(DOCS.glob("*.md")) if page.name != "cli.md")
COMMANDS = {name: cli.get_command(click.Context(cli), name) for name in cli.list_commands(click.Context(cli))}


def synopses(command: str) -> list[str]:
    """Every inline code span of the guides that starts with `accuracy-db COMMAND`."""
    return [span for span in re.findall(r"`([^`\n]+)`", GUIDES) if re.match(rf"accuracy-db {command}( |$)", span)]


def named(span: str, param: click.Parameter) -> bool:
    """Whether a synopsis names an option (by any of its spellings) or an argument (upper case, as a word)."""
    if isinstance(param, click.Argument):
        return re.search(rf"\b{param.name.upper()}\b", span) is not None
    spellings = [*param.opts, *getattr(param, "secondary_opts", [])]  # --warm/--no-warm: either
    return any(re.search(rf"(?<![\w-]){re.escape(opt)}(?![\w-])", span) for opt in spellings)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_option_of_every_command_is_in_its_synopsis(name):
    spans = synopses(name)
    assert spans, f"the docs have no synopsis `accuracy-db {name} …`"
    synopsis = max(spans, key=len)
    missing = [param.opts[0] for param in COMMANDS[name].params if not named(synopsis, param)]
    assert missing == [], f"`accuracy-db {name}` in the docs lacks {missing}"


def test_every_command_has_a_section():
    headings = re.findall(r"^#{2,3} `accuracy-db ([\w-]+)", GUIDES, re.MULTILINE)
    assert set(COMMANDS) - {"dashboard"} <= set(headings)
    assert (
        "accuracy-db dashboard [--db PATH] [--port N] [--host ADDRESS] [--sql-seconds N]"
        in (DOCS / "dashboard.md").read_text()
    )


def test_the_top_level_options_and_the_python_api_are_documented():
    assert "`accuracy-db --version`" in GUIDES and "`accuracy-db --help`" in GUIDES
    assert [param.opts[0] for param in cli.params] == ["--version"]
    for function in ("accuracy_db.query(", "accuracy_db.connect("):
        assert f"`{function}" in GUIDES, function


def test_the_check_finds_a_missing_option():
    spans = synopses("query")
    (option,) = [param for param in COMMANDS["query"].params if param.name == "list_saved"]
    assert any(named(span, option) for span in spans)
    assert not named("accuracy-db query [--listing]", option)


def test_the_command_line_reference_is_the_commands_own_help():
    written = (DOCS / "cli.md").read_text(encoding="utf-8")
    assert written == reference(), "docs/cli.md is stale: python -m accuracy_db.cli.reference > docs/cli.md"
    for name, command in COMMANDS.items():
        assert f"`accuracy-db {name}`" in written
        if isinstance(command, click.Group):
            for sub in command.list_commands(click.Context(command)):
                assert f"`accuracy-db {name} {sub}`" in written


def test_the_site_builds_strictly_with_no_broken_link(tmp_path):
    """mkdocs --strict fails on a page outside the navigation, a link to a missing page or a missing anchor."""
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--config-file",
            str(REPO / "mkdocs.yml"),
            "--site-dir",
            str(tmp_path / "site"),
        ],
        capture_output=True,
        text=True,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert (tmp_path / "site" / "cli" / "index.html").is_file()


def test_the_readme_is_a_front_door_whose_links_resolve():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 150
    assert "make demo" in readme and "make test" in readme
    targets = re.findall(r"\]\(((?:docs|benchmarks)/[^)#]+)\)", readme)
    assert len(targets) >= 10
    assert [target for target in targets if not (REPO / target).is_file()] == []


def test_no_page_states_a_test_count():
    """A count of tests goes stale with every test added; the docs say how to run them instead."""
    pages = [REPO / "README.md", REPO / "benchmarks" / "results" / "HISTORY.md", *DOCS.glob("*.md")]
    stated = [
        (page.name, match[0])
        for page in pages
        for match in re.finditer(r"\b\d[\d,]*\s+(?:tests?|passed)\b", page.read_text(encoding="utf-8"))
    ]
    assert stated == []


def layout() -> str:
    """The Layout section of docs/contributing.md."""
    text = (DOCS / "contributing.md").read_text(encoding="utf-8")
    return text.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]


def test_the_layout_names_every_module_and_layer_of_the_package():
    """docs/contributing.md describes the package as it is: each module (a command's or a page's aside: one a
    command, one a page) and each SQL file of etl/ by name, and each layer of [tool.importlinter] in its picture."""
    import tomllib

    section = layout()
    folders = [REPO / "accuracy_db", REPO / "etl", REPO / "dashboard"]
    modules = [
        path
        for folder in folders
        for path in [*folder.rglob("*.py"), *folder.glob("*.sql")]
        if path.stem not in ("__init__", "__main__") and path.parent.name not in ("commands", "app_pages")
    ]
    assert len(modules) > 100
    assert [str(path.relative_to(REPO)) for path in modules if f"`{path.name}`" not in section] == []
    contracts = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    (layers,) = [contract["layers"] for contract in contracts["contracts"] if contract["type"] == "layers"]
    picture = section.split("```text\n", 1)[1].split("```", 1)[0]
    drawn = [
        [name.strip() for name in re.findall(r"^ *([a-z_]+(?: *│ *[a-z_]+)?)  ", line)[0].split("│")]
        for line in picture.splitlines()
        if re.match(r"^ *[a-z_]+( *│ *[a-z_]+)?  ", line)
    ]
    assert drawn == [[name.strip() for name in layer.split("|")] for layer in layers]


def test_the_docs_home_lists_every_guide_and_every_dashboard_page():
    home = (DOCS / "index.md").read_text(encoding="utf-8")
    pages = {page.name for page in DOCS.glob("*.md")} - {"index.md", "cli.md", "performance.md", "contributing.md"}
    assert [page for page in sorted(pages) if f"]({page})" not in home] == []
    titles = re.findall(r'st\.Page\("[^"]+", title="([^"]+)"', (REPO / "dashboard" / "app.py").read_text())
    assert len(titles) >= 12
    assert [title for title in titles if f"**{title}**" not in home] == []
