"""Shared fixtures: databases built from the shared-task data."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_names import build_hostile
from shared_data import DATA, EXAMPLES

from accuracy_db.ingest.build import build
from accuracy_db.store import database

DATA_FIXTURES = {"built_db", "hostile_db", "built", "two_metrics_db"}


def reads_the_data(item: pytest.Item) -> bool:
    """Whether a test reads the shared-task data: its module takes paths from shared_data, or it uses a database
    built from the data."""
    module = vars(item.module)
    return (
        "shared_data" in module
        or any(value in (DATA, EXAMPLES) for value in module.values())
        or bool(DATA_FIXTURES & set(item.fixturenames))
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Without the shared-task data only the tests that do not read it can run (the property tests of the matching
    and of character spans, say); asked for any other, the run stops before it starts, saying where the data
    should be."""
    if (DATA / "gsml.csv").is_file():
        return
    needing = sorted({item.module.__name__ for item in items if reads_the_data(item)})
    if needing:
        raise pytest.UsageError(
            f"the tests read the shared-task data in place, and there is none at {DATA}: {', '.join(needing)}"
        )


@pytest.fixture(scope="session")
def built_db(tmp_path_factory) -> Path:
    """A database built from the shared-task data, with the example submissions as the submissions folder."""
    path = tmp_path_factory.mktemp("built") / "accuracy.duckdb"
    build(DATA, path, EXAMPLES)
    return path


@pytest.fixture(scope="session")
def hostile_db(tmp_path_factory) -> Path:
    """The example submission under names that Markdown or HTML would interpret (tests/hostile_names.py)."""
    return build_hostile(tmp_path_factory.mktemp("hostile"))


@pytest.fixture
def built(built_db):
    """A read-only connection to the built database."""
    con = database.open_existing(built_db)
    yield con
    con.close()


@pytest.fixture(scope="session")
def two_metrics_db(tmp_path_factory) -> Path:
    """A database whose train split has two submissions that disagree: the example submission.csv, and
    half_gold.csv, the gold list's rows on even lines (so each finds mistakes the other misses)."""
    folder = tmp_path_factory.mktemp("two_metrics")
    submissions = folder / "submissions"
    submissions.mkdir()
    (submissions / "submission.csv").write_bytes((EXAMPLES / "submission.csv").read_bytes())
    header, *rows = (DATA / "gsml.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    (submissions / "half_gold.csv").write_text(header + "".join(rows[::2]), encoding="utf-8")
    path = folder / "accuracy.duckdb"
    build(DATA, path, submissions)
    return path


@pytest.fixture(scope="module")
def train_texts():
    """A database with the train texts of test_bad_input.TEXTS, shared by the examples of a module's property tests
    (each takes out what it loaded, or loads under a name of its own): a fresh database per example cost 1.5-2 s,
    most of those tests' time."""
    from accuracy_db.etl.texts import load_texts
    from test_bad_input import TEXTS

    con = database.open_new(None, models=[])  # the tables alone: the loaders read no view
    load_texts(con, "train", TEXTS)
    yield con
    con.close()
