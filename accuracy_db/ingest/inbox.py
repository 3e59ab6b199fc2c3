"""The submissions folder: one CSV file a submission, named by its stem, with an optional metadata sidecar.

Every entry named like a submission or a sidecar is a source, whatever it is; only regular files (after following
links) are read, and any other entry (a directory, a FIFO, a device, a dangling link, a file it may not read) is
refused with the reason when it is loaded. A submission's CSV and its sidecar are loaded or refused each on its
own: a refused sidecar leaves the submission scored, with the metadata it had. A submission whose name (its file's
stem) breaks the rule of names (accuracy_db/names.py) is refused, its sidecar unread.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from stat import S_ISREG

import duckdb
import polars as pl

from accuracy_db.errors import InputError, NameTaken, Problem
from accuracy_db.etl import mistake_lists
from accuracy_db.etl.frames import insert_rows
from accuracy_db.etl.sidecars import SIDECAR_SUFFIXES, read_sidecar
from accuracy_db.ingest.sources import Source, fingerprint, record
from accuracy_db.names import name_problem
from accuracy_db.printable import is_utf8, utf8_text
from accuracy_db.store import database

REJECTION_COLUMNS = ("submission", "sha256", "file", "line", "message")


@dataclass(frozen=True)
class Submission:
    """A submission file of the folder, its optional sidecar, and their fingerprints."""

    name: str
    csv: Source
    sidecar: Source | None

    def sources(self) -> list[Source]:
        return [self.csv] + ([self.sidecar] if self.sidecar else [])


def scan(folder: Path, known: dict | None = None) -> dict[str, Submission]:
    """The submissions of a folder by name; a file whose size and time are unchanged is not hashed again. A file
    whose name is not UTF-8 is a submission named with its bytes as escapes (unless a file is named so already: that
    one is the submission), which regular_files refuses to read."""
    found = {}
    with os.scandir(folder) as entries:
        csv_names = [entry.name for entry in entries if entry.name.endswith(".csv")]
    for csv_name in sorted(csv_names, key=lambda name: (not is_utf8(name), name)):  # UTF-8 names first
        csv_path = folder / csv_name
        name = utf8_text(csv_path.stem)
        if name in found:
            continue
        if not is_utf8(csv_path.stem):
            found[name] = Submission(name, entry_source("submission", name, csv_path, known), None)
            continue
        sidecars = [csv_path.with_suffix(suffix) for suffix in SIDECAR_SUFFIXES]
        sidecar = next((path for path in sidecars if os.path.lexists(path)), None)
        found[name] = Submission(
            name,
            entry_source("submission", name, csv_path, known),
            entry_source("metadata", name, sidecar, known) if sidecar else None,
        )
    return found


def entry_source(role: str, name: str, path: Path, known: dict | None, corpus: str = "") -> Source:
    """The fingerprint of a folder entry; an entry that is not a readable regular file has no bytes to hash, and
    is given the empty hash (it is refused when loaded, and counted as changed when it becomes a file)."""
    try:
        stat = os.stat(path)
        if S_ISREG(stat.st_mode):
            return fingerprint(role, name, path, known, stat, corpus=corpus)
    except (OSError, InputError):
        pass
    return Source(role, name, str(path), 0, 0, "", corpus)


def current_state(submission: Submission) -> dict[tuple[str, str, str], tuple[str, str]]:
    """The submission's files (its CSV, its sidecar if any) by key: their SHA-256 and path."""
    return {source.key: (source.sha256, source.path) for source in submission.sources()}


def recorded_state(known: dict, name: str) -> dict[tuple[str, str, str], tuple[str, str]]:
    """The files of the submission `name` as the database recorded them, as current_state gives them: a file is
    changed when its bytes are, or when it was moved (its refusal then names the file where it is now)."""
    keys = (("submission", "", name), ("metadata", "", name))
    return {key: (known[key].sha256, known[key].path) for key in keys if key in known}


@dataclass
class PreparedSubmission:
    """What loading a submission will write: its CSV, when new or changed, prepared (read, checked and resolved on
    a connection of its own) or refused with its problems; and whether its sidecar is to be read again."""

    submission: Submission
    csv_changed: bool
    sidecar_changed: bool
    mistakes: mistake_lists.PreparedList | None = None
    problems: list[Problem] | None = None  # those of a refused CSV


def prepare_submission(
    con: duckdb.DuckDBPyConnection, submission: Submission, known: dict | None = None
) -> PreparedSubmission:
    """Prepare what is new of a submission since the sources known, writing nothing to the database's tables (its
    mistakes are resolved into a temporary table of con): commit_submission writes it."""
    before, now = recorded_state(known or {}, submission.name), current_state(submission)
    metadata = ("metadata", "", submission.name)
    prepared = PreparedSubmission(
        submission,
        csv_changed=before.get(submission.csv.key) != now[submission.csv.key],
        sidecar_changed=submission.csv.key not in before or before.get(metadata) != now.get(metadata),
    )
    if wrong := name_problem(submission.name, "list"):  # the CSV refused, and the sidecar left unread
        prepared.sidecar_changed = False
        prepared.problems = [Problem(submission.csv.path, None, f"{wrong}: rename the file")]
    elif prepared.csv_changed:
        try:
            path = Path(submission.csv.path)
            prepared.mistakes = mistake_lists.prepare_mistake_list(con, path, "submission", submission.name)
        except InputError as error:
            prepared.problems = error.problems
    return prepared


def commit_submission(con: duckdb.DuckDBPyConnection, prepared: PreparedSubmission) -> list[Problem] | None:
    """Write a prepared submission (None: nothing of it is loaded): its CSV and its sidecar, each loaded, or refused
    with its problems recorded in rejections, in place of what their earlier versions left (a CSV whose name an
    imported metric holds is refused, and the metric kept: see waiting). When its CSV was loaded, the warnings of
    its loading; else None."""
    submission = prepared.submission
    csv_loaded = None
    if prepared.csv_changed:
        forget_csv(con, submission.name)
        if prepared.mistakes is not None:
            try:
                csv_loaded = mistake_lists.insert_prepared_list(prepared.mistakes).warnings
            except NameTaken as taken:
                reject(con, submission.name, submission.csv.sha256, taken.problems, name_taken=True)
        else:
            reject(con, submission.name, submission.csv.sha256, prepared.problems)
    if prepared.sidecar_changed:
        load_sidecar(con, submission)
    record(con, submission.sources())
    return csv_loaded


def load_sidecar(con: duckdb.DuckDBPyConnection, submission: Submission) -> None:
    """Store what the sidecar says, in place of what an earlier one said; a refused sidecar leaves the metadata
    as it was. Without a sidecar, the submission has no metadata."""
    con.execute(
        "DELETE FROM rejections WHERE submission = $name AND NOT suffix(file, '.csv')", {"name": submission.name}
    )
    if submission.sidecar is None:
        for statement in (
            "DELETE FROM submission_metadata WHERE submission = $name AND corpus = 'shared-task'",
            "DELETE FROM source_files WHERE role = 'metadata' AND name = $name",
        ):
            con.execute(statement, {"name": submission.name})
        return
    try:
        metadata = read_sidecar(Path(submission.sidecar.path))
    except InputError as error:
        reject(con, submission.name, submission.sidecar.sha256, error.problems)
        return
    con.execute(
        "INSERT OR REPLACE INTO submission_metadata (submission, team, system, approach, description, url, sha256)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        [submission.name, *metadata.values(), submission.sidecar.sha256],
    )


def reject(
    con: duckdb.DuckDBPyConnection, name: str, sha256: str, problems: list[Problem], name_taken: bool = False
) -> None:
    """Record the problems of a refused file, in one statement (a file may have a thousand)."""
    insert_rows(
        con,
        "rejections",
        [(name, sha256, problem.file, problem.line, problem.message, name_taken) for problem in problems],
        {
            "submission": pl.String,
            "sha256": pl.String,
            "file": pl.String,
            "line": pl.Int32,
            "message": pl.String,
            "name_taken": pl.Boolean,
        },
    )


def waiting(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The submissions whose CSV was refused because an imported metric held their name, and whose name no imported
    metric of the shared task holds now: a refresh loads them again once it has loaded the scores folder."""
    rows = con.execute(
        "SELECT DISTINCT submission FROM rejections WHERE name_taken AND submission NOT IN"
        " (SELECT metric FROM metrics WHERE kind = 'import' AND corpus = 'shared-task') ORDER BY submission"
    ).fetchall()
    return [name for (name,) in rows]


def refusals(con: duckdb.DuckDBPyConnection) -> tuple[dict[str, list[Problem]], dict[str, list[Problem]]]:
    """The problems of the refused files, by submission: those of CSV files (nothing of the submission is
    scored), and those of sidecars (the submission keeps the metadata it had, if any)."""
    csv_files: dict[str, list[Problem]] = {}
    sidecars: dict[str, list[Problem]] = {}
    rows = con.execute(
        "SELECT submission, file, line, message, suffix(file, '.csv') FROM rejections"
        " ORDER BY submission, file, line NULLS FIRST, message"
    ).fetchall()
    for name, file, line, message, is_csv in rows:
        (csv_files if is_csv else sidecars).setdefault(name, []).append(Problem(file, line, message))
    return csv_files, sidecars


def forget_csv(con: duckdb.DuckDBPyConnection, name: str) -> None:
    """Remove what a submission's CSV left in the database: its mistakes and their matching, and its refusal."""
    ids = con.execute(
        "SELECT set_id FROM annotation_sets WHERE kind = 'submission' AND name = $name AND corpus = 'shared-task'",
        {"name": name},
    )
    set_ids = [set_id for (set_id,) in ids.fetchall()]
    if set_ids:  # else nothing of it was loaded (a new list, as every list of a build)
        database.forget(con, set_ids)
        con.execute("DELETE FROM mistakes WHERE set_id = ANY($ids)", {"ids": set_ids})
        con.execute("DELETE FROM annotation_sets WHERE set_id = ANY($ids)", {"ids": set_ids})
    con.execute("DELETE FROM rejections WHERE submission = $name AND suffix(file, '.csv')", {"name": name})


def remove_submission(con: duckdb.DuckDBPyConnection, name: str) -> None:
    """Remove everything a submission left in the database: its mistakes and their matching, refusals,
    metadata and sources."""
    forget_csv(con, name)
    for statement in (
        "DELETE FROM rejections WHERE submission = $name",
        "DELETE FROM submission_metadata WHERE submission = $name AND corpus = 'shared-task'",
        "DELETE FROM source_files WHERE role IN ('submission', 'metadata') AND name = $name",
    ):
        con.execute(statement, {"name": name})
