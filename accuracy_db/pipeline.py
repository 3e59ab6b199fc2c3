"""Prepare the next items on connections of their own while the current one is committed, in order.

Loading a mistake list is mostly reading and resolving it (etl/mistake_lists.prepare_mistake_list), which writes
only to temporary tables of its connection, and which DuckDB runs without the GIL; inserting it is a shorter step
that must happen one list after the other, in the lists' order, for the ids to be those of a load of one list at a
time. So the lists to come are prepared in worker threads, each on a cursor of the database (a connection with
temporary tables of its own), while this thread inserts the one before: the commits see what they would have seen
in a plain loop, in the same order.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import TypeVar

import duckdb

Item = TypeVar("Item")
Prepared = TypeVar("Prepared")

# Lists prepared at once beside the one being inserted: two make both cores busy (resolving a list uses a little
# more than one), and each holds its resolved rows until inserted (a few hundred MB for a list of a million rows).
AHEAD = 1


def in_order(
    con: duckdb.DuckDBPyConnection,
    items: Iterable[Item],
    prepare: Callable[[duckdb.DuckDBPyConnection, Item], Prepared],
    commit: Callable[[Prepared], None],
    ahead: int = AHEAD,
) -> None:
    """For each item, in order: prepare(cursor, item) in a worker thread, on a cursor of con used by no other item
    being prepared or not yet committed, then commit(prepared) in this thread, after the commit of the item before.
    Up to `ahead` items are prepared while one is committed. On any exception (from prepare, commit, or an interrupt),
    the preparations under way are interrupted and waited for, and the cursors closed (their temporary tables go
    with them) before it is raised: no thread and no temporary table outlives the call."""
    cursors = [con.cursor() for _ in range(ahead + 1)]
    pending: deque[tuple[Future, duckdb.DuckDBPyConnection]] = deque()
    queue = iter(enumerate(items))
    pool = ThreadPoolExecutor(max_workers=ahead, thread_name_prefix="prepare")

    def start_next() -> None:
        for index, item in queue:  # one item at most: the cursor it takes is the one its predecessor freed
            cursor = cursors[index % len(cursors)]
            pending.append((pool.submit(prepare, cursor, item), cursor))
            return

    try:
        for _ in cursors:
            start_next()
        while pending:
            commit(pending.popleft()[0].result())
            start_next()
    finally:
        for future, _ in pending:
            future.cancel()
        for future, cursor in pending:
            while not future.done():  # an interrupt stops the statement under way, not those after it: again
                cursor.interrupt()
                wait([future], timeout=0.05)
        pool.shutdown(wait=True)
        for cursor in cursors:
            cursor.close()
