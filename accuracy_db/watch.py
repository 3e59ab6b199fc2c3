"""What --watch looks at to know that something may have changed: names, sizes and times of the files."""

from __future__ import annotations

import os
from pathlib import Path

from .inbox import SIDECAR_SUFFIXES
from .sources import data_files


def folder_state(submissions_dir: Path, data_dir: Path) -> frozenset:
    """A cheap summary of the submissions folder and the data files a build reads (no file is read)."""
    state = {(path, stat.st_size, stat.st_mtime_ns) for path, stat in data_files(data_dir).values()}
    with os.scandir(submissions_dir) as entries:
        for entry in entries:
            if entry.name.endswith((".csv", *SIDECAR_SUFFIXES)):
                try:
                    stat = entry.stat()
                except FileNotFoundError:  # deleted while we looked: the next look sees it gone
                    continue
                state.add((entry.path, stat.st_size, stat.st_mtime_ns))
    return frozenset(state)
