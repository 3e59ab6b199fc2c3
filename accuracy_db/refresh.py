"""Refresh: bring the published database up to date with the submissions folder, loading only what changed.

A submission is new, changed (its CSV or its sidecar has other bytes), unchanged, or retired (its file is
gone); only what changed of it is read again (a changed sidecar alone is not scored again). A submission whose CSV
is refused is counted as refused on every run. When the data folder or the table DDL changed, everything is
rebuilt, since every score may move. The new state is written to a copy of the published file and renamed
over it (see publish.py).
"""

from __future__ import annotations

import time
from pathlib import Path

from . import database, inbox
from .build import (
    BuildReport,
    build_into,
    check_folder,
    count_refusals,
    finish,
    load_submissions,
    schema_source,
    score,
)
from .publish import publishing, writer_lock
from .sources import data_sources, recorded


def fingerprints(sources: dict, roles: tuple[str, ...]) -> dict:
    return {key: source.sha256 for key, source in sources.items() if key[0] in roles}


def refresh(db_path: Path, data_dir: Path, submissions_dir: Path, step=lambda name: None) -> BuildReport:
    """Load what is new or changed in the submissions folder, retire what was deleted, and publish."""
    started = time.perf_counter()
    check_folder(submissions_dir)
    report = BuildReport(db_path, command="refresh")
    with writer_lock(db_path):
        known, published_refusals = {}, ({}, {})
        if db_path.is_file():
            con = database.open_existing(db_path, same_version=False)
            try:
                known = recorded(con)
                published_refusals = inbox.refusals(con)
            finally:
                con.close()
        schema = schema_source()
        now = {schema.key: schema, **data_sources(data_dir, known)}
        if fingerprints(now, ("schema", "data")) != fingerprints(known, ("schema", "data")):
            with publishing(db_path, start_from_published=False) as work:
                build_into(work, data_dir, submissions_dir, report, step)
            return report

        submissions = inbox.scan(submissions_dir, known)
        before = {name for role, name in known if role == "submission"}
        for name, submission in submissions.items():
            if name not in before:
                report.added.append(name)
            elif fingerprints({s.key: s for s in submission.sources()}, ("submission", "metadata")) != {
                key: known[key].sha256 for key in (("submission", name), ("metadata", name)) if key in known
            }:
                report.changed.append(name)
            else:
                report.unchanged.append(name)
        report.retired = sorted(before - submissions.keys())
        views_current = known.get(("version", "definitions"), (None,) * 6)[5] == database.definitions_digest()
        if not (report.added or report.changed or report.retired or not views_current):
            count_refusals(report, published_refusals)
            report.seconds = time.perf_counter() - started
            return report

        with publishing(db_path, start_from_published=True) as work:
            con = database.connect_writable(work)
            try:
                database.create_views(con)  # the views of this version of the package
                for name in report.retired:
                    inbox.remove_submission(con, name)
                changed = [submissions[name] for name in report.added + report.changed]
                load_submissions(con, changed, report, known, step)
                count_refusals(report, inbox.refusals(con))
                step("Scoring")
                score(con, report.loaded)
                finish(con, report, started)
            finally:
                con.close()
    return report
