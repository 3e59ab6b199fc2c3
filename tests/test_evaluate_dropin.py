"""evaluate accepts what the shared task's scorer scores (issue 14, "The drop-in evaluate"): normalised TOKENS,
TOKENS that differ from the text, a TYPE that is no category, a header alone, Windows and spreadsheet variants;
and says what is wrong once, in few lines. Each through the real command, since its output is the point."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from shared_data import DATA, EXAMPLES, expected_report

from accuracy_db.scoring.evaluate import evaluate

GOLD = DATA / "gsml.csv"
KEYS = list(expected_report("example_submission")[0])


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "accuracy_db", *args], capture_output=True, text=True, timeout=120)


def evaluate_cli(submitted: Path, *flags: str, gold: Path = GOLD) -> subprocess.CompletedProcess:
    return run("evaluate", "--gsml", str(gold), "--submitted", str(submitted), "--format", "json", *flags)


def figures(result: subprocess.CompletedProcess) -> list[dict]:
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    return [{key: scope[key] for key in KEYS} for scope in json.loads(result.stdout)]


def rows_of(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"), newline="")))


def write(path: Path, rows: list[list[str]], line_end: str = "\n") -> Path:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator=line_end).writerows(rows)
    path.write_text(buffer.getvalue(), encoding="utf-8", newline="")
    return path


def changed(rows: list[list[str]], change) -> list[list[str]]:
    """The header and every row, change(i, row) applied to a copy of each data row (i from 0)."""
    return [rows[0]] + [change(i, list(row)) or row for i, row in enumerate(rows[1:]) for row in [list(row)]]


def set_cell(row: list[str], column: int, value: str) -> list[str]:
    row[column] = value
    return row


SUBMISSION = rows_of(EXAMPLES / "submission.csv")  # both id schemes; TOKENS is column 3, TYPE column 8


def normalised_variant(i: int, row: list[str]) -> list[str]:
    """TOKENS as a user might write them: other case, en dashes, no spaces around a dash."""
    tokens = row[3]
    if i % 3 == 0:
        tokens = tokens.upper()
    elif " - " in tokens:
        tokens = tokens.replace(" - ", "–")
    return set_cell(row, 3, tokens)


def test_tokens_that_differ_only_in_case_dashes_or_spacing_are_one_warning_line(tmp_path):
    submitted = write(tmp_path / "normalised.csv", changed(SUBMISSION, normalised_variant))
    differing = [i + 2 for i, (old, new) in enumerate(zip(SUBMISSION[1:], rows_of(submitted)[1:])) if old != new]
    result = evaluate_cli(submitted)
    assert figures(result) == expected_report("example_submission")
    shown = ", ".join(map(str, differing[:20])) + ", …"
    assert result.stderr.splitlines() == [
        f"warning: {submitted}: TOKENS differs from the text only in case, dashes, quotes or spacing on "
        f"{len(differing)} line(s): {shown}; accepted"
    ]
    assert run("evaluate", "--gsml", str(GOLD), "--submitted", str(submitted), "--strict").returncode == 0


def test_other_tokens_mismatches_are_warnings_scored_by_the_ids_and_errors_with_strict(tmp_path):
    submitted = write(tmp_path / "wrong_tokens.csv", changed(SUBMISSION, lambda i, row: set_cell(row, 3, "Boston")))
    result = evaluate_cli(submitted)
    assert figures(result) == expected_report("example_submission")  # the figures come from the ids alone
    lines = result.stderr.splitlines()
    assert lines[0] == (
        f"warning: {submitted}: 571 row(s) scored as the shared task's scorer scores them (by their token ids; "
        "a row whose TYPE is no category is left out); --strict refuses them"
    )
    assert lines[1] == f"  {submitted}: line 2: TOKENS is 'Boston', but tokens 18-18 of S001 are 'Wednesday'"
    assert len(lines) == 5 and lines[4] == "  … and 568 more"

    strict = run("evaluate", "--gsml", str(GOLD), "--submitted", str(submitted), "--strict")
    assert strict.returncode == 1 and strict.stdout == "" and "Traceback" not in strict.stderr
    lines = strict.stderr.splitlines()
    assert lines[0] == f"{submitted}: line 2: TOKENS is 'Boston', but tokens 18-18 of S001 are 'Wednesday'"
    assert lines[3:] == [
        f"  … and 568 more problem(s) in {submitted}",
        f"571 problem(s) in {submitted}; nothing was loaded.",
    ]


def test_ids_shifted_by_one_are_scored_as_given_and_the_shift_is_suggested(tmp_path):
    def shifted(i, row):  # ids counted from 0, in both schemes
        return [cell if c not in (4, 5, 6, 7) else str(int(cell) - 1) for c, cell in enumerate(row)]

    rows = changed(SUBMISSION, shifted)
    rows = [rows[0]] + [row for row in rows[1:] if row[4] != "0"]  # a 0 is refused on its own
    submitted = write(tmp_path / "shifted.csv", rows)
    result = evaluate_cli(submitted)
    # The same spans with TOKENS rewritten to the text at the given ids: scored without a warning, and alike.
    texts = {path.stem: (DATA / "texts" / path.name).read_text().split() for path in (DATA / "texts").glob("*.txt")}
    rewritten = write(
        tmp_path / "rewritten.csv",
        [rows[0]]
        + [set_cell(list(row), 3, " ".join(texts[row[0][:-4]][int(row[6]) - 1 : int(row[7])])) for row in rows[1:]],
    )
    reference = evaluate_cli(rewritten)
    assert reference.stderr == ""
    assert figures(result) == figures(reference)
    assert result.stderr.splitlines()[0].startswith(f"warning: {submitted}: the token ids look shifted by +1: on ")
    assert "TOKENS is the text 1 token(s) further on (token ids count from 1" in result.stderr


def test_a_header_alone_is_a_list_of_no_mistakes_and_no_bytes_an_error(tmp_path):
    header_only = tmp_path / "header_only.csv"
    header_only.write_text(GOLD.read_text().splitlines()[0] + "\n")
    report = {scope["categories"]: scope for scope in figures(evaluate_cli(header_only))}
    assert report["ALL"] == {**report["ALL"], "recall": 0.0, "precision": None, "matched": 0, "submitted_total": 0}
    assert report["ALL"]["gold_total"] == 1214
    assert report["OTHER"]["recall"] == 0.0  # one gold OTHER mistake, not found

    empty = tmp_path / "empty.csv"
    empty.write_bytes(b"")
    result = evaluate_cli(empty)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.splitlines() == [
        f"{empty}: the file is empty: expected a header and mistake rows",
        f"1 problem(s) in {empty}; nothing was loaded.",
    ]


def test_a_list_of_the_other_split_is_said_once(tmp_path):
    result = run("evaluate", "--gsml", str(GOLD), "--submitted", str(DATA / "test_set/gsml.csv"))
    assert result.returncode == 1 and result.stdout == ""
    test_gold = DATA / "test_set/gsml.csv"
    assert result.stderr.splitlines() == [
        f"{test_gold}: all 622 TEXT_IDs are test texts; use the test split's gold list",
        f"1 problem(s) in {test_gold}; nothing was loaded.",
    ]
    reverse = run(
        "evaluate", "--gsml", str(DATA / "test_set/gsml.csv"), "--submitted", str(EXAMPLES / "submission.csv")
    )
    assert reverse.stderr.splitlines()[0] == (
        f"{EXAMPLES / 'submission.csv'}: all 571 TEXT_IDs are train texts; use the train split's gold list"
    )


def test_a_type_that_is_no_category_leaves_its_row_out_as_the_original_does(tmp_path):
    lowered = write(
        tmp_path / "lowered.csv", changed(SUBMISSION, lambda i, row: set_cell(row, 8, row[8].lower()) if i < 2 else row)
    )
    without = write(tmp_path / "without.csv", [SUBMISSION[0]] + SUBMISSION[3:])
    result = evaluate_cli(lowered)
    assert figures(result) == figures(evaluate_cli(without))
    assert result.stderr.splitlines()[1:] == [
        f"  {lowered}: line 2: TYPE 'name' is not a category; did you mean NAME?",
        f"  {lowered}: line 3: TYPE 'number' is not a category; did you mean NUMBER?",
    ]
    assert run("evaluate", "--gsml", str(GOLD), "--submitted", str(lowered), "--strict").returncode == 1


def test_windows_and_spreadsheet_variants_give_the_same_figures(tmp_path):
    # A BOM, CRLF, blank rows at the end, rows without the trailing CORRECTION and COMMENT cells, an extra column
    # at the end of the header, lower-case column names.
    header = [name.lower() for name in SUBMISSION[0]] + ["SCORE"]
    rows = [header] + [row[:9] if i % 2 else row + ["0.5"] for i, row in enumerate(SUBMISSION[1:])] + [[], []]
    variant = write(tmp_path / "variant.csv", rows, line_end="\r\n")
    variant.write_bytes(b"\xef\xbb\xbf" + variant.read_bytes())
    result = evaluate_cli(variant)
    assert figures(result) == expected_report("example_submission")
    assert result.stderr == ""


@pytest.fixture(scope="module")
def inbox_build(tmp_path_factory):
    """One build, through the command, of an inbox holding normalised TOKENS, shifted ids and a header alone."""
    folder = tmp_path_factory.mktemp("dropin")
    inbox = folder / "inbox"
    inbox.mkdir()
    write(inbox / "normalised.csv", changed(SUBMISSION, normalised_variant))
    shifted = changed(SUBMISSION, lambda i, row: [c if n not in (6, 7) else str(int(c) + 2) for n, c in enumerate(row)])
    write(inbox / "shifted.csv", [[cell for n, cell in enumerate(row) if n not in (1, 4, 5)] for row in shifted])
    (inbox / "header_only.csv").write_text(GOLD.read_text().splitlines()[0] + "\n")
    db = folder / "accuracy.duckdb"
    result = run("build", "--data", str(DATA), "--db", str(db), "--submissions", str(inbox))
    return result, db, inbox


def test_build_accepts_normalised_tokens_with_a_warning_and_refuses_shifted_ids_with_the_shift(inbox_build):
    result, db, inbox = inbox_build
    assert result.returncode == 0 and "Traceback" not in result.stderr
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1
    assert warnings[0].startswith(f"warning: {inbox / 'normalised.csv'}: TOKENS differs from the text only in case")
    con = duckdb.connect(str(db), read_only=True)
    try:
        (message,) = con.execute(
            "SELECT message FROM rejections WHERE submission = 'shifted' AND line IS NULL"
        ).fetchone()
        assert message.startswith("the token ids look shifted by -2: on ")
        scores = con.execute(
            "SELECT submission, split, recall, precision, matched, submitted_total FROM scores"
            " WHERE scope = 'ALL' AND submission IN ('normalised', 'header_only') ORDER BY ALL"
        ).fetchall()
    finally:
        con.close()
    ours = {scope["categories"]: scope for scope in evaluate(GOLD, EXAMPLES / "submission.csv")}["ALL"]
    assert scores == [
        ("header_only", "test", 0.0, None, 0, 0),  # a list of no mistakes names no text: it is one of each split
        ("header_only", "train", 0.0, None, 0, 0),
        ("normalised", "train", ours["recall"], ours["precision"], 350, 571),
    ]


def test_evaluate_loads_its_own_command_and_the_views_its_scores_read():
    """The drop-in races the shared task's scorer as a whole process: it imports no other command and creates
    only the views that `scores` reads, undescribed."""
    code = (
        "import sys\n"
        "from accuracy_db.cli.main import run\n"
        "from accuracy_db.store import database\n"
        "run(['evaluate', '--help'])\n"
        "print(sorted(m for m in sys.modules if m.startswith('accuracy_db.cli.commands.')))\n"
        "con = database.open_new(None, models=['scores'])\n"
        "views = {v for (v,) in con.execute('SELECT view_name FROM duckdb_views() WHERE NOT internal').fetchall()}\n"
        "print('scores' in views, 'mistake_contexts' in views, 'leaderboard' in views)\n"
    )
    lines = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    *_, modules, views = lines.splitlines()
    assert modules == "['accuracy_db.cli.commands.evaluate']"
    assert views == "True False False"


def test_evaluate_with_a_folder_of_texts_numbers_their_tokens_without_polars():
    """Its import (0.12-0.19 s) would cost the drop-in a quarter of its time: the texts' tokens are numbered in SQL."""
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from accuracy_db.scoring.evaluate import evaluate\n"
        f"report = evaluate(Path({str(GOLD)!r}), Path({str(EXAMPLES / 'submission.csv')!r}),"
        f" text_dir=Path({str(DATA / 'texts')!r}))\n"
        "print(len(report), 'polars' in sys.modules)\n"
    )
    lines = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert lines.splitlines()[-1] == "7 False"
