"""Where the shared-task data is, and the files of each split in it."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from accuracy_db.errors import AccuracyDbError

ENV_VAR = "ACCURACY_DB_DATA"
SHARED_FOLDER = Path("../shared/data/accuracy-shared-task")


def cache_dir() -> Path:
    """The per-user folder that `accuracy-db fetch-data` fills."""
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "accuracy-db" / "accuracy-shared-task"


def resolve_data_dir(explicit: Path | str | None = None) -> Path:
    """The data folder: --data, then $ACCURACY_DB_DATA, then ../shared/data/accuracy-shared-task, then the cache."""
    if explicit is not None:
        candidates = [("--data", Path(explicit))]
    elif os.environ.get(ENV_VAR):
        candidates = [(ENV_VAR, Path(os.environ[ENV_VAR]))]
    else:
        candidates = [("default", SHARED_FOLDER), ("cache", cache_dir())]
    for source, folder in candidates:
        if (folder / "gsml.csv").is_file():
            return folder
        if source != "default":
            hint = " (run `accuracy-db fetch-data` to fill it)" if source == "cache" else ""
            raise AccuracyDbError(f"no shared-task data in {folder} (from {source}): gsml.csv is missing{hint}")
    raise AssertionError("unreachable")


@dataclass(frozen=True)
class SplitFiles:
    """The files of one split; the train split is the data folder's root, the test split its test_set/."""

    split: str
    folder: Path

    @property
    def texts_dir(self) -> Path:
        return self.folder / "texts"

    @property
    def gold(self) -> Path:
        return self.folder / "gsml.csv"

    @property
    def games_csv(self) -> Path:
        return self.folder / "games.csv"

    @property
    def box_scores(self) -> Path:
        return self.folder / "shared_task.jsonl"

    @property
    def token_lookup(self) -> Path:
        return self.folder / "token_lookup.yaml"

    @property
    def curation_dir(self) -> Path:
        """The WebAnno curation exports (optional): curation/<TEXT>…/CURATION_USER.tsv."""
        return self.folder / "curation"


def splits(data_dir: Path) -> list[SplitFiles]:
    """The splits present in a data folder."""
    found = [SplitFiles("train", data_dir), SplitFiles("test", data_dir / "test_set")]
    return [s for s in found if s.texts_dir.is_dir()]
