"""The folders registered with a database (corpus folders and factgenie campaigns) and the Mu-SHROOM files: build
loads them again, and refresh reloads a corpus when a file of one of its folders was added, changed or removed.

A corpus is the unit: its state is what its registered folders give, loaded in the order they were registered
(a factgenie campaign of submissions after the campaign that gave the gold list, say). So a corpus whose folders
changed is removed and loaded again from them, and its lists scored again; the other corpora are not touched.
Every file of a registered folder is a source (source_files, role folder, keyed by its corpus and its path: two
columns, so that no corpus's name is taken for the start of another's): a refresh compares their fingerprints,
reusing the recorded hash of a file whose size and time are unchanged, so that a refresh that finds nothing changed
reads no file.

A Mu-SHROOM prediction file only adds a submission to a corpus that its gold file made: when it is the only source
of its corpus that changed, refresh removes its lists and loads it alone, and the rest of the corpus stays as it is.

A refused file (a list, a sidecar; texts.jsonl, categories.yaml or a campaign, which refuse the folder) loads
nothing of itself and never keeps the rest from loading: its problems go to corpus_rejections, and it counts as
refused on every run until its folder changes.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

import duckdb
import polars as pl

from accuracy_db.errors import AccuracyDbError, InputError, Problem, SpanProblem
from accuracy_db.etl import corpus_files, factgenie, mqm_files, mushroom_files
from accuracy_db.etl.frames import insert_rows
from accuracy_db.ingest.inbox import entry_source
from accuracy_db.ingest.sources import Source, record
from accuracy_db.names import name_problem
from accuracy_db.printable import utf8_text
from accuracy_db.store import database

SHARED_TASK = "shared-task"
SINGLE_FILES = ("mushroom", "mqm")  # formats registered by their file, which is all their loader reads
# What each format's loader reads: the files named, and the files of a subfolder with the suffixes given (a
# mushroom registration names its file, which is all it reads).
FILES = {
    "corpus": (("texts.jsonl", "categories.yaml"), "lists", (".jsonl", ".csv", ".json", ".yaml", ".yml")),
    "factgenie": (("metadata.json",), "files", (".jsonl",)),
}


@dataclass(frozen=True)
class Registration:
    """A folder (or a Mu-SHROOM file) registered with the database: where, in which format, into which corpus, (for a
    factgenie campaign or a Mu-SHROOM file) whether its lists are gold lists or submissions, and (for a Mu-SHROOM
    prediction file) its submission's name."""

    folder: str
    format: str
    corpus: str
    kind: str | None = None
    name: str | None = None
    humans: str | None = None  # an MQM gold file's human references (import mqm --human), as a JSON list


def corpus_folder(folder: Path) -> Registration:
    """The registration of a corpus folder given to build or refresh: its corpus is named after the folder."""
    absolute = Path(os.path.abspath(folder))
    return Registration(str(absolute), "corpus", absolute.name)


def registered(con: duckdb.DuckDBPyConnection) -> list[Registration]:
    """The registrations in order, by their columns' names: a database of a version before a column was added
    still gives its own (a build keeps them)."""
    cursor = con.execute("SELECT * FROM corpus_folders ORDER BY position")
    columns = [column for column, *_ in cursor.description]
    return [
        Registration(**{column: value for column, value in zip(columns, row, strict=True) if column != "position"})
        for row in cursor.fetchall()
    ]


def published_registrations(db_path: Path) -> list[Registration]:
    """The folders registered with the published database, so that a build keeps its corpora; none when there is
    no readable database there (a build also starts over from a broken or older file)."""
    if not db_path.is_file():
        return []
    try:
        con = database.connect(str(db_path), read_only=True)
    except duckdb.Error:
        return []
    try:
        return registered(con)
    except duckdb.Error:
        return []
    finally:
        con.close()


def combined(registrations: list[Registration], corpus_dirs) -> list[Registration]:
    """The registrations followed by those of the corpus folders given that are not registered yet; an error when
    two of the corpus folders would be one corpus."""
    result = list(registrations)
    for folder in corpus_dirs:
        if not Path(folder).is_dir():
            raise AccuracyDbError(f"{folder}: no such corpus folder")
        registration = corpus_folder(folder)
        if wrong := name_problem(registration.corpus, "corpus"):
            raise AccuracyDbError(f"{folder}: {wrong} (a corpus folder's name is its corpus's): rename the folder")
        if any(r.folder == registration.folder and r.corpus == registration.corpus for r in result):
            continue
        clash = next((r for r in result if r.format == "corpus" and r.corpus == registration.corpus), None)
        if clash is not None:
            raise AccuracyDbError(
                f"{folder}: corpus {registration.corpus} is loaded from {clash.folder} already: rename the folder"
            )
        result.append(registration)
    return result


def register(con: duckdb.DuckDBPyConnection, registration: Registration) -> None:
    """Add a registration (after the others) unless it is there."""
    con.execute(
        "INSERT INTO corpus_folders SELECT (SELECT coalesce(max(position), 0) + 1 FROM corpus_folders),"
        " $folder, $format, $corpus, $kind, $name, $humans WHERE NOT EXISTS (SELECT 1 FROM corpus_folders"
        " WHERE folder = $folder AND corpus = $corpus AND name IS NOT DISTINCT FROM $name)",
        asdict(registration),
    )


def folder_files(registration: Registration) -> list[Path]:
    """Every entry of a registered folder its loader reads (one directory listing); a registered file itself."""
    folder = Path(registration.folder)
    if registration.format in SINGLE_FILES:
        return [folder] if os.path.lexists(folder) else []
    required, subfolder, suffixes = FILES[registration.format]
    paths = [folder / name for name in required if os.path.lexists(folder / name)]
    try:
        with os.scandir(folder / subfolder) as entries:
            paths += sorted(Path(entry.path) for entry in entries if entry.name.endswith(suffixes))
    except OSError:  # no such folder (yet, or any more): the loader says so
        pass
    return paths


def folder_sources(registration: Registration, known: dict | None = None) -> list[Source]:
    """The fingerprint of every file of a registered folder its loader reads (an entry that is no readable file
    has the empty hash, and is refused when loaded)."""
    return [
        entry_source("folder", utf8_text(str(path)), path, known, registration.corpus)
        for path in folder_files(registration)
    ]


def corpus_sources(registrations: list[Registration], known: dict | None = None) -> dict[str, dict]:
    """The sources of each corpus's registered folders: corpus -> {key: Source}."""
    sources: dict[str, dict] = {}
    for registration in registrations:
        found = sources.setdefault(registration.corpus, {})
        found |= {source.key: source for source in folder_sources(registration, known)}
    return sources


def recorded_sources(known: dict, corpus: str) -> dict:
    return {key: source for key, source in known.items() if key[:2] == ("folder", corpus)}


def changed_corpora(registrations: list[Registration], before: list[Registration], known: dict) -> list[str]:
    """The corpora to load again: those with a folder registered since, or a file added, changed or removed."""
    now = corpus_sources(registrations, known)
    return [
        corpus
        for corpus, sources in now.items()
        if {k: s.sha256 for k, s in sources.items()}
        != {k: s.sha256 for k, s in recorded_sources(known, corpus).items()}
        or [r for r in registrations if r.corpus == corpus] != [r for r in before if r.corpus == corpus]
    ]


def loads_alone(registration: Registration) -> bool:
    """Whether a registration only adds lists of its own to a corpus another registration makes (a Mu-SHROOM
    prediction file), so that it can be loaded again alone."""
    return registration.format in SINGLE_FILES and registration.kind == "submission"


def changed_alone(own: list[Registration], known: dict | None) -> list[Registration] | None:
    """Of a corpus's registrations, those to load again alone: the files that load alone whose fingerprints differ
    from the recorded ones, when no other source of the corpus changed; None when the corpus is to be loaded whole
    (a build, or a file of another registration added, changed or removed)."""
    if known is None:
        return None
    now = {key: source.sha256 for key, source in corpus_sources(own, known).get(own[0].corpus, {}).items()}
    before = {key: source.sha256 for key, source in recorded_sources(known, own[0].corpus).items()}
    differing = {key for key in now.keys() | before.keys() if now.get(key) != before.get(key)}
    alone = {("folder", r.corpus, utf8_text(r.folder)): r for r in own if loads_alone(r)}
    others = {source.key for r in own if not loads_alone(r) for source in folder_sources(r, known)}
    if not differing or differing - alone.keys() or differing & others:
        return None
    return [registration for key, registration in alone.items() if key in differing]


def load_corpora(
    con: duckdb.DuckDBPyConnection, registrations: list[Registration], corpora: list[str], known=None, step=None
) -> list[str]:
    """Register the folders and load the named corpora from their folders, after removing what they held (or, when
    only files that load alone changed, load those again, after removing their lists); return the warnings of what
    they left out (a line a file and kind)."""
    warnings = []
    for registration in registrations:
        register(con, registration)
    for corpus in corpora:
        if step:
            step(f"Loading corpus {corpus}")
        own = [r for r in registrations if r.corpus == corpus]
        alone = changed_alone(own, known)
        if alone is not None:
            for registration in alone:
                remove_lists_of(con, registration)
                sources = folder_sources(registration, known)
                warnings += load_folder(con, registration)
                record(con, sources)
            continue
        remove_corpus(con, corpus, [r.folder for r in own])
        sources = corpus_sources(own, known)[corpus]
        for registration in own:
            warnings += load_folder(con, registration)
        record(con, list(sources.values()))
    return warnings


def load_folder(con: duckdb.DuckDBPyConnection, registration: Registration) -> list[str]:
    """Load one registered folder into its corpus: what it can of it, its refused files recorded; return the
    warnings of what it left out."""
    folder = Path(registration.folder)
    try:
        if registration.format == "corpus":
            report = corpus_files.load_corpus_folder(con, folder, registration.corpus, whole=False)
        elif registration.format == "mushroom" and registration.kind == "gold":
            report = mushroom_files.load_gold(con, folder, registration.corpus)
        elif registration.format == "mushroom":
            report = mushroom_files.load_prediction(con, folder, registration.corpus, registration.name)
        elif registration.format == "mqm" and registration.kind == "gold":
            humans = None if registration.humans is None else json.loads(registration.humans)
            report = mqm_files.load_gold(con, folder, registration.corpus, humans)
        elif registration.format == "mqm":
            report = mqm_files.load_submission(con, folder, registration.corpus, registration.name)
        else:
            campaign = factgenie.read_campaign(folder)
            report = factgenie.load_campaign(con, campaign, registration.corpus, registration.kind)
    except InputError as error:
        reject(con, registration, error.problems)
        return []
    except AccuracyDbError as error:
        reject(con, registration, [Problem(registration.folder, None, str(error))])
        return []
    for problems in report.refused.values():
        reject(con, registration, problems)
    return [str(warning) for warning in report.warnings]


def reject(con: duckdb.DuckDBPyConnection, registration: Registration, problems: list[Problem]) -> None:
    insert_rows(
        con,
        "corpus_rejections",
        [
            (registration.corpus, registration.folder, p.file, p.line, isinstance(p, SpanProblem), p.message)
            for p in problems
        ],
        {
            "corpus": pl.String,
            "folder": pl.String,
            "file": pl.String,
            "line": pl.Int32,
            "span": pl.Boolean,
            "message": pl.String,
        },
    )


# The tables of a list's rows, by set_id.
LIST_TABLES = ("mistakes", "offset_adjustments", "scheme_refusals", "factgenie_lists", "factgenie_records")
LIST_TABLES += ("character_labels", "character_label_lists", "list_coverage", "mqm_ratings", "mqm_errors")
LIST_TABLES += ("annotation_sets",)


def remove_lists(con: duckdb.DuckDBPyConnection, set_ids: list[int]) -> None:
    """Remove some lists: their rows, and the matching of those that are submissions."""
    database.forget(con, set_ids)
    for table in LIST_TABLES:
        con.execute(f"DELETE FROM {table} WHERE set_id = ANY($ids)", {"ids": set_ids})


def remove_lists_of(con: duckdb.DuckDBPyConnection, registration: Registration) -> None:
    """Remove what a registration that loads alone gave (its submission's lists), its refusals and its source."""
    ids = con.execute(
        "SELECT set_id FROM annotation_sets WHERE corpus = ? AND source_file = ? AND kind = 'submission' AND name = ?",
        [registration.corpus, registration.folder, registration.name],
    ).fetchall()
    remove_lists(con, [set_id for (set_id,) in ids])
    con.execute(
        "DELETE FROM corpus_rejections WHERE corpus = ? AND folder = ?", [registration.corpus, registration.folder]
    )
    con.execute(
        "DELETE FROM source_files WHERE role = 'folder' AND corpus = ? AND name = ?",
        [registration.corpus, utf8_text(registration.folder)],
    )


def remove_corpus(con: duckdb.DuckDBPyConnection, corpus: str, folders: list[str]) -> None:
    """Remove what a corpus's registered folders gave: for the shared task, the lists loaded from them; for another
    corpus, all of it (texts, categories, lists, metadata), which those folders gave. Its refusals and sources go
    too, and the matching of its submissions."""
    if corpus == SHARED_TASK:  # a factgenie campaign's lists name the campaign's folder as their source
        ids = con.execute(
            "SELECT set_id FROM annotation_sets WHERE corpus = ? AND source_file = ANY(?)", [corpus, folders]
        ).fetchall()
    else:
        ids = con.execute("SELECT set_id FROM annotation_sets WHERE corpus = ?", [corpus]).fetchall()
    remove_lists(con, [set_id for (set_id,) in ids])
    if corpus != SHARED_TASK:
        for table in ("tokens", "text_systems"):
            con.execute(f"DELETE FROM {table} WHERE text_id IN (SELECT text_id FROM texts WHERE corpus = ?)", [corpus])
        for table in ("texts", "categories", "submission_metadata", "corpora"):
            con.execute(f"DELETE FROM {table} WHERE corpus = ?", [corpus])
    con.execute("DELETE FROM corpus_rejections WHERE corpus = ?", [corpus])
    con.execute("DELETE FROM source_files WHERE role = 'folder' AND corpus = ?", [corpus])


def refusals(con: duckdb.DuckDBPyConnection) -> dict[str, list[Problem]]:
    """The problems of the refused files of registered folders, by file."""
    refused: dict[str, list[Problem]] = {}
    rows = con.execute(
        "SELECT file, line, span, message FROM corpus_rejections ORDER BY file, line NULLS FIRST, message"
    ).fetchall()
    for file, line, span, message in rows:
        refused.setdefault(file, []).append((SpanProblem if span else Problem)(file, line, message))
    return refused


def audit_counts(con: duckdb.DuckDBPyConnection) -> tuple[dict[str, int], int]:
    """The offset audit of the database: adjusted spans by kind, and refused spans."""
    adjusted = dict(con.execute("SELECT adjustment, count(*) FROM offset_adjustments GROUP BY 1 ORDER BY 1").fetchall())
    refused = con.execute("SELECT count(*) FROM corpus_rejections WHERE span").fetchall()[0][0]
    return adjusted, refused
