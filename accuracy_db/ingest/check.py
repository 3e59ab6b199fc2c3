"""accuracy-db check: put the box-score checker's list into a built database again (accuracy_db/ingest/checker.py),
score it, and publish."""

from __future__ import annotations

import time
from pathlib import Path

from accuracy_db.ingest import checker
from accuracy_db.ingest.build import BuildReport, finish, score
from accuracy_db.store import database
from accuracy_db.store.publish import publishing, writer_lock


def check(db_path: Path, split: str | None = None, name: str = checker.NAME) -> dict[str, int]:
    """Put in the checker's findings of a split (None: every split) as the submission name, in place of the checker
    list of that name, score it under every scheme, and publish; return the findings by split."""
    started = time.perf_counter()
    database.open_existing(db_path).close()  # a built database of this version, or one clear error
    with writer_lock(db_path), publishing(db_path, start_from_published=True) as work:
        con = database.connect_writable(work)
        try:
            counts = checker.put_in(con, name, split)
            score(con, [name])
            finish(con, BuildReport(db_path, command="check"), started)
        finally:
            con.close()
    return counts
