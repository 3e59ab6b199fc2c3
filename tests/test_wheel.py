"""The distribution works from a built wheel installed in a fresh virtual environment, run outside the repository.

The fresh venv gets the dependencies without a network through a .pth file that appends the dev environment's
site-packages to sys.path; a folder appended that way is not a site dir, so its own .pth files (the editable
install's import hook among them) are not run, and accuracy_db can only be imported from the wheel.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared/data"
DATA = SHARED / "accuracy-shared-task"
EXPECTED = SHARED / "expected/example_submission.json"

FIGURES = [
    "categories",
    "recall",
    "precision",
    "token_recall",
    "token_precision",
    "matched",
    "gold_total",
    "submitted_total",
    "token_matched",
    "gold_tokens",
    "submitted_tokens",
]
# What is left out of the copy of the repository the wheel is built from (the build writes build/ and
# *.egg-info beside the sources, so it must not run in the shared tree).
NOT_SOURCES = shutil.ignore_patterns(
    ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", ".hypothesis", "*.duckdb*"
)


def run(*command, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run a command; fail the test with its output when it exits non-zero."""
    result = subprocess.run([str(c) for c in command], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, (
        f"{' '.join(map(str, command))} exited {result.returncode}\n"
        f"--- stdout\n{result.stdout}\n--- stderr\n{result.stderr}"
    )
    return result


def clean_env() -> dict:
    """The environment without anything that would point Python or pip back at the repository or a network."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env.update(PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1", PYTHONNOUSERSITE="1")
    return env


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel, built offline with the running interpreter from a copy of the repository."""
    root = tmp_path_factory.mktemp("build")
    source = root / "source"
    shutil.copytree(REPO, source, ignore=NOT_SOURCES)
    run(
        sys.executable,
        "-m",
        "build",
        "--wheel",
        "--no-isolation",
        "--outdir",
        root / "dist",
        source,
        cwd=root,
        env=clean_env(),
    )
    (built,) = (root / "dist").glob("accuracy_db-*.whl")
    return built


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory) -> Path:
    """A fresh venv with the wheel installed and the dev environment's site-packages appended by a .pth."""
    root = tmp_path_factory.mktemp("venv") / "env"
    env = clean_env()
    run(sys.executable, "-m", "venv", root, cwd=root.parent, env=env)
    python = root / "bin/python"
    run(python, "-m", "pip", "install", "--no-deps", "--no-index", wheel, cwd=root.parent, env=env)
    site_packages = Path(
        run(
            python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=root.parent, env=env
        ).stdout.strip()
    )
    dev_paths = dict.fromkeys(sysconfig.get_paths()[key] for key in ("purelib", "platlib"))
    (site_packages / "zz_dev_dependencies.pth").write_text("".join(f"{p}\n" for p in dev_paths), encoding="utf-8")
    return root


@pytest.fixture
def outside(tmp_path) -> Path:
    """A working folder outside the repository."""
    assert not tmp_path.resolve().is_relative_to(REPO)
    return tmp_path


def test_wheel_ships_the_sql_and_no_tests(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    for folder in ("accuracy_db/schema", "accuracy_db/queries/staging", "accuracy_db/etl"):
        assert any(n.startswith(f"{folder}/") and n.endswith(".sql") for n in names), f"no {folder}/*.sql"
    assert "accuracy_db/queries/marts/scores.sql" in names
    shipped_sql = {n.removeprefix("accuracy_db/") for n in names if n.endswith(".sql")}
    source_sql = {
        str(p.relative_to(REPO)) for folder in ("etl", "schema", "queries") for p in (REPO / folder).rglob("*.sql")
    }
    assert shipped_sql == source_sql, "every .sql file of etl/, schema/ and queries/ is shipped"
    assert "accuracy_db/etl/nlg_systems.csv" in names, "the package's copy of nlg_systems.csv is shipped"
    assert not [n for n in names if n.startswith("tests/") or "/tests/" in n]


def test_accuracy_db_is_imported_from_the_wheel(venv, outside):
    result = run(
        venv / "bin/python",
        "-c",
        "import accuracy_db, duckdb; print(accuracy_db.__file__)",
        cwd=outside,
        env=clean_env(),
    )
    location = Path(result.stdout.strip()).resolve()
    assert location.is_relative_to(venv.resolve()), location
    assert not location.is_relative_to(REPO)


def test_help(venv, outside):
    result = run(venv / "bin/accuracy-db", "--help", cwd=outside, env=clean_env())
    for command in ("build", "evaluate", "leaderboard"):
        assert command in result.stdout


def test_evaluate_gives_the_expected_figures(venv, outside):
    result = run(
        venv / "bin/accuracy-db",
        "evaluate",
        "--gsml",
        DATA / "gsml.csv",
        "--submitted",
        DATA / "example_submissions/submission.csv",
        "--format",
        "json",
        cwd=outside,
        env=clean_env(),
    )
    rows = json.loads(result.stdout)
    expected = json.loads(EXPECTED.read_text(encoding="utf-8"))
    assert [{k: row[k] for k in FIGURES} for row in rows] == [{k: row[k] for k in FIGURES} for row in expected]


def test_build_creates_the_database(venv, outside):
    (outside / "tmp").mkdir()
    run(
        venv / "bin/accuracy-db",
        "build",
        "--data",
        DATA,
        "--db",
        "tmp/x.duckdb",
        "--submissions",
        DATA / "example_submissions",
        cwd=outside,
        env=clean_env(),
    )
    assert (outside / "tmp/x.duckdb").is_file()


def test_dashboard_runs_from_the_wheel(venv, outside):
    """The app file `accuracy-db dashboard` serves (the st.App over app.py), every page of app.py, and the pages'
    first views its lifespan computes, work from the installed wheel."""
    run(
        venv / "bin/accuracy-db",
        "build",
        "--data",
        DATA,
        "--db",
        "x.duckdb",
        "--submissions",
        DATA / "example_submissions",
        cwd=outside,
        env=clean_env(),
    )
    script = """
import sys
from streamlit.testing.v1 import AppTest
from accuracy_db.cli.commands.dashboard import app_file
from accuracy_db.dashboard import first_views
print(app_file())
at = AppTest.from_file(str(app_file().with_name("app.py")), default_timeout=60).run()
for page in ("leaderboard", "errors", "document", "gold", "refresh", "sql"):
    at.switch_page(f"app_pages/{page}.py").run()
    assert not at.exception, (page, at.exception)
    print(at.title[0].value)
print(first_views.compute()[:2])
"""
    env = clean_env() | {"ACCURACY_DB_PATH": str(outside / "x.duckdb")}
    result = run(venv / "bin/python", "-c", script, cwd=outside, env=env)
    app, *titles, computed = result.stdout.split("\n")[:8]
    assert Path(app).resolve().is_relative_to(venv.resolve()) and Path(app).name == "lifespan.py", app
    assert titles == ["Leaderboard", "Errors browser", "Document view", "Gold explorer", "Refresh status", "SQL"]
    assert computed == "(13, [])"
