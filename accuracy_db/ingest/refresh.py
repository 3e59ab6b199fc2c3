"""Refresh: bring the published database up to date with the submissions folder, loading only what changed.

A submission is new, changed (its CSV or its sidecar has other bytes, or is read from another path), unchanged, or
retired (its file is gone); only what changed of it is read again (a changed sidecar alone is not scored again). A
submission whose CSV is refused is counted as refused on every run. A corpus of registered folders
(corpus_folders.py) is loaded again when a file of its folders was added, changed or removed. When the data folder
or the table DDL changed, everything is rebuilt, since every score may move, the registered folders included. The
new state is written to a copy of the published file and renamed over it (see publish.py).
"""

from __future__ import annotations

import time
from pathlib import Path

import duckdb

from accuracy_db.ingest import builtin_metrics, corpus_folders, inbox, score_folder
from accuracy_db.ingest.build import (
    BuildReport,
    build_into,
    check_folder,
    count_corpus_refusals,
    count_refusals,
    finish,
    load_corpora,
    load_scores,
    load_submissions,
    load_waiting_submissions,
    schema_source,
    score,
)
from accuracy_db.ingest.sources import data_sources, recorded
from accuracy_db.store import database
from accuracy_db.store.publish import publishing, writer_lock


def fingerprints(sources: dict, roles: tuple[str, ...]) -> dict:
    return {key: source.sha256 for key, source in sources.items() if key[0] in roles}


def refresh(
    db_path: Path,
    data_dir: Path,
    submissions_dir: Path,
    step=lambda name: None,
    corpus_dirs=(),
    scores_dir: Path | None = None,
) -> BuildReport:
    """Load what is new or changed in the submissions folder, in the scores folder (when given: without it, the
    metrics of its files are kept as they are) and in the registered folders (with the corpus folders given,
    registered if new), retire what was deleted, and publish."""
    started = time.perf_counter()
    check_folder(submissions_dir)
    check_folder(scores_dir, "scores")
    report = BuildReport(db_path, command="refresh")
    with writer_lock(db_path):
        known, published_refusals, registered_before, published_score_refusals = {}, ({}, {}), [], {}
        if db_path.is_file():
            con = database.open_existing(db_path, same_version=False)
            try:
                known = recorded(con)
                published_refusals = inbox.refusals(con)
                registered_before = corpus_folders.registered(con)
                count_corpus_refusals(con, report)
                published_score_refusals = score_folder.refusals(con)
            except duckdb.Error:  # a database of a version before corpus_folders: rebuilt below
                pass
            finally:
                con.close()
        registrations = corpus_folders.combined(registered_before, corpus_dirs)
        schema = schema_source()
        now = {schema.key: schema, **data_sources(data_dir, known)}
        if fingerprints(now, ("schema", "data")) != fingerprints(known, ("schema", "data")):
            with publishing(db_path, start_from_published=False) as work:
                build_into(work, data_dir, submissions_dir, report, step, registrations, scores_dir)
            return report

        submissions = inbox.scan(submissions_dir, known)
        before = {name for role, _, name in known if role == "submission"}
        for name, submission in submissions.items():
            if name not in before:
                report.added.append(name)
            elif inbox.current_state(submission) != inbox.recorded_state(known, name):
                report.changed.append(name)
            else:
                report.unchanged.append(name)
        report.retired = sorted(before - submissions.keys())
        found = score_folder.scan(scores_dir, known) if scores_dir is not None else {}
        if scores_dir is not None:
            report.scores_added, report.scores_changed, report.scores_unchanged, report.scores_retired = (
                score_folder.changes(found, known)
            )
        scores_changed = report.scores_added or report.scores_changed or report.scores_retired
        views_current = known.get(("version", "", "definitions"), (None,) * 6)[5] == database.definitions_digest()
        corpora = corpus_folders.changed_corpora(registrations, registered_before, known)
        if not (report.added or report.changed or report.retired or corpora or scores_changed or not views_current):
            count_refusals(report, published_refusals)
            report.scores_refused = published_score_refusals
            report.corpora_unchanged = list(dict.fromkeys(r.corpus for r in registrations))
            report.seconds = time.perf_counter() - started
            return report

        with publishing(db_path, start_from_published=True) as work:
            con = database.connect_writable(work)
            try:
                if not views_current:  # the views of this version of the package (about a second to make)
                    database.create_views(con)
                for name in report.retired:
                    inbox.remove_submission(con, name)
                changed = [submissions[name] for name in report.added + report.changed]
                load_submissions(con, changed, report, known, step)
                count_refusals(report, inbox.refusals(con))
                loaded = load_corpora(con, report, registrations, corpora, known, step)
                if corpora:  # their texts were loaded again
                    builtin_metrics.compute(con, corpora)
                for name in report.scores_retired:
                    score_folder.retire(con, name)
                load_scores(con, report, found, report.scores_added + report.scores_changed, step)
                load_waiting_submissions(con, submissions, report)
                step("Scoring")
                score(con, report.loaded, loaded)
                finish(con, report, started)
            finally:
                con.close()
    return report
