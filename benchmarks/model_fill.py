"""How long filling one model materialized as a table takes, by two versions of its SQL, alternating.

    python -m benchmarks.model_fill --db COPY.duckdb --model span_overlaps --before OLD.sql [--after NEW.sql]

Each run fills a fresh empty table shaped like the model, as a build fills the empty model (one statement for
every submission, or one a submission when the model's header says so), and reports its wall time and the CPU
seconds of the process (DuckDB's threads included: on a shared machine the CPU seconds vary less than the wall
time). --after defaults to the model's file in this package. The rows of both versions are compared with the
model's table (EXCEPT ALL both ways). The database is written to: run it on a copy of a built database.
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from pathlib import Path

import duckdb

from accuracy_db.store import database


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def fill(con: duckdb.DuckDBPyConnection, model: str, sql: str, table: str) -> dict:
    """Fill a new empty table shaped like the model with the rows sql computes; its wall and CPU seconds."""
    con.execute(f"DROP TABLE IF EXISTS {table}")
    con.execute(f"CREATE TABLE {table} AS SELECT * FROM {model} LIMIT 0")
    con.execute("CHECKPOINT")
    submission_ids = [set_id for (set_id,) in con.execute("SELECT submission_id FROM evaluations").fetchall()]
    if not database.is_incremental(sql):
        batches = [None]
    else:
        batched = database.materialization(sql) == database.BATCHED
        batches = database.submission_batches(con, submission_ids) if batched else [submission_ids]
    started, cpu = time.perf_counter(), cpu_seconds()
    insert = f"INSERT INTO {table} SELECT * FROM (\n{sql}\n)"
    for batch in batches:
        con.execute(insert, None if batch is None else {"submission_ids": batch})
    return {"wall": round(time.perf_counter() - started, 3), "cpu": round(cpu_seconds() - cpu, 3)}


def differences(con: duckdb.DuckDBPyConnection, model: str, table: str) -> tuple[int, int]:
    """How many rows the table has that the model's table lacks, and the other way round."""
    return tuple(
        con.execute(f"SELECT count(*) FROM (SELECT * FROM {one} EXCEPT ALL SELECT * FROM {other})").fetchone()[0]
        for one, other in ((table, model), (model, table))
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--before", type=Path, required=True)
    parser.add_argument("--after", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--memory-limit", default="3GB")
    args = parser.parse_args()
    versions = {
        "before": args.before.read_text(encoding="utf-8"),
        "after": args.after.read_text(encoding="utf-8") if args.after else database.view_definitions()[args.model],
    }
    con = duckdb.connect(str(args.db), config={"memory_limit": args.memory_limit})
    con.execute("SET enable_progress_bar = false")
    try:
        for run in range(args.repeat):
            for version, sql in versions.items():
                table = f"benchmark_{version}"
                figures = fill(con, args.model, sql, table)
                if run == 0:
                    figures["rows"] = con.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
                    figures["only_here"], figures["only_in_model"] = differences(con, args.model, table)
                print(json.dumps({"model": args.model, "version": version, "run": run + 1, **figures}), flush=True)
    finally:
        for version in versions:
            con.execute(f"DROP TABLE IF EXISTS benchmark_{version}")
        con.execute("CHECKPOINT")
        con.close()


if __name__ == "__main__":
    main()
