"""How long a refresh takes when nothing changed, and when one submission is added to a hundred.

    python -m benchmarks.refresh_speed [--submissions 100] [--data DIR]

Each figure is the wall time of the whole `accuracy-db` process (Python's start included), the median of
--repeat runs, on a database built from the shared-task data and N submissions made from the example
submission (each a different number of its rows).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from accuracy_db.etl.data_folder import resolve_data_dir


def timed(*args: str) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "accuracy_db", *args], check=True, capture_output=True)
    return time.perf_counter() - started


def write_submission(example: Path, target: Path, rows: int) -> None:
    target.write_text("".join(example.read_text().splitlines(keepends=True)[: rows + 1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--submissions", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--data", type=Path)
    args = parser.parse_args()
    data = resolve_data_dir(args.data)
    example = data / "example_submissions" / "submission.csv"
    with tempfile.TemporaryDirectory() as tmp:
        inbox, db = Path(tmp) / "inbox", Path(tmp) / "accuracy.duckdb"
        inbox.mkdir()
        for i in range(args.submissions):
            write_submission(example, inbox / f"s{i:03}.csv", 100 + 4 * i)
        common = ["--data", str(data), "--db", str(db), "--submissions", str(inbox)]
        rebuild = [timed("build", *common) for _ in range(args.repeat)]
        noop = [timed("refresh", *common) for _ in range(args.repeat)]
        add_one = []
        for i in range(args.repeat):
            write_submission(example, inbox / f"new{i}.csv", 250 + i)
            add_one.append(timed("refresh", *common))
        shutil.rmtree(inbox)
    print(f"| step ({args.submissions} submissions) | median of {args.repeat} |")
    print("| --- | --- |")
    print(f"| build: load everything | {statistics.median(rebuild):.2f} s |")
    print(f"| refresh, nothing changed | {statistics.median(noop):.2f} s |")
    print(f"| refresh, one submission added | {statistics.median(add_one):.2f} s |")


if __name__ == "__main__":
    main()
