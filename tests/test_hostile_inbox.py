"""One bad file never blocks the others: every hostile entry of the inbox is refused on its own, with its reason,
by the real command in a process (a hang fails by its timeout), and the good submission beside them is scored."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from shared_data import DATA, EXAMPLES

from accuracy_db.ingest.refresh import refresh
from accuracy_db.store import database

HEADER = (EXAMPLES / "submission.csv").read_text().splitlines()[0]


def first_rows(target: Path, rows: int) -> list[str]:
    """A submission made of the header and the first rows of the example submission; its rows."""
    lines = (EXAMPLES / "submission.csv").read_text().splitlines()[1 : rows + 1]
    target.write_text("\n".join([HEADER, *lines]) + "\n")
    return lines


def run(*args: str) -> subprocess.CompletedProcess:
    result = subprocess.run([sys.executable, "-m", "accuracy_db", *args], capture_output=True, text=True, timeout=120)
    assert "Traceback" not in result.stderr, result.stderr
    return result


def long_comment() -> str:
    return "x" * 100_000 + "\n" + "y" * 100_000


def hostile_inbox(inbox: Path) -> dict[str, str]:
    """Fill the inbox with a good submission and every hostile entry; return what each refused one must say."""
    first_rows(inbox / "good.csv", 100)
    # token ids with 10 and more leading zeros: read as the numbers they are
    rows = first_rows(inbox / "zeros.csv", 20)
    padded = []
    for row in rows:
        cells = row.split(",")
        cells[6:8] = [f"00000000000{cell}" for cell in cells[6:8]]
        padded.append(",".join(cells))
    (inbox / "zeros.csv").write_text("\n".join([HEADER, *padded]) + "\n")
    # a comment of 200 kB holding a quoted line break: loaded whole
    rows = first_rows(inbox / "long_comment.csv", 5)
    (inbox / "long_comment.csv").write_text("\n".join([HEADER, *rows[:-1], rows[-1] + f'"{long_comment()}"']) + "\n")
    # a header cell of 200 kB: one more column than the rows have, which they may leave out (it is not read)
    rows = first_rows(inbox / "long_header.csv", 1)
    (inbox / "long_header.csv").write_text("\n".join([HEADER + "," + "H" * 200_000, *rows]) + "\n")
    (inbox / "folder.csv").mkdir()
    (inbox / "gone.csv").symlink_to(inbox / "nowhere.csv")
    os.mkfifo(inbox / "fifo.csv")
    (inbox / "fifo_link.csv").symlink_to(inbox / "fifo.csv")
    (inbox / "zero.csv").symlink_to("/dev/zero")
    with (inbox / "huge.csv").open("wb") as huge:
        huge.truncate(2_000_000_001)  # a regular file of 2 GB of zeros, sparse: made at once, on no disk space
    # a name whose bytes are not UTF-8 (Python reads them as lone surrogates, which DuckDB refuses)
    first_rows(Path(os.fsdecode(os.fsencode(inbox) + b"/latin-\xe9t\xe9.csv")), 10)
    # sidecars: the submissions are good, their sidecars are not
    for name in ("latin", "wide", "laughs", "deep", "listed", "number", "surrogate"):
        first_rows(inbox / f"{name}.csv", 10)
    (inbox / "latin.yaml").write_bytes("team: Universit\xe9\n".encode("latin-1"))
    (inbox / "wide.json").write_bytes(json.dumps({"team": "Wide"}).encode("utf-16"))
    (inbox / "laughs.yaml").write_text("a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n")
    (inbox / "deep.json").write_text("[" * 5000 + "]" * 5000)
    (inbox / "listed.yaml").write_text("team: [a, b]\n")
    (inbox / "number.yaml").write_text("team: " + "1" * 5000 + "\n")
    (inbox / "surrogate.json").write_text('{"team": "Team \\ud83d"}')  # half of an emoji's pair: json reads it
    return {
        "folder": f"{inbox / 'folder.csv'}: not a regular file: it is a directory",
        "gone": f"{inbox / 'gone.csv'}: cannot read the file: it is a symbolic link to a file that does not exist",
        "fifo": f"{inbox / 'fifo.csv'}: not a regular file: it is a FIFO (named pipe)",
        "fifo_link": f"{inbox / 'fifo_link.csv'}: not a regular file: it is a FIFO (named pipe)",
        "zero": f"{inbox / 'zero.csv'}: not a regular file: it is a character device",
        "huge": f"{inbox / 'huge.csv'}: more than 2,000,000,000 bytes: too big for a file to load",
        "latin-\\xe9t\\xe9": f"{inbox}/latin-\\xe9t\\xe9.csv: the file's name is not UTF-8 text: rename the file",
    }


SIDECAR_PROBLEMS = {
    "latin": "latin.yaml: line 1: is not UTF-8 text",
    "wide": "wide.json: is UTF-16 text: save it as UTF-8",
    "laughs": "laughs.yaml: line 1: YAML anchors and aliases are not allowed in a sidecar",
    "deep": "deep.json: not valid JSON: nested too deeply",
    "listed": "listed.yaml: team is ['a', 'b'], not a text (in YAML, put it in quotes)",
    "number": "number.yaml: not valid YAML: a number too long to read",
    "surrogate": "surrogate.json: not valid text: 'Team \\ud83d' holds half of a surrogate pair, which is no character",
}


def rejections(db: Path) -> dict[str, list[str]]:
    con = database.open_existing(db)
    try:
        rows = con.execute("SELECT submission, file, line, message FROM rejections ORDER BY ALL").fetchall()
    finally:
        con.close()
    found: dict[str, list[str]] = {}
    for name, file, line, message in rows:
        found.setdefault(name, []).append(f"{file}: line {line}: {message}" if line else f"{file}: {message}")
    return found


@pytest.mark.parametrize("command", ["build", "refresh"])
def test_every_hostile_entry_is_refused_on_its_own_and_the_good_ones_are_scored(tmp_path, command):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    refused = hostile_inbox(inbox)
    db = tmp_path / "accuracy.duckdb"
    result = run(command, "--data", str(DATA), "--db", str(db), "--submissions", str(inbox))
    assert result.returncode == 0, result.stderr

    found = rejections(db)
    for name, problem in refused.items():
        assert found.pop(name) == [problem]
    for name, problem in SIDECAR_PROBLEMS.items():
        assert found.pop(name) == [f"{inbox}/{problem}"]
    assert found == {}

    con = database.open_existing(db)
    scored = dict(con.execute("SELECT submission, submitted_total FROM scores WHERE scope = 'ALL'").fetchall())
    assert scored.pop("boxscore") > 0  # the box-score checker's list, scored beside the inbox's (test_checker.py)
    assert scored == {"good": 100, "zeros": 20, "long_comment": 5, "long_header": 1} | {
        name: 10 for name in SIDECAR_PROBLEMS
    }
    # padded ids are the numbers they spell
    assert (
        con.execute(
            "SELECT doc_token_start, doc_token_end FROM listed_mistakes WHERE name = 'zeros' ORDER BY line_number"
        ).fetchall()
        == con.execute(
            "SELECT doc_token_start, doc_token_end FROM listed_mistakes WHERE name = 'good' AND line_number <= 21"
            " ORDER BY line_number"
        ).fetchall()
    )
    (comment,) = con.execute(
        "SELECT comment FROM listed_mistakes WHERE name = 'long_comment' AND line_number = 6"
    ).fetchall()
    assert comment == (long_comment(),)
    con.close()
    if command == "refresh":  # still refused on the next run, counted as refused, not as unchanged
        result = run(command, "--data", str(DATA), "--db", str(db), "--submissions", str(inbox))
        assert result.stdout.startswith(
            f"refresh {db}: 0 added, 0 changed, 11 unchanged, 0 retired, {len(refused)} refused, 7 sidecar(s) refused;"
        ), result.stdout


def test_a_file_of_many_bad_rows_lists_the_first_thousand_problems_and_counts_the_rest(tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    first_rows(inbox / "good.csv", 10)
    (inbox / "bad.csv").write_text(HEADER + "\n" + "S001.txt,,1,x,,,1,1,GRAMMAR,,\n" * 3000)
    report = refresh(tmp_path / "accuracy.duckdb", DATA, inbox)
    problems = report.refused["bad"]
    assert len(problems) == 1001
    assert str(problems[0]) == f"{inbox / 'bad.csv'}: 3,000 problems; the first 1,000 are listed"
    assert [p.line for p in problems[1:4]] == [2, 3, 4] and problems[-1].line == 1001
    assert report.loaded == ["good"]
    assert len(rejections(tmp_path / "accuracy.duckdb")["bad"]) == 1001


def test_a_bad_or_changed_sidecar_never_removes_a_scored_submission(tmp_path):
    inbox, db = tmp_path / "inbox", tmp_path / "accuracy.duckdb"
    inbox.mkdir()
    first_rows(inbox / "alpha.csv", 100)
    (inbox / "alpha.json").write_text(json.dumps({"team": "Aberdeen", "approach": "metric"}))
    refresh(db, DATA, inbox)

    def state():
        con = database.open_existing(db)
        try:
            return (
                # the inbox's lists (the box-score checker's list is scored beside them: test_checker.py)
                con.execute(
                    "SELECT submission, matched FROM scores WHERE scope = 'ALL' AND submission <> 'boxscore'"
                ).fetchall(),
                con.execute("SELECT submission, team, approach FROM submission_metadata").fetchall(),
                con.execute("SELECT file, message FROM rejections").fetchall(),
            )
        finally:
            con.close()

    scored, metadata, _ = state()
    (inbox / "alpha.json").write_text(json.dumps({"team": ["a", "b"], "approach": "metric"}))
    report = refresh(db, DATA, inbox)
    assert (report.changed, report.refused, report.loaded) == (["alpha"], {}, [])
    assert [str(p) for p in report.refused_sidecars["alpha"]] == [
        f"{inbox / 'alpha.json'}: team is ['a', 'b'], not a text (in YAML, put it in quotes)"
    ]
    assert state() == (
        scored,
        metadata,
        [(str(inbox / "alpha.json"), "team is ['a', 'b'], not a text (in YAML, put it in quotes)")],
    )

    (inbox / "alpha.json").unlink()
    (inbox / "alpha.yaml").write_text("team: Aberdeen\napproach: human\n")
    report = refresh(db, DATA, inbox)
    assert (report.changed, report.refused_sidecars) == (["alpha"], {})
    assert state() == (scored, [("alpha", "Aberdeen", "human")], [])

    shutil.copy(EXAMPLES / "submission_blank.csv", inbox / "alpha.csv")  # a refused CSV: its scores go
    report = refresh(db, DATA, inbox)
    assert (list(report.refused), report.changed) == (["alpha"], [])
    assert state()[0] == []
