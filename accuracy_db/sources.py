"""The input files of a database and their fingerprints, so that a refresh can tell what changed."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

import duckdb

from .data_folder import splits

DATA_FILES = ("gsml.csv", "games.csv", "shared_task.jsonl", "token_lookup.yaml")


@dataclass(frozen=True)
class Source:
    """An input file as it was read: the key (role, name), where it was, and its fingerprint."""

    role: str
    name: str
    path: str
    size: int
    mtime_ns: int
    sha256: str

    @property
    def key(self) -> tuple[str, str]:
        return (self.role, self.name)


def sha256_of(path: Path) -> str:
    with path.open("rb") as stream:
        return hashlib.file_digest(stream, "sha256").hexdigest()


def fingerprint(role: str, name: str, path: Path, known: dict[tuple[str, str], Source] | None = None) -> Source:
    """A file's fingerprint; the recorded hash is reused when size and modification time are unchanged."""
    stat = path.stat()
    before = (known or {}).get((role, name))
    if before and (before.size, before.mtime_ns) == (stat.st_size, stat.st_mtime_ns):
        sha256 = before.sha256
    else:
        sha256 = sha256_of(path)
    return Source(role, name, str(path), stat.st_size, stat.st_mtime_ns, sha256)


def data_sources(data_dir: Path, known: dict | None = None) -> dict[tuple[str, str], Source]:
    """Every file of the data folder a build reads, by (role, name inside the data folder)."""
    paths = [data_dir.parent / "nlg_systems.csv"]
    for split_files in splits(data_dir):
        paths += sorted(split_files.texts_dir.glob("*.txt")) + [split_files.folder / name for name in DATA_FILES]
    names = {os.path.relpath(path, data_dir): path for path in paths if path.is_file()}
    return {("data", name): fingerprint("data", name, path, known) for name, path in names.items()}


def recorded(con: duckdb.DuckDBPyConnection) -> dict[tuple[str, str], Source]:
    """The sources a database was built from."""
    rows = con.execute("SELECT role, name, path, size, mtime_ns, sha256 FROM source_files").fetchall()
    return {(row[0], row[1]): Source(*row) for row in rows}


def record(con: duckdb.DuckDBPyConnection, sources: list[Source]) -> None:
    con.executemany(
        "INSERT OR REPLACE INTO source_files VALUES (?, ?, ?, ?, ?, ?)",
        [(s.role, s.name, s.path, s.size, s.mtime_ns, s.sha256) for s in sources],
    )
