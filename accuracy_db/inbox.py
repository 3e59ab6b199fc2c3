"""The submissions folder: one CSV file a submission, named by its stem, with an optional metadata sidecar."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import duckdb

from . import database
from .errors import InputError, Problem
from .etl import mistake_lists
from .sources import Source, fingerprint, record

SIDECAR_SUFFIXES = (".json", ".yaml", ".yml")
METADATA_KEYS = ("team", "system", "approach", "description", "url")
APPROACHES = ("metric", "human", "hybrid")


@dataclass(frozen=True)
class Submission:
    """A submission file of the folder, its optional sidecar, and their fingerprints."""

    name: str
    csv: Source
    sidecar: Source | None

    def sources(self) -> list[Source]:
        return [self.csv] + ([self.sidecar] if self.sidecar else [])


def scan(folder: Path, known: dict | None = None) -> dict[str, Submission]:
    """The submissions of a folder by name; a file whose size and time are unchanged is not hashed again."""
    found = {}
    for csv_path in sorted(folder.glob("*.csv")):
        if not csv_path.is_file():  # a directory, FIFO or dangling link named *.csv: never opened (never hangs)
            continue
        name = csv_path.stem
        sidecars = [csv_path.with_suffix(suffix) for suffix in SIDECAR_SUFFIXES]
        sidecar = next((path for path in sidecars if path.is_file()), None)
        found[name] = Submission(
            name,
            fingerprint("submission", name, csv_path, known),
            fingerprint("metadata", name, sidecar, known) if sidecar else None,
        )
    return found


def read_sidecar(path: Path) -> dict:
    """What a sidecar says: team, system, approach (metric, human or hybrid), description, url."""
    text = path.read_text(encoding="utf-8-sig")
    try:
        if path.suffix == ".json":
            metadata = json.loads(text)
        else:
            import yaml

            metadata = yaml.safe_load(text)
    except json.JSONDecodeError as error:
        raise InputError([Problem(str(path), error.lineno, f"not valid JSON: {error.msg}")]) from None
    except Exception as error:  # yaml.YAMLError, without importing yaml for JSON sidecars
        mark = getattr(error, "problem_mark", None)
        raise InputError([Problem(str(path), mark.line + 1 if mark else None, f"not valid YAML: {error}")]) from None
    if not isinstance(metadata, dict):
        raise InputError([Problem(str(path), None, f"expected a mapping with the keys {', '.join(METADATA_KEYS)}")])
    problems = [
        Problem(str(path), None, f"unknown key {key!r}: the keys are {', '.join(METADATA_KEYS)}")
        for key in metadata
        if key not in METADATA_KEYS
    ]
    if metadata.get("approach") not in (None, *APPROACHES):
        problems.append(Problem(str(path), None, f"approach is {metadata['approach']!r}: metric, human or hybrid"))
    if problems:
        raise InputError(problems)
    return {key: None if metadata.get(key) is None else str(metadata[key]) for key in METADATA_KEYS}


def load_submission(con: duckdb.DuckDBPyConnection, submission: Submission) -> list[Problem]:
    """Load a submission and its metadata, or record why it was refused; return the problems (none: loaded).

    Either way its files are recorded as sources, so an unchanged refused file is not read again."""
    try:
        metadata = read_sidecar(Path(submission.sidecar.path)) if submission.sidecar else None
        mistake_lists.load_mistake_list(con, Path(submission.csv.path), "submission", submission.name)
    except InputError as error:
        con.executemany(
            "INSERT INTO rejections VALUES (?, ?, ?, ?, ?)",
            [(submission.name, submission.csv.sha256, p.file, p.line, p.message) for p in error.problems],
        )
        problems = error.problems
    else:
        if metadata:
            con.execute(
                "INSERT INTO submission_metadata VALUES (?, ?, ?, ?, ?, ?, ?)",
                [submission.name, *metadata.values(), submission.sidecar.sha256],
            )
        problems = []
    record(con, submission.sources())
    return problems


def remove_submission(con: duckdb.DuckDBPyConnection, name: str) -> None:
    """Remove everything a submission left in the database: its mistakes and their matching, refusals,
    metadata and sources."""
    ids = con.execute("SELECT set_id FROM annotation_sets WHERE kind = 'submission' AND name = $name", {"name": name})
    database.forget(con, [set_id for (set_id,) in ids.fetchall()])
    for statement in (
        "DELETE FROM mistakes WHERE set_id IN"
        " (SELECT set_id FROM annotation_sets WHERE kind = 'submission' AND name = $name)",
        "DELETE FROM annotation_sets WHERE kind = 'submission' AND name = $name",
        "DELETE FROM rejections WHERE submission = $name",
        "DELETE FROM submission_metadata WHERE submission = $name",
        "DELETE FROM source_files WHERE role IN ('submission', 'metadata') AND name = $name",
    ):
        con.execute(statement, {"name": name})
