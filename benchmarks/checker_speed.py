"""How long the box-score checker takes on a built database: each of its models counted in turn (a model's time
includes the models it reads), then the whole list put in and scored as `check` does, on a copy.

    python -m benchmarks.checker_speed --db BUILT.duckdb [--runs 3]

Reports wall and CPU seconds (the process's, DuckDB's threads included: on a shared machine the CPU seconds vary
less than the wall time) and the database's texts with a game.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path

from accuracy_db.ingest.check import check
from accuracy_db.store import database
from benchmarks.model_fill import cpu_seconds

MODELS = (
    "checker_tokens",
    "checker_box_score",
    "checker_mentions",
    "checker_claims",
    "checker_claim_entities",
    "boxscore_findings",
)


def timed(action) -> dict:
    started, cpu = time.perf_counter(), cpu_seconds()
    action()
    return {"wall": round(time.perf_counter() - started, 3), "cpu": round(cpu_seconds() - cpu, 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    con = database.open_existing(args.db)
    texts = con.execute("SELECT count(*) FROM texts JOIN games USING (text_id)").fetchall()[0][0]
    results: dict = {"texts": texts, "models": {}, "check": []}
    for model in MODELS:
        results["models"][model] = [
            timed(lambda model=model: con.execute(f"SELECT count(*) FROM (SELECT * FROM {model})").fetchall())
            for _ in range(args.runs)
        ]
    con.close()
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "accuracy.duckdb"
        shutil.copyfile(args.db, copy)
        results["check"] = [timed(lambda: check(copy)) for _ in range(args.runs)]
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
