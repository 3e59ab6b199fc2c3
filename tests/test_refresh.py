"""refresh loads only what changed in the submissions folder, and never publishes a half-made database."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from shared_data import DATA, EXAMPLES

from accuracy_db import database
from accuracy_db.build import build
from accuracy_db.errors import AccuracyDbError
from accuracy_db.evaluate import evaluate
from accuracy_db.publish import writer_lock
from accuracy_db.refresh import refresh


def snapshot(db: Path) -> dict:
    """Everything a database holds that does not depend on when or in which order it was loaded."""
    queries = {
        "scores": "SELECT * EXCLUDE (submission_id) FROM scores ORDER BY submission, position",
        "lists": "SELECT kind, name, split, source_file, sha256, row_count FROM annotation_sets ORDER BY ALL",
        "mistakes": "SELECT * EXCLUDE (mistake_id, set_id, kind) FROM listed_mistakes ORDER BY name, split, line_number",
        "rejections": "SELECT * FROM rejections ORDER BY ALL",
        "metadata": "SELECT * FROM submission_metadata ORDER BY ALL",
        "sources": "SELECT role, name, sha256 FROM source_files ORDER BY ALL",
        "texts": "SELECT split, count(*), sum(token_count) FROM texts GROUP BY ALL ORDER BY ALL",
    }
    con = database.open_existing(db)
    try:
        return {name: con.execute(sql).fetchall() for name, sql in queries.items()}
    finally:
        con.close()


def fresh_build(tmp_path: Path, inbox: Path) -> dict:
    db = tmp_path / "fresh" / "accuracy.duckdb"
    build(DATA, db, inbox)
    return snapshot(db)


def first_rows(source: Path, target: Path, rows: int) -> None:
    """A submission made of the header and the first rows of another."""
    target.write_text("".join(source.read_text().splitlines(keepends=True)[: rows + 1]))


@pytest.fixture
def inbox(tmp_path) -> Path:
    folder = tmp_path / "inbox"
    folder.mkdir()
    return folder


def test_a_series_of_refreshes_gives_the_database_a_fresh_build_gives(tmp_path, inbox):
    db = tmp_path / "accuracy.duckdb"
    shutil.copy(EXAMPLES / "submission.csv", inbox / "alpha.csv")
    (inbox / "alpha.json").write_text(json.dumps({"team": "Aberdeen", "approach": "metric"}))
    first_rows(EXAMPLES / "submission_doc_based.csv", inbox / "beta.csv", 100)
    report = refresh(db, DATA, inbox)
    assert (sorted(report.added), report.published) == (["alpha", "beta"], True)
    assert snapshot(db) == fresh_build(tmp_path / "1", inbox)

    first_rows(EXAMPLES / "submission_doc_based.csv", inbox / "beta.csv", 300)  # changed
    shutil.copy(EXAMPLES / "submission_blank.csv", inbox / "gamma.csv")  # refused
    shutil.copy(EXAMPLES / "gsml_sent_based.csv", inbox / "delta.csv")  # added
    report = refresh(db, DATA, inbox)
    assert (report.added, report.changed, report.unchanged) == (["delta"], ["beta"], ["alpha"])
    assert list(report.refused) == ["gamma"]
    assert snapshot(db) == fresh_build(tmp_path / "2", inbox)

    (inbox / "delta.csv").unlink()  # retired
    (inbox / "alpha.json").write_text(json.dumps({"team": "Aberdeen", "approach": "human"}))  # metadata changed
    shutil.copy(EXAMPLES / "submission_sent_based.csv", inbox / "gamma.csv")  # a refused one fixed
    report = refresh(db, DATA, inbox)
    assert (report.changed, report.retired, report.refused) == (["alpha", "gamma"], ["delta"], {})
    assert snapshot(db) == fresh_build(tmp_path / "3", inbox)


def test_the_leaderboard_after_a_refresh_gives_what_evaluate_gives_for_each_file(tmp_path, inbox):
    db = tmp_path / "accuracy.duckdb"
    for name in ("submission_sent_based", "gsml_doc_based", "submission_malformed"):
        shutil.copy(EXAMPLES / f"{name}.csv", inbox / f"{name}.csv")
    first_rows(DATA / "test_set/gsml.csv", inbox / "test_half.csv", 300)
    refresh(db, DATA, inbox)
    result = subprocess.run(
        [sys.executable, "-m", "accuracy_db", "leaderboard", "--db", str(db), "--format", "json"],
        capture_output=True,
        text=True,
        check=True,
    )
    board = {row["submission"]: row for row in json.loads(result.stdout)}
    assert sorted(board) == ["gsml_doc_based", "submission_sent_based", "test_half"]  # not the refused one
    for name, row in board.items():
        gold = DATA / ("test_set/gsml.csv" if row["split"] == "test" else "gsml.csv")
        (figures,) = [s for s in evaluate(gold, inbox / f"{name}.csv") if s["categories"] == "ALL"]
        assert {key: row[key] for key in figures} == figures


def test_a_bad_submission_is_recorded_with_its_reasons_and_the_good_ones_are_scored(tmp_path, inbox):
    db = tmp_path / "accuracy.duckdb"
    shutil.copy(EXAMPLES / "submission_overlapping.csv", inbox / "bad.csv")
    shutil.copy(EXAMPLES / "submission.csv", inbox / "good.csv")
    refresh(db, DATA, inbox)
    con = database.open_existing(db)
    assert con.execute("SELECT line, message FROM rejections WHERE submission = 'bad' ORDER BY message").fetchall() == [
        (80, "TOKENS is 'of – 4', but tokens 190-192 of S008 are 'of - 4'"),
        (80, "overlaps line 79: both mark tokens 190-192 of S008"),
    ]
    assert con.execute("SELECT submission, matched FROM scores WHERE scope = 'ALL'").fetchall() == [("good", 350)]


def test_when_nothing_changed_nothing_is_published(tmp_path, inbox):
    db = tmp_path / "accuracy.duckdb"
    shutil.copy(EXAMPLES / "submission.csv", inbox / "alpha.csv")
    refresh(db, DATA, inbox)
    published = db.stat()
    os.utime(inbox / "alpha.csv")  # touched, same bytes
    report = refresh(db, DATA, inbox)
    assert (report.published, report.unchanged) == (False, ["alpha"])
    assert (db.stat().st_ino, db.stat().st_mtime_ns) == (published.st_ino, published.st_mtime_ns)


def copy_of_the_data(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    shutil.copytree(DATA / "texts", data / "texts")
    for name in ("gsml.csv", "games.csv", "shared_task.jsonl"):
        shutil.copy(DATA / name, data / name)
    return data


def test_a_changed_gold_list_rescores_everything(tmp_path, inbox):
    data, db = copy_of_the_data(tmp_path), tmp_path / "accuracy.duckdb"
    shutil.copy(EXAMPLES / "submission.csv", inbox / "alpha.csv")
    refresh(db, data, inbox)
    first_rows(DATA / "gsml.csv", data / "gsml.csv", 600)  # a corrected gold list: half of it
    report = refresh(db, data, inbox)
    assert report.added == ["alpha"]  # everything was loaded again
    con = database.open_existing(db)
    gold_sha256 = con.execute("SELECT sha256 FROM annotation_sets WHERE kind = 'gold'").fetchall()
    assert con.execute("SELECT DISTINCT gold_total, gold_sha256 FROM scores WHERE scope = 'ALL'").fetchall() == [
        (600, gold_sha256[0][0])
    ]


def test_a_second_writer_is_refused_with_a_clear_message(tmp_path, inbox):
    db = tmp_path / "accuracy.duckdb"
    with writer_lock(db):
        with pytest.raises(AccuracyDbError, match=f"{db} is being written by pid {os.getpid()}; nothing was done"):
            refresh(db, DATA, inbox)
    assert not db.exists()


# --- real processes: killed, read from and run at the same time ---


def many_submissions(inbox: Path, count: int) -> None:
    for i in range(count):
        first_rows(EXAMPLES / "submission.csv", inbox / f"s{i:03}.csv", 100 + 4 * i)


def start_refresh(db: Path, inbox: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "accuracy_db",
            "refresh",
            "--data",
            str(DATA),
            "--db",
            str(db),
            "--submissions",
            str(inbox),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_a_refresh_killed_at_any_moment_leaves_the_previous_database(tmp_path, inbox):
    db = tmp_path / "accuracy.duckdb"
    many_submissions(inbox, 2)
    refresh(db, DATA, inbox)
    before = snapshot(db)
    many_submissions(inbox, 80)  # 78 to add: a refresh that takes a few seconds
    after = fresh_build(tmp_path, inbox)
    kills = 0
    for delay in (0.0, 0.3, 0.6, 0.9, 1.2, 1.6, 2.0, 2.5, 3.0, 4.0, 6.0):
        process = start_refresh(db, inbox)
        time.sleep(delay)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
        if process.returncode == 0:  # it finished before the kill: nothing left to test at later points
            break
        kills += 1
        if snapshot(db) != before:  # killed after publishing, before exiting: all of it is there
            assert snapshot(db) == after
            break
    assert kills >= 4, "the refresh finished too soon to be killed at several points"
    refresh(db, DATA, inbox)
    assert snapshot(db) == after
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".accuracy")) == [".accuracy.duckdb.lock"]


READER = """
import json, sys, time
from accuracy_db import database
db, until = sys.argv[1], time.time() + float(sys.argv[2])
while time.time() < until:
    try:
        con = database.open_existing(db)
        publications = con.execute("SELECT count(*) FROM publications").fetchall()[0][0]
        scored = [r[0] for r in con.execute("SELECT submission FROM leaderboard WHERE scope = 'ALL' ORDER BY 1").fetchall()]
        listed = [r[0] for r in con.execute("SELECT name FROM annotation_sets WHERE kind = 'submission' ORDER BY 1").fetchall()]
        con.close()
        print(json.dumps([publications, scored, listed]), flush=True)
    except Exception as error:
        print(json.dumps(["error", repr(error)]), flush=True)
"""


def test_a_reader_never_fails_and_never_sees_a_mix_of_states(tmp_path, inbox):
    db = tmp_path / "accuracy.duckdb"
    refresh(db, DATA, inbox)
    expected = {1: []}  # publication count -> the submissions of that state
    reader = subprocess.Popen([sys.executable, "-c", READER, str(db), "8"], stdout=subprocess.PIPE, text=True)
    for step in range(6):
        if step % 3 == 2:
            next(inbox.glob("*.csv")).unlink()
        else:
            first_rows(EXAMPLES / "submission.csv", inbox / f"s{step}.csv", 50 + step)
        report = refresh(db, DATA, inbox)
        expected[len(expected) + 1] = sorted(p.stem for p in inbox.glob("*.csv"))
        assert report.published
    observations = [json.loads(line) for line in reader.communicate(timeout=60)[0].splitlines()]
    assert observations and all(o[0] != "error" for o in observations), observations[:3]
    for publications, scored, listed in observations:
        assert scored == listed == expected[publications]
    assert len({o[0] for o in observations}) > 2  # the reader saw the states change


def test_two_refreshes_at_once_do_not_corrupt_anything(tmp_path, inbox):
    db = tmp_path / "accuracy.duckdb"
    many_submissions(inbox, 20)
    first, second = start_refresh(db, inbox), start_refresh(db, inbox)
    outcomes = [p.communicate(timeout=120) + (p.returncode,) for p in (first, second)]
    assert sorted(code for _, _, code in outcomes) in ([0, 0], [0, 1])
    for _, stderr, code in outcomes:
        if code == 1:
            assert "is being written by" in stderr and "Traceback" not in stderr
    assert snapshot(db) == fresh_build(tmp_path, inbox)


def test_watch_refreshes_when_the_folder_changes_and_logs_a_line_a_run(tmp_path, inbox):
    db = tmp_path / "accuracy.duckdb"
    watcher = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "accuracy_db",
            "refresh",
            "--data",
            str(DATA),
            "--db",
            str(db),
            "--submissions",
            str(inbox),
            "--watch",
            "--interval",
            "0.2",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:

        def published() -> list[str]:
            deadline = time.time() + 30
            while time.time() < deadline:
                if db.exists():
                    con = database.open_existing(db)
                    names = [
                        r[0]
                        for r in con.execute("SELECT name FROM annotation_sets WHERE kind = 'submission'").fetchall()
                    ]
                    con.close()
                    if names == sorted(p.stem for p in inbox.glob("*.csv")):
                        return names
                time.sleep(0.2)
            pytest.fail("the watcher did not publish the folder's submissions within 30 s")

        assert published() == []
        shutil.copy(EXAMPLES / "submission.csv", inbox / "alpha.csv")
        assert published() == ["alpha"]
    finally:
        watcher.send_signal(signal.SIGINT)
        stdout, stderr = watcher.communicate(timeout=30)
    lines = stdout.splitlines()
    assert len(lines) == 2 and "0 added" in lines[0] and "1 added" in lines[1], stdout
    assert "Traceback" not in stderr


def test_a_name_with_glob_characters_in_the_inbox_is_read_by_its_exact_path(tmp_path, inbox):
    db = tmp_path / "accuracy.duckdb"
    first_rows(EXAMPLES / "submission.csv", inbox / "ab.csv", 50)
    first_rows(EXAMPLES / "submission.csv", inbox / "a[b].csv", 120)
    first_rows(EXAMPLES / "submission.csv", inbox / "a*.csv", 80)
    refresh(db, DATA, inbox)
    con = database.open_existing(db)
    assert con.execute(
        "SELECT name, row_count, sha256 FROM annotation_sets WHERE kind = 'submission' ORDER BY name"
    ).fetchall() == [
        (path.stem, rows, hashlib.sha256(path.read_bytes()).hexdigest())
        for path, rows in sorted([(inbox / "a*.csv", 80), (inbox / "a[b].csv", 120), (inbox / "ab.csv", 50)])
    ]
    assert con.execute("SELECT submission, submitted_total FROM scores WHERE scope = 'ALL' ORDER BY 1").fetchall() == [
        ("a*", 80),
        ("a[b]", 120),
        ("ab", 50),
    ]
