"""`fetch_data` downloads the repository archive and keeps only its data files; `resolve_data_dir` finds them.

The archive is built here and served from 127.0.0.1, so no test needs the internet.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import re
import socket
import subprocess
import tarfile
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import pytest
from accuracy_db.etl.data_folder import SHARED_FOLDER, cache_dir, resolve_data_dir
from shared_data import DATA

from accuracy_db.cli.main import run
from accuracy_db.errors import AccuracyDbError, quoted
from accuracy_db.ingest import fetch_data as fetch_module
from accuracy_db.ingest.fetch_data import DEFAULT_COMMIT, DEFAULT_SHA256, DEFAULT_URL, MARKER, Limits, fetch_data

TOP = "accuracySharedTask-main"

# What a fetch must bring home: path in the repository -> content.
DATA_FILES = {
    "gsml.csv": "TEXT_ID,SENTENCE_ID,ANNOTATION_ID\n",
    "games.csv": "GAME_ID\n",
    "shared_task.jsonl": "{}\n",
    "token_lookup.yaml": "S001: {}\n",
    "LICENSE": "MIT\n",
    "texts/S001.txt": "The Celtics beat the Heat.\n",
    "example_submissions/submission.csv": "TEXT_ID\n",
    "curation/S001_01_To_60.txt/CURATION_USER.tsv": "#FORMAT=WebAnno TSV 3.2\n",
    "test_set/gsml.csv": "TEXT_ID\n",
    "test_set/games.csv": "GAME_ID\n",
    "test_set/shared_task.jsonl": "{}\n",
    "test_set/token_lookup.yaml": "T001: {}\n",
    "test_set/texts/T001.txt": "The Bulls beat the Knicks.\n",
}

# What the repository also holds and a fetch must leave behind.
OTHER_FILES = {
    "evaluate.py": "print('evaluate')\n",
    "gsml.xlsx": "not data",
    "README.md": "# Accuracy Shared Task\n",
    "Shared Task Evaluating Accuracy.pptx": "slides",
    "example_submissions/manual_checks/test_gsml.csv": "TEXT_ID\n",
    "test_set/README.md": "# Test set\n",
}


def make_archive(
    files: dict[str, str], top: str = TOP, links: dict[str, str] | None = None, zeros: dict[str, int] | None = None
) -> bytes:
    """A .tar.gz shaped like GitHub's: links (name -> target) first, then files, then files of that many zero bytes
    (a few kB of gzip each, however large), each under the `top` folder."""
    # top="" writes the file names as given, to build archives with members outside any top folder.
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, target in (links or {}).items():
            member = tarfile.TarInfo(f"{top}/{name}" if top else name)
            member.type, member.linkname = tarfile.SYMTYPE, target
            tar.addfile(member)
        for name, text in files.items():
            data = text.encode()
            member = tarfile.TarInfo(f"{top}/{name}" if top else name)
            member.size = len(data)
            tar.addfile(member, io.BytesIO(data))
        for name, size in (zeros or {}).items():
            member = tarfile.TarInfo(f"{top}/{name}" if top else name)
            member.size = size
            tar.addfile(member, io.BytesIO(bytes(size)))
    return buffer.getvalue()


def files_under(folder: Path) -> dict[str, str]:
    """The data files of a folder (its fetch-data marker left out) and their text."""
    files = sorted(p for p in folder.rglob("*") if p.is_file() and p.name != MARKER)
    return {p.relative_to(folder).as_posix(): p.read_text() for p in files}


class Site:
    """A local web server: `site.pages[path] = bytes` serves a page; other paths answer 404."""

    def __init__(self) -> None:
        self.pages: dict[str, bytes] = {}
        pages = self.pages

        class Handler(BaseHTTPRequestHandler):
            timeout = 5  # seconds a connection may stay silent

            def do_GET(self) -> None:  # noqa: N802 (the name http.server calls)
                body = pages.get(self.path)
                self.send_response(200 if body is not None else 404)
                self.send_header("Content-Length", str(len(body or b"")))
                self.end_headers()
                self.wfile.write(body or b"")

            def log_message(self, *args) -> None:  # keep the test output quiet
                pass

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}{path}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


@pytest.fixture
def site(monkeypatch):
    monkeypatch.setenv("no_proxy", "*")  # never send 127.0.0.1 through a proxy from the environment
    site = Site()
    site.pages["/main.tar.gz"] = make_archive(DATA_FILES | OTHER_FILES)
    yield site
    site.close()


# What an earlier version of the repository held.
EARLIER_FILES = {"gsml.csv": "earlier gsml\n", "texts/S001.txt": "earlier text\n", "texts/S099.txt": "since removed\n"}


@pytest.fixture
def good_dest(site, tmp_path) -> Path:
    """A data folder from an earlier, successful fetch."""
    site.pages["/earlier.tar.gz"] = make_archive(EARLIER_FILES)
    return fetch_data(site.url("/earlier.tar.gz"), tmp_path / "cache" / "accuracy-shared-task")


def everything_under(folder: Path) -> dict[str, bytes | None]:
    """Every path under a folder (marker and all) with a file's bytes (None for a folder): what must stay as it was."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() if p.is_file() else None for p in folder.rglob("*")}


def refused(url: str, dest: Path, capsys, match: str, limits: Limits | None = None, sha256: str | None = None) -> str:
    """Fetch into an existing folder's `dest` through the command line (with --sha256 when given; or fetch_data
    itself, given limits of its own); check the fetch is refused in one line saying `match`, without a traceback,
    and leaves no temporary folder beside dest; return the line."""
    before = set(dest.parent.iterdir())
    if limits is None:
        checked = ["--sha256", sha256] if sha256 is not None else []
        assert run(["fetch-data", "--url", url, *checked, "--dest", str(dest)]) == 1
        lines = capsys.readouterr().err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), lines
        message = lines[0]
    else:
        with pytest.raises(AccuracyDbError) as error:
            fetch_data(url, dest, limits=limits)
        message = str(error.value)
        assert "\n" not in message
    assert match in message
    assert set(dest.parent.iterdir()) == before
    return message


# --- fetch_data ---------------------------------------------------------------------------------


def test_only_the_data_files_are_unpacked_without_the_top_folder(site, tmp_path):
    dest = tmp_path / "data"
    assert fetch_data(site.url("/main.tar.gz"), dest) == dest
    assert files_under(dest) == DATA_FILES


def test_the_default_destination_is_the_cache(site, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    dest = fetch_data(site.url("/main.tar.gz"))
    assert dest == tmp_path / "xdg" / "accuracy-db" / "accuracy-shared-task" == cache_dir()
    assert (dest / "test_set" / "texts" / "T001.txt").read_text() == DATA_FILES["test_set/texts/T001.txt"]


def test_progress_reports_bytes_done_up_to_the_total(site, tmp_path):
    calls = []
    fetch_data(site.url("/main.tar.gz"), tmp_path / "data", progress=lambda done, total: calls.append((done, total)))
    size = len(site.pages["/main.tar.gz"])
    assert calls and calls[-1] == (size, size)
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)


def test_a_new_fetch_replaces_the_earlier_data_and_leaves_no_temporary_folder(site, good_dest):
    assert files_under(good_dest) == EARLIER_FILES
    fetch_data(site.url("/main.tar.gz"), good_dest)
    assert files_under(good_dest) == DATA_FILES  # texts/S099.txt, gone from the repository, is gone
    assert [p.name for p in good_dest.parent.iterdir()] == [good_dest.name]


def test_the_marker_records_each_file_written_and_its_sha256(site, tmp_path):
    dest = fetch_data(site.url("/main.tar.gz"), tmp_path / "data")
    record = json.loads((dest / MARKER).read_text())
    assert record["url"] == site.url("/main.tar.gz")
    assert record["files"] == {name: hashlib.sha256(text.encode()).hexdigest() for name, text in DATA_FILES.items()}


def test_a_new_or_empty_folder_is_filled(site, tmp_path):
    (tmp_path / "empty" / "sub").mkdir(parents=True)
    for dest in (tmp_path / "new" / "data", tmp_path / "empty"):
        fetch_data(site.url("/main.tar.gz"), dest)
        assert files_under(dest) == DATA_FILES


def test_a_folder_of_ones_own_is_refused_and_left_as_it_was(site, tmp_path, capsys):
    notes = tmp_path / "notes"
    (notes / "drafts").mkdir(parents=True)
    (notes / "todo.txt").write_text("my notes\n")
    (notes / "drafts" / "gsml.csv").write_text("my own gsml\n")
    before = everything_under(notes)
    message = refused(site.url("/main.tar.gz"), notes, capsys, f"{notes}: it holds 'drafts/gsml.csv' and no")
    assert "fetch-data replaces only a folder it filled" in message
    assert everything_under(notes) == before


@pytest.mark.parametrize(
    "change, match",
    [
        (lambda dest: (dest / "notes.txt").write_text("mine\n"), "'notes.txt' was not written by fetch-data"),
        (lambda dest: (dest / "texts" / "S001.txt").write_text("edited\n"), "'texts/S001.txt' has changed since"),
        (lambda dest: (dest / "texts" / "S002.txt").symlink_to(dest / "gsml.csv"), "'texts/S002.txt' was not"),
        (lambda dest: (dest / "mine").symlink_to(dest.parent), "'mine' was not written by fetch-data"),
        (lambda dest: (dest / "texts" / "S001.txt").unlink() or (dest / "texts" / "S001.txt").mkdir(), None),
        (lambda dest: (dest / MARKER).write_text("{not json"), "no .accuracy-db-fetch-data (the record of a fetch)"),
        (lambda dest: (dest / MARKER).write_text('{"files": ["gsml.csv"]}'), "no .accuracy-db-fetch-data"),
    ],
    ids=[
        "a file added",
        "a file edited",
        "a link added",
        "a link to a folder",
        "a file made a folder",
        "a bad marker",
        "a marker of another shape",
    ],
)
def test_an_earlier_fetch_changed_since_is_refused_and_left_as_it_was(site, good_dest, capsys, change, match):
    change(good_dest)
    if match is None:  # a file made an empty folder: nothing would be lost; a file put in it, though, would be
        (good_dest / "texts" / "S001.txt" / "mine.txt").write_text("mine\n")
        match = "'texts/S001.txt/mine.txt' was not written by fetch-data"
    before = everything_under(good_dest)
    refused(site.url("/main.tar.gz"), good_dest, capsys, match)
    assert everything_under(good_dest) == before


def test_an_http_error_names_the_url_and_keeps_the_earlier_data(site, good_dest):
    before = files_under(good_dest)
    url = site.url("/missing.tar.gz")
    with pytest.raises(AccuracyDbError, match=r"404") as error:
        fetch_data(url, good_dest)
    assert url in str(error.value)
    assert files_under(good_dest) == before
    assert [p.name for p in good_dest.parent.iterdir()] == [good_dest.name]


def test_a_response_that_is_not_an_archive_names_the_url_and_keeps_the_earlier_data(site, good_dest):
    before = files_under(good_dest)
    site.pages["/page.html"] = b"<html>Sign in to GitHub</html>"
    url = site.url("/page.html")
    with pytest.raises(AccuracyDbError, match=r"not a readable \.tar\.gz") as error:
        fetch_data(url, good_dest)
    assert url in str(error.value)
    assert files_under(good_dest) == before
    assert [p.name for p in good_dest.parent.iterdir()] == [good_dest.name]


def test_a_truncated_archive_is_refused(site, good_dest):
    before = files_under(good_dest)
    site.pages["/cut.tar.gz"] = site.pages["/main.tar.gz"][:200]
    with pytest.raises(AccuracyDbError, match="cut.tar.gz"):
        fetch_data(site.url("/cut.tar.gz"), good_dest)
    assert files_under(good_dest) == before


def test_an_archive_without_gsml_csv_is_refused(site, good_dest):
    before = files_under(good_dest)
    site.pages["/other.tar.gz"] = make_archive({"README.md": "another repository\n"})
    url = site.url("/other.tar.gz")
    with pytest.raises(AccuracyDbError, match="gsml.csv") as error:
        fetch_data(url, good_dest)
    assert url in str(error.value)
    assert files_under(good_dest) == before


def test_a_server_that_cannot_be_reached_names_the_url(tmp_path, monkeypatch):
    monkeypatch.setenv("no_proxy", "*")
    with socket.socket() as sock:  # a port that nothing listens on once the socket is closed
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}/main.tar.gz"
    with pytest.raises(AccuracyDbError, match="could not download") as error:
        fetch_data(url, tmp_path / "data")
    assert url in str(error.value)
    assert not (tmp_path / "data").exists()


# Members that could write outside the destination, each refusing the archive: name -> (a file's text or a link's
# target, whether it is a link, the refusal). The data is unpacked first into tmp/cache/.accuracy-shared-task-*/data:
# four '..' up from there is tmp.
TRICKS = {
    f"{TOP}/../outside/escaped.txt": ("'..' right after the top folder", False, "points outside"),
    f"{TOP}/texts/../../../../outside/escaped.txt": ("'..' hidden deeper", False, "points outside"),
    f"{TOP}/curation/../../../../outside/CURATION_USER.tsv": ("'..' where folders may be", False, "points outside"),
    "../curation/../../../outside/CURATION_USER.tsv": ("'..' as the top folder", False, "points outside"),
    "/OUTSIDE/absolute.txt": ("an absolute path", False, "points outside"),
    f"{TOP}/texts/S002.txt": ("/etc/passwd", True, "is a symbolic link, not a file or folder"),
    f"{TOP}/test_set/texts": ("/OUTSIDE", True, "is a symbolic link, not a file or folder"),
    f"{TOP}/README.md": ("../../../../outside/README.md", True, "is a symbolic link, not a file or folder"),
}


@pytest.mark.parametrize("name", TRICKS)
def test_a_member_that_could_write_outside_the_destination_refuses_the_archive(site, good_dest, tmp_path, capsys, name):
    outside = tmp_path / "outside"
    outside.mkdir()
    content, is_link, match = TRICKS[name]
    name, content = (text.replace("/OUTSIDE", str(outside)) for text in (name, content))
    repository = {f"{TOP}/{path}": text for path, text in DATA_FILES.items()}
    trick = {"links": {name: content}} if is_link else {"files": repository | {name: content}}
    site.pages["/tricks.tar.gz"] = make_archive(**{"files": repository, **trick}, top="")
    before = everything_under(good_dest)
    message = refused(site.url("/tricks.tar.gz"), good_dest, capsys, match)
    assert quoted(name) in message
    assert list(outside.iterdir()) == []
    assert everything_under(good_dest) == before


def test_a_device_in_the_archive_refuses_it(site, good_dest, capsys):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        member = tarfile.TarInfo(f"{TOP}/gsml.csv")
        member.type = tarfile.CHRTYPE
        tar.addfile(member)
    site.pages["/device.tar.gz"] = buffer.getvalue()
    refused(site.url("/device.tar.gz"), good_dest, capsys, "'accuracySharedTask-main/gsml.csv' is a character")


# A data file of zeros just over each limit lowered for the tests (the defaults are 64 MiB and 256 MiB: the real data
# is 5.3 MB, its largest file 1.2 MB), in a few kB of gzip.
SMALL = Limits(member_bytes=100_000, total_bytes=250_000, files=20)


@pytest.mark.parametrize(
    "zeros, match",
    [
        ({"texts/S002.txt": 100_001}, "'accuracySharedTask-main/texts/S002.txt' unpacks to 100,001 bytes, more than"),
        ({f"texts/S1{n:02}.txt": 90_000 for n in range(3)}, "its data files unpack to more than 250,000 bytes"),
        ({f"texts/S1{n:02}.txt": 0 for n in range(8)}, "it holds more than 20 data files"),
    ],
    ids=["one file", "all files", "the files"],
)
def test_an_archive_whose_data_files_unpack_beyond_the_limits_is_refused(site, good_dest, capsys, zeros, match):
    site.pages["/zeros.tar.gz"] = make_archive(DATA_FILES, zeros=zeros)
    assert len(site.pages["/zeros.tar.gz"]) < 10_000
    before = everything_under(good_dest)
    refused(site.url("/zeros.tar.gz"), good_dest, capsys, match, limits=SMALL)
    assert everything_under(good_dest) == before


def test_the_limits_bound_only_the_data_files(site, tmp_path):
    """A large file the repository also holds (slides, a spreadsheet) is skipped, not counted."""
    site.pages["/slides.tar.gz"] = make_archive(DATA_FILES, zeros={"Shared Task Evaluating Accuracy.pptx": 300_000})
    assert files_under(fetch_data(site.url("/slides.tar.gz"), tmp_path / "data", limits=SMALL)) == DATA_FILES


def test_a_member_of_400_mb_is_refused_by_the_default_limit_without_being_unpacked(site, good_dest, capsys):
    """The attack's archive: gsml.csv of 400 MB of zeros in 400 kB of gzip (one gzip member per MB, which a .tar.gz
    may be made of). Its size is read from its header: nothing of it is unpacked."""
    member = tarfile.TarInfo(f"{TOP}/gsml.csv")
    member.size = 400 * 10**6
    megabyte = gzip.compress(bytes(10**6))
    end = gzip.compress(bytes(2 * tarfile.BLOCKSIZE))
    site.pages["/bomb.tar.gz"] = gzip.compress(member.tobuf()) + megabyte * 400 + end
    assert len(site.pages["/bomb.tar.gz"]) < 500_000
    before = everything_under(good_dest)
    refused(site.url("/bomb.tar.gz"), good_dest, capsys, "unpacks to 400,000,000 bytes, more than the 67,108,864")
    assert everything_under(good_dest) == before


# --- the pinned data: a commit, and the SHA-256 of its data files (issue 52) ------------------------


def sha256sum_listing(folder: Path) -> str:
    """The SHA-256 of coreutils' sha256sum listing of a folder's files, sorted by path (its marker left out)."""
    names = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file() and p.name != MARKER)
    listing = subprocess.run(["sha256sum", "--", *names], cwd=folder, capture_output=True, check=True).stdout
    return hashlib.sha256(listing).hexdigest()


def shared_data_archive(change: bytes = b"") -> bytes:
    """The shared data folder as GitHub's archive of the pinned commit holds it, with `change` added to gsml.csv."""
    files = {p.relative_to(DATA).as_posix(): p.read_bytes() for p in DATA.rglob("*") if p.is_file()}
    files["gsml.csv"] += change
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, data in (files | {"evaluate.py": b"print()\n"}).items():
            member = tarfile.TarInfo(f"accuracySharedTask-{DEFAULT_COMMIT}/{name}")
            member.size = len(data)
            tar.addfile(member, io.BytesIO(data))
    return buffer.getvalue()


def test_the_default_archive_is_a_commit_s_and_its_sha256_that_of_the_shared_data():
    # The archive of a branch (main.tar.gz) was fetched unchecked: what it held could change under the figures.
    assert re.fullmatch(r"[0-9a-f]{40}", DEFAULT_COMMIT)
    assert DEFAULT_URL == f"https://github.com/ehudreiter/accuracySharedTask/archive/{DEFAULT_COMMIT}.tar.gz"
    assert sha256sum_listing(DATA) == DEFAULT_SHA256  # the files of the commit (read from git) are the shared data's


def test_the_default_fetch_takes_the_pinned_data_and_refuses_other_data(site, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(fetch_module, "DEFAULT_URL", site.url(f"/{DEFAULT_COMMIT}.tar.gz"))
    site.pages[f"/{DEFAULT_COMMIT}.tar.gz"] = shared_data_archive()
    dest = fetch_data(dest=tmp_path / "cache" / "data")
    assert sha256sum_listing(dest) == DEFAULT_SHA256 == json.loads((dest / MARKER).read_text())["sha256"]
    assert sorted(p.relative_to(dest) for p in dest.rglob("*.csv")) == sorted(
        p.relative_to(DATA) for p in DATA.rglob("*.csv")
    )
    site.pages[f"/{DEFAULT_COMMIT}.tar.gz"] = shared_data_archive(change=b"\n")  # one byte more
    before = everything_under(dest)
    assert run(["fetch-data", "--dest", str(dest)]) == 1
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"error: {site.url(f'/{DEFAULT_COMMIT}.tar.gz')}: its data files have the SHA-256 ")
    assert f", not the {DEFAULT_SHA256} expected: refused" in line
    assert everything_under(dest) == before
    assert [p.name for p in dest.parent.iterdir()] == [dest.name]


def test_a_url_s_data_is_checked_against_the_sha256_given(site, tmp_path, capsys):
    url, expected = site.url("/main.tar.gz"), sha256sum_listing(fetch_data(site.url("/main.tar.gz"), tmp_path / "a"))
    assert run(["fetch-data", "--url", url, "--sha256", expected.upper(), "--dest", str(tmp_path / "b")]) == 0
    assert files_under(tmp_path / "b") == DATA_FILES
    wrong = hashlib.sha256(b"other data").hexdigest()
    refused(url, tmp_path / "b", capsys, f"its data files have the SHA-256 {expected}, not the {wrong}", sha256=wrong)
    assert files_under(tmp_path / "b") == DATA_FILES
    refused(url, tmp_path / "b", capsys, "'abc' is not a SHA-256: expected 64 hexadecimal digits", sha256="abc")


# --- what --dest may be -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "where, match",
    [
        (".", "is the current folder or holds it"),
        ("..", "is the current folder or holds it"),
        ("/", "is the root folder"),
        ("a-file", "is not a folder"),
        ("a-link", "is a symbolic link"),
        ("a-file/data", "could not write the data to"),
    ],
)
def test_a_dest_that_cannot_be_replaced_is_refused_in_one_line(site, tmp_path, monkeypatch, capsys, where, match):
    here = tmp_path / "work" / "here"
    here.mkdir(parents=True)
    monkeypatch.chdir(here)
    (here / "a-file").write_text("mine\n")
    (here / "a-link").symlink_to(tmp_path / "work")
    before = everything_under(tmp_path)
    assert run(["fetch-data", "--url", site.url("/main.tar.gz"), "--dest", where]) == 1
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and match in lines[0], lines
    assert everything_under(tmp_path) == before


def test_the_command_says_where_the_data_is(site, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert run(["fetch-data", "--url", site.url("/main.tar.gz"), "--dest", "data"]) == 0
    assert capsys.readouterr().out == f"Shared-task data in {tmp_path / 'data'}\n"
    assert files_under(tmp_path / "data") == DATA_FILES


# --- resolve_data_dir ---------------------------------------------------------------------------


def data_folder(path: Path) -> Path:
    """A folder that holds shared-task data (gsml.csv is what resolve_data_dir looks for)."""
    path.mkdir(parents=True)
    (path / "gsml.csv").write_text("TEXT_ID\n")
    return path


@pytest.fixture
def layout(tmp_path, monkeypatch) -> Path:
    """Work from tmp/work/main, with no env var and an empty cache under tmp/xdg."""
    work = tmp_path / "work" / "main"
    work.mkdir(parents=True)
    monkeypatch.chdir(work)
    monkeypatch.delenv("ACCURACY_DB_DATA", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    return tmp_path


def test_an_explicit_folder_beats_the_environment_variable(layout, monkeypatch):
    explicit = data_folder(layout / "explicit")
    monkeypatch.setenv("ACCURACY_DB_DATA", str(data_folder(layout / "from-env")))
    assert resolve_data_dir(explicit) == explicit


def test_the_environment_variable_beats_the_shared_folder(layout, monkeypatch):
    shared = data_folder(layout / "work" / "shared" / "data" / "accuracy-shared-task")
    from_env = data_folder(layout / "from-env")
    monkeypatch.setenv("ACCURACY_DB_DATA", str(from_env))
    assert resolve_data_dir() == from_env
    monkeypatch.delenv("ACCURACY_DB_DATA")
    assert resolve_data_dir() == SHARED_FOLDER
    assert resolve_data_dir().resolve() == shared


def test_the_shared_folder_beats_the_cache(layout):
    data_folder(cache_dir())
    shared = data_folder(layout / "work" / "shared" / "data" / "accuracy-shared-task")
    assert resolve_data_dir().resolve() == shared


def test_the_cache_is_used_last(layout):
    cache = data_folder(cache_dir())
    assert cache == layout / "xdg" / "accuracy-db" / "accuracy-shared-task"
    assert resolve_data_dir() == cache


def test_a_fetch_fills_the_folder_that_resolve_data_dir_finds(layout, site):
    dest = fetch_data(site.url("/main.tar.gz"))
    assert resolve_data_dir() == dest


def test_no_data_anywhere_says_to_run_fetch_data(layout):
    with pytest.raises(AccuracyDbError, match=r"run `accuracy-db fetch-data`") as error:
        resolve_data_dir()
    assert str(cache_dir()) in str(error.value)


def test_a_missing_explicit_or_env_folder_is_an_error_not_a_fallback(layout, monkeypatch):
    data_folder(cache_dir())
    with pytest.raises(AccuracyDbError, match="from --data"):
        resolve_data_dir(layout / "nowhere")
    monkeypatch.setenv("ACCURACY_DB_DATA", str(layout / "nowhere"))
    with pytest.raises(AccuracyDbError, match="from ACCURACY_DB_DATA"):
        resolve_data_dir()


# --- fetch_participants -------------------------------------------------------------------------

# Two constructed submissions, served as the archives of their repositories at their commits.
PARTICIPANT_FILES = {
    "laval-human": "TEXT_ID,TOKENS,DOC_TOKEN_START,DOC_TOKEN_END,TYPE\nT001.txt,Wednesday,22,22,NAME\n",
    "charles-upf-metric": "TEXT_ID,TOKENS,DOC_TOKEN_START,DOC_TOKEN_END,TYPE\nT001.txt,28,49,49,NUMBER\n",
}


@pytest.fixture
def participants(site, monkeypatch):
    """PARTICIPANTS pinned to the constructed files (their SHA-256), served by the site as GitHub serves archives;
    returns the archives' paths on the site by name."""
    pinned, archives = [], {}
    for real in fetch_module.PARTICIPANTS:
        text = PARTICIPANT_FILES[real.name]
        participant = fetch_module.Participant(
            real.name, real.repository, real.commit, real.path, hashlib.sha256(text.encode()).hexdigest()
        )
        pinned.append(participant)
        archives[real.name] = f"/{real.repository}/archive/{real.commit}.tar.gz"
        site.pages[archives[real.name]] = make_archive({real.path: text, "README.md": "# a team\n"}, top="repo-1")
    monkeypatch.setattr(fetch_module, "PARTICIPANTS", tuple(pinned))
    monkeypatch.setattr(fetch_module, "GITHUB", site.url(""))
    return archives


def test_the_participants_are_pinned_to_commits_of_their_teams_repositories():
    assert {(p.name, p.repository) for p in fetch_module.PARTICIPANTS} == {
        ("laval-human", "ngarneau/accuracySharedTask"),
        ("charles-upf-metric", "kasnerz/accuracySharedTask_CUNI-UPF"),
    }
    for participant in fetch_module.PARTICIPANTS:
        assert re.fullmatch(r"[0-9a-f]{40}", participant.commit)
        assert re.fullmatch(r"[0-9a-f]{64}", participant.sha256)
    assert fetch_module.GITHUB == "https://github.com"


def test_the_participants_files_are_written_by_name(participants, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    written = fetch_module.fetch_participants()
    folder = tmp_path / "xdg" / "accuracy-db" / "participants"
    assert folder == fetch_module.participants_dir()
    assert written == [folder / f"{name}.csv" for name in PARTICIPANT_FILES]
    assert {p.name: p.read_text() for p in folder.iterdir()} == {f"{n}.csv": t for n, t in PARTICIPANT_FILES.items()}


def test_a_participant_s_file_of_another_sha256_is_refused_and_nothing_written(site, participants, tmp_path, capsys):
    dest = tmp_path / "participants"
    dest.mkdir()
    (dest / "laval-human.csv").write_text("earlier\n")
    real = next(p for p in fetch_module.PARTICIPANTS if p.name == "charles-upf-metric")
    site.pages[participants["charles-upf-metric"]] = make_archive({real.path: "changed\n"}, top="repo-1")
    assert run(["fetch-data", "--participants", "--dest", str(dest)]) == 1
    (line,) = capsys.readouterr().err.splitlines()
    url = site.url(participants["charles-upf-metric"])
    changed = hashlib.sha256(b"changed\n").hexdigest()
    assert line.startswith(f"error: {url}: submission.csv has the SHA-256 {changed}")
    assert f"not the {real.sha256} expected: refused" in line
    assert everything_under(dest) == {"laval-human.csv": b"earlier\n"}  # the first one, checked, is not written either


def test_an_archive_without_the_participant_s_file_is_refused(site, participants, tmp_path, capsys):
    site.pages[participants["laval-human"]] = make_archive({"README.md": "# moved\n"}, top="repo-1")
    assert run(["fetch-data", "--participants", "--dest", str(tmp_path / "p")]) == 1
    url = site.url(participants["laval-human"])
    expected = (
        f"error: {url} has no data/submissions/database/submission.csv: not the archive of the repository expected"
    )
    assert capsys.readouterr().err.splitlines() == [expected]
    assert everything_under(tmp_path / "p") == {}


def test_the_command_says_where_the_participants_are(participants, tmp_path, capsys):
    assert run(["fetch-data", "--participants", "--dest", str(tmp_path / "p")]) == 0
    out = capsys.readouterr().out
    assert out == f"The participants' submissions in {tmp_path / 'p'}: laval-human.csv, charles-upf-metric.csv\n"
    assert run(["fetch-data", "--participants", "--url", "http://127.0.0.1/x.tar.gz"]) == 1
    assert capsys.readouterr().err == "error: --participants downloads pinned files: it takes no --url or --sha256\n"
