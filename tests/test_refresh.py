"""refresh loads only what changed in the submissions folder, and never publishes a half-made database."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest
from shared_data import DATA, EXAMPLES

from accuracy_db.errors import AccuracyDbError
from accuracy_db.ingest import checker
from accuracy_db.ingest.build import build
from accuracy_db.ingest.refresh import refresh
from accuracy_db.ingest.watch import folder_state, watch
from accuracy_db.scoring.evaluate import evaluate
from accuracy_db.store import database
from accuracy_db.store.publish import no_room, work_path, writer_lock


def snapshot(db: Path) -> dict:
    """Everything a database holds that does not depend on when or in which order it was loaded."""
    queries = {
        # (a list of both splits, as the box-score checker's, has a row of each scope in each)
        "scores": "SELECT * EXCLUDE (submission_id) FROM scores ORDER BY submission, split, position",
        "lists": "SELECT kind, name, split, source_file, sha256, row_count FROM annotation_sets ORDER BY ALL",
        "mistakes": "SELECT * EXCLUDE (mistake_id, set_id, kind) FROM listed_mistakes ORDER BY name, split, line_number",
        "rejections": "SELECT * FROM rejections ORDER BY ALL",
        "metadata": "SELECT * FROM submission_metadata ORDER BY ALL",
        "sources": "SELECT role, name, sha256 FROM source_files ORDER BY ALL",
        "texts": "SELECT split, count(*), sum(token_count) FROM texts GROUP BY ALL ORDER BY ALL",
        # tables computed whole from every submission: a count over a split's submissions, kept right by refresh
        "difficulty": "SELECT * EXCLUDE (submission_id) FROM recall_by_difficulty ORDER BY ALL",
        "found_by": "SELECT * EXCLUDE (gold_mistake_id) FROM gold_mistake_difficulty ORDER BY ALL",
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
    # not the refused one; the box-score checker's list, which every build adds, has no file (tests/test_checker.py)
    assert sorted(board) == ["boxscore", "gsml_doc_based", "submission_sent_based", "test_half"]
    for name, row in board.items():
        if name == "boxscore":
            continue
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
        (80, "overlaps line 79: both mark tokens 190-192 of S008"),
    ]
    assert con.execute(
        "SELECT submission, matched FROM scores WHERE scope = 'ALL' AND submission <> 'boxscore'"
    ).fetchall() == [("good", 350)]


def test_after_a_refresh_from_another_folder_the_refusals_name_its_files(tmp_path, inbox):
    """refresh --submissions DIR retires what is not in DIR; a file of the same name and bytes in DIR is read from
    there: its refusal, and its list's source, name the file in DIR, not the old folder's."""
    db = tmp_path / "accuracy.duckdb"
    build(DATA, db, EXAMPLES)
    for name in ("submission_overlapping.csv", "submission.csv"):
        shutil.copy(EXAMPLES / name, inbox / name)
    report = refresh(db, DATA, inbox)
    assert len(report.retired) == 6
    con = database.open_existing(db)
    assert con.execute("SELECT DISTINCT submission, file FROM rejections").fetchall() == [
        ("submission_overlapping", str(inbox / "submission_overlapping.csv"))
    ]
    assert con.execute("SELECT source_file FROM annotation_sets WHERE name = 'submission'").fetchall() == [
        (str(inbox / "submission.csv"),)
    ]
    con.close()
    assert snapshot(db) == fresh_build(tmp_path, inbox)
    report = refresh(db, DATA, inbox)
    assert (report.published, report.unchanged, list(report.refused)) == (
        False,
        ["submission"],
        ["submission_overlapping"],
    )


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
    gold_sha256 = con.execute("SELECT content_sha256 FROM annotation_sets WHERE kind = 'gold'").fetchall()
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
    many_submissions(inbox, 40)  # 38 to add: a refresh that takes a few seconds
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


# the inbox's submissions, scored and listed: not the box-score checker's list, which every build adds
# (tests/test_checker.py)
READER = """
import json, os, sys
from accuracy_db.store import database
db, stop = sys.argv[1], sys.argv[2]
while not os.path.exists(stop):
    try:
        con = database.open_existing(db)
        publications = con.execute("SELECT count(*) FROM publications").fetchall()[0][0]
        scored = [r[0] for r in con.execute("SELECT submission FROM leaderboard WHERE scope = 'ALL' AND submission <> 'boxscore' ORDER BY 1").fetchall()]
        listed = [r[0] for r in con.execute("SELECT name FROM annotation_sets WHERE kind = 'submission' AND name <> 'boxscore' ORDER BY 1").fetchall()]
        con.close()
        print(json.dumps([publications, scored, listed]), flush=True)
    except Exception as error:
        print(json.dumps(["error", repr(error)]), flush=True)
"""


def test_a_reader_never_fails_and_never_sees_a_mix_of_states(tmp_path, inbox):
    db = tmp_path / "accuracy.duckdb"
    refresh(db, DATA, inbox)
    expected = {1: []}  # publication count -> the submissions of that state
    stop = tmp_path / "stop"
    reader = subprocess.Popen([sys.executable, "-c", READER, str(db), str(stop)], stdout=subprocess.PIPE, text=True)
    observations = []

    def read_until(publications):  # the reader's lines up to its first sight of this state (or an error)
        while not observations or observations[-1][0] not in (publications, "error"):
            observations.append(json.loads(reader.stdout.readline()))

    read_until(1)
    for step in range(6):
        if step % 3 == 2:
            next(inbox.glob("*.csv")).unlink()
        else:
            first_rows(EXAMPLES / "submission.csv", inbox / f"s{step}.csv", 50 + step)
        report = refresh(db, DATA, inbox)
        expected[len(expected) + 1] = sorted(p.stem for p in inbox.glob("*.csv"))
        assert report.published
        if step % 2:  # every other state is waited for; the others may be seen, or replaced unseen, mid-read
            read_until(len(expected))
    stop.touch()
    observations += [json.loads(line) for line in reader.communicate(timeout=60)[0].splitlines()]
    assert all(o[0] != "error" for o in observations), [o for o in observations if o[0] == "error"][:3]
    for publications, scored, listed in observations:
        assert scored == listed == expected[publications]
    assert {1, 3, 5, 7} <= {o[0] for o in observations}  # the reader saw the states change


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
                        for r in con.execute(
                            "SELECT name FROM annotation_sets WHERE kind = 'submission' AND source_file <> ?",
                            [checker.SOURCE],
                        ).fetchall()
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
    assert watcher.returncode == 0 and "Traceback" not in stderr
    assert stderr.splitlines()[-1].endswith(f"stopped watching {inbox} (SIGINT)"), stderr


def test_a_name_with_glob_characters_in_the_inbox_is_read_by_its_exact_path(tmp_path, inbox):
    db = tmp_path / "accuracy.duckdb"
    first_rows(EXAMPLES / "submission.csv", inbox / "ab.csv", 50)
    first_rows(EXAMPLES / "submission.csv", inbox / "a[b].csv", 120)
    first_rows(EXAMPLES / "submission.csv", inbox / "a*.csv", 80)
    refresh(db, DATA, inbox)
    con = database.open_existing(db)
    assert con.execute(
        "SELECT name, row_count, sha256 FROM annotation_sets WHERE kind = 'submission' AND source_file <> ?"
        " ORDER BY name",
        [checker.SOURCE],
    ).fetchall() == [
        (path.stem, rows, hashlib.sha256(path.read_bytes()).hexdigest())
        for path, rows in sorted([(inbox / "a*.csv", 80), (inbox / "a[b].csv", 120), (inbox / "ab.csv", 50)])
    ]
    assert con.execute(
        "SELECT submission, submitted_total FROM scores WHERE scope = 'ALL' AND submission <> 'boxscore' ORDER BY 1"
    ).fetchall() == [
        ("a*", 80),
        ("a[b]", 120),
        ("ab", 50),
    ]


# --- the watcher runs until stopped ---

HOLD_LOCK = """
import sys
from pathlib import Path
from accuracy_db.store.publish import writer_lock
with writer_lock(Path(sys.argv[1])):
    print("locked", flush=True)
    sys.stdin.read()  # until the test closes it
"""


def hold_lock(db: Path) -> subprocess.Popen:
    """A process that holds the writer lock of db, as a long refresh does, until its stdin is closed."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout.readline() == "locked\n"
    return holder


def release(holder: subprocess.Popen) -> None:
    holder.stdin.close()
    holder.wait(timeout=30)


def start_watch(db: Path, inbox: Path, log: Path) -> subprocess.Popen:
    """A watcher process; what it prints goes to log (stdout) and log.err (stderr), read while it runs."""
    with log.open("w") as stdout, log.with_suffix(".err").open("w") as stderr:
        return subprocess.Popen(
            [sys.executable, "-m", "accuracy_db", "refresh", "--data", str(DATA), "--db", str(db)]
            + ["--submissions", str(inbox), "--watch", "--interval", "0.2"],
            stdout=stdout,
            stderr=stderr,
        )


def wait_for(condition, what: str, watcher: subprocess.Popen, seconds: float = 30) -> None:
    """Wait until condition() holds, failing (not hanging) after some seconds or when the watcher has exited."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert watcher.poll() is None, f"the watcher exited ({watcher.returncode}) while waiting for {what}"
        if time.monotonic() > deadline:
            pytest.fail(f"no {what} within {seconds} s")
        time.sleep(0.1)


def submission_names(db: Path) -> list[str]:
    """The inbox's submissions in a database: not the box-score checker's list, which every build adds."""
    con = database.open_existing(db)
    try:
        return [
            r[0]
            for r in con.execute(
                "SELECT name FROM annotation_sets WHERE kind = 'submission' AND source_file <> ? ORDER BY 1",
                [checker.SOURCE],
            ).fetchall()
        ]
    finally:
        con.close()


def stop(watcher: subprocess.Popen, log: Path, how: signal.Signals) -> tuple[str, str]:
    """Stop the watcher with a signal; what it wrote to stdout and stderr."""
    watcher.send_signal(how)
    try:
        watcher.wait(timeout=30)
    finally:
        watcher.kill()
    return log.read_text(), log.with_suffix(".err").read_text()


def test_watch_waits_for_another_writer_passes_over_unreadable_entries_and_loads_new_files(tmp_path, inbox):
    db, log = tmp_path / "accuracy.duckdb", tmp_path / "watch.log"
    refresh(db, DATA, inbox)
    watcher = start_watch(db, inbox, log)
    try:
        wait_for(lambda: "0 added" in log.read_text(), "first refresh", watcher)
        holder = hold_lock(db)  # a manual refresh, say, holding the lock when the watcher wakes
        try:
            # Entries no one can read, root included: they never stop the good file beside them.
            (inbox / "folder.csv").mkdir()
            os.mkfifo(inbox / "pipe.csv")
            (inbox / "dangling.csv").symlink_to(tmp_path / "nowhere.csv")
            (inbox / "looping.csv").symlink_to(inbox / "looping.csv")
            shutil.copy(EXAMPLES / "submission.csv", inbox / "alpha.csv")
            busy = f"pid {holder.pid} is writing the database; trying again in 0.2 s"
            wait_for(lambda: log.with_suffix(".err").read_text().count(busy) >= 3, "three waits for the lock", watcher)
            assert submission_names(db) == []
        finally:
            release(holder)
        wait_for(lambda: submission_names(db) == ["alpha"], "alpha published", watcher)
        first_rows(EXAMPLES / "submission_doc_based.csv", inbox / "beta.csv", 100)
        wait_for(lambda: submission_names(db) == ["alpha", "beta"], "beta published", watcher)
    finally:
        stdout, stderr = stop(watcher, log, signal.SIGTERM)
    assert watcher.returncode == 0 and "Traceback" not in stderr, stderr
    assert stderr.splitlines()[-1].endswith(f"stopped watching {inbox} (SIGTERM)")
    # Besides the waits, each refresh reports the unreadable entries as refused, with their reasons.
    unreadable = ("dangling", "folder", "looping", "pipe")
    for line in stderr.splitlines()[:-1]:
        assert (
            " is writing the database; trying again in 0.2 s" in line
            or re.fullmatch(rf"refused submission ({'|'.join(unreadable)}): 1 problem\(s\), nothing of it loaded", line)
            or re.fullmatch(
                rf"  {re.escape(str(inbox))}/({'|'.join(unreadable)})\.csv: (not a regular file|cannot read).*", line
            )
        ), line
    assert {name for name in unreadable if f"refused submission {name}:" in stderr} == set(unreadable)
    counts = [re.search(r"\d+ added, \d+ changed, \d+ unchanged", line)[0] for line in stdout.splitlines()]
    assert counts == [
        "0 added, 0 changed, 0 unchanged",
        "1 added, 0 changed, 0 unchanged",
        "1 added, 0 changed, 1 unchanged",
    ]
    assert snapshot(db)["scores"] == fresh_build(tmp_path, inbox)["scores"]


def test_sigterm_during_a_watched_refresh_ends_it_quietly_and_leaves_a_whole_database(tmp_path, inbox):
    db, log = tmp_path / "accuracy.duckdb", tmp_path / "watch.log"
    many_submissions(inbox, 2)
    refresh(db, DATA, inbox)
    watcher = start_watch(db, inbox, log)
    try:
        wait_for(lambda: "2 unchanged" in log.read_text(), "first refresh", watcher)
        many_submissions(inbox, 80)  # 78 to add: a refresh of a few seconds
        wait_for(work_path(db).exists, "a refresh under way", watcher)
        time.sleep(0.5)
    finally:
        stdout, stderr = stop(watcher, log, signal.SIGTERM)
    assert watcher.returncode == 0 and "Traceback" not in stderr, stderr
    assert stderr.splitlines()[-1].endswith(f"stopped watching {inbox} (SIGTERM)"), stderr
    assert len(submission_names(db)) in (2, 80)  # the state before, or the whole refresh if it had published
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".accuracy")) == [".accuracy.duckdb.lock"]


def test_a_signal_while_the_watch_reads_the_database_between_refreshes_ends_it_as_that_signal():
    """Between refreshes the watch looks at the folders, reading the registered ones from the database. A SIGTERM
    during that query is turned by DuckDB into an error of its own (RuntimeError "Query interrupted", as DuckDB 2.0
    raises it when the signal handler raises inside a query), which once ended the command as "Aborted." (exit
    130) instead of the watch's own stop."""
    looks = []

    def look() -> frozenset:
        looks.append(1)
        if len(looks) == 2:  # the first look after a refresh
            try:
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(5)  # (the handler raises at once)
            except KeyboardInterrupt:
                raise RuntimeError("Query interrupted") from None
        return frozenset()

    assert watch(lambda: None, look, interval=0.01, log=print) == "SIGTERM"
    assert len(looks) == 2


def test_a_watch_whose_refresh_keeps_failing_waits_longer_each_time_then_stops(tmp_path, inbox):
    db, broken = tmp_path / "accuracy.duckdb", tmp_path / "data"
    broken.mkdir()  # no texts/: every refresh fails
    lines = []
    error = f"{broken}: no texts/ folder: not a shared-task data folder"
    with pytest.raises(AccuracyDbError, match="the refresh failed 4 times in a row, so the watch stops; the last"):
        watch(
            lambda: refresh(db, broken, inbox),
            lambda: folder_state(inbox, broken),
            interval=0.01,
            log=lines.append,
            max_failures=4,
            longest_wait=0.05,
        )
    assert lines == [
        f"refresh failed (1 in a row): {error}; trying again in 0.02 s",
        f"refresh failed (2 in a row): {error}; trying again in 0.04 s",
        f"refresh failed (3 in a row): {error}; trying again in 0.05 s",
    ]
    assert not db.exists()


# --- two names for one database ---


def test_two_names_of_one_database_share_its_writer_lock_and_publishing_keeps_the_link(tmp_path, inbox):
    real, link = tmp_path / "real" / "accuracy.duckdb", tmp_path / "link.duckdb"
    refresh(real, DATA, inbox)
    link.symlink_to(real)
    shutil.copy(EXAMPLES / "submission.csv", inbox / "alpha.csv")
    for held, written in ((real, link), (link, real)):
        holder = hold_lock(held)
        try:
            refused = start_refresh(written, inbox)
            _, stderr = refused.communicate(timeout=60)
        finally:
            release(holder)
        assert refused.returncode == 1
        assert (
            stderr
            == f"error: {written} is being written by pid {holder.pid}; nothing was done (try again when it is finished)\n"
        )
    assert submission_names(real) == []
    refreshed = start_refresh(link, inbox)
    assert refreshed.communicate(timeout=60)[1] == "" and refreshed.returncode == 0
    assert link.is_symlink() and link.readlink() == real
    assert submission_names(real) == ["alpha"]
    rebuilt = subprocess.run(
        [sys.executable, "-m", "accuracy_db", "build", "--data", str(DATA), "--db", str(link)],
        capture_output=True,
        timeout=120,
    )
    assert rebuilt.returncode == 0 and link.is_symlink() and submission_names(real) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["inbox", "link.duckdb", "real"]  # no lock of the link


# --- no room to write ---

FSIZE_LIMITED = """
import resource, signal, sys
from accuracy_db.cli.main import main
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead of killing
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
main(sys.argv[2:])
"""


@pytest.mark.parametrize(
    ("command", "limit"),
    [
        ("refresh", 0.5),  # copying the published file fails
        ("refresh", 1.02),  # the copy fits; the checkpoint of the loaded submission does not
        ("build", 0.16),  # a commit to the write-ahead log fails, under a rollback that fails too
        ("build", 0.6),  # the checkpoint fails
    ],
)
def test_no_room_to_write_is_one_line_and_leaves_the_published_database(tmp_path, inbox, command, limit):
    """A process whose files may not grow past a size (RLIMIT_FSIZE) meets a failed write as a full disk does:
    the write fails (EFBIG; ENOSPC on a full disk) at whatever step reaches the limit. Tests cannot fill a disk
    without root; the limit is set from the published file's size, so that each case fails at its step."""
    db = tmp_path / "accuracy.duckdb"
    shutil.copy(EXAMPLES / "submission.csv", inbox / "alpha.csv")
    refresh(db, DATA, inbox)
    published = db.read_bytes()
    first_rows(EXAMPLES / "submission_doc_based.csv", inbox / "beta.csv", 300)
    arguments = [command, "--data", str(DATA), "--db", str(db), "--submissions", str(inbox)]
    limited = subprocess.run(
        [sys.executable, "-c", FSIZE_LIMITED, str(int(limit * len(published))), *arguments],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (limited.returncode, limited.stdout) == (1, "")
    assert limited.stderr == (
        f"error: {db} was not updated: the file size limit of this process (ulimit -f) is reached "
        f"(writing the new database to {work_path(db)}); the published database is unchanged\n"
    )
    assert db.read_bytes() == published
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".accuracy")) == [".accuracy.duckdb.lock"]


def test_a_full_disk_is_named_as_such_from_duckdb_and_from_python():
    """The real errors of a full disk: /dev/full fails every write with ENOSPC."""
    con = duckdb.connect()
    with pytest.raises(duckdb.Error) as from_duckdb:
        con.execute("COPY (SELECT range FROM range(1000)) TO '/dev/full' (FORMAT csv)")
    with pytest.raises(OSError) as from_python, open("/dev/full", "wb") as full:
        full.write(b"x")
        full.flush()
    assert no_room(from_duckdb.value) == no_room(from_python.value) == "the disk is full"
    try:  # found under the error of a failed rollback, as etl/games.py meets it
        try:
            raise from_duckdb.value
        except duckdb.Error:
            raise duckdb.TransactionException("cannot rollback - no transaction is active") from None
    except duckdb.Error as masked:
        assert no_room(masked) == "the disk is full"
    assert no_room(duckdb.IOException("Could not read file: Permission denied")) is None
