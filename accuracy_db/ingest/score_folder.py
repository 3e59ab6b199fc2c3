"""The scores folder of build and refresh (--scores): each file NAME.csv or NAME.jsonl is one import of scores
(etl/score_files.py), with a sidecar NAME.json that says which way its metrics go (higher_is_better: required) and
may describe them and name their corpus.

As the submissions folder (inbox.py): every file and sidecar is fingerprinted in source_files (roles scores and
scores-metadata, named by the scores file's name); a file is loaded again only when it or its sidecar changed, and
its metrics retired when it is gone. A refused file (or sidecar) loads nothing, its earlier metrics included, and its
problem is recorded in score_rejections; the other files are loaded as they are. Names are claimed once: a file is
refused for a metric name a submission of its corpus, or another file or import scores, loaded before it (the
newcomer is refused, and nothing loaded is removed for it), and loaded again with the changed files of every refresh
that loads some, so that it loads once the name is free.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import duckdb
import polars as pl

from accuracy_db.errors import InputError, NameTaken, Problem
from accuracy_db.etl.frames import insert_rows
from accuracy_db.etl.score_files import (
    ScoreFile,
    forget_folder_file,
    load_score_file,
    read_score_sidecar,
)
from accuracy_db.ingest.inbox import entry_source
from accuracy_db.ingest.sources import Source, record
from accuracy_db.printable import utf8_text

SCORE_SUFFIXES = (".csv", ".jsonl")
ROLES = ("scores", "scores-metadata")


@dataclass(frozen=True)
class ScoresSource:
    """A file of the scores folder, its optional sidecar, and their fingerprints."""

    name: str  # the file's name in the folder, e.g. bleurt.csv
    file: Source
    sidecar: Source | None

    def fingerprints(self) -> dict:
        return {source.key: source.sha256 for source in (self.file, self.sidecar) if source}


def scan(folder: Path, known: dict | None = None) -> dict[str, ScoresSource]:
    """The scores files of a folder by name, sorted; a file whose size and time are unchanged is not hashed again."""
    with os.scandir(folder) as entries:
        names = sorted(utf8_text(entry.name) for entry in entries if entry.name.endswith(SCORE_SUFFIXES))
    found = {}
    for name in names:
        path = folder / name
        sidecar = path.with_suffix(".json")
        found[name] = ScoresSource(
            name,
            entry_source("scores", name, path, known),
            entry_source("scores-metadata", name, sidecar, known) if os.path.lexists(sidecar) else None,
        )
    return found


def changes(found: dict[str, ScoresSource], known: dict) -> tuple[list[str], list[str], list[str], list[str]]:
    """The names of the files added, changed (the file or its sidecar), unchanged and retired since known."""
    before = {name for role, _, name in known if role == "scores"}
    added = [name for name in found if name not in before]

    def recorded(name: str) -> dict:
        return {(role, "", name): known[role, "", name].sha256 for role in ROLES if (role, "", name) in known}

    changed = [name for name in found if name in before and found[name].fingerprints() != recorded(name)]
    unchanged = [name for name in found if name in before and name not in changed]
    return added, changed, unchanged, sorted(before - found.keys())


def load(con: duckdb.DuckDBPyConnection, source: ScoresSource) -> list[Problem]:
    """Load a file of the folder in place of what it loaded before, and record its fingerprints; the problem of a
    refused file (recorded in score_rejections), else none."""
    forget(con, source.name)
    problems = []
    try:
        sidecar = read_score_sidecar(Path(source.sidecar.path)) if source.sidecar else {}
        if "higher_is_better" not in sidecar:
            where = Path(source.file.path).with_suffix(".json").name
            raise InputError(
                [Problem(source.file.path, None, f"which way are its metrics better? give higher_is_better in {where}")]
            )
        score_file = ScoreFile(
            Path(source.file.path),
            sidecar["higher_is_better"],
            sidecar.get("corpus") or "shared-task",
            description=sidecar.get("description"),
            folder_file=source.name,
        )
        load_score_file(con, score_file)
    except InputError as error:
        problems = error.problems
        reject(con, source, problems, isinstance(error, NameTaken))
    con.execute("DELETE FROM source_files WHERE role IN ('scores', 'scores-metadata') AND name = ?", [source.name])
    record(con, [s for s in (source.file, source.sidecar) if s])
    return problems


def reject(con: duckdb.DuckDBPyConnection, source: ScoresSource, problems: list[Problem], name_taken: bool) -> None:
    insert_rows(
        con,
        "score_rejections",
        [
            (source.name, problem.file, source.file.sha256, problem.line, problem.message, name_taken)
            for problem in problems
        ],
        {
            "folder_file": pl.String,
            "file": pl.String,
            "sha256": pl.String,
            "line": pl.Int32,
            "message": pl.String,
            "name_taken": pl.Boolean,
        },
    )


def waiting(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The files of the folder refused because a submission or another metric held one of their metrics' names:
    loaded again with the files that changed, they load once the names are free."""
    rows = con.execute("SELECT DISTINCT folder_file FROM score_rejections WHERE name_taken ORDER BY 1").fetchall()
    return [name for (name,) in rows]


def forget(con: duckdb.DuckDBPyConnection, name: str) -> None:
    """Remove what a file of the folder loaded (its metrics and their scores) and its refusal."""
    forget_folder_file(con, name)
    con.execute("DELETE FROM score_rejections WHERE folder_file = ?", [name])


def retire(con: duckdb.DuckDBPyConnection, name: str) -> None:
    """Remove everything a file of the folder left: its metrics, its refusal and its fingerprints."""
    forget(con, name)
    con.execute("DELETE FROM source_files WHERE role IN ('scores', 'scores-metadata') AND name = ?", [name])


def refusals(con: duckdb.DuckDBPyConnection) -> dict[str, list[Problem]]:
    """The problems of the refused files of the scores folder, by name."""
    refused: dict[str, list[Problem]] = {}
    rows = con.execute(
        "SELECT folder_file, file, line, message FROM score_rejections ORDER BY folder_file, line NULLS FIRST"
    ).fetchall()
    for name, file, line, message in rows:
        refused.setdefault(name, []).append(Problem(file, line, message))
    return refused
