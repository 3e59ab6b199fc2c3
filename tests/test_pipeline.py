"""pipeline.in_order: items committed in their order, each prepared on a cursor of its own; on a failure, no thread,
no cursor and no temporary table outlives the call. pipeline.ahead: an iterable's items made in a thread, in order,
its failure raised in its turn, and the thread ended with the loop."""

from __future__ import annotations

import threading
import time
from contextlib import closing

import duckdb
import pytest

from accuracy_db.ingest import pipeline


def prepare(cursor, item: int):
    """A temporary table of the item on its cursor, as a mistake list's resolved rows are."""
    cursor.execute(f"CREATE OR REPLACE TEMP TABLE prepared AS SELECT {item} AS item")
    return cursor, item


@pytest.mark.parametrize("ahead", [1, 2])
def test_items_are_committed_in_order_each_from_its_own_cursor(ahead):
    con = duckdb.connect()
    con.execute("CREATE TABLE committed (item INTEGER, position INTEGER)")
    items = list(range(7))

    def commit(prepared):
        cursor, item = prepared
        # the table is the one this item's preparation made: no other item used its cursor in between
        assert cursor.execute("SELECT item FROM prepared").fetchall() == [(item,)]
        cursor.execute("INSERT INTO committed SELECT item, (SELECT count(*) FROM committed) FROM prepared")
        cursor.execute("DROP TABLE prepared")

    pipeline.in_order(con, items, prepare, commit, ahead=ahead)
    assert con.execute("SELECT item, position FROM committed ORDER BY position").fetchall() == [(i, i) for i in items]


def test_nothing_to_do_is_done():
    """No item: nothing prepared, nothing committed, and no preparing thread left behind."""
    prepared, committed = [], []
    pipeline.in_order(duckdb.connect(), [], lambda cursor, item: prepared.append(item), committed.append)
    assert (prepared, committed) == ([], [])
    assert not [thread for thread in threading.enumerate() if thread.name.startswith("prepare")]


@pytest.mark.parametrize("failing", ["prepare", "commit"])
def test_a_failure_stops_the_preparations_and_closes_their_cursors(failing):
    con = duckdb.connect()
    cursors, committed = [], []
    started = threading.Event()

    def failing_prepare(cursor, item):
        cursors.append(cursor)
        if item == 1 and failing == "prepare":
            raise RuntimeError("prepare failed")
        if item == 2:  # a preparation under way when the failure comes: interrupted, not waited out
            started.set()
            cursor.execute("SELECT count(*) FROM range(1_000_000_000_000)")
        return prepare(cursor, item)

    def failing_commit(prepared):
        committed.append(prepared[1])
        if failing == "commit":
            started.wait()
            raise RuntimeError("commit failed")

    with pytest.raises(RuntimeError, match=f"{failing} failed"):
        pipeline.in_order(con, range(5), failing_prepare, failing_commit, ahead=2)
    assert committed == [0]
    assert not [thread for thread in threading.enumerate() if thread.name.startswith("prepare")]
    for cursor in cursors:  # closed, with their temporary tables
        with pytest.raises(duckdb.ConnectionException):
            cursor.execute("SELECT 1")
    assert con.execute("SELECT 1").fetchall() == [(1,)]  # the connection given is left open


def ahead_threads() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name == "ahead"]


@pytest.mark.parametrize("depth", [1, 3])
def test_ahead_gives_every_item_in_order_made_in_another_thread(depth):
    made_in = []

    def numbers():
        for number in range(10):
            made_in.append(threading.current_thread())
            yield number

    assert list(pipeline.ahead(numbers(), depth)) == list(range(10))
    assert set(made_in) != {threading.current_thread()} and len(set(made_in)) == 1
    assert not ahead_threads()


def test_ahead_makes_the_next_items_while_one_is_used():
    made = []

    def numbers():
        for number in range(3):
            made.append(number)
            yield number

    for number in pipeline.ahead(numbers(), depth=1):
        deadline = time.monotonic() + 10
        while len(made) < min(number + 2, 3) and time.monotonic() < deadline:  # the next is made meanwhile
            time.sleep(0.01)
        assert len(made) == min(number + 2, 3)


def test_ahead_raises_the_iterables_failure_after_the_items_before_it():
    def failing():
        yield 1
        yield 2
        raise ValueError("the third item")

    used = []
    with pytest.raises(ValueError, match="the third item"):
        for item in pipeline.ahead(failing()):
            used.append(item)
    assert used == [1, 2]
    assert not ahead_threads()


@pytest.mark.parametrize("failure", [RuntimeError, KeyboardInterrupt])
def test_a_loop_that_ends_early_stops_the_thread_at_its_next_item(failure):
    """The thread, blocked with its items handed on up to depth, stops instead of making the rest of an endless
    iterable; closing the loop (as build.load_texts_of does) waits for it."""
    made = []

    def endless():
        while True:
            made.append(len(made))
            yield made[-1]

    with pytest.raises(failure), closing(pipeline.ahead(endless(), depth=2)) as items:
        for item in items:
            if item == 3:
                raise failure()
    assert not ahead_threads()
    assert len(made) <= 3 + 1 + 2 + 1  # the items used, those handed on, and the one the thread was making
