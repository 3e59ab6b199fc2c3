"""Import annotation lists of another format into a built database (accuracy-db import), and score them.

The import writes into a copy of the published file and renames it over it (publish.py), holding the writer lock,
as refresh does: a refused import leaves the database as it was.
"""

from __future__ import annotations

from pathlib import Path

from . import database
from .etl import corpus_files, factgenie
from .publish import publishing, writer_lock

KINDS = ("gold", "submission")


def score_new_lists(con, set_ids: list[int]) -> None:
    """Score the submissions that the new lists made scorable: the new submissions, and those of a corpus and
    split that had no gold list before (they had no rows in the incremental models)."""
    ids = con.execute(
        "SELECT submission_id FROM evaluations WHERE submission_id = ANY($ids) OR gold_id = ANY($ids)",
        {"ids": set_ids},
    ).fetchall()
    database.materialize(con, [set_id for (set_id,) in ids])


def publish_import(db_path: Path, load):
    """Run load(con) on a copy of the published database, score the lists it added, and publish the copy; a
    failure leaves the published database as it was."""
    database.open_existing(db_path).close()  # a clear error when there is no database of this version
    with writer_lock(db_path), publishing(db_path, start_from_published=True) as work:
        con = database.connect_writable(work)
        try:
            before = con.execute("SELECT coalesce(max(set_id), 0) FROM annotation_sets").fetchall()[0][0]
            report = load(con)
            new = con.execute("SELECT set_id FROM annotation_sets WHERE set_id > ?", [before]).fetchall()
            score_new_lists(con, [set_id for (set_id,) in new])
            con.execute("CHECKPOINT")
        finally:
            con.close()
    return report


def import_corpus(db_path: Path, folder: Path, corpus: str | None = None):
    """Load a corpus folder (the generic corpus format, etl/corpus_files.py) as a new corpus, and score its lists."""
    return publish_import(db_path, lambda con: corpus_files.load_corpus_folder(con, folder, corpus))


def import_factgenie(db_path: Path, folder: Path, corpus: str | None = None, kind: str = "submission"):
    """Load a factgenie campaign folder into the database as lists of a corpus (see etl/factgenie.py)."""
    campaign = factgenie.read_campaign(folder)
    return publish_import(db_path, lambda con: factgenie.load_campaign(con, campaign, corpus, kind))
