"""Download the shared-task data (only the data files) from the public repository into the cache."""

from __future__ import annotations

import hashlib
import http.client
import json
import os
import re
import tarfile
import tempfile
import urllib.error
import urllib.request
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from accuracy_db.errors import AccuracyDbError, quoted
from accuracy_db.etl.data_folder import cache_dir
from accuracy_db.regular_files import sha256_of

# The repository at a commit, not a branch: the data of a fetch is the data the figures of the docs and tests were
# made with. The commit is main's last (2021-09-22, "Added slides from INLG2021 presentaion"). DEFAULT_SHA256 is
# the SHA-256 of its data files' listing (data_sha256), not of the archive, whose compression GitHub may change:
# that of the 167 files read in git from that commit, each the same bytes as the shared data folder's.
DEFAULT_COMMIT = "b6963f73baf235ed6ae43a51db29f89efa1e9d13"
DEFAULT_URL = f"https://github.com/ehudreiter/accuracySharedTask/archive/{DEFAULT_COMMIT}.tar.gz"
DEFAULT_SHA256 = "7ef0284ab3836a91757f4bc4648dc31806ff76dd7be2e1fe5bd509f772dd2186"
TIMEOUT_SECONDS = 60
CHUNK_BYTES = 64 * 1024

# The files of a split: the train split at the archive's root, the test split under test_set/.
SPLIT_FILES = ["gsml.csv", "games.csv", "shared_task.jsonl", "token_lookup.yaml", "texts/*.txt"]
# Files only taken from the root; `**` stands for any number of folders.
ROOT_FILES = ["LICENSE", "example_submissions/*.csv", "curation/**/CURATION_USER.tsv"]
WANTED = SPLIT_FILES + ROOT_FILES + [f"test_set/{pattern}" for pattern in SPLIT_FILES]

# Written into every folder fetch-data fills: the files it wrote and their SHA-256. Only a folder holding nothing
# else, unchanged, is replaced by a later fetch; any other folder that is not empty is refused.
MARKER = ".accuracy-db-fetch-data"

Progress = Callable[[int, "int | None"], None]


@dataclass(frozen=True)
class Limits:
    """The most the data files of an archive may unpack to. The real data (2026) is 167 files of 5.3 MB, the largest
    token_lookup.yaml at 1.2 MB: the bounds leave room for fifty times that, and refuse an archive whose few kB
    of zeros unpack to gigabytes before a byte of it is written."""

    member_bytes: int = 64 * 2**20  # one file
    total_bytes: int = 256 * 2**20  # every file together
    files: int = 10_000


def fetch_data(
    url: str | None = None,
    dest: Path | None = None,
    progress: Progress | None = None,
    limits: Limits = Limits(),
    sha256: str | None = None,
) -> Path:
    """Download the repository archive at `url` and put its data files in `dest` (default: the cache).

    Without a url, the archive of DEFAULT_COMMIT, whose data must have DEFAULT_SHA256; with one, its data must have
    `sha256` when given (see data_sha256), and is taken as it is otherwise. Data of another SHA-256 is refused.
    `dest` must be new, empty, or a folder an earlier fetch filled and nothing else changed (see MARKER). It is
    replaced only once the new data is complete and checked: a failure leaves it as it was.
    `progress(bytes_done, bytes_total_or_None)` is called as the download goes.
    """
    if url is None:
        url, sha256 = DEFAULT_URL, sha256 or DEFAULT_SHA256
    if sha256 is not None and not re.fullmatch(r"[0-9a-f]{64}", sha256.lower()):
        raise AccuracyDbError(f"{quoted(sha256)} is not a SHA-256: expected 64 hexadecimal digits")
    # lexically absolute: `.` and `..` get a name and a parent, and a link is checked as the link itself
    dest = Path(os.path.abspath(dest if dest is not None else cache_dir()))
    try:
        check_dest(dest)  # before the download, so that a wrong --dest is told at once
        dest.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix=f".{dest.name}-", dir=dest.parent) as tmp:
            archive, unpacked, old = Path(tmp) / "archive.tar.gz", Path(tmp) / "data", Path(tmp) / "old"
            _download(url, archive, progress)
            written = _unpack(url, archive, unpacked, limits)
            if "gsml.csv" not in written:
                raise AccuracyDbError(f"{url} has no gsml.csv: it is not an archive of the shared-task repository")
            digest = data_sha256(written)
            if sha256 is not None and digest != sha256.lower():
                raise AccuracyDbError(
                    f"{url}: its data files have the SHA-256 {digest}, not the {sha256.lower()} expected: refused"
                    " (another version of the data, or an archive changed on the way)"
                )
            record = {"url": url, "sha256": digest, "files": written}
            (unpacked / MARKER).write_text(json.dumps(record, indent=1), encoding="utf-8")
            check_dest(dest)  # again: files may have been put there during the download
            _swap(unpacked, dest, old)
    except OSError as error:  # a folder that cannot be written, a full disk…
        raise AccuracyDbError(f"could not write the data to {dest}: {error.strerror or error}") from None
    return dest


def data_sha256(files: dict[str, str]) -> str:
    """The SHA-256 of data files (path -> their SHA-256): that of their listing as sha256sum writes it, a line
    "<SHA-256>  <path>" a file, in the order of the paths; in a data folder, as the shell works it out:
    find . -type f ! -name .accuracy-db-fetch-data | cut -c3- | LC_ALL=C sort | xargs -d '\\n' sha256sum | sha256sum
    """
    listing = "".join(f"{files[path]}  {path}\n" for path in sorted(files))
    return hashlib.sha256(listing.encode("utf-8")).hexdigest()


def check_dest(dest: Path) -> None:
    """Refuse, in one line, a destination that fetch-data could not replace without losing what it did not write."""
    if dest.parent == dest:
        raise AccuracyDbError(f"{dest} is the root folder: give a folder of its own as --dest")
    if dest.is_symlink():
        raise AccuracyDbError(f"{dest} is a symbolic link: give the folder it points to, or another, as --dest")
    if not dest.exists():
        return
    if not dest.is_dir():
        raise AccuracyDbError(f"{dest} is not a folder: give a new or empty folder as --dest")
    here = Path.cwd().resolve()
    if dest.resolve() in (here, *here.parents):  # replacing it would pull the folder out from under the shell
        raise AccuracyDbError(f"{dest} is the current folder or holds it: give another --dest, or run from elsewhere")
    stray = _not_written(dest)
    if stray:
        raise AccuracyDbError(
            f"{dest}: {stray}: fetch-data replaces only a folder it filled; give a new or empty folder as --dest"
        )


def _not_written(folder: Path) -> str | None:
    """What in `folder` an earlier fetch did not write, or changed since (None when there is nothing of the kind:
    the folder is empty, or holds that fetch's files as it wrote them)."""
    entries = sorted(_entries(folder))
    if not entries:
        return None  # empty folders lose nothing
    written = _written_files(folder)
    if written is None:
        return f"it holds {quoted(entries[0])} and no {MARKER} (the record of a fetch)"
    for name in entries:
        path = folder / name
        if name == MARKER:
            continue
        if name not in written:
            return f"{quoted(name)} was not written by fetch-data"
        if path.is_symlink() or not path.is_file() or sha256_of(path) != written[name]:
            return f"{quoted(name)} has changed since fetch-data wrote it"
    return None


def _entries(folder: Path):
    """Everything under `folder` but its folders, as paths relative to it; a link to a folder is not followed."""
    for parent, folders, files in os.walk(folder):
        for name in files + [name for name in folders if os.path.islink(os.path.join(parent, name))]:
            yield Path(parent, name).relative_to(folder).as_posix()


def _written_files(folder: Path) -> dict[str, str] | None:
    """The files an earlier fetch wrote in `folder` (path -> SHA-256), from its marker; None without a readable one."""
    try:
        record = json.loads((folder / MARKER).read_text(encoding="utf-8"))
        files = record["files"]
    except (OSError, UnicodeDecodeError, ValueError, TypeError, KeyError):
        return None
    if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
        return None
    return files


def _swap(unpacked: Path, dest: Path, old: Path) -> None:
    """Put the new data in place of dest; the old is kept in `old` (in the temporary folder) until it is."""
    if dest.exists():
        dest.rename(old)
    try:
        unpacked.rename(dest)
    except OSError:
        if old.exists():
            old.rename(dest)
        raise


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


def _unpack(url: str, archive: Path, folder: Path, limits: Limits) -> dict[str, str]:
    """Write the wanted files of `archive`, without its top folder, into the new `folder`; return their paths and
    SHA-256. Each member's size is checked against the limits before a byte of it is written."""
    folder.mkdir()
    written: dict[str, str] = {}
    total = files = 0
    try:
        with tarfile.open(archive, "r:gz") as tar:
            for member in tar:
                relative = _wanted_path(url, member)
                if relative is None:
                    continue
                total, files = total + member.size, files + 1
                _check_limits(url, member, total, files, limits)
                target = folder.joinpath(*relative.parts)
                target.parent.mkdir(parents=True, exist_ok=True)
                digest = hashlib.sha256()
                with tar.extractfile(member) as source, target.open("wb") as out:
                    while chunk := source.read(CHUNK_BYTES):
                        digest.update(chunk)
                        out.write(chunk)
                written[relative.as_posix()] = digest.hexdigest()
    except (tarfile.TarError, EOFError, zlib.error) as error:
        raise AccuracyDbError(f"{url} is not a readable .tar.gz archive: {error}") from None
    return written


def _check_limits(url: str, member: tarfile.TarInfo, total: int, files: int, limits: Limits) -> None:
    if member.size > limits.member_bytes:
        raise AccuracyDbError(
            f"{url}: {quoted(member.name)} unpacks to {member.size:,} bytes, more than the {limits.member_bytes:,}"
            " a data file may have: refused"
        )
    if total > limits.total_bytes:
        raise AccuracyDbError(f"{url}: its data files unpack to more than {limits.total_bytes:,} bytes: refused")
    if files > limits.files:
        raise AccuracyDbError(f"{url}: it holds more than {limits.files:,} data files: refused")


def _wanted_path(url: str, member: tarfile.TarInfo) -> PurePosixPath | None:
    """The member's path without the archive's top folder, if it is a data file; else None."""
    relative = _file_path(url, member)
    return relative if relative is not None and WANTED_PATH.fullmatch(str(relative)) else None


def _file_path(url: str, member: tarfile.TarInfo) -> PurePosixPath | None:
    """The member's path without the archive's top folder, if it is a file; else None. A member that could write
    outside the destination, or anything but a file or folder, refuses the archive: GitHub makes neither."""
    path = PurePosixPath(member.name)
    if path.is_absolute() or ".." in path.parts:
        raise AccuracyDbError(f"{url}: {quoted(member.name)} points outside the archive's folder: refused")
    if not (member.isfile() or member.isdir()):
        raise AccuracyDbError(f"{url}: {quoted(member.name)} is {_kind(member)}, not a file or folder: refused")
    if member.isdir() or len(path.parts) < 2:
        return None
    return PurePosixPath(*path.parts[1:])


def _kind(member: tarfile.TarInfo) -> str:
    kinds = (("issym", "a symbolic link"), ("islnk", "a hard link"), ("ischr", "a character device"))
    kinds += (("isblk", "a block device"), ("isfifo", "a FIFO"))
    return next((name for test, name in kinds if getattr(member, test)()), "of an unknown kind")


def _glob_regex(pattern: str) -> str:
    """A glob as a regular expression: `*` matches within one name, `**/` any number of folders."""
    return re.escape(pattern).replace(r"\*\*/", "(?:[^/]+/)*").replace(r"\*", "[^/]*")


WANTED_PATH = re.compile("|".join(_glob_regex(pattern) for pattern in WANTED))


@dataclass(frozen=True)
class Participant:
    """A participant's public test submission: a file of its team's repository at a commit, and its SHA-256."""

    name: str  # the submission's name: its file's stem in the folder
    repository: str  # owner/name on GitHub
    commit: str
    path: str  # the file's path in the repository
    sha256: str  # of the file's bytes


# The two test submissions the teams published, each the file their paper's figures come from (evaluate gives the
# published recall / precision exactly: 0.841 / 0.879 and 0.691 / 0.756). Laval's human protocol is in the
# repository's data/submissions/database/ (its data/submissions/algorithm/ list is of the train split).
PARTICIPANTS = (
    Participant(
        "laval-human",
        "ngarneau/accuracySharedTask",
        "21b253f9610c13376fcf79f8372f36d801a9eee4",
        "data/submissions/database/submission.csv",
        "0be88c1e07895d2ef5df944a612822d5d455215ea4b2f9678b5bcca2435e63ed",
    ),
    Participant(
        "charles-upf-metric",
        "kasnerz/accuracySharedTask_CUNI-UPF",
        "1c60d6f01148af48ada9b942e2673644b9c2f0c0",
        "submission.csv",
        "27a581e29e4ed4644e39c1d00ece7c1fff8454ae1fcdef90dfe67030013d8353",
    ),
)
GITHUB = "https://github.com"


def participants_dir() -> Path:
    """The per-user folder that `accuracy-db fetch-data --participants` fills (beside the data's)."""
    return cache_dir().parent / "participants"


def fetch_participants(
    dest: Path | None = None,
    site: str | None = None,
    progress: Progress | None = None,
    limits: Limits = Limits(),
) -> list[Path]:
    """Download each of PARTICIPANTS from the archive of its repository at its commit (from `site`, GitHub's
    address unless a test gives another) into `dest` (default: participants_dir()), as NAME.csv: its SHA-256 is
    checked before it is written, and it replaces only a file of that name. A failure leaves what was there."""
    dest = Path(os.path.abspath(dest if dest is not None else participants_dir()))
    if dest.exists() and not dest.is_dir():
        raise AccuracyDbError(f"{dest} is not a folder: give a folder as --dest")
    written = []
    try:
        dest.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix=".participants-", dir=dest) as tmp:
            for participant in PARTICIPANTS:
                url = f"{site or GITHUB}/{participant.repository}/archive/{participant.commit}.tar.gz"
                archive = Path(tmp) / f"{participant.name}.tar.gz"
                _download(url, archive, progress)
                data = _member_bytes(url, archive, participant.path, limits)
                digest = hashlib.sha256(data).hexdigest()
                if digest != participant.sha256:
                    raise AccuracyDbError(
                        f"{url}: {participant.path} has the SHA-256 {digest}, not the {participant.sha256} expected:"
                        " refused (another version of the file, or an archive changed on the way)"
                    )
                (Path(tmp) / f"{participant.name}.csv").write_bytes(data)
            for participant in PARTICIPANTS:  # only once every file is checked: all of them or none
                target = dest / f"{participant.name}.csv"
                (Path(tmp) / target.name).replace(target)
                written.append(target)
    except OSError as error:
        raise AccuracyDbError(f"could not write the submissions to {dest}: {error.strerror or error}") from None
    return written


def _member_bytes(url: str, archive: Path, wanted: str, limits: Limits) -> bytes:
    """The bytes of the file at `wanted` (without the archive's top folder) in the archive, its size checked
    against the limits before it is read."""
    try:
        with tarfile.open(archive, "r:gz") as tar:
            for member in tar:
                if _file_path(url, member) == PurePosixPath(wanted):
                    _check_limits(url, member, member.size, 1, limits)
                    with tar.extractfile(member) as source:
                        return source.read()
    except (tarfile.TarError, EOFError, zlib.error) as error:
        raise AccuracyDbError(f"{url} is not a readable .tar.gz archive: {error}") from None
    raise AccuracyDbError(f"{url} has no {wanted}: not the archive of the repository expected")
