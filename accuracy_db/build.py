"""Build the database from a data folder and a folder of submissions."""

from __future__ import annotations

import hashlib
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import database
from .data_folder import SplitFiles, splits
from .errors import AccuracyDbError, InputError, Problem
from .etl import games, mistake_lists, texts


@dataclass
class BuildReport:
    """What a build loaded, refused and warned about."""

    db_path: Path
    texts: dict[str, int] = field(default_factory=dict)  # split -> texts loaded
    gold: dict[str, int] = field(default_factory=dict)  # split -> gold mistakes
    submissions: list[str] = field(default_factory=list)
    refused: dict[str, list[Problem]] = field(default_factory=dict)  # submission -> its problems
    warnings: list[str] = field(default_factory=list)
    seconds: float = 0.0


def load_split(con, split_files: SplitFiles) -> list[str]:
    """Texts, tokens (checked against token_lookup.yaml when present), games and the gold list of a split."""
    texts.load_texts(con, split_files.split, texts.read_texts(split_files.texts_dir))
    if split_files.token_lookup.is_file():
        lookup = texts.read_token_lookup(split_files.token_lookup)
        texts.check_token_lookup(con, split_files.token_lookup, split_files.split, lookup)
    warnings = games.load_games(con, split_files)
    mistake_lists.load_mistake_list(con, split_files.gold, "gold", "gold", split_files.split)
    return warnings


def load_submissions(con, submissions_dir: Path, report: BuildReport, step=lambda name: None) -> None:
    """Load every *.csv of a folder as a submission named by its file stem; record the refused ones."""
    for path in sorted(submissions_dir.glob("*.csv")):
        step(path.stem)
        try:
            mistake_lists.load_mistake_list(con, path, "submission", path.stem)
        except InputError as error:
            report.refused[path.stem] = error.problems
            sha256 = hashlib.sha256(path.read_bytes()).hexdigest()
            con.executemany(
                "INSERT INTO rejections VALUES (?, ?, ?, ?, ?)",
                [(path.stem, sha256, p.file, p.line, p.message) for p in error.problems],
            )
        else:
            report.submissions.append(path.stem)


def build(data_dir: Path, db_path: Path, submissions_dir: Path | None = None, step=lambda name: None) -> BuildReport:
    """Create the database at db_path anew. It is built beside it and renamed into place at the end,
    so a failed build leaves the previous database as it was."""
    started = time.perf_counter()
    if submissions_dir is not None and not submissions_dir.is_dir():
        raise AccuracyDbError(f"{submissions_dir}: no such folder of submissions")
    split_files = splits(data_dir)
    if not split_files:
        raise AccuracyDbError(f"{data_dir}: no texts/ folder: not a shared-task data folder")
    report = BuildReport(db_path)
    db_path.parent.mkdir(parents=True, exist_ok=True)
    building = db_path.with_name(f".{db_path.name}.building")
    building.unlink(missing_ok=True)
    con = database.open_new(building)
    try:
        for files in split_files:
            step(f"{files.split} split")
            report.warnings += load_split(con, files)
        if submissions_dir is not None:
            load_submissions(con, submissions_dir, report, step)
        for split, count in con.execute("SELECT split, count(*) FROM texts GROUP BY split").fetchall():
            report.texts[split] = count
        for split, count in con.execute("SELECT split, count(*) FROM gold_mistakes GROUP BY split").fetchall():
            report.gold[split] = count
        report.seconds = time.perf_counter() - started
        con.execute(
            "INSERT INTO publications VALUES (current_localtimestamp(), 'build', ?, 0, 0, 0, ?, ?)",
            [len(report.submissions), len(report.refused), report.seconds],
        )
        con.execute("CHECKPOINT")
        con.close()
        os.replace(building, db_path)
    except BaseException:
        con.close()
        building.unlink(missing_ok=True)
        raise
    return report
