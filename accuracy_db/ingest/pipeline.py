"""Prepare the next items on connections of their own while the current one is committed, in order; or make the
next items of an iterable in a thread while the current one is used.

Loading a mistake list is mostly reading and resolving it (etl/mistake_lists.prepare_mistake_list), which writes
only to temporary tables of its connection, and which DuckDB runs without the GIL; inserting it is a shorter step
that must happen one list after the other, in the lists' order, for the ids to be those of a load of one list at a
time. So the lists to come are prepared in worker threads, each on a cursor of the database (a connection with
temporary tables of its own), while this thread inserts the one before: the commits see what they would have seen
in a plain loop, in the same order.
"""

from __future__ import annotations

import queue
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
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


def ahead(items: Iterable[Item], depth: int = 2) -> Iterator[Item]:
    """The items of an iterable, in order, each made in a thread of its own while the ones before are used, up to
    depth items ahead: reading files, which holds Python's lock, beside numbering and inserting what was read, which
    polars and DuckDB do without it. An exception of the iterable is raised here after the items made before it.
    When the loop ends early (an exception, an interrupt), the thread stops before its next item, and is waited
    for: no thread outlives the loop."""
    made: queue.Queue = queue.Queue(maxsize=depth)
    stop = threading.Event()
    end = object()

    def handed_on(entry: tuple) -> bool:
        while not stop.is_set():
            try:
                made.put(entry, timeout=0.05)
                return True
            except queue.Full:
                pass
        return False

    def make() -> None:
        try:
            for item in items:
                if not handed_on((item, None)):
                    return
            handed_on((end, None))
        except BaseException as error:  # raised in the loop's thread
            handed_on((end, error))

    thread = threading.Thread(target=make, name="ahead")
    thread.start()
    try:
        while True:
            item, error = made.get()
            if error is not None:
                raise error
            if item is end:
                return
            yield item
    finally:
        stop.set()
        thread.join()
