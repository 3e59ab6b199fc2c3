"""Import annotation lists of another format into a built database (accuracy-db import), and score them.

The import writes into a copy of the published file and renames it over it (publish.py), holding the writer lock,
as refresh does: a refused import leaves the database as it was. An imported folder or Mu-SHROOM file is registered
with the database (corpus_folders.py): build loads it again, and refresh reloads it when a file of it changes.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from accuracy_db.etl import corpus_files, factgenie, format_hints, mqm_files, mushroom_files
from accuracy_db.etl.score_files import LoadedScores, ScoreFile, load_score_file
from accuracy_db.ingest import builtin_metrics, corpus_folders
from accuracy_db.ingest.build import last_list, new_lists, score
from accuracy_db.ingest.corpus_folders import Registration
from accuracy_db.ingest.sources import record
from accuracy_db.names import check_option
from accuracy_db.store import database
from accuracy_db.store.publish import publishing, writer_lock

KINDS = ("gold", "submission")


def publish_import(db_path: Path, load, lists: bool = True):
    """Run load(con) on a copy of the published database, score the lists it added (when it loads lists), and
    publish the copy; a failure leaves the published database as it was."""
    database.open_existing(db_path).close()  # a clear error when there is no database of this version
    with writer_lock(db_path), publishing(db_path, start_from_published=True) as work:
        con = database.connect_writable(work)
        try:
            before = last_list(con)
            report = load(con)
            if lists:  # the new lists, and the submissions a new gold list made scorable (they had no rows before)
                score(con, [], new_lists(con, before))
                if report.texts_added:  # the corpus's texts, with the new ones (a submission adds none)
                    builtin_metrics.compute(con, [report.corpus])
            con.execute("CHECKPOINT")
        finally:
            con.close()
    return report


def registered_load(
    folder: Path, format: str, kind: str | None, load, name: str | None = None, humans: str | None = None
):
    """load(con), then the folder (or file) registered with the database under the corpus it loaded into, with the
    fingerprints of its files taken before it was read (a file changed meanwhile is loaded again by a refresh)."""

    def load_and_register(con):
        draft = Registration(str(folder), format, "", kind, name, humans)
        before = corpus_folders.folder_sources(draft)
        report = load(con)
        registration = Registration(draft.folder, format, report.corpus, kind, name, humans)
        corpus_folders.register(con, registration)
        record(con, [source._replace(corpus=report.corpus) for source in before])
        return report

    return load_and_register


def import_corpus(db_path: Path, folder: Path, corpus: str | None = None, strict: bool = False):
    """Load a corpus folder (the generic corpus format, etl/corpus_files.py) as a new corpus, score its lists, and
    register the folder (build and refresh load it again). strict: refuse an empty span rather than leave it out."""
    check_option("--corpus", corpus, "corpus")
    format_hints.refuse_mushroom_file(folder, "a corpus folder")
    folder = Path(os.path.abspath(folder))  # the path registered, and the lists' source_file
    read_and_load = lambda con: corpus_files.load_corpus_folder(con, folder, corpus, strict=strict)  # noqa: E731
    load = registered_load(folder, "corpus", None, read_and_load)
    return publish_import(db_path, load)


def import_factgenie(
    db_path: Path, folder: Path, corpus: str | None = None, kind: str = "submission", strict: bool = False
):
    """Load a factgenie campaign folder into the database as lists of a corpus (see etl/factgenie.py), and register
    it (build and refresh load it again). strict: refuse an empty span rather than leave it out."""
    check_option("--corpus", corpus, "corpus")
    format_hints.refuse_mushroom_file(folder, "a factgenie campaign folder")
    folder = Path(os.path.abspath(folder))  # the path registered, and the lists' source_file
    read = lambda: factgenie.read_campaign(folder, strict)  # noqa: E731
    read_and_load = lambda con: factgenie.load_campaign(con, read(), corpus, kind)  # noqa: E731
    return publish_import(db_path, registered_load(folder, "factgenie", kind, read_and_load))


def import_mushroom(
    db_path: Path,
    file: Path,
    corpus: str | None = None,
    kind: str = "submission",
    name: str | None = None,
    strict: bool = False,
):
    """Load a Mu-SHROOM file (etl/mushroom_files.py): a labelled file as a new corpus (--as gold), or predictions as
    a submission of one (named --name, by default the file's stem); score its lists, and register the file (build
    and refresh load it again). strict: refuse what the task's scorer reads without complaint but the file leaves
    out (empty spans, annotations that cannot be read)."""
    check_option("--corpus", corpus, "corpus")
    check_option("--name", name, "list")
    file = Path(os.path.abspath(file))  # the path registered, and the lists' source_file
    corpus = corpus or mushroom_files.DEFAULT_CORPUS
    if kind == "gold":
        read_and_load = lambda con: mushroom_files.load_gold(con, file, corpus, strict=strict)  # noqa: E731
        return publish_import(db_path, registered_load(file, "mushroom", kind, read_and_load))
    name = name or file.stem
    read_and_load = lambda con: mushroom_files.load_prediction(con, file, corpus, name, strict)  # noqa: E731
    return publish_import(db_path, registered_load(file, "mushroom", kind, read_and_load, name))


def import_mqm(
    db_path: Path,
    file: Path,
    corpus: str,
    kind: str = "gold",
    name: str | None = None,
    humans: list[str] | None = None,
):
    """Load a Google MQM TSV file (etl/mqm_files.py): as a new corpus (--as gold; humans: its human references,
    None for those named like one), or as a submission of one (named --name, by default the file's stem); score
    its lists, and register the file (build and refresh load it again)."""
    check_option("--corpus", corpus, "corpus")
    check_option("--name", name, "list")
    for system in humans or []:
        check_option("--human", system, "system")
    file = Path(os.path.abspath(file))  # the path registered, and the lists' source_file
    if kind == "gold":
        load = lambda con: mqm_files.load_gold(con, file, corpus, humans)  # noqa: E731
        listed = None if humans is None else json.dumps(humans, ensure_ascii=False)
        return publish_import(db_path, registered_load(file, "mqm", kind, load, humans=listed))
    name = name or file.stem
    read_and_load = lambda con: mqm_files.load_submission(con, file, corpus, name)  # noqa: E731
    return publish_import(db_path, registered_load(file, "mqm", kind, read_and_load, name))


def import_scores(
    db_path: Path,
    file: Path,
    higher_is_better: bool,
    name: str | None = None,
    corpus: str | None = None,
    replace: bool = False,
) -> LoadedScores:
    """Load a file of text-level scores (etl/score_files.py) into the database: its metrics, of one split of the
    corpus, each a score for every text of it. With replace, they replace metrics of the same names, in the same
    publication; otherwise a name taken is refused."""
    check_option("--corpus", corpus, "corpus")
    check_option("--name", name, "metric")
    format_hints.refuse_mushroom_file(file, "a file of scores")
    score_file = ScoreFile(file, higher_is_better, corpus or "shared-task", name, replace=replace)
    return publish_import(db_path, lambda con: load_score_file(con, score_file), lists=False)
