"""Download the shared-task data (only the data files) from the public repository into the cache."""

from __future__ import annotations

import http.client
import re
import shutil
import tarfile
import tempfile
import urllib.error
import urllib.request
import zlib
from collections.abc import Callable
from pathlib import Path, PurePosixPath

from accuracy_db.errors import AccuracyDbError
from accuracy_db.etl.data_folder import cache_dir

DEFAULT_URL = "https://github.com/ehudreiter/accuracySharedTask/archive/refs/heads/main.tar.gz"
TIMEOUT_SECONDS = 60
CHUNK_BYTES = 64 * 1024

# The files of a split: the train split at the archive's root, the test split under test_set/.
SPLIT_FILES = ["gsml.csv", "games.csv", "shared_task.jsonl", "token_lookup.yaml", "texts/*.txt"]
# Files only taken from the root; `**` stands for any number of folders.
ROOT_FILES = ["LICENSE", "example_submissions/*.csv", "curation/**/CURATION_USER.tsv"]
WANTED = SPLIT_FILES + ROOT_FILES + [f"test_set/{pattern}" for pattern in SPLIT_FILES]

Progress = Callable[[int, "int | None"], None]


def fetch_data(url: str = DEFAULT_URL, dest: Path | None = None, progress: Progress | None = None) -> Path:
    """Download the repository archive at `url` and put its data files in `dest` (default: the cache).

    `dest` is replaced only once the new data is complete: a failure leaves it as it was.
    `progress(bytes_done, bytes_total_or_None)` is called as the download goes.
    """
    dest = Path(dest) if dest is not None else cache_dir()
    dest.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=f".{dest.name}-", dir=dest.parent) as tmp:
        archive, unpacked, old = Path(tmp) / "archive.tar.gz", Path(tmp) / "data", Path(tmp) / "old"
        _download(url, archive, progress)
        _unpack(url, archive, unpacked)
        if not (unpacked / "gsml.csv").is_file():
            raise AccuracyDbError(f"{url} has no gsml.csv: it is not an archive of the shared-task repository")
        if dest.exists():
            dest.rename(old)  # kept in the temporary folder until the new data is in place
        try:
            unpacked.rename(dest)
        except OSError:
            if old.exists():
                old.rename(dest)
            raise
    return dest


def _download(url: str, target: Path, progress: Progress | None) -> None:
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT_SECONDS) as response, target.open("wb") as out:
            length = response.headers.get("Content-Length")
            total = int(length) if length and length.isdigit() else None
            done = 0
            while chunk := response.read(CHUNK_BYTES):
                out.write(chunk)
                done += len(chunk)
                if progress:
                    progress(done, total)
    except urllib.error.HTTPError as error:
        raise AccuracyDbError(f"could not download {url}: HTTP {error.code} {error.reason}") from None
    except urllib.error.URLError as error:
        raise AccuracyDbError(f"could not download {url}: {error.reason}") from None
    except (OSError, ValueError, http.client.HTTPException) as error:
        raise AccuracyDbError(f"could not download {url}: {error}") from None


def _unpack(url: str, archive: Path, folder: Path) -> None:
    """Write the wanted regular files of `archive`, without its top folder, into the new `folder`."""
    folder.mkdir()
    try:
        with tarfile.open(archive, "r:gz") as tar:
            for member in tar:
                relative = _wanted_path(member)
                if relative is None:
                    continue
                target = folder.joinpath(*relative.parts)
                target.parent.mkdir(parents=True, exist_ok=True)
                with tar.extractfile(member) as source, target.open("wb") as out:
                    shutil.copyfileobj(source, out)
    except (tarfile.TarError, EOFError, zlib.error) as error:
        raise AccuracyDbError(f"{url} is not a readable .tar.gz archive: {error}") from None


def _wanted_path(member: tarfile.TarInfo) -> PurePosixPath | None:
    """The member's path without the archive's top folder, if it is a data file safe to write; else None."""
    path = PurePosixPath(member.name)
    if not member.isfile() or path.is_absolute() or ".." in path.parts or len(path.parts) < 2:
        return None  # links, folders, and paths that could point outside the destination
    relative = PurePosixPath(*path.parts[1:])
    return relative if WANTED_PATH.fullmatch(str(relative)) else None


def _glob_regex(pattern: str) -> str:
    """A glob as a regular expression: `*` matches within one name, `**/` any number of folders."""
    return re.escape(pattern).replace(r"\*\*/", "(?:[^/]+/)*").replace(r"\*", "[^/]*")


WANTED_PATH = re.compile("|".join(_glob_regex(pattern) for pattern in WANTED))
