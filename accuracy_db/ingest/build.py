"""Build the database from a data folder and a folder of submissions, and publish it."""

from __future__ import annotations

import hashlib
import os
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor, wait
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from accuracy_db.errors import AccuracyDbError, Problem
from accuracy_db.etl import curation, games, mistake_lists, nlg_systems, texts
from accuracy_db.etl.data_folder import SplitFiles, splits
from accuracy_db.ingest import builtin_metrics, checker, corpus_folders, inbox, pipeline, score_folder
from accuracy_db.ingest.sources import Source, data_sources, record
from accuracy_db.regular_files import Digests
from accuracy_db.signals import is_interrupt
from accuracy_db.store import database
from accuracy_db.store.publish import publishing, writer_lock


@dataclass
class BuildReport:
    """What a build or a refresh loaded, kept, removed, refused and warned about."""

    db_path: Path
    command: str = "build"
    texts: dict[str, int] = field(default_factory=dict)  # split -> texts loaded
    gold: dict[str, int] = field(default_factory=dict)  # split -> gold mistakes
    added: list[str] = field(default_factory=list)  # submissions loaded for the first time
    changed: list[str] = field(default_factory=list)  # submissions loaded again, their files having changed
    unchanged: list[str] = field(default_factory=list)
    retired: list[str] = field(default_factory=list)  # submissions whose file is gone
    refused: dict[str, list[Problem]] = field(default_factory=dict)  # submission -> the problems of its CSV
    refused_sidecars: dict[str, list[Problem]] = field(default_factory=dict)  # submission -> those of its sidecar
    loaded: list[str] = field(default_factory=list)  # submissions whose CSV was loaded in this run
    warnings: list[str] = field(default_factory=list)
    published: bool = False
    seconds: float = 0.0
    corpora_loaded: list[str] = field(default_factory=list)  # corpora (re)loaded from their registered folders
    corpora_unchanged: list[str] = field(default_factory=list)
    corpus_refusals: dict[str, list[Problem]] = field(default_factory=dict)  # file -> problems (corpus_rejections)
    adjusted_spans: dict[str, int] = field(default_factory=dict)  # the offset audit: adjustment -> spans
    refused_spans: int = 0
    scores_added: list[str] = field(default_factory=list)  # files of the scores folder loaded for the first time
    scores_changed: list[str] = field(default_factory=list)  # loaded again, the file or its sidecar having changed
    scores_unchanged: list[str] = field(default_factory=list)
    scores_retired: list[str] = field(default_factory=list)  # files whose metrics were removed, the file being gone
    scores_refused: dict[str, list[Problem]] = field(default_factory=dict)  # file -> its problem (score_rejections)

    def summary(self) -> str:
        counts = (
            f"{len(self.added)} added, {len(self.changed)} changed, {len(self.unchanged)} unchanged, "
            f"{len(self.retired)} retired, {len(self.refused)} refused"
        )
        if self.refused_sidecars:
            counts += f", {len(self.refused_sidecars)} sidecar(s) refused"
        outcome = "published" if self.published else "nothing to publish"
        return (
            f"{self.command} {self.db_path}: {counts}{self.corpus_summary()}{self.scores_summary()}; {outcome} in"
            f" {self.seconds:.2f} s"
        )

    def scores_summary(self) -> str:
        """The files of the scores folder, when there are any (else nothing)."""
        if not (self.scores_added or self.scores_changed or self.scores_unchanged or self.scores_retired):
            return ""
        loaded = [name for name in self.scores_added + self.scores_changed if name not in self.scores_refused]
        return (
            f"; score files: {len(loaded)} loaded, {len(self.scores_unchanged)} unchanged,"
            f" {len(self.scores_retired)} retired, {len(self.scores_refused)} refused"
        )

    def corpus_summary(self) -> str:
        """The corpora of registered folders and the offset audit, when the database has any (else nothing)."""
        if not (self.corpora_loaded or self.corpora_unchanged or self.corpus_refusals):
            return ""
        loaded = "reloaded" if self.command == "refresh" else "loaded"
        adjusted = ", ".join(f"{count} {kind}" for kind, count in sorted(self.adjusted_spans.items())) or "none"
        return (
            f"; corpora: {len(self.corpora_loaded)} {loaded}, {len(self.corpora_unchanged)} unchanged,"
            f" {len(self.corpus_refusals)} file(s) refused; spans adjusted: {adjusted}; {self.refused_spans} span(s)"
            " refused"
        )


def schema_source() -> Source:
    """The DDL and the models materialized as tables as a source: a database made with others is rebuilt, not
    refreshed."""
    definitions = database.view_definitions()
    tables = [database.table_definitions(), *(definitions[name] for name in database.table_models())]
    digest = hashlib.sha256("\n".join(tables).encode()).hexdigest()
    return Source("schema", "tables", "accuracy_db/schema", 0, 0, digest)


def load_texts_of(con, split_files: SplitFiles, digests: Digests | None = None) -> None:
    """The texts and tokens of a split, checked against token_lookup.yaml when present. With digests, the digests of
    the files read are recorded there."""
    # each batch read and generated while the ones before are numbered and inserted; closed, the thread ends here
    with closing(pipeline.ahead(map(texts.generated, texts.text_batches(split_files.texts_dir, digests)))) as batches:
        texts.load_generated_batches(con, split_files.split, batches)
    if os.path.lexists(split_files.token_lookup):  # present: it must be a readable token lookup
        lookup = texts.read_token_lookup(split_files.token_lookup)
        texts.check_token_lookup(con, split_files.token_lookup, split_files.split, lookup)


def load_lists_of(con, split_files: SplitFiles) -> list[str]:
    """The gold list and the curation exports (when present) of a split whose texts are loaded; return the
    warnings."""
    gold = mistake_lists.load_mistake_list(con, split_files.gold, "gold", "gold", split_files.split)
    warnings = [str(warning) for warning in gold.warnings]
    return warnings + curation.load_curation(con, split_files.curation_dir, split_files.split)


@contextmanager
def games_loading(con, split_files: list[SplitFiles], digests: Digests) -> Iterator[list[list[str]]]:
    """Load the games of every split in a thread of their own, on a cursor of their own, while the body loads the
    gold lists and the submissions; yield the list the warnings of each split's games are put in. Parsing the box
    scores is Python's work on one core, where resolving a list in DuckDB leaves the other idle part of the time;
    no list or submission reads the games. The games are waited for on leaving, and their problems raised first, as
    a build that loaded them first would have: a failure of the body is raised when the games have none. An
    interrupt (Ctrl+C, SIGTERM) is raised at once: the games stop at their next block of box scores, or before they
    are inserted, and are waited for only that long. (The games free their records before inserting their rows,
    which keeps a build at scale 1000 under 4 GB beside a submission's resolving; beside the texts, they wait on
    each other for Python's lock.)"""
    warnings: list[list[str]] = []
    cursor = con.cursor()
    stop = threading.Event()
    claimed: games.Claims = {}  # where each text was given its game, across the splits
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="games") as pool:
        loading = pool.submit(
            lambda: [warnings.append(games.load_games(cursor, files, digests, stop, claimed)) for files in split_files]
        )
        try:
            yield warnings
        except BaseException as error:
            if is_interrupt(error):
                stop.set()
                cursor.interrupt()  # the games' insert, if under way
                raise
            if loading.exception() is None:  # (waits for the games)
                raise
        finally:
            wait([loading])  # no thread outlives the build, and the cursor outlives the thread
            cursor.close()
        loading.result()  # the games' problems


def load_submissions(
    con, submissions: list[inbox.Submission], report: BuildReport, known: dict | None = None, step=lambda name: None
) -> None:
    """Load what is new of the submissions since the sources known, one after the other, each prepared on a
    connection of its own while the one before is written (see pipeline.in_order and inbox.prepare_submission)."""
    numbers = {submission.name: number for number, submission in enumerate(submissions, start=1)}

    def commit(prepared: inbox.PreparedSubmission) -> None:
        name = prepared.submission.name
        step(f"Loading {name} ({numbers[name]}/{len(submissions)})")
        warnings = inbox.commit_submission(con, prepared)
        if warnings is not None:
            report.loaded.append(name)
            report.warnings += [str(warning) for warning in warnings]

    pipeline.in_order(
        con, submissions, lambda cursor, submission: inbox.prepare_submission(cursor, submission, known), commit
    )


def load_waiting_submissions(con, submissions: dict[str, inbox.Submission], report: BuildReport) -> None:
    """Load again the submissions refused because an imported metric held their name (inbox.waiting), after the
    scores folder is loaded: those whose name is free now load, and count as changed."""
    retried = [submissions[name] for name in inbox.waiting(con) if name in submissions]
    load_submissions(con, retried, report)  # no known sources: read whole again, as a new submission is
    counted = report.added + report.changed  # (a submission new or changed in this refresh may wait too)
    report.changed += [s.name for s in retried if s.name in report.loaded and s.name not in counted]
    report.unchanged = [name for name in report.unchanged if name not in report.changed]
    count_refusals(report, inbox.refusals(con))


def count_refusals(report: BuildReport, refusals: tuple[dict, dict]) -> None:
    """Every refused file of the database (inbox.refusals) is counted as refused in every run, never as
    unchanged: a submission whose CSV is refused moves from added, changed or unchanged to refused."""
    report.refused, report.refused_sidecars = refusals
    report.loaded = [name for name in report.loaded if name not in report.refused]
    report.added = [name for name in report.added if name not in report.refused]
    report.changed = [name for name in report.changed if name not in report.refused]
    report.unchanged = [name for name in report.unchanged if name not in report.refused]


def score(con, names: list[str], set_ids: list[int] = ()) -> None:
    """Compute the matching (the incremental models of queries/) of the named submissions of the submissions
    folder, and of the lists of set_ids (new lists) with the submissions scored against them."""
    ids = con.execute(
        "SELECT submission_id FROM evaluations WHERE corpus = 'shared-task' AND submission = ANY($names)"
        " OR submission_id = ANY($ids) OR gold_id = ANY($ids) ORDER BY submission_id",
        {"names": names, "ids": list(set_ids)},
    ).fetchall()
    database.materialize(con, [set_id for (set_id,) in ids])


def new_lists(con, after: int) -> list[int]:
    """The lists loaded since the largest set_id was after."""
    return [
        set_id for (set_id,) in con.execute("SELECT set_id FROM annotation_sets WHERE set_id > ?", [after]).fetchall()
    ]


def last_list(con) -> int:
    return con.execute("SELECT coalesce(max(set_id), 0) FROM annotation_sets").fetchall()[0][0]


def load_corpora(
    con, report: BuildReport, registrations, corpora: list[str], known=None, step=lambda name: None
) -> list[int]:
    """Load the named corpora from their registered folders, count them, the refusals and the warnings of what they
    left out in the report, and return the ids of the lists loaded."""
    before = last_list(con)
    report.warnings += corpus_folders.load_corpora(con, registrations, corpora, known, step)
    report.corpora_loaded = list(corpora)
    report.corpora_unchanged = [c for c in dict.fromkeys(r.corpus for r in registrations) if c not in corpora]
    count_corpus_refusals(con, report)
    return new_lists(con, before)


def load_scores(
    con, report: BuildReport, found: dict[str, score_folder.ScoresSource], names: list[str], step=lambda name: None
) -> None:
    """Load the named files of the scores folder (after the texts and the submissions, whose names they may not
    take), and again those refused for a name taken before (score_folder.waiting), and count the refusals."""
    retried = [name for name in score_folder.waiting(con) if name in found and name not in names]
    report.scores_changed += retried
    report.scores_unchanged = [name for name in report.scores_unchanged if name not in retried]
    names = names + retried
    for number, name in enumerate(names, start=1):
        step(f"Loading the scores of {name} ({number}/{len(names)})")
        score_folder.load(con, found[name])
    report.scores_refused = score_folder.refusals(con)


def count_corpus_refusals(con, report: BuildReport) -> None:
    report.corpus_refusals = corpus_folders.refusals(con)
    report.adjusted_spans, report.refused_spans = corpus_folders.audit_counts(con)


def finish(con: duckdb.DuckDBPyConnection, report: BuildReport, started: float) -> None:
    """Count what is loaded, record the publication and write everything to the file."""
    report.texts = dict(
        con.execute(
            "SELECT split, count(*) FROM texts WHERE corpus = 'shared-task' GROUP BY split ORDER BY split"
        ).fetchall()
    )
    report.gold = dict(
        con.execute(
            "SELECT gold.split, count(*) FROM gold_mistakes AS gold JOIN annotation_sets AS lists"
            " ON lists.set_id = gold.gold_id WHERE lists.corpus = 'shared-task' GROUP BY gold.split ORDER BY gold.split"
        ).fetchall()
    )
    report.seconds = time.perf_counter() - started
    con.execute(
        "INSERT INTO publications VALUES (current_localtimestamp(), ?, ?, ?, ?, ?, ?, ?)",
        [
            report.command,
            len(report.added),
            len(report.changed),
            len(report.unchanged),
            len(report.retired),
            len(report.refused),
            report.seconds,
        ],
    )
    record(con, [Source("version", "definitions", "accuracy_db", 0, 0, database.definitions_digest())])
    con.execute("CHECKPOINT")
    report.published = True


def build_into(
    work: Path,
    data_dir: Path,
    submissions_dir: Path | None,
    report: BuildReport,
    step,
    registrations=(),
    scores_dir: Path | None = None,
    check: bool = True,
) -> None:
    """Create a whole database in a work file, with the corpora of the registered folders, and (check) the box-score
    checker's list."""
    started = time.perf_counter()
    split_files = splits(data_dir)
    if not split_files:
        raise AccuracyDbError(f"{data_dir}: no texts/ folder: not a shared-task data folder")
    texts.check_one_split_a_text({files.split: files.texts_dir for files in split_files})
    con = database.open_new(work)
    digests: Digests = {}  # the files hashed as they were read, not read again to be fingerprinted
    try:
        for files in split_files:
            step(f"Loading the texts of the {files.split} split")
            load_texts_of(con, files, digests)
        submissions = inbox.scan(submissions_dir) if submissions_dir is not None else {}
        report.added = list(submissions)
        with games_loading(con, split_files, digests) as games_warnings:
            lists_warnings = []
            for files in split_files:
                step(f"Loading the gold list of the {files.split} split")
                lists_warnings.append(load_lists_of(con, files))
            if os.path.lexists(data_dir.parent / "nlg_systems.csv"):  # the data folder's file wins over the package's
                nlg_systems.load_nlg_systems(con, data_dir.parent / "nlg_systems.csv")
            else:
                nlg_systems.load_packaged_nlg_systems(con)
            load_submissions(con, list(submissions.values()), report, step=step)
        # each split's games' warnings, then its lists': the order of a load one after another
        report.warnings[:0] = [w for split in zip(games_warnings, lists_warnings) for part in split for w in part]
        record(con, [schema_source(), *data_sources(data_dir, digests=digests).values()])
        count_refusals(report, inbox.refusals(con))
        if check:  # before the registered corpora: their lists follow, as an import after the build adds them
            step("Checking the texts against their box scores")
            put_in_checker_list(con, report)
        corpora = list(dict.fromkeys(registration.corpus for registration in registrations))
        load_corpora(con, report, list(registrations), corpora, step=step)
        step("Computing the built-in metrics")
        builtin_metrics.compute(con)
        found = score_folder.scan(scores_dir) if scores_dir is not None else {}
        report.scores_added = list(found)
        load_scores(con, report, found, list(found), step)
        step("Scoring")
        database.materialize(con)  # every submission at once
        finish(con, report, started)
    finally:
        con.close()


def put_in_checker_list(con, report: BuildReport) -> None:
    """The box-score checker's list, named boxscore, unless a submission's file takes the name (a warning)."""
    if checker.is_checker_list(con, checker.NAME) is False:
        report.warnings.append(
            f"a submission is named {checker.NAME}: the box-score checker's list is left out"
            " (accuracy-db check --as NAME puts it in under another name)"
        )
        return
    checker.put_in(con)


def check_folder(submissions_dir: Path | None, what: str = "submissions") -> None:
    if submissions_dir is not None and not submissions_dir.is_dir():
        raise AccuracyDbError(f"{submissions_dir}: no such folder of {what}")


def build(
    data_dir: Path,
    db_path: Path,
    submissions_dir: Path | None = None,
    step=lambda name: None,
    corpus_dirs=(),
    scores_dir: Path | None = None,
    check: bool = True,
) -> BuildReport:
    """Create the database at db_path anew, and publish it: a failed build leaves the previous one as it was. The
    folders registered with the database it replaces are loaded again, and the corpus folders given registered.
    check: with the box-score checker's list (accuracy_db/ingest/checker.py)."""
    check_folder(submissions_dir)
    check_folder(scores_dir, "scores")
    report = BuildReport(db_path)
    with writer_lock(db_path):
        registrations = corpus_folders.combined(corpus_folders.published_registrations(db_path), corpus_dirs)
        with publishing(db_path, start_from_published=False) as work:
            build_into(work, data_dir, submissions_dir, report, step, registrations, scores_dir, check)
    return report
