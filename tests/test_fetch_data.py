"""`fetch_data` downloads the repository archive and keeps only its data files; `resolve_data_dir` finds them.

The archive is built here and served from 127.0.0.1, so no test needs the internet.
"""

from __future__ import annotations

import io
import socket
import tarfile
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import pytest
from accuracy_db.etl.data_folder import SHARED_FOLDER, cache_dir, resolve_data_dir

from accuracy_db.errors import AccuracyDbError
from accuracy_db.ingest.fetch_data import fetch_data

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


def make_archive(files: dict[str, str], top: str = TOP, links: dict[str, str] | None = None) -> bytes:
    """A .tar.gz shaped like GitHub's: links (name -> target) first, then files, each under the `top` folder."""
    # top="" writes the file names as given, to build archives with members outside any top folder.
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, target in (links or {}).items():
            member = tarfile.TarInfo(f"{top}/{name}")
            member.type, member.linkname = tarfile.SYMTYPE, target
            tar.addfile(member)
        for name, text in files.items():
            data = text.encode()
            member = tarfile.TarInfo(f"{top}/{name}" if top else name)
            member.size = len(data)
            tar.addfile(member, io.BytesIO(data))
    return buffer.getvalue()


def files_under(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): p.read_text() for p in sorted(folder.rglob("*")) if p.is_file()}


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


@pytest.fixture
def good_dest(tmp_path) -> Path:
    """A data folder from an earlier, successful fetch."""
    dest = tmp_path / "cache" / "accuracy-shared-task"
    (dest / "texts").mkdir(parents=True)
    (dest / "gsml.csv").write_text("earlier gsml\n")
    (dest / "texts" / "S001.txt").write_text("earlier text\n")
    return dest


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
    (good_dest / "stale.csv").write_text("from an older version\n")
    fetch_data(site.url("/main.tar.gz"), good_dest)
    assert files_under(good_dest) == DATA_FILES
    assert [p.name for p in good_dest.parent.iterdir()] == [good_dest.name]


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


def test_members_that_point_outside_the_destination_are_not_written(site, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    tricks = {
        "../outside/escaped.txt": "'..' right after the top folder",
        "texts/../../../outside/escaped-too.txt": "'..' hidden deeper",
        "curation/../../../outside/CURATION_USER.tsv": "'..' where any number of folders is allowed",
        f"{outside}/absolute.txt": "an absolute path",
        "test_set/texts/T009.txt": "written through the test_set/texts link if links were followed",
    }
    links = {"test_set/texts": str(outside), "texts/S002.txt": "/etc/passwd"}
    site.pages["/tricks.tar.gz"] = make_archive(DATA_FILES | tricks, links=links)
    dest = tmp_path / "data"  # unpacked first into tmp_path/.data-*/data: three '..' up is tmp_path
    fetch_data(site.url("/tricks.tar.gz"), dest)
    assert list(outside.iterdir()) == []
    assert not any(p.is_symlink() for p in dest.rglob("*"))
    assert files_under(dest) == DATA_FILES | {"test_set/texts/T009.txt": tricks["test_set/texts/T009.txt"]}


def test_members_outside_the_top_folder_are_not_written(site, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    tricks = {
        "../curation/../../../outside/CURATION_USER.tsv": "'..' as the top folder",
        f"{outside}/curation/../../../outside/CURATION_USER.tsv": "an absolute path",
    }
    repository = {f"{TOP}/{name}": text for name, text in DATA_FILES.items()}
    site.pages["/tricks.tar.gz"] = make_archive(tricks | repository, top="")
    fetch_data(site.url("/tricks.tar.gz"), tmp_path / "data")
    assert list(outside.iterdir()) == []
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
