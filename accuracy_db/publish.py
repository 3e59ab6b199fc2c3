"""Publishing a database file: one writer at a time, and readers only ever see a whole database.

The new state is written to a file beside the published one and renamed over it at the end (an atomic
rename on POSIX). A reader that opens the path gets either the old file or the new one; a reader that had
the old file open keeps reading it until it closes its connection. A writer killed at any moment leaves
at most a stray work file, which the next writer removes.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

from .errors import AccuracyDbError

WORK_SUFFIX = ".publishing"


def lock_path(db_path: Path) -> Path:
    return db_path.with_name(f".{db_path.name}.lock")


def work_path(db_path: Path) -> Path:
    return db_path.with_name(f".{db_path.name}{WORK_SUFFIX}")


@contextlib.contextmanager
def writer_lock(db_path: Path) -> Iterator[None]:
    """Hold the database's writer lock, or fail at once with a clear message when another writer has it.

    A flock dies with its process, so a killed writer never leaves the lock behind."""
    db_path.parent.mkdir(parents=True, exist_ok=True)
    with lock_path(db_path).open("a+") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.seek(0)
            holder = lock.read().strip() or "another process"
            raise AccuracyDbError(
                f"{db_path} is being written by {holder}; nothing was done (try again when it is finished)"
            ) from None
        lock.seek(0)
        lock.truncate()
        lock.write(f"pid {os.getpid()}")
        lock.flush()
        try:
            yield
        finally:
            lock.truncate(0)
            fcntl.flock(lock, fcntl.LOCK_UN)


@contextlib.contextmanager
def publishing(db_path: Path, start_from_published: bool) -> Iterator[Path]:
    """A work file to write the new database into (a copy of the published one, or none); on success it
    replaces the published file, on failure it is removed. Call it holding the writer lock."""
    work = work_path(db_path)
    remove_work_files(work)  # left by a writer that was killed
    if start_from_published:
        shutil.copyfile(db_path, work)
    try:
        yield work
        with work.open("rb+") as stream:
            os.fsync(stream.fileno())
        os.replace(work, db_path)
        directory = os.open(db_path.parent, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
    finally:
        remove_work_files(work)


def remove_work_files(work: Path) -> None:
    for path in (work, work.with_name(work.name + ".wal")):
        path.unlink(missing_ok=True)
