"""The benchmark's build-parts step (issue 15's bound): a build cut at its own steps, each part set against DuckDB's
scan of the part's inputs and DuckDB's copy of them."""

import csv
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
    assert sum(in_the_build) <= figures["seconds"]  # the steps are parts of the build, not more


def test_each_scan_reads_every_input_of_its_part(parts):
    """The scans the parts are set against read what the build read: every text, every row of every list, every
    game of both files, and the built tables the scoring reads."""
    figures, folder = parts
    data = folder / "data"
    lists = [data / "gsml.csv", *sorted((data / "submissions").glob("*.csv"))]
    with duckdb.connect(str(folder / "p.duckdb"), read_only=True) as con:
        built = [
            con.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in ("mistakes", "tokens", "texts")
        ]
    expected = {
        "texts": [len(list((data / "texts").glob("*.txt")))],
        "lists": [sum(len(list(csv.DictReader(path.open(encoding="utf-8")))) for path in lists)],
        "games": [
            len((data / "shared_task.jsonl").read_text(encoding="utf-8").splitlines()),
            len(list(csv.DictReader((data / "games.csv").open(encoding="utf-8")))),
        ],
        "scoring": built,
    }
    assert {name: part["scan_rows"] for name, part in figures["parts"].items()} == expected
    assert expected["texts"] == [60]  # scale 1: the 60 texts of the train split


def test_each_part_is_set_against_the_scan_and_the_copy_of_its_inputs(parts):
    figures, _ = parts
    for part in figures["parts"].values():
        assert part["ratio"] == pytest.approx(part["seconds"] / part["scan_seconds"])
        assert part["copy_ratio"] == pytest.approx(part["copy_seconds"] / part["scan_seconds"])


def test_it_leaves_the_build_it_measured_and_nothing_else(parts):
    _, folder = parts
    with duckdb.connect(str(folder / "p.duckdb"), read_only=True) as con:
        evaluations = con.execute("SELECT count(*) FROM evaluations WHERE corpus = 'shared-task'").fetchone()[0]
        assert evaluations == SUBMISSIONS + 1  # and the box-score checker's list
        assert con.execute("SELECT count(*) FROM player_games").fetchone()[0] > 0
    assert not (folder / "games-alone.duckdb").exists() and not (folder / "inputs-copied.duckdb").exists()
