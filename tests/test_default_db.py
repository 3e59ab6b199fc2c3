"""One default database (issue 52): the commands' --db, the Python API and the dashboard open the same file when
none is given, named in one place (accuracy_db/defaults.py), which store/database.py and dashboard/data.py each
defined again."""

from __future__ import annotations

import ast
from pathlib import Path
from unittest import mock

import click
from accuracy_db.dashboard import data

from accuracy_db import defaults
from accuracy_db.cli.commands import db_option
from accuracy_db.sqlbox import guard

REPO = Path(__file__).resolve().parent.parent
PACKAGE_FOLDERS = ("accuracy_db", "etl", "dashboard")  # the folders of the installed package (pyproject.toml)


def definitions(name: str) -> list[str]:
    """The modules of the package that bind name at their top level (an assignment, not an import)."""
    found = []
    for folder in PACKAGE_FOLDERS:
        for module in sorted((REPO / folder).rglob("*.py")):
            tree = ast.parse(module.read_text(encoding="utf-8"))
            targets = [
                target
                for node in tree.body
                if isinstance(node, (ast.Assign, ast.AnnAssign))
                for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
            ]
            if any(isinstance(target, ast.Name) and target.id == name for target in targets):
                found.append(str(module.relative_to(REPO)))
    return found


def test_the_default_database_is_defined_once():
    assert definitions("DEFAULT_DB") == ["accuracy_db/defaults.py"]
    assert definitions("DB_ENV") == ["accuracy_db/defaults.py"]


def the_command_s_default() -> Path:
    """The database a command opens when --db is not given, as click works it out."""

    @click.command()
    @db_option
    def command(db):
        chosen.append(db)

    chosen = []
    command.main([], standalone_mode=False)
    return chosen[0]


def test_the_commands_the_api_and_the_dashboard_open_the_same_database(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(defaults.DB_ENV, raising=False)
    assert the_command_s_default() == Path(defaults.DEFAULT_DB)
    assert guard.default_db() == Path(defaults.DEFAULT_DB)
    assert data.db_path() == tmp_path / defaults.DEFAULT_DB
    monkeypatch.setenv(defaults.DB_ENV, str(tmp_path / "other.duckdb"))
    assert the_command_s_default() == guard.default_db() == data.db_path() == tmp_path / "other.duckdb"
    monkeypatch.delenv(defaults.DB_ENV)
    with mock.patch.object(defaults, "DEFAULT_DB", "renamed.duckdb"):  # one name changed: the API and the dashboard
        assert guard.default_db() == Path("renamed.duckdb")  # follow it (the option's default is read at import)
        assert data.db_path() == tmp_path / "renamed.duckdb"
