"""refresh --watch: refresh whenever the inputs change, and keep going until stopped by a signal.

What it looks at to know that something may have changed is cheap: the names, sizes and times of the files.
A writer that holds the lock when it wakes is waited for; a refresh that fails is tried again after a longer and
longer wait, and only failing MAX_FAILURES times in a row ends the watch.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

from accuracy_db.errors import AccuracyDbError
from accuracy_db.etl.sidecars import SIDECAR_SUFFIXES
from accuracy_db.ingest.corpus_folders import folder_files
from accuracy_db.ingest.sources import data_files
from accuracy_db.signals import Signals
from accuracy_db.store.publish import WriterBusy

MAX_FAILURES = 10  # failed refreshes in a row that end the watch
LONGEST_WAIT = 300.0  # seconds: the longest wait after a failed refresh


def folder_state(submissions_dir: Path, data_dir: Path, registrations=()) -> frozenset:
    """A cheap summary of the submissions folder, the data files a build reads and the files of the registered
    folders (corpus_folders.py; no file is read)."""
    state = {(path, stat.st_size, stat.st_mtime_ns) for path, stat in data_files(data_dir).values()}
    for path in [path for registration in registrations for path in folder_files(registration)]:
        try:
            stat = os.stat(path)
        except OSError:
            stat = None
        state.add((str(path), stat and stat.st_size, stat and stat.st_mtime_ns))
    with os.scandir(submissions_dir) as entries:
        for entry in entries:
            if entry.name.endswith((".csv", *SIDECAR_SUFFIXES)):
                try:
                    stat = entry.stat()
                except OSError:  # a dangling or looping link, or deleted while we looked: the entry itself
                    try:
                        stat = entry.stat(follow_symlinks=False)
                    except OSError:
                        continue
                state.add((entry.path, stat.st_size, stat.st_mtime_ns))
    return frozenset(state)


def watch(
    refresh_once: Callable[[], None],
    look: Callable[[], frozenset],
    interval: float,
    log: Callable[[str], None],
    max_failures: int = MAX_FAILURES,
    longest_wait: float = LONGEST_WAIT,
) -> str:
    """Refresh, then refresh again whenever look() changes, until SIGINT or SIGTERM; return the signal's name.

    A writer holding the lock is waited for, one line logged a try; any failed refresh is logged as one line and
    tried again after 2, 4, 8… intervals (at most longest_wait seconds); max_failures in a row raise
    AccuracyDbError."""
    failures = 0
    with Signals() as signals:
        try:
            while True:
                seen = current(look)
                try:
                    refresh_once()
                except WriterBusy as busy:
                    log(f"{busy.holder} is writing the database; trying again in {interval:g} s")
                    time.sleep(interval)
                    continue
                except Exception as error:
                    if signals.received:  # interrupted inside DuckDB, which raised its own error
                        return signals.received
                    failures += 1
                    if failures == max_failures:
                        raise AccuracyDbError(
                            f"the refresh failed {failures} times in a row, so the watch stops; "
                            f"the last error: {one_line(error)}"
                        ) from None
                    wait = min(interval * 2**failures, longest_wait)
                    log(f"refresh failed ({failures} in a row): {one_line(error)}; trying again in {wait:g} s")
                    time.sleep(wait)
                    continue
                failures = 0
                while not changed(look, seen):
                    time.sleep(interval)
        except KeyboardInterrupt:
            return signals.received or "SIGINT"
        except Exception:
            if signals.received:  # interrupted inside DuckDB while looking (the registered folders are read there)
                return signals.received
            raise


def current(look: Callable[[], frozenset]) -> frozenset | None:
    """What look() sees; None when it cannot look (the folder gone, say)."""
    try:
        return look()
    except OSError:
        return None


def changed(look: Callable[[], frozenset], seen: frozenset | None) -> bool:
    """Whether the inputs may have changed since seen; when it cannot tell, yes: the refresh then says why."""
    now = current(look)
    return now is None or now != seen


def one_line(error: Exception) -> str:
    """An error as one line of a log: its first line, and how many more it had."""
    lines = str(error).strip().splitlines() or [""]
    text = lines[0] if isinstance(error, AccuracyDbError) else f"{type(error).__name__}: {lines[0]}"
    return text + (f" (and {len(lines) - 1} more line(s))" if len(lines) > 1 else "")
