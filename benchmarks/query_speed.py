"""The fixed cost of a guarded query: `accuracy-db query "SELECT 1"` beside `python -c "import duckdb"`, in one run.

    python -m benchmarks.query_speed --db SMALL.duckdb --db LARGE.duckdb [--before TOOL] [--repeat 9] [--out FILE]

The commands run in turn (import duckdb, then the query on each database), `repeat` times, so that the load of a
shared machine falls on all of them alike; each figure is the median wall time (and CPU time, user and system, of
the process and its query process), and the ratio is the query's median over the import's. Issue 51's goal is 0.4 s
for the query; the import is the floor any process that reads DuckDB pays. The load average before and after is
recorded too. --before names the accuracy-db of another install (the code before a change, in a virtual
environment of its own), whose queries run in the same rounds. The commands run in a scratch folder: `python -m`,
which starts the query's process, would otherwise find the package of the current folder first. Results go to
benchmarks/results/query-speed.json (or --out), and the same figures as Markdown beside it (.md).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

from benchmarks.evaluate_speed import rounds

REPO = Path(__file__).resolve().parents[1]
TOOL = Path(sys.executable).with_name("accuracy-db")


def commands(databases: list[Path], before: Path | None = None) -> dict[str, list[str]]:
    runs = {"import duckdb": [sys.executable, "-c", "import duckdb"]}
    tools = {"": TOOL} | ({"before: ": before} if before is not None else {})
    for db in databases:
        for label, tool in tools.items():
            runs[f"{label}query SELECT 1 ({db.name}, {db.stat().st_size / 2**20:.0f} MB)"] = [
                str(tool), "query", "--db", str(db.resolve()), "SELECT 1",
            ]  # fmt: skip
    return runs


def markdown(result: dict) -> str:
    lines = [
        f'# accuracy-db query "SELECT 1": {result["repeat"]} rounds, load average '
        f"{result['load_average_before'][0]:.2f} before, {result['load_average_after'][0]:.2f} after",
        "",
        "| command | median wall (s) | median CPU (s) | wall ÷ import duckdb |",
        "|---|---|---|---|",
    ]
    for name, figures in result["runs"].items():
        lines.append(
            f"| {name} | {figures['median_wall_s']:.3f} | {figures['median_cpu_s']:.3f} | "
            f"{figures['ratio_to_import_duckdb']:.2f} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, action="append", required=True, help="a built database; repeatable")
    parser.add_argument("--before", type=Path, help="the accuracy-db of another install, run beside")
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / "query-speed.json")
    args = parser.parse_args()
    runs = commands(args.db, args.before)
    out = args.out.resolve()
    os.chdir(tempfile.mkdtemp(prefix="query-speed-"))
    load_before = os.getloadavg()
    wall, cpu = rounds(runs, args.repeat)
    floor = statistics.median(wall["import duckdb"])
    result = {
        "repeat": args.repeat,
        "load_average_before": load_before,
        "load_average_after": os.getloadavg(),
        "runs": {
            name: {
                "median_wall_s": round(statistics.median(wall[name]), 3),
                "median_cpu_s": round(statistics.median(cpu[name]), 3),
                "ratio_to_import_duckdb": round(statistics.median(wall[name]) / floor, 2),
                "wall_s": wall[name],
            }
            for name in runs
        },
    }
    out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    out.with_suffix(".md").write_text(markdown(result), encoding="utf-8")
    for name, figures in result["runs"].items():
        print(f"{name}: {figures['median_wall_s']:.3f} s ({figures['ratio_to_import_duckdb']:.2f}x import duckdb)")


if __name__ == "__main__":
    main()
