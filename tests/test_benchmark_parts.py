"""The benchmark's build-parts step (issue 15's bound): a build cut at its own steps, each part set against DuckDB's
scan of the part's inputs and DuckDB's copy of them."""

import json
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

REPO = Path(__file__).resolve().parents[1]
SUBMISSIONS = 2


@pytest.fixture(scope="module")
def parts(tmp_path_factory) -> tuple[dict, Path]:
    """The figures of build-parts on a generated folder of 60 texts, and the database it built."""
    folder = tmp_path_factory.mktemp("parts")
    generate = [sys.executable, "-m", "benchmarks.generate", "--scale", "1", "--submissions", str(SUBMISSIONS)]
    subprocess.run([*generate, "--out", str(folder / "data")], cwd=REPO, check=True, capture_output=True)
    measure = [sys.executable, "-m", "benchmarks.steps", "build-parts", str(folder / "data"), str(folder / "p.duckdb")]
    printed = subprocess.run(measure, cwd=REPO, check=True, capture_output=True, text=True).stdout
    return json.loads(printed.splitlines()[-1]), folder


def test_the_build_is_cut_at_its_steps_and_the_games_timed_alone(parts):
    figures, _ = parts
    assert list(figures["parts"]) == ["texts", "lists", "scoring", "games"]
    in_the_build = [figures["parts"][name]["seconds"] for name in ("texts", "lists", "scoring")]
    assert all(seconds > 0 for seconds in in_the_build)
    assert sum(in_the_build) <= figures["seconds"]


def test_each_part_is_set_against_the_scan_and_the_copy_of_its_inputs(parts):
    figures, _ = parts
    for part in figures["parts"].values():
        assert part["scan_seconds"] > 0 and part["copy_seconds"] > 0
        assert part["ratio"] == pytest.approx(part["seconds"] / part["scan_seconds"])
        assert part["copy_ratio"] == pytest.approx(part["copy_seconds"] / part["scan_seconds"])


def test_it_leaves_the_build_it_measured_and_nothing_else(parts):
    _, folder = parts
    with duckdb.connect(str(folder / "p.duckdb"), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM evaluations WHERE corpus = 'shared-task'").fetchone()[0] == SUBMISSIONS
        assert con.execute("SELECT count(*) FROM player_games").fetchone()[0] > 0
    assert not (folder / "games-alone.duckdb").exists() and not (folder / "inputs-copied.duckdb").exists()
