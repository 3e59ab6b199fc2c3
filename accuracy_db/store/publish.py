"""Publishing a database file: one writer at a time, and readers only ever see a whole database.

The new state is written to a file beside the published one and renamed over it at the end (an atomic
rename on POSIX). A reader that opens the path gets either the old file or the new one; a reader that had
the old file open keeps reading it until it closes its connection. A writer killed at any moment leaves
at most a stray work file, which the next writer removes.

A database reached through a symbolic link is locked and published where the link points: every name of it
takes the same lock, and the link stays a link.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import shutil
import stat
from collections.abc import Iterator
from pathlib import Path

import duckdb

from accuracy_db.errors import AccuracyDbError
from accuracy_db.regular_files import not_regular, open_regular

WORK_SUFFIX = ".publishing"
# A DuckDB database file holds these bytes from byte 8 on (its magic bytes, in every version of the file format).
DUCKDB_HEADER, DUCKDB_HEADER_AT = b"DUCK", 8
# Writes that fail for want of room, and how a message says so.
NO_ROOM = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EFBIG: "the file size limit of this process (ulimit -f) is reached",
}


class WriterBusy(AccuracyDbError):
    """Another process holds the writer lock."""

    def __init__(self, db_path: Path, holder: str):
        self.holder = holder
        super().__init__(f"{db_path} is being written by {holder}; nothing was done (try again when it is finished)")


def published_file(db_path: Path) -> Path:
    """The file a database path names, its links followed (the file need not exist yet)."""
    return Path(os.path.realpath(db_path))


def publication(db_path: Path) -> tuple[int, int]:
    """Which publication of the database its path names now: the file's inode and modification time, both new at
    each publishing (a new file renamed over the old). OSError when the path names no file."""
    found = os.stat(db_path)
    return found.st_ino, found.st_mtime_ns


def lock_path(db_path: Path) -> Path:
    target = published_file(db_path)
    return target.with_name(f".{target.name}.lock")


def work_path(db_path: Path) -> Path:
    target = published_file(db_path)
    return target.with_name(f".{target.name}{WORK_SUFFIX}")


@contextlib.contextmanager
def writer_lock(db_path: Path) -> Iterator[None]:
    """Hold the database's writer lock, or fail at once with a clear message (WriterBusy) when another writer has
    it.

    A flock dies with its process, so a killed writer never leaves the lock behind."""
    lock_file = lock_path(db_path)
    lock_file.parent.mkdir(parents=True, exist_ok=True)
    with lock_file.open("a+") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.seek(0)
            raise WriterBusy(db_path, lock.read().strip() or "another process") from None
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
    replaces the published file, on failure it is removed. Call it holding the writer lock.

    A write that fails for want of room (a full disk, say) is one clear error, whichever step it hit."""
    target, work = published_file(db_path), work_path(db_path)
    check_replaceable(db_path, target)
    remove_work_files(work)  # left by a writer that was killed
    try:
        if start_from_published:
            shutil.copyfile(target, work)
        yield work
        with work.open("rb+") as stream:
            os.fsync(stream.fileno())
        os.replace(work, target)
        directory = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
    except Exception as error:
        reason = no_room(error)
        if reason is None:
            raise
        raise AccuracyDbError(
            f"{db_path} was not updated: {reason} (writing the new database to {work}); "
            "the published database is unchanged"
        ) from None
    finally:
        remove_work_files(work)


def check_replaceable(db_path: Path, target: Path) -> None:
    """Refuse, in one line, to publish over what is no database: a FIFO, a folder, a device, or a file that is not a
    DuckDB database (a gold list given as --db by mistake, say), which the rename would replace. A path with
    nothing there, and an empty file, lose nothing."""
    try:
        found = os.stat(target)
    except FileNotFoundError:
        return
    except OSError as error:
        raise AccuracyDbError(f"{db_path}: cannot read the database ({error.strerror or error})") from None
    if not stat.S_ISREG(found.st_mode):
        raise AccuracyDbError(f"{db_path}: {not_regular(found.st_mode)}, not a database: give another --db")
    if found.st_size == 0:
        return
    with open_regular(target) as stream:
        header = stream.read(len(DUCKDB_HEADER) + DUCKDB_HEADER_AT)
    if header[DUCKDB_HEADER_AT:] != DUCKDB_HEADER:
        raise AccuracyDbError(
            f"{db_path}: not a DuckDB database, and only a database is replaced: give another --db, or remove the file"
        )


def no_room(error: BaseException) -> str | None:
    """Why a write failed, when it failed for want of room; None otherwise. The errors it caused or that were
    raised while it was handled are looked through too: a failed rollback, say, can hide the write that failed."""
    seen = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        if isinstance(error, OSError) and error.errno in NO_ROOM:
            return NO_ROOM[error.errno]
        if isinstance(error, duckdb.Error):  # DuckDB gives the operating system's words, not the code
            for code, reason in NO_ROOM.items():
                if os.strerror(code) in str(error):
                    return reason
        error = error.__cause__ or error.__context__
    return None


def remove_work_files(work: Path) -> None:
    for path in (work, work.with_name(work.name + ".wal")):
        path.unlink(missing_ok=True)
