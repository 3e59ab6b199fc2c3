"""Shared fixtures: databases built from the shared-task data."""

from __future__ import annotations

import fcntl
import functools
import os
import shutil
import sys
from collections.abc import Callable
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


def made_once(tmp_path_factory, name: str, make: Callable[[Path], Path]) -> Path:
    """The database make(folder) writes in folder, made once for the whole run and copied for each worker of
    pytest-xdist: its workers share the parent of their base temporary directories (the run's own), so the first to
    ask makes it under a lock while the other waits. Each worker reads and writes a copy of its own, as before."""
    own = tmp_path_factory.mktemp(name)
    if "PYTEST_XDIST_WORKER" not in os.environ:  # alone, that parent outlives the run: no sharing
        return make(own)
    shared = tmp_path_factory.getbasetemp().parent / f"{name}-once"
    made = shared / "made"  # the database's file name, written once it is whole
    with shared.with_suffix(".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not made.is_file():
            shutil.rmtree(shared, ignore_errors=True)  # a make that failed in the other worker
            shared.mkdir()
            made.write_text(make(shared).name)
    path = own / made.read_text()
    shutil.copyfile(shared / path.name, path)
    return path


def built_in(folder: Path) -> Path:
    path = folder / "accuracy.duckdb"
    build(DATA, path, EXAMPLES)
    return path


@pytest.fixture(autouse=True)
def main_module_kept():
    """An AppTest runs a page as __main__ (Streamlit's ScriptRunner puts the page's module in sys.modules) and leaves
    it there: a process pool spawned later in the same test process (builtin_metrics.scored_pairs) would run the
    dashboard's app.py in each child, which dies there. Each test gets back the process's own __main__."""
    main = sys.modules["__main__"]
    yield
    sys.modules["__main__"] = main


@pytest.fixture(autouse=True, scope="session")
def one_scan_for_streamlit_components():
    """Each new AppTest has Streamlit scan every installed distribution's metadata for components (some 0.35 s of
    CPU here, about 200 AppTests a run); the installed packages do not change during a run, so it scans once."""
    from streamlit.components.v2 import manifest_scanner

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(
            manifest_scanner, "scan_component_manifests", functools.cache(manifest_scanner.scan_component_manifests)
        )
        yield


@pytest.fixture(scope="session")
def built_db(tmp_path_factory) -> Path:
    """A database built from the shared-task data, with the example submissions as the submissions folder."""
    return made_once(tmp_path_factory, "built", built_in)


@pytest.fixture(scope="session")
def hostile_db(tmp_path_factory) -> Path:
    """The example submission under names that Markdown or HTML would interpret (tests/hostile_names.py)."""
    return made_once(tmp_path_factory, "hostile", build_hostile)


@pytest.fixture
def db(built_db, tmp_path) -> Path:
    """A copy of built_db of the test's own, to load into or refresh."""
    path = tmp_path / "accuracy.duckdb"
    shutil.copyfile(built_db, path)
    return path


@pytest.fixture
def built(built_db):
    """A read-only connection to the built database."""
    con = database.open_existing(built_db)
    yield con
    con.close()


@pytest.fixture(scope="session")
def two_metrics_db(tmp_path_factory) -> Path:
    """A database whose train split has two submissions that disagree: the example submission.csv, and
    half_gold.csv, the gold list's rows on even lines (so each finds mistakes the other misses); those two alone
    (built without the box-score checker's list)."""
    return made_once(tmp_path_factory, "two_metrics", built_with_half_gold)


def built_with_half_gold(folder: Path) -> Path:
    submissions = folder / "submissions"
    submissions.mkdir()
    (submissions / "submission.csv").write_bytes((EXAMPLES / "submission.csv").read_bytes())
    header, *rows = (DATA / "gsml.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    (submissions / "half_gold.csv").write_text(header + "".join(rows[::2]), encoding="utf-8")
    path = folder / "accuracy.duckdb"
    build(DATA, path, submissions, check=False)
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
