"""Files the commands write where the user names them (issue 48, finding 1): adjudicate's NAME.jsonl (--soft) and
NAME.csv with NAME.json (--min-votes), query -o in a text format and in parquet, evaluate --csv_out, export
factgenie --out. Each command runs as a process, as people run it, with a time bound, so that a FIFO that would
block the write fails the test instead of hanging it. An existing file is kept byte for byte unless --force is
given; a link is not followed (its target kept); a folder and a FIFO are refused in one line; --force puts a new
file in place in one step (a reader holding the old one keeps reading it whole; no temporary file is left); a file
registered as an input of the database (the Mu-SHROOM gold file, a corpus folder's file, a scores file, the database
itself) is refused even with --force."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from shared_data import DATA, EXAMPLES
from test_mushroom import write
from test_mushroom_registered import LABELLED
from weather_corpus import import_weather

from accuracy_db import output_files
from accuracy_db.cli.main import run
from accuracy_db.errors import AccuracyDbError
from accuracy_db.store import database

PRECIOUS = b"precious bytes\n"
EXISTS = "exists: give --force to replace it; nothing was written"
LINK = "is a symbolic link: it is not followed, and nothing was written (give another name)"


@pytest.fixture(scope="module")
def inputs_db(built_db, tmp_path_factory) -> Path:
    """A copy of the built database with a Mu-SHROOM gold file (ref.jsonl), a corpus folder (weather/) and a scores
    file (taken.csv) registered, all in the database's folder."""
    folder = tmp_path_factory.mktemp("outputs")
    db = folder / "accuracy.duckdb"
    shutil.copyfile(built_db, db)
    gold = write(folder / "ref.jsonl", LABELLED)
    assert run(["import", "mushroom", "--db", str(db), "--as", "gold", str(gold)]) == 0
    import_weather(db, folder)
    con = database.open_existing(db)
    test_ids = [text_id for (text_id,) in con.execute("SELECT text_id FROM texts WHERE split = 'test'").fetchall()]
    con.close()
    (folder / "taken.csv").write_text("text_id,score\n" + "".join(f"{text_id},1\n" for text_id in test_ids))
    assert run(["import", "scores", str(folder / "taken.csv"), "--lower-is-better", "--db", str(db)]) == 0
    return db


def accuracy_db(*args) -> subprocess.CompletedProcess:
    """The command as a process: a write that blocks fails by the time bound, not by hanging the suite."""
    command = [sys.executable, "-m", "accuracy_db", *map(str, args)]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def refused(result: subprocess.CompletedProcess, path: Path, reason: str) -> None:
    assert (result.returncode, result.stdout, result.stderr) == (1, "", f"error: {path}: {reason}\n")


# Each writer: the file it writes (its name in the folder) and its arguments to write it there.
WRITERS = {
    "adjudicate --soft": (
        "soft.jsonl",
        lambda db, folder: ["adjudicate", "annotator/p", "annotator/q", "--soft", "--as", "soft", "--corpus",
                            "mushroom", "--out", folder, "--db", db],
    ),
    "adjudicate --min-votes": (
        "majority.csv",
        lambda db, folder: ["adjudicate", "gold", "metric", "llm", "--min-votes", "2", "--as", "majority",
                            "--corpus", "weather", "--out", folder, "--db", db],
    ),
    "query -o csv": (
        "rows.csv",
        lambda db, folder: ["query", "SELECT category FROM categories ORDER BY ALL", "--format", "csv",
                            "-o", folder / "rows.csv", "--db", db],
    ),
    "query -o parquet": (
        "rows.parquet",
        lambda db, folder: ["query", "SELECT category FROM categories ORDER BY ALL", "--format", "parquet",
                            "-o", folder / "rows.parquet", "--db", db],
    ),
    "evaluate --csv_out": (
        "figures.csv",
        lambda db, folder: ["evaluate", "--gsml", DATA / "gsml.csv", "--submitted", EXAMPLES / "submission.csv",
                            "--text_dir", DATA / "texts", "--csv_out", folder / "figures.csv"],
    ),
}  # fmt: skip
writers = pytest.mark.parametrize("writer", WRITERS)


def written_by(writer: str, db: Path, folder: Path, *options: str) -> tuple[Path, subprocess.CompletedProcess]:
    name, arguments = WRITERS[writer]
    return folder / name, accuracy_db(*arguments(db, folder), *options)


@writers
def test_an_existing_file_is_kept_byte_for_byte_without_force(inputs_db, tmp_path, writer):
    path = tmp_path / WRITERS[writer][0]
    path.write_bytes(PRECIOUS)
    _, result = written_by(writer, inputs_db, tmp_path)
    refused(result, path, EXISTS)
    assert path.read_bytes() == PRECIOUS
    assert sorted(tmp_path.iterdir()) == [path]  # nothing else written, no temporary file left


@writers
@pytest.mark.parametrize("target", ["a file", "no file"])
def test_a_link_is_not_followed_even_with_force(inputs_db, tmp_path, writer, target):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    aimed = elsewhere / "target"
    if target == "a file":
        aimed.write_bytes(PRECIOUS)
    path = tmp_path / WRITERS[writer][0]
    path.symlink_to(aimed)
    _, result = written_by(writer, inputs_db, tmp_path, "--force")
    refused(result, path, LINK)
    assert path.is_symlink() and os.readlink(path) == str(aimed)
    assert aimed.read_bytes() == PRECIOUS if target == "a file" else not aimed.exists()
    assert sorted(tmp_path.iterdir()) == [elsewhere, path]


@writers
@pytest.mark.parametrize(("kind", "reason"), [("folder", "a directory"), ("fifo", "a FIFO (named pipe)")])
def test_a_folder_and_a_fifo_are_refused_in_one_line_without_hanging(inputs_db, tmp_path, writer, kind, reason):
    path = tmp_path / WRITERS[writer][0]
    if kind == "folder":
        path.mkdir()
        (path / "inside").write_bytes(PRECIOUS)
    else:
        os.mkfifo(path)
    _, result = written_by(writer, inputs_db, tmp_path, "--force")  # (a timeout here is the FIFO blocking the write)
    refused(result, path, f"not a regular file: it is {reason}; nothing was written (give a file's name)")
    assert path.is_dir() == (kind == "folder") and path.is_fifo() == (kind == "fifo")
    assert sorted(tmp_path.iterdir()) == [path]


@writers
def test_force_puts_the_new_file_in_place_in_one_step(inputs_db, tmp_path, writer):
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    expected, result = written_by(writer, inputs_db, fresh)
    assert result.returncode == 0, result.stderr
    old = tmp_path / WRITERS[writer][0]
    old.write_bytes(PRECIOUS)
    old_inode = old.stat().st_ino
    with old.open("rb") as reader:  # a reader of the old file keeps it whole: the new one is a new file
        path, result = written_by(writer, inputs_db, tmp_path, "--force")
        assert result.returncode == 0, result.stderr
        assert reader.read() == PRECIOUS
    assert path == old and path.stat().st_ino != old_inode
    assert path.read_bytes() == expected.read_bytes() and path.stat().st_mode == expected.stat().st_mode
    written = {p.name for p in fresh.iterdir()}
    assert {p.name for p in tmp_path.iterdir()} == written | {"fresh"}  # no temporary file left


@pytest.mark.parametrize(
    "registered",
    ["ref.jsonl", "weather/lists/gold.jsonl", "weather/texts.jsonl", "taken.csv", "accuracy.duckdb"],
)
def test_an_input_of_the_database_is_refused_even_with_force(inputs_db, registered):
    path = inputs_db.parent / registered
    before = path.read_bytes()
    sql = "SELECT category FROM categories ORDER BY ALL"
    result = accuracy_db("query", sql, "--format", "csv", "-o", path, "--force", "--db", inputs_db)
    refused(result, path, f"is an input of the database {inputs_db}: it is never replaced, even with --force; nothing"
                          " was written")  # fmt: skip
    assert path.read_bytes() == before


def test_adjudicate_soft_as_the_gold_file_s_name_keeps_the_gold_file(inputs_db):
    """The issue's case: adjudicate --soft --as ref in the folder of the registered gold file ref.jsonl."""
    gold = inputs_db.parent / "ref.jsonl"
    before = gold.read_bytes()
    args = ["adjudicate", "annotator/p", "annotator/q", "--soft", "--as", "ref", "--corpus", "mushroom"]
    result = accuracy_db(*args, "--out", inputs_db.parent, "--db", inputs_db, "--force")
    refused(result, gold, f"is an input of the database {inputs_db}: it is never replaced, even with --force; nothing"
                          " was written")  # fmt: skip
    assert gold.read_bytes() == before


def test_another_name_of_an_input_is_refused_too(inputs_db, tmp_path):
    """A hard link to a registered file, and a file of a registered folder (one the loader does not read) reached
    through a link, are inputs too."""
    hard = tmp_path / "hard.csv"
    os.link(inputs_db.parent / "taken.csv", hard)
    (inputs_db.parent / "weather" / "notes.txt").write_bytes(PRECIOUS)
    (tmp_path / "corpus").symlink_to(inputs_db.parent / "weather")
    through = tmp_path / "corpus" / "notes.txt"
    before = through.read_bytes()
    sql = "SELECT 1 AS x"
    for path, reason in [
        (hard, f"is an input of the database {inputs_db} ({inputs_db.parent / 'taken.csv'})"),
        (through, f"is in {inputs_db.parent / 'weather'}, a folder of the inputs of the database {inputs_db}"),
    ]:
        result = accuracy_db("query", sql, "--format", "csv", "-o", path, "--force", "--db", inputs_db)
        refused(result, path, f"{reason}: it is never replaced, even with --force; nothing was written")
    assert hard.read_text().startswith("text_id,score\n") and through.read_bytes() == before


def test_evaluate_never_writes_over_the_lists_it_reads(tmp_path):
    gold, submitted = tmp_path / "gold.csv", tmp_path / "submitted.csv"
    shutil.copyfile(DATA / "gsml.csv", gold)
    shutil.copyfile(EXAMPLES / "submission.csv", submitted)
    before = gold.read_bytes()
    args = ["evaluate", "--gsml", gold, "--submitted", submitted, "--text_dir", DATA / "texts", "--force"]
    result = accuracy_db(*args, "--csv_out", gold)
    refused(result, gold, "is an input of this command: it is never replaced, even with --force; nothing was written")
    assert gold.read_bytes() == before


def test_majority_gold_writes_neither_file_when_its_sidecar_is_refused(inputs_db, tmp_path):
    (tmp_path / "majority.json").write_bytes(PRECIOUS)
    _, result = written_by("adjudicate --min-votes", inputs_db, tmp_path)
    refused(result, tmp_path / "majority.json", EXISTS)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["majority.json"]
    assert (tmp_path / "majority.json").read_bytes() == PRECIOUS


def test_export_factgenie_does_not_follow_a_link_as_its_folder(built_db, tmp_path):
    (tmp_path / "empty").mkdir()
    (tmp_path / "campaign").symlink_to(tmp_path / "empty")
    result = accuracy_db("export", "factgenie", "--db", built_db, "--out", tmp_path / "campaign")
    assert (result.returncode, result.stdout) == (1, "")
    assert (
        result.stderr
        == f"error: {tmp_path / 'campaign'} is a symbolic link: it is not followed; give a new folder to --out\n"
    )
    assert list((tmp_path / "empty").iterdir()) == []


@pytest.mark.parametrize(("command", "kind"), [("build", "a list"), ("build", "a FIFO"), ("refresh", "a FIFO")])
def test_build_and_refresh_publish_over_a_database_only(tmp_path, command, kind):
    """The database is written by a rename over --db: a list named as --db by mistake is kept, a FIFO refused
    (refresh already refused a file it cannot open as a database)."""
    db = tmp_path / "gold.csv"
    if kind == "a list":
        shutil.copyfile(DATA / "gsml.csv", db)
        reason = "not a DuckDB database, and only a database is replaced: give another --db, or remove the file"
    else:
        os.mkfifo(db)
        reason = "not a regular file: it is a FIFO (named pipe), not a database: give another --db"
    (tmp_path / "inbox").mkdir()
    result = accuracy_db(command, "--db", db, "--data", DATA, "--submissions", tmp_path / "inbox")
    assert (result.returncode, result.stderr) == (1, f"error: {db}: {reason}\n")
    assert db.read_bytes() == (DATA / "gsml.csv").read_bytes() if kind == "a list" else db.is_fifo()


# --- the module itself: what the processes above cannot make happen ---


def test_a_file_that_appears_while_it_is_written_is_kept(tmp_path, monkeypatch):
    path = tmp_path / "out.csv"
    link = os.link

    def appearing(source, target, **kwargs):  # another process makes the file after the last check
        path.write_bytes(PRECIOUS)
        link(source, target, **kwargs)

    monkeypatch.setattr(os, "link", appearing)
    with pytest.raises(AccuracyDbError, match="appeared while it was written: give --force to replace it"):
        output_files.write_file(path, b"new\n")
    assert path.read_bytes() == PRECIOUS and sorted(tmp_path.iterdir()) == [path]


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary_file(tmp_path, monkeypatch):
    path = tmp_path / "out.csv"
    path.write_bytes(PRECIOUS)

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(AccuracyDbError) as refusal:
        output_files.write_file(path, b"new\n", force=True)
    assert str(refusal.value) == f"{path}: cannot write the file (No space left on device); nothing was written"
    assert path.read_bytes() == PRECIOUS and sorted(tmp_path.iterdir()) == [path]


def test_a_file_system_without_hard_links_gets_the_new_file_all_the_same(tmp_path, monkeypatch):
    def no_links(*args, **kwargs):
        raise OSError(errno.EPERM, os.strerror(errno.EPERM))

    monkeypatch.setattr(os, "link", no_links)
    path = tmp_path / "out.csv"
    output_files.write_file(path, b"new\n")
    assert path.read_bytes() == b"new\n" and sorted(tmp_path.iterdir()) == [path]
    with pytest.raises(AccuracyDbError, match=EXISTS):
        output_files.write_file(path, b"newer\n")
    assert path.read_bytes() == b"new\n"
