"""How long the statistics take: leaderboard --ci on the shared-task data, and at a generated scale the intervals of
every submission and scope and a compare with 10,000 permutations.

    python -m benchmarks.statistics_speed [--scale 1000] [--submissions 10] [--repeat 5] [--work /tmp/accuracy-bench]

Each figure is a child process (benchmarks.run.measured: wall time and peak resident memory of that child alone),
the median of --repeat runs: the whole `accuracy-db` process for the commands (Python's start included), and the
computation alone for the intervals (`python -m benchmarks.statistics_speed intervals DB`, which prints its own
seconds). The generated data folder and its database are reused from benchmarks.run's work folder when present.
Writes benchmarks/results/statistics.json and prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from accuracy_db.etl.data_folder import resolve_data_dir

from benchmarks.run import REPO, accuracy_db, data_folder, measured


def intervals(db: str) -> None:
    """Child step: the 1000-replicate interval of every figure of every submission in every scope, split by split."""
    from accuracy_db.stats.intervals import Resampling, bootstrap_intervals
    from accuracy_db.store import database

    con = database.open_existing(db)
    started = time.perf_counter()
    found = 0
    for (split,) in con.execute("SELECT DISTINCT split FROM evaluations").fetchall():
        ids = [i for (i,) in con.execute("SELECT submission_id FROM evaluations WHERE split = ?", [split]).fetchall()]
        scopes = [s for (s,) in con.execute("SELECT scope FROM scopes").fetchall()]
        found += len(bootstrap_intervals(con, ids, scopes, Resampling()))
    print(json.dumps({"seconds": round(time.perf_counter() - started, 3), "intervals": found}))


def median_of(args: list[str], repeat: int) -> dict:
    runs = [measured(args) for _ in range(repeat)]
    seconds = sorted(run["seconds"] for run in runs)
    child = [run["child"]["seconds"] for run in runs if "child" in run]
    return {
        "seconds": statistics.median(seconds),
        "runs": seconds,
        "peak_mb": max(run["peak_mb"] for run in runs),
        **({"computation_seconds": statistics.median(child)} if child else {}),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=1000)
    parser.add_argument("--submissions", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--work", type=Path, default=Path("/tmp/accuracy-bench"))
    args = parser.parse_args()
    results = {}

    data = resolve_data_dir(None)
    with tempfile.TemporaryDirectory() as work:
        db = Path(work) / "accuracy.duckdb"
        examples = data / "example_submissions"
        measured(accuracy_db("build", "--data", str(data), "--db", str(db), "--submissions", str(examples)))
        for name, extra in (("leaderboard", []), ("leaderboard --ci", ["--ci"])):
            results[f"shared task: {name}"] = median_of(
                accuracy_db("leaderboard", "--db", str(db), "--format", "json", *extra), args.repeat
            )

    folder, _ = data_folder(args.work, args.scale, args.submissions, seed=0)
    db = args.work / f"scale-{args.scale}.duckdb"
    if not db.is_file():
        inbox = folder / "submissions"
        results["build"] = measured(
            accuracy_db("build", "--data", str(folder), "--db", str(db), "--submissions", str(inbox))
        )
    names = sorted(path.stem for path in (folder / "submissions").glob("*.csv"))[:2]
    label = f"scale {args.scale}"
    results[f"{label}: intervals, every submission and scope (1000 resamples)"] = median_of(
        [sys.executable, "-m", "benchmarks.statistics_speed", "intervals", str(db)], args.repeat
    )
    results[f"{label}: compare, 10,000 permutations"] = median_of(
        accuracy_db("compare", *names, "--db", str(db), "--format", "json"), args.repeat
    )
    results[f"{label}: compare --test bootstrap, 1000 resamples"] = median_of(
        accuracy_db("compare", *names, "--db", str(db), "--test", "bootstrap", "--format", "json"), args.repeat
    )
    results[f"{label}: leaderboard --ci"] = median_of(
        accuracy_db("leaderboard", "--db", str(db), "--ci", "--format", "json"), 1
    )
    out = REPO / "benchmarks" / "results" / "statistics.json"
    out.write_text(json.dumps(results, indent=1) + "\n")
    print("| step | seconds (median) | peak memory |\n| --- | ---: | ---: |")
    for name, result in results.items():
        computation = f" ({result['computation_seconds']:.2f} s computing)" if "computation_seconds" in result else ""
        print(f"| {name} | {result['seconds']:.2f}{computation} | {result['peak_mb']} MB |")


if __name__ == "__main__":
    if sys.argv[1:2] == ["intervals"]:
        intervals(sys.argv[2])
    else:
        main()
