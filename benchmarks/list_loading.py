"""How long loading one mistake list takes (etl/mistake_lists.load_mistake_list), per list and per statement.

    python -m benchmarks.list_loading --db BUILT.duckdb LIST.csv [LIST.csv …] [--split train] [--ahead N]

Each list is loaded into the database as a submission of a name of its own (bench-<file stem>) and deleted again, in one
process; the database is changed, so give it a copy of a built database (`cp` one made by build at the scale wanted).
Prints, per list, the wall and CPU time of the load (CPU of every DuckDB thread) and its three slowest statements; the
memory limit is ACCURACY_DB_MEMORY_LIMIT's, as for every command. With --ahead N, the lists are loaded as build loads
submissions (accuracy_db/ingest/pipeline.py: up to N prepared on cursors of their own while one is inserted), and the
whole is timed: the wall and CPU time of all the lists, and the peak RSS of the process.
"""

from __future__ import annotations

import argparse
import resource
import time
from pathlib import Path

from accuracy_db.etl import mistake_lists

from accuracy_db.ingest import pipeline
from accuracy_db.store import database


class TimedConnection:
    """A connection that records how long each statement run through execute() takes."""

    def __init__(self, con):
        self.con = con
        self.statements: list[tuple[float, str]] = []

    def execute(self, query, *args, **kwargs):
        start = time.perf_counter()
        result = self.con.execute(query, *args, **kwargs)
        self.statements.append((time.perf_counter() - start, " ".join(query.split())[:80]))
        return result

    def __getattr__(self, name):
        return getattr(self.con, name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True, help="a copy of a built database (it is written to)")
    parser.add_argument("--split", default="train", help="the split of the texts the lists name")
    parser.add_argument("lists", type=Path, nargs="+")
    parser.add_argument("--ahead", type=int, help="load the lists as build does, this many prepared ahead")
    args = parser.parse_args()
    con = database.connect(str(args.db))
    if args.ahead:
        load_pipelined(con, args.lists, args.split, args.ahead)
        return
    for path in args.lists:
        timed = TimedConnection(con)
        wall, cpu = time.perf_counter(), time.process_time()
        loaded = mistake_lists.load_mistake_list(timed, path, "submission", f"bench-{path.stem}", args.split)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        rows = con.execute("SELECT count(*) FROM mistakes WHERE set_id = ?", [loaded.set_id]).fetchall()[0][0]
        print(f"{path.name}: {rows:,} rows in {wall:.2f} s (CPU {cpu:.2f} s)")
        for seconds, statement in sorted(timed.statements, reverse=True)[:3]:
            print(f"    {seconds:6.2f} s  {statement}")
        con.execute("DELETE FROM mistakes WHERE set_id = ?", [loaded.set_id])
        con.execute("DELETE FROM annotation_sets WHERE set_id = ?", [loaded.set_id])


def load_pipelined(con, lists: list[Path], split: str, ahead: int) -> None:
    set_ids = []

    def prepare(cursor, path):
        return mistake_lists.prepare_mistake_list(cursor, path, "submission", f"bench-{path.stem}", split)

    def insert(prepared):
        set_ids.append(mistake_lists.insert_prepared_list(prepared).set_id)

    wall, cpu = time.perf_counter(), time.process_time()
    pipeline.in_order(con, lists, prepare, insert, ahead)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6
    print(f"{len(lists)} lists, {ahead} prepared ahead: {wall:.2f} s (CPU {cpu:.2f} s), peak RSS {peak:.2f} GB")
    con.execute("DELETE FROM mistakes WHERE set_id = ANY(?)", [set_ids])
    con.execute("DELETE FROM annotation_sets WHERE set_id = ANY(?)", [set_ids])


if __name__ == "__main__":
    main()
