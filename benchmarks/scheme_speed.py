"""How long each match scheme takes: every figure of every submission in every scope under one scheme (the rows
of scheme_scores), at a generated scale, each scheme in a process of its own, with its peak memory.

python -m benchmarks.scheme_speed --scale 1000 --submissions 10 (the target of issue 13: each scheme under 30 s).
The generated data folder and its database are reused from benchmarks.run's work folder when present (--db: another
database built from that folder by this version). Each figure is the whole child process (Python's start and
opening the database included), its query alone beside it; the machine's load average (1 minute) is recorded before
each scheme's runs, since the machine may be shared.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

from accuracy_db.scoring.schemes import SCHEMES
from benchmarks.run import REPO, accuracy_db, data_folder, measured


def scheme_figures(db: str, scheme: str) -> None:
    """Child step: every row of scheme_scores of one scheme, read whole."""
    from accuracy_db.store import database

    con = database.open_existing(db)
    started = time.perf_counter()
    rows = con.execute("SELECT * FROM scheme_scores WHERE scheme = ?", [scheme]).fetchall()
    print(json.dumps({"query_seconds": round(time.perf_counter() - started, 3), "rows": len(rows)}))


def figures(db: Path, scheme: str) -> dict:
    """One child process reading one scheme's rows: its wall time and peak memory, and its query's time."""
    run = measured([sys.executable, "-m", "benchmarks.scheme_speed", "figures", str(db), scheme])
    return {**run, **run.pop("child")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=1000)
    parser.add_argument("--submissions", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--work", type=Path, default=Path("/tmp/accuracy-bench"))
    parser.add_argument("--db", type=Path, help="The database to read (default: WORK/scale-N.duckdb, built if absent).")
    args = parser.parse_args()

    folder, _ = data_folder(args.work, args.scale, args.submissions, seed=0)
    db = args.db or args.work / f"scale-{args.scale}.duckdb"
    if not db.is_file():
        inbox = folder / "submissions"
        measured(accuracy_db("build", "--data", str(folder), "--db", str(db), "--submissions", str(inbox)))
    results = {}
    for scheme in SCHEMES:
        load_average = os.getloadavg()[0]
        runs = [figures(db, scheme) for _ in range(args.repeat)]
        results[scheme] = {
            "seconds": statistics.median(run["seconds"] for run in runs),
            "query_seconds": statistics.median(run["query_seconds"] for run in runs),
            "peak_mb": max(run["peak_mb"] for run in runs),
            "load_average": round(load_average, 2),
        }
    out = REPO / "benchmarks" / "results" / f"schemes-scale-{args.scale}.json"
    out.write_text(json.dumps(results, indent=1) + "\n")
    header = f"scheme (scale {args.scale}, {args.submissions} submissions)"
    print(f"| {header} | whole process | query | peak memory | load |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for scheme, result in results.items():
        print(
            f"| {scheme} | {result['seconds']:.2f} s | {result['query_seconds']:.2f} s | {result['peak_mb']} MB"
            f" | {result['load_average']} |"
        )


if __name__ == "__main__":
    if sys.argv[1:2] == ["figures"]:
        scheme_figures(sys.argv[2], sys.argv[3])
    else:
        main()
