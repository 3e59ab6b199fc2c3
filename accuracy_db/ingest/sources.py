"""The input files of a database and their fingerprints, so that a refresh can tell what changed."""

from __future__ import annotations

import os
from pathlib import Path
from stat import S_ISREG
from typing import NamedTuple

import duckdb
import polars as pl

from accuracy_db.etl.curation import curation_exports
from accuracy_db.etl.data_folder import splits
from accuracy_db.etl.frames import insert_rows
from accuracy_db.output_files import Inputs
from accuracy_db.printable import utf8_text
from accuracy_db.regular_files import Digests, sha256_of
from accuracy_db.store import database

DATA_FILES = ("gsml.csv", "games.csv", "shared_task.jsonl", "token_lookup.yaml")


class Source(NamedTuple):
    """An input file as it was read: the key (role, corpus, name), where it was, and its fingerprint. (A named
    tuple: a refresh compares tens of thousands of them, and tuples are made fast.)"""

    role: str
    name: str
    path: str
    size: int
    mtime_ns: int
    sha256: str
    corpus: str = ""  # the corpus a registered folder's file is loaded into; empty for the other roles

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.role, self.corpus, self.name)


def fingerprint(
    role: str,
    name: str,
    path: Path | str,
    known: dict[tuple[str, str, str], Source] | None = None,
    stat=None,
    digests: Digests | None = None,
    corpus: str = "",
) -> Source:
    """A file's fingerprint; the recorded hash (known), or the one taken as the file was read (digests), is reused
    when size and modification time are unchanged."""
    stat = stat or os.stat(path)
    before = (known or {}).get((role, corpus, name))
    read = (digests or {}).get(str(path))
    if before and before.sha256 and (before.size, before.mtime_ns) == (stat.st_size, stat.st_mtime_ns):
        if before.path == str(path):
            return before
        sha256 = before.sha256
    elif read and read[:2] == (stat.st_size, stat.st_mtime_ns):
        sha256 = read[2]
    else:
        sha256 = sha256_of(path)
    return Source(role, name, str(path), stat.st_size, stat.st_mtime_ns, sha256, corpus)


def data_files(data_dir: Path) -> dict[str, tuple[str, os.stat_result]]:
    """Every file of the data folder a build reads: name inside the data folder -> (path, stat).

    One directory listing per folder (os.scandir), since a large corpus has tens of thousands of texts."""
    candidates = {"../nlg_systems.csv": str(data_dir.parent / "nlg_systems.csv")}
    for split_files in splits(data_dir):
        prefix = "" if split_files.folder == data_dir else f"{split_files.folder.name}/"
        candidates |= {f"{prefix}{name}": str(split_files.folder / name) for name in DATA_FILES}
        with os.scandir(split_files.texts_dir) as entries:
            for entry in entries:
                if entry.name.endswith(".txt"):
                    candidates[f"{prefix}texts/{utf8_text(entry.name)}"] = entry.path
        for export in curation_exports(split_files.curation_dir):
            name = utf8_text(export.path.relative_to(split_files.folder).as_posix())
            candidates[f"{prefix}{name}"] = str(export.path)
    found = {}
    for name, path in candidates.items():
        try:
            stat = os.stat(path)
        except FileNotFoundError:
            continue
        if S_ISREG(stat.st_mode):
            found[name] = (path, stat)
    return found


def data_sources(
    data_dir: Path, known: dict | None = None, digests: Digests | None = None
) -> dict[tuple[str, str, str], Source]:
    """The fingerprint of every file of the data folder a build reads, by key (data, no corpus, the name inside the
    data folder); the digests of the files the build has read are reused (see fingerprint)."""
    return {
        ("data", "", name): fingerprint("data", name, path, known, stat, digests)
        for name, (path, stat) in data_files(data_dir).items()
    }


def recorded(con: duckdb.DuckDBPyConnection) -> dict[tuple[str, str, str], Source]:
    """The sources a database was built from, by key."""
    rows = con.execute("SELECT role, name, path, size, mtime_ns, sha256, corpus FROM source_files").fetchall()
    return {source.key: source for source in map(Source._make, rows)}


def record(con: duckdb.DuckDBPyConnection, sources: list[Source]) -> None:
    """Record the fingerprints of sources, replacing earlier ones of the same keys (in one statement: a corpus
    has tens of thousands of texts)."""
    columns = ("role", "name", "path", "size", "mtime_ns", "sha256", "corpus")
    insert_rows(
        con,
        "source_files",
        # plain tuples: given the named tuples, polars left DuckDB objects alive; a path that is not UTF-8 with its
        # bytes as escapes (DuckDB takes UTF-8 only; such a file is never read, so never taken for unchanged)
        [(*source[:2], utf8_text(source.path), *source[3:]) for source in sources],
        {column: pl.Int64 if column in ("size", "mtime_ns") else pl.String for column in columns},
        verb="INSERT OR REPLACE",
    )


# Every path a database was loaded from or keeps registered: what a command's outputs never replace.
REGISTERED_PATHS_SQL = """
SELECT path FROM source_files WHERE role NOT IN ('schema', 'version')
UNION SELECT source_file FROM annotation_sets
UNION SELECT source_file FROM metrics WHERE source_file IS NOT NULL
UNION SELECT source_file FROM curation_exports
UNION SELECT folder FROM corpus_folders
UNION SELECT source FROM corpora WHERE source IS NOT NULL
ORDER BY 1
"""


def registered_inputs(db_path: Path, con: duckdb.DuckDBPyConnection | None = None) -> Inputs:
    """The database file and the files (and registered folders) it was loaded from: its gold lists, submissions,
    corpus folders, factgenie campaigns, Mu-SHROOM files, scores files… Read through con, or by opening the database
    at db_path when there is one."""
    if con is None and not os.path.lexists(db_path):
        return Inputs((str(db_path),), f"the database {db_path}")
    opened = con or database.open_existing(db_path)
    try:
        paths = [path for (path,) in opened.execute(REGISTERED_PATHS_SQL).fetchall()]
    finally:
        if con is None:
            opened.close()
    return Inputs((str(db_path), *paths), f"the database {db_path}")
