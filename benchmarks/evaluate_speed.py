"""The drop-in `evaluate` against the shared task's own scorer, as whole processes, side by side in one run.

    python -m benchmarks.evaluate_speed --official PATH/TO/evaluate.py [--repeat 5] [--data DIR]

The official scorer is not part of this project: give the path of its evaluate.py (from the shared task's
repository). The three commands are run in turn (official, ours with --token_lookup, ours with --text_dir), `repeat`
times, so that the load of a shared machine falls on all of them alike; each figure is the median wall time, and
the ratio is the official scorer's median over ours. The CPU time of each run (user and system, from the child's
resource usage) is recorded beside it: on a machine that others load, it varies less than the wall time. The load
average before and after the run is recorded too. Results go to benchmarks/results/evaluate.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data" / "accuracy-shared-task"


def commands(official: Path, data: Path) -> dict[str, list[str]]:
    gold, submitted = data / "gsml.csv", data / "example_submissions" / "submission.csv"
    ours = [sys.executable, "-m", "accuracy_db", "evaluate", "--gsml", str(gold), "--submitted", str(submitted)]
    return {
        "official": [sys.executable, str(official), "--gsml", str(gold), "--submitted", str(submitted),
                     "--token_lookup", str(data / "token_lookup.yaml")],
        "token_lookup": [*ours, "--token_lookup", str(data / "token_lookup.yaml"), "--format", "json"],
        "text_dir": [*ours, "--text_dir", str(data / "texts"), "--format", "json"],
    }  # fmt: skip


def timed(command: list[str]) -> tuple[float, float]:
    """The wall time and the CPU time (user and system) of one run of the command."""
    started = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(command)} failed")
    return wall, usage.ru_utime + usage.ru_stime


def rounds(runs: dict[str, list[str]], repeat: int) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Each command run in turn, `repeat` times (the load of a shared machine falls on all alike): the wall times
    and the CPU times of each, in seconds, rounded to the millisecond."""
    times: dict[str, list[float]] = {name: [] for name in runs}
    cpu: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeat):
        for name, command in runs.items():
            wall, used = timed(command)
            times[name].append(round(wall, 3))
            cpu[name].append(round(used, 3))
    return times, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--official", type=Path, required=True, help="the shared task's evaluate.py")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    runs = commands(args.official, args.data)
    load_before = os.getloadavg()
    times, cpu = rounds(runs, args.repeat)
    medians = {name: statistics.median(seconds) for name, seconds in times.items()}
    cpu_medians = {name: statistics.median(seconds) for name, seconds in cpu.items()}
    ours = ("token_lookup", "text_dir")
    result = {
        "repeat": args.repeat,
        "load_average": {"before": [round(x, 2) for x in load_before], "after": [round(x, 2) for x in os.getloadavg()]},
        "seconds": times,
        "median": medians,
        "speedup": {name: round(medians["official"] / medians[name], 1) for name in ours},
        "cpu_seconds": cpu,
        "cpu_median": cpu_medians,
        "cpu_speedup": {name: round(cpu_medians["official"] / cpu_medians[name], 1) for name in ours},
    }
    out = REPO / "benchmarks" / "results" / "evaluate.json"
    out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    for key in ("load_average", "median", "speedup", "cpu_median", "cpu_speedup"):
        print(key, json.dumps(result[key]))


if __name__ == "__main__":
    main()
