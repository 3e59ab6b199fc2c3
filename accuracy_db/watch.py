"""What --watch looks at to know that something may have changed: names, sizes and times of the files."""

from __future__ import annotations

from pathlib import Path

from .inbox import SIDECAR_SUFFIXES


def folder_state(submissions_dir: Path, data_dir: Path) -> frozenset:
    """A cheap summary of the submissions folder and the data files (no file is read)."""
    paths = [p for p in submissions_dir.iterdir() if p.suffix in (".csv", *SIDECAR_SUFFIXES)]
    paths += [p for p in data_dir.rglob("*") if "curation" not in p.parts]
    state = set()
    for path in paths:
        try:
            stat = path.stat()
        except FileNotFoundError:  # deleted while we looked: the next look sees it gone
            continue
        state.add((str(path), stat.st_size, stat.st_mtime_ns))
    return frozenset(state)
