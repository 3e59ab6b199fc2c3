"""How long agreement and adjudication take on generated data: the gold list against one submission (at scale 1000,
1.21 million gold spans against about a million), and the majority of the gold list and two submissions.

    python -m benchmarks.agreement_speed [--scale 1000] [--repeat 3] [--work /tmp/accuracy-bench]
        [--data DIR --db PATH] [--steps two,three,adjudicate] [--schemes shared-task,strict,char-soft]

Each figure is the whole `accuracy-db` process (Python's start included), wall time and peak resident memory of
that child alone (benchmarks.run.measured), the median of --repeat runs. The generated data folder (3 submissions)
and its database are made in the work folder unless there already; --data and --db name a data folder and a
database built from it (at least two of its submissions loaded) to use instead, as they are. Writes
benchmarks/results/agreement-<scale>.json (the steps run, merged into what the file holds) and prints a Markdown
table. Step two runs once per match scheme of --schemes (default: the shared task's alone).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from accuracy_db.scoring.signature import SCHEME
from benchmarks.run import REPO, accuracy_db, data_folder, measured
from benchmarks.statistics_speed import median_of


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--work", type=Path, default=Path("/tmp/accuracy-bench"))
    parser.add_argument("--data", type=Path, help="a generated data folder, used as it is (with --db)")
    parser.add_argument("--db", type=Path, help="a database built from --data")
    parser.add_argument("--steps", default="two,three,adjudicate", help="which of two, three, adjudicate to run")
    parser.add_argument("--schemes", default=SCHEME, help="the match schemes step two runs under, comma-separated")
    args = parser.parse_args()
    if (args.data is None) != (args.db is None):
        parser.error("give --data and --db together")
    if args.data is not None:
        folder, db = args.data, args.db
    else:
        folder, _ = data_folder(args.work, args.scale, 3, seed=0)
        db = args.work / f"scale-{args.scale}-agreement.duckdb"
    steps = set(args.steps.split(","))
    out = REPO / "benchmarks" / "results" / f"agreement-{args.scale}.json"
    results = json.loads(out.read_text()) if out.is_file() else {}
    if not db.is_file():
        inbox = folder / "submissions"
        results["build"] = measured(
            accuracy_db("build", "--data", str(folder), "--db", str(db), "--submissions", str(inbox))
        )
    names = sorted(path.stem for path in (folder / "submissions").glob("*.csv"))
    label = f"scale {args.scale}"
    for scheme in args.schemes.split(",") if "two" in steps else []:
        named = "" if scheme == SCHEME else f" --scheme {scheme}"
        results[f"{label}: agreement gold {names[0]}{named} (every scope)"] = median_of(
            accuracy_db("agreement", "gold", names[0], "--scheme", scheme, "--db", str(db), "--format", "json"),
            args.repeat,
        )
    if "three" in steps:
        results[f"{label}: agreement gold {names[0]} {names[1]} (ALL, with Fleiss and Krippendorff)"] = median_of(
            accuracy_db("agreement", "gold", *names[:2], "--db", str(db), "--scope", "ALL", "--format", "json"),
            args.repeat,
        )
    if "adjudicate" in steps:
        results[f"{label}: adjudicate gold {names[0]} {names[1]} --min-votes 2"] = median_of(
            accuracy_db(
                "adjudicate", "gold", *names[:2], "--min-votes", "2", "--as", "majority", "--out",
                str(args.work / "adjudicated"), "--db", str(db),
            ),
            args.repeat,
        )  # fmt: skip
    out.write_text(json.dumps(results, indent=1) + "\n")
    print("| step | seconds (median) | peak memory |\n| --- | ---: | ---: |")
    for name, result in results.items():
        print(f"| {name} | {result['seconds']:.2f} | {result['peak_mb']} MB |")


if __name__ == "__main__":
    sys.exit(main())
