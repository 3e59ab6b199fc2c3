"""Text-level scores of metrics: `import scores` and build/refresh --scores (etl/score_files.py,
accuracy_db/ingest/score_folder.py), the built-in metrics (checked against sacrebleu run here on the data files), and
the models metric_scores, metric_targets and scoped_metric_scores (checked against counts of the CSV files)."""

from __future__ import annotations

import csv
import hashlib
import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
import sacrebleu
from accuracy_db.etl.score_files import MAX_LINE_BYTES, MAX_METRICS, read_scores
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shared_data import DATA, EXAMPLES

from accuracy_db.cli.main import run
from accuracy_db.errors import InputError
from accuracy_db.ingest import builtin_metrics
from accuracy_db.ingest.refresh import refresh
from accuracy_db.store import database

SPLITS = {"train": DATA, "test": DATA / "test_set"}


def text_ids(split: str) -> list[str]:
    return sorted(path.stem for path in (SPLITS[split] / "texts").glob("*.txt"))


TRAIN, TEST = text_ids("train"), text_ids("test")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def query(db: Path, sql: str, parameters=None) -> list[tuple]:
    con = database.open_existing(db)
    try:
        return con.execute(sql, parameters).fetchall()
    finally:
        con.close()


@pytest.fixture(scope="module")
def refusal_db(built_db, tmp_path_factory) -> Path:
    """A copy of the built database with the metric taken imported: the refusals leave it as it is."""
    folder = tmp_path_factory.mktemp("refusals")
    path = folder / "accuracy.duckdb"
    shutil.copyfile(built_db, path)
    (folder / "taken.csv").write_text("text_id,score\n" + "".join(f"{t},1\n" for t in TEST))
    assert run(["import", "scores", str(folder / "taken.csv"), "--lower-is-better", "--db", str(path)]) == 0
    return path


def rows(ids, *values) -> str:
    return "".join(f"{text_id},{','.join(map(str, values))}\n" for text_id in ids)


TRAIN_ROWS = rows(TRAIN, 1)
# name -> (the file's name, its bytes, the options, the refusal's line as printed after the file's path)
REFUSALS = {
    "NaN": ("m.csv", f"text_id,score\n{TRAIN_ROWS}S001,nan\n", [], ": line 62: score is 'nan': a score must be a finite number"),
    "infinity": ("m.csv", "text_id,score\nS001,-inf\n", [], ": line 2: score is '-inf': a score must be a finite number"),
    "overflow": ("m.csv", "text_id,score\nS001,1e999\n", [], ": line 2: score is '1e999', too large to be a finite number"),
    "word": ("m.csv", "text_id,score\nS001,good\n", [], ": line 2: score is 'good', not a number"),
    "empty cell": ("m.csv", "text_id,a,b\nS001,1,\n", [], ": line 2: b is empty: every text needs a number"),
    "repeated text": ("m.csv", f"text_id,score\n{TRAIN_ROWS}S001.txt,2\n", [], ": line 62: S001 is given again (first on line 2)"),
    "unknown text": ("m.csv", "text_id,score\nS001,1\nX999,1\n", [], ": line 3: text_id 'X999' is not a text of corpus shared-task"),
    "missing texts": ("m.csv", f"text_id,score\n{rows(TRAIN[1:], 1)}", [], ": 1 text(s) of split train have no score, the first S001"),
    "two splits": ("m.csv", "text_id,score\nS001,1\nT001,1\n", [], ": line 3: T001 is a text of split test, but S001 (line 2) of split train"),
    "empty file": ("m.csv", "", [], ": the file is empty: expected a header text_id"),
    "blank file": ("m.csv", "\r\n \n", [], ": the file is empty"),
    "header only": ("m.csv", "text_id,score\n", [], ": no scores: the file has a header and no text"),
    "no text_id": ("m.csv", "id,score\nS001,1\n", [], ": line 1: no column text_id"),
    "text_id twice": ("m.csv", "text_id,TEXT_ID\nS001,1\n", [], ": line 1: the column text_id is given twice"),
    "no metric": ("m.csv", "text_id\nS001\n", [], ": line 1: no metric"),
    "metric twice": ("m.csv", "text_id,a,a\nS001,1,1\n", [], ": line 1: the metric 'a' is given twice"),
    "bad name": ("m.csv", "text_id, a\nS001,1\n", [], ": line 1: the metric name ' a' begins or ends with white space"),
    "reserved name": ("m.csv", "text_id,gold\nS001,1\n", [], ": line 1: the metric name 'gold' is reserved"),
    "built-in name": ("m.csv", "text_id,score\nS001,1\n", ["--name", "BLEU"], "error: --name: the metric name 'BLEU' is reserved (bleu is a built-in metric)"),
    "built-in stem": ("chrF.csv", "text_id,score\nS001,1\n", [], ": line 1: the metric name 'chrF' is reserved (chrf is a built-in metric)"),
    "submission name": ("m.csv", f"text_id,submission\n{TRAIN_ROWS}", [], ": line 1: the metric name 'submission' is a submission's of corpus shared-task"),
    "name taken": ("taken.csv", f"text_id,score\n{rows(TEST, 2)}", [], ": line 1: the metric 'taken' of split test is loaded already"),
    "name of several": ("m.csv", "text_id,a,b\nS001,1,2\n", ["--name", "n"], ": line 1: --name names the metric of a file of one column, and this has 2"),
    "cells": ("m.csv", "text_id,a,b\nS001,1\n", [], ": line 2: 2 cells, but the header has 3 columns"),
    "quote": ("m.csv", 'text_id,score\n"S001,1\n', [], ": line 2: not valid CSV: unexpected end of data"),
    "NUL": ("m.csv", "text_id,score\nS001,\0\n", [], ": line 2: holds a NUL character"),
    "columns": ("m.csv", "text_id," + ",".join(f"m{i}" for i in range(MAX_METRICS + 1)) + "\n", [], f": line 1: {MAX_METRICS + 1:,} metrics: at most {MAX_METRICS:,} a file"),
    "JSON NaN": ("m.jsonl", '{"text_id": "S001", "score": NaN}\n', [], ": line 1: score is NaN: a score must be a finite number"),
    "JSON -Infinity": ("m.jsonl", '{"text_id": "S001", "score": -Infinity}\n', [], ": line 1: score is -Infinity: a score must be a finite number"),
    # issue 48, finding 5: an integer past a double's range ended in an OverflowError traceback
    "JSON huge integer": ("m.jsonl", f'{{"text_id": "S001", "score": {"9" * 400}}}\n', [], ": line 1: score is too large to be a finite number"),
    "JSON huge float": ("m.jsonl", '{"text_id": "S001", "score": -1e400}\n', [], ": line 1: score is too large to be a finite number"),
    "JSON NaN text_id": ("m.jsonl", '{"text_id": NaN, "score": 1}\n', [], ": line 1: text_id is NaN, not a string"),
    "huge integer": ("m.csv", f"text_id,score\nS001,{'9' * 400}\n", [], f": line 2: score is '{'9' * 39}…, too large to be a finite number"),
    # issue 48, finding 6: a row is refused at a megabyte, its cell quoted in a few dozen characters
    "huge cell": ("m.csv", f"text_id,score\nS001,1\nS002,{'7' * 3_000_000}\n", [], f": line 3: a row of more than {MAX_LINE_BYTES:,} bytes: too long"),
    # issue 52: refused at the row's bound, as a row on many lines is, not by the csv module's limit of the moment
    "huge quoted cell": ("m.csv", 'text_id,score\nS001,"' + "x\n" * 600_000, [], f": line {2 + (MAX_LINE_BYTES - 8) // 2 + 1}: a row of more than {MAX_LINE_BYTES:,} bytes: too long"),
    "row on many lines": ("m.csv", 'text_id,score\nS001,"x\n' + '","x\n' * 300_000, [], f": line {2 + (MAX_LINE_BYTES - 8) // 5 + 1}: a row of more than {MAX_LINE_BYTES:,} bytes"),
    "huge text id": ("m.jsonl", f'{{"text_id": "S{"0" * 900_000}", "score": 1}}\n', [], f": line 1: text_id 'S{'0' * 58}… is not a text of corpus shared-task"),
    "JSON text": ("m.jsonl", '{"text_id": "S001", "score": "0.5"}\n', [], ": line 1: score is '0.5', not a number"),
    "JSON boolean": ("m.jsonl", '{"text_id": "S001", "score": true}\n', [], ": line 1: score is True, not a number"),
    "JSON keys": ("m.jsonl", '{"text_id": "S001", "a": 1}\n{"text_id": "S002", "b": 1}\n', [], ": line 2: the keys are text_id, b, not those of the first line"),
    "JSON no text_id": ("m.jsonl", '{"id": "S001", "a": 1}\n', [], ": line 1: no key text_id"),
    "JSON id": ("m.jsonl", '{"text_id": 1, "a": 1}\n', [], ": line 1: text_id is 1, not a string"),
    "JSON array": ("m.jsonl", '[1]\n', [], ": line 1: not a JSON object"),
    "JSON syntax": ("m.jsonl", '{"text_id": "S001", "a": 1}\n{"text_id"\n', [], ": line 2: not valid JSON"),
}  # fmt: skip


@pytest.mark.parametrize("case", REFUSALS)
def test_a_bad_file_is_refused_in_one_line_and_nothing_is_loaded(case, refusal_db, tmp_path, capsys):
    name, content, options, message = REFUSALS[case]
    path = tmp_path / name
    path.write_text(content, encoding="utf-8", newline="")
    before = digest(refusal_db)
    capsys.readouterr()
    assert run(["import", "scores", str(path), "--higher-is-better", *options, "--db", str(refusal_db)]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    first = err.splitlines()[0]
    assert first.startswith(message if message.startswith("error:") else f"{path}{message}"), err[:1000]
    assert len(err) < len(str(path)) * 2 + 400  # a cell is quoted in a few dozen characters, however long it is
    assert digest(refusal_db) == before


@pytest.mark.parametrize(
    "data, message",
    [
        (b"text_id,score\nS001,\xff\n", ": line 2: is not UTF-8 text"),
        ("text_id,score\nS001,1\n".encode("utf-16"), ": is UTF-16 text: save it as UTF-8"),
    ],
)
def test_a_file_that_is_not_utf8_is_refused(data, message, refusal_db, tmp_path, capsys):
    path = tmp_path / "m.csv"
    path.write_bytes(data)
    before = digest(refusal_db)
    assert run(["import", "scores", str(path), "--lower-is-better", "--db", str(refusal_db)]) == 1
    assert capsys.readouterr().err.splitlines()[0] == f"{path}{message}"
    assert digest(refusal_db) == before


def test_a_directory_is_refused(refusal_db, tmp_path, capsys):
    before = digest(refusal_db)
    assert run(["import", "scores", str(tmp_path), "--lower-is-better", "--db", str(refusal_db)]) == 1
    assert capsys.readouterr().err.splitlines()[0] == f"{tmp_path}: not a regular file: it is a directory"
    assert digest(refusal_db) == before


@pytest.mark.parametrize("flags", [[], ["--higher-is-better", "--lower-is-better"]])
def test_both_or_neither_direction_is_refused(flags, refusal_db, tmp_path, capsys):
    path = tmp_path / "m.csv"
    path.write_text(f"text_id,score\n{TRAIN_ROWS}")
    before = digest(refusal_db)
    assert run(["import", "scores", str(path), *flags, "--db", str(refusal_db)]) == 1
    assert capsys.readouterr().err == (
        "error: give one of --higher-is-better and --lower-is-better: which way is a text better?\n"
    )
    assert digest(refusal_db) == before


def imported(db: Path) -> dict[tuple[str, str], float]:
    return {
        (metric, text_id): score
        for metric, text_id, score in query(
            db, "SELECT metric, text_id, score FROM metric_scores WHERE kind = 'import'"
        )
    }


def test_one_column_with_txt_ids_bom_and_crlf(db, tmp_path, capsys):
    path = tmp_path / "bleurt.csv"
    values = {text_id: round(0.01 * number - 0.3, 2) for number, text_id in enumerate(TRAIN)}
    body = "".join(f"{text_id}.txt,{value}\r\n" for text_id, value in values.items())
    path.write_bytes(("\ufefftext_id,score\r\n" + body).encode())
    assert run(["import", "scores", str(path), "--higher-is-better", "--db", str(db)]) == 0
    assert capsys.readouterr().out == "imported 1 metric(s) (bleurt) of split train of corpus shared-task: 60 texts\n"
    assert imported(db) == {("bleurt", text_id): value for text_id, value in values.items()}
    assert query(db, "SELECT kind, split, higher_is_better FROM metrics WHERE metric = 'bleurt'") == [
        ("import", "train", True)
    ]


def test_several_columns_and_json_lines(db, tmp_path):
    multi = tmp_path / "several.csv"
    multi.write_text("nli,text_id,judge\n" + "".join(f"{i / 7},{t},{i % 5}\n" for i, t in enumerate(TEST)))
    lines = tmp_path / "lines.jsonl"
    lines.write_text("".join(json.dumps({"text_id": t, "score": i * 1e-3}) + "\n\n" for i, t in enumerate(TRAIN)))
    assert run(["import", "scores", str(multi), "--lower-is-better", "--db", str(db)]) == 0
    assert run(["import", "scores", str(lines), "--higher-is-better", "--name", "probe", "--db", str(db)]) == 0
    expected = {("nli", t): i / 7 for i, t in enumerate(TEST)} | {("judge", t): i % 5 for i, t in enumerate(TEST)}
    assert imported(db) == expected | {("probe", t): i * 1e-3 for i, t in enumerate(TRAIN)}
    assert sorted(query(db, "SELECT metric, split, higher_is_better FROM metrics WHERE kind = 'import'")) == [
        ("judge", "test", False),
        ("nli", "test", False),
        ("probe", "train", True),
    ]


def test_replace_swaps_the_metric_and_a_refused_replacement_keeps_it(db, tmp_path, capsys):
    path = tmp_path / "m.csv"
    path.write_text(f"text_id,score\n{rows(TEST, 1)}")
    assert run(["import", "scores", str(path), "--lower-is-better", "--db", str(db)]) == 0
    path.write_text(f"text_id,score\n{rows(TEST, 2)}")
    assert run(["import", "scores", str(path), "--higher-is-better", "--db", str(db)]) == 1
    path.write_text(f"text_id,score\n{rows(TEST[1:], 3)}")
    assert run(["import", "scores", str(path), "--higher-is-better", "--replace", "--db", str(db)]) == 1
    assert set(imported(db).values()) == {1.0}
    path.write_text(f"text_id,score\n{rows(TEST, 2)}")
    capsys.readouterr()
    assert run(["import", "scores", str(path), "--higher-is-better", "--replace", "--db", str(db)]) == 0
    assert capsys.readouterr().out.endswith("30 texts; replaced m\n")
    assert imported(db) == {("m", text_id): 2.0 for text_id in TEST}
    assert query(db, "SELECT higher_is_better FROM metrics WHERE metric = 'm'") == [(True,)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(st.floats(allow_nan=False, allow_infinity=False, width=64), min_size=1, max_size=8),
    st.sampled_from(["nan", "inf", "-Infinity", "", "1,5", "0x10", "1e", "--1", "one", "1_000"]),
    st.data(),
)
def test_the_reader_gives_back_every_number_and_refuses_a_bad_cell_on_its_line(tmp_path, values, bad, data):
    """Numbers written as repr gives them come back exactly; a bad cell anywhere is refused on its line."""
    path = tmp_path / "m.csv"
    lines = [f"T{i:03d},{value!r}" for i, value in enumerate(values)]
    path.write_text("text_id,score\n" + "\n".join(lines) + "\n")
    assert [row[2][0] for row in read_scores(path).rows] == values
    at = data.draw(st.integers(0, len(values) - 1))
    lines[at] = f"T{at:03d},{'' if bad == '' else json.dumps(bad) if ',' in bad else bad}"
    path.write_text("text_id,score\n" + "\n".join(lines) + "\n")
    with pytest.raises(InputError) as refusal:
        read_scores(path)
    assert [problem.line for problem in refusal.value.problems] == [at + 2]


def write_scores(folder: Path, name: str, split_ids: list[str], value: float, sidecar: dict | None) -> None:
    (folder / f"{name}.csv").write_text(f"text_id,{name}\n{rows(split_ids, value)}")
    if sidecar is not None:
        (folder / f"{name}.json").write_text(json.dumps(sidecar))


def test_refresh_loads_only_what_changed_in_the_scores_folder(db, tmp_path):
    folder = tmp_path / "scores"
    folder.mkdir()
    write_scores(folder, "good", TEST, 1, {"higher_is_better": True, "description": "a good one"})
    write_scores(folder, "other", TRAIN, 5, {"higher_is_better": {"other": False}})
    write_scores(folder, "undirected", TRAIN, 1, None)

    def refreshed():
        report = refresh(db, DATA, EXAMPLES, scores_dir=folder)
        loaded = dict(query(db, "SELECT metric, loaded_at FROM metrics WHERE kind = 'import'"))
        return report, loaded

    report, first = refreshed()
    assert (report.scores_added, report.published) == (["good.csv", "other.csv", "undirected.csv"], True)
    assert {name: [str(p) for p in problems] for name, problems in report.scores_refused.items()} == {
        "undirected.csv": [f"{folder}/undirected.csv: which way are its metrics better? give higher_is_better in"
                           " undirected.json"]
    }  # fmt: skip
    assert query(db, "SELECT metric, higher_is_better, description FROM metrics WHERE kind = 'import' ORDER BY 1") == [
        ("good", True, "a good one"),
        ("other", False, None),
    ]
    report, again = refreshed()  # nothing changed: nothing loaded, nothing published
    assert (report.published, report.scores_unchanged, again) == (
        False,
        ["good.csv", "other.csv", "undirected.csv"],
        first,
    )
    assert list(report.scores_refused) == ["undirected.csv"]

    write_scores(folder, "good", TEST, 2, None)  # the file changed, and its sidecar is gone: refused
    (folder / "good.json").unlink()
    (folder / "undirected.json").write_text('{"higher_is_better": false}')  # its sidecar came
    report, loaded = refreshed()
    assert (report.scores_changed, report.scores_unchanged) == (["good.csv", "undirected.csv"], ["other.csv"])
    assert list(report.scores_refused) == ["good.csv"]
    assert loaded["other"] == first["other"] and set(loaded) == {"other", "undirected"}

    (folder / "other.csv").unlink()
    (folder / "other.json").unlink()
    report, loaded = refreshed()
    assert report.scores_retired == ["other.csv"] and set(loaded) == {"undirected"}
    assert query(db, "SELECT count(*) FROM source_files WHERE name = 'other.csv'") == [(0,)]
    assert imported(db) == {("undirected", text_id): 1.0 for text_id in TRAIN}


def test_a_file_of_the_folder_cannot_take_a_metric_of_another(db, tmp_path):
    folder = tmp_path / "scores"
    folder.mkdir()
    write_scores(folder, "a", TEST, 1, {"higher_is_better": True})
    (folder / "b.jsonl").write_text("".join(json.dumps({"text_id": t, "a": 2}) + "\n" for t in TEST))
    (folder / "b.json").write_text('{"higher_is_better": true}')
    report = refresh(db, DATA, EXAMPLES, scores_dir=folder)
    assert [str(problem) for problem in report.scores_refused["b.jsonl"]] == [
        f"{folder}/b.jsonl: line 1: the metric 'a' of split test is loaded already (from {folder}/a.csv): rename it"
    ]  # refresh has no --replace (issue 48, finding 10)
    assert imported(db) == {("a", text_id): 1.0 for text_id in TEST}


def rejected(db: Path, table: str) -> list[tuple]:
    name = "submission" if table == "rejections" else "folder_file"
    return query(db, f"SELECT {name}, line, message, name_taken FROM {table} ORDER BY ALL")


def submissions_of(db: Path) -> list[str]:
    return [name for (name,) in query(db, "SELECT DISTINCT name FROM annotation_sets WHERE kind = 'submission'")]


def test_a_name_is_claimed_once_and_the_newcomer_waits_for_it(db, tmp_path, capsys):
    """Issue 48, finding 2: a submission named as an imported metric deleted the metric, with one warning, and
    nothing reached the rejections. The newcomer, submission or metric, is refused and recorded (name_taken), the
    holder kept; once the holder is gone the newcomer loads, in the refresh that removes the holder."""
    imported_file = tmp_path / "foo.csv"
    imported_file.write_text(f"text_id,score\n{rows(TRAIN, 3)}")
    assert run(["import", "scores", str(imported_file), "--higher-is-better", "--db", str(db)]) == 0
    submissions, scores = tmp_path / "submissions", tmp_path / "scores"
    submissions.mkdir()
    scores.mkdir()
    shutil.copyfile(EXAMPLES / "submission.csv", submissions / "foo.csv")  # a submission takes the imported name
    write_scores(scores, "held", TEST, 1, {"higher_is_better": True})

    report = refresh(db, DATA, submissions, scores_dir=scores)
    assert (report.published, list(report.refused), report.warnings) == (True, ["foo"], [])
    taken = f"the list name 'foo' is a metric's of corpus shared-task (imported from {imported_file}): rename the list"
    assert rejected(db, "rejections") == [("foo", None, taken, True)]
    assert imported(db) == {("foo", t): 3.0 for t in TRAIN} | {("held", t): 1.0 for t in TEST}
    assert refresh(db, DATA, submissions, scores_dir=scores).published is False  # nothing changed: still waiting
    replacing = tmp_path / "held.csv"  # --replace replaces a metric of import scores, never a file's of the folder
    replacing.write_text(f"text_id,score\n{rows(TEST, 9)}")
    capsys.readouterr()
    assert run(["import", "scores", str(replacing), "--higher-is-better", "--replace", "--db", str(db)]) == 1
    assert capsys.readouterr().err.startswith(
        f"{replacing}: line 1: the metric 'held' of split test is loaded already (from {scores}/held.csv): rename it\n"
    )

    shutil.copyfile(EXAMPLES / "submission.csv", submissions / "held.csv")  # takes a metric of the scores folder
    report = refresh(db, DATA, submissions, scores_dir=scores)
    assert sorted(report.refused) == ["foo", "held"] and "held" not in submissions_of(db)
    assert {metric for metric, _ in imported(db)} == {"foo", "held"}

    (scores / "held.csv").unlink()  # the holder leaves: the submission loads in the same refresh
    (scores / "held.json").unlink()
    report = refresh(db, DATA, submissions, scores_dir=scores)
    assert (report.scores_retired, report.changed, list(report.refused)) == (["held.csv"], ["held"], ["foo"])
    assert sorted(submissions_of(db)) == ["boxscore", "held"] and {metric for metric, _ in imported(db)} == {"foo"}

    write_scores(scores, "held", TEST, 2, {"higher_is_better": True})  # now the metric is the newcomer
    report = refresh(db, DATA, submissions, scores_dir=scores)
    message = f"{scores}/held.csv: line 1: the metric name 'held' is a submission's of corpus shared-task: rename it"
    assert [str(problem) for problem in report.scores_refused["held.csv"]] == [message]
    assert rejected(db, "score_rejections") == [("held.csv", 1, message.split(": line 1: ")[1], True)]
    assert "held" in submissions_of(db)

    (submissions / "held.csv").unlink()  # the submission leaves: the file of the folder loads
    report = refresh(db, DATA, submissions, scores_dir=scores)
    assert (report.retired, report.scores_changed, report.scores_refused) == (["held"], ["held.csv"], {})
    assert imported(db) == {("foo", t): 3.0 for t in TRAIN} | {("held", t): 2.0 for t in TEST}
    assert rejected(db, "score_rejections") == []


def test_one_bad_file_of_the_folder_is_refused_alone_and_a_twin_waits_for_its_name(db, tmp_path):
    """Issue 48, finding 5: a JSON integer past a double's range aborted the whole refresh (nothing published, good
    files included). And two files of one stem give one metric name: the first claims it, the second waits."""
    scores = tmp_path / "scores"
    scores.mkdir()
    write_scores(scores, "good", TEST, 1, {"higher_is_better": True})
    huge = "".join(json.dumps({"text_id": t, "score": 1}) + "\n" for t in TRAIN[1:])
    (scores / "bad.jsonl").write_text(f'{{"text_id": "{TRAIN[0]}", "score": {"9" * 400}}}\n{huge}')
    (scores / "bad.json").write_text('{"higher_is_better": false}')
    (scores / "twin.csv").write_text(f"text_id,score\n{rows(TEST, 5)}")
    (scores / "twin.jsonl").write_text("".join(json.dumps({"text_id": t, "score": 6}) + "\n" for t in TEST))
    (scores / "twin.json").write_text('{"higher_is_better": true}')
    report = refresh(db, DATA, EXAMPLES, scores_dir=scores)
    assert report.published and {name: [str(p) for p in problems] for name, problems in report.scores_refused.items()} == {
        "bad.jsonl": [f"{scores}/bad.jsonl: line 1: score is too large to be a finite number"],
        "twin.jsonl": [f"{scores}/twin.jsonl: line 1: the metric 'twin' of split test is loaded already (from"
                       f" {scores}/twin.csv): rename it"],
    }  # fmt: skip
    assert imported(db) == {("good", t): 1.0 for t in TEST} | {("twin", t): 5.0 for t in TEST}
    (scores / "twin.csv").unlink()
    report = refresh(db, DATA, EXAMPLES, scores_dir=scores)
    assert (report.scores_retired, report.scores_changed, list(report.scores_refused)) == (
        ["twin.csv"],
        ["twin.jsonl"],
        ["bad.jsonl"],
    )
    assert imported(db) == {("good", t): 1.0 for t in TEST} | {("twin", t): 6.0 for t in TEST}


def test_a_list_of_another_corpus_may_not_take_a_metrics_name(db, tmp_path, capsys):
    """A sibling of finding 2: a list imported into a corpus (here a Mu-SHROOM prediction) named as a metric of
    that corpus is refused in one line, nothing of it loaded, and the metric kept."""
    from test_mushroom import write
    from test_mushroom_registered import LABELLED, PREDICTED

    assert (
        run(["import", "mushroom", "--db", str(db), "--as", "gold", str(write(tmp_path / "ref.jsonl", LABELLED))]) == 0
    )
    texts = query(db, "SELECT text_id, split FROM texts WHERE corpus = 'mushroom' ORDER BY ALL")
    split = texts[0][1]
    metric = tmp_path / "sys.csv"
    metric.write_text("text_id,score\n" + "".join(f"{text_id},0.5\n" for text_id, of in texts if of == split))
    assert run(["import", "scores", str(metric), "--lower-is-better", "--corpus", "mushroom", "--db", str(db)]) == 0
    prediction = write(tmp_path / "pred.jsonl", PREDICTED)
    before = digest(db)
    capsys.readouterr()
    assert run(["import", "mushroom", "--db", str(db), "--name", "sys", str(prediction)]) == 1
    assert capsys.readouterr().err.splitlines()[0] == (
        f"{prediction}: the list name 'sys' is a metric's of corpus mushroom (imported from {metric}): rename the list"
    )
    assert digest(db) == before


def test_a_list_of_a_corpus_folder_named_as_a_metric_is_refused_alone(db, tmp_path):
    """A sibling of finding 2: a list file added to a registered corpus folder, named as a metric of the corpus,
    is refused alone when the corpus is loaded again; its texts and other lists load, and the metric is kept."""
    from weather_corpus import LISTS, import_weather, lines

    import_weather(db, tmp_path)
    metric = tmp_path / "late.csv"
    metric.write_text("text_id,score\nw1,1\nw2,2\nw3,3\n")
    assert run(["import", "scores", str(metric), "--lower-is-better", "--corpus", "weather", "--db", str(db)]) == 0
    late = tmp_path / "weather" / "lists" / "late.jsonl"
    late.write_text(lines(LISTS["llm"]))
    report = refresh(db, DATA, EXAMPLES)
    assert {file: [p.message for p in problems] for file, problems in report.corpus_refusals.items()} == {
        str(late): [f"the list name 'late' is a metric's of corpus weather (imported from {metric}): rename the list"]
    }
    lists = query(db, "SELECT DISTINCT name FROM annotation_sets WHERE corpus = 'weather' ORDER BY name")
    assert lists == [("gold",), ("llm",), ("metric",)]
    assert query(db, "SELECT text_id, score FROM text_scores WHERE metric = 'late' ORDER BY 1") == [
        ("w1", 1.0),
        ("w2", 2.0),
        ("w3", 3.0),
    ]


def tokens_of(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split()


def test_the_built_in_metrics_are_sacrebleus_of_the_texts_against_the_cleaned_reference(built_db):
    references = {}
    for folder in SPLITS.values():
        for line in (folder / "shared_task.jsonl").read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            references[record["shared_task_text_id"]] = record["cleaned_text"]
    expected = {}
    for split, folder in SPLITS.items():
        for path in (folder / "texts").glob("*.txt"):
            text, reference = " ".join(tokens_of(path)), references[path.stem]
            expected["bleu", path.stem] = (split, sacrebleu.sentence_bleu(text, [reference]).score, True)
            expected["chrf", path.stem] = (split, sacrebleu.sentence_chrf(text, [reference]).score, True)
            expected["length", path.stem] = (split, len(tokens_of(path)), False)
    got = query(
        built_db, "SELECT metric, text_id, split, score, higher_is_better FROM metric_scores WHERE kind = 'builtin'"
    )
    assert {(metric, text_id): tuple(rest) for metric, text_id, *rest in got} == {
        key: (split, pytest.approx(score, abs=1e-9), direction) for key, (split, score, direction) in expected.items()
    }
    assert len(got) == 3 * 90


def mistake_counts(path: Path) -> Counter:
    """(text, category) -> how many rows of a mistake list mark it, read with the csv module."""
    with path.open(encoding="utf-8", newline="") as stream:
        return Counter((row["TEXT_ID"].removesuffix(".txt"), row["TYPE"]) for row in csv.DictReader(stream))


CATEGORIES = ["NAME", "NUMBER", "WORD", "CONTEXT", "NOT_CHECKABLE", "OTHER"]


def per_scope(counts: Counter, ids: list[str]) -> dict[tuple[str, str], int]:
    scoped = {(scope, text_id): counts[text_id, scope] for scope in CATEGORIES for text_id in ids}
    return scoped | {("ALL", text_id): sum(counts[text_id, c] for c in CATEGORIES) for text_id in ids}


def test_a_submission_is_a_metric_of_its_mistakes_per_text(built_db):
    expected = per_scope(mistake_counts(EXAMPLES / "submission.csv"), TRAIN)
    scoped = query(
        built_db,
        "SELECT scope, text_id, score, kind, higher_is_better, split FROM scoped_metric_scores WHERE metric = 'submission'",
    )
    assert {(scope, text_id): score for scope, text_id, score, *_ in scoped} == expected
    assert {(kind, direction, split) for *_, kind, direction, split in scoped} == {("submission", False, "train")}
    flat = query(built_db, "SELECT text_id, score FROM metric_scores WHERE metric = 'submission'")
    assert dict(flat) == {text_id: expected["ALL", text_id] for text_id in TRAIN}
    # an imported or built-in metric has its one score in every scope
    spread = query(
        built_db,
        "SELECT count(DISTINCT scope), count(DISTINCT score) FROM scoped_metric_scores WHERE metric = 'length'"
        " GROUP BY text_id",
    )
    assert set(spread) == {(7, 1)}


def test_metric_targets_are_the_gold_counts_per_scope_with_length_system_and_game(built_db):
    got = query(built_db, "SELECT split, scope, text_id, gold_count, token_count, system, input_id FROM metric_targets")
    for split, ids in (("train", TRAIN), ("test", TEST)):
        expected = per_scope(mistake_counts(SPLITS[split] / "gsml.csv"), ids)
        assert {(scope, text_id): gold for s, scope, text_id, gold, *_ in got if s == split} == expected
    lengths = {
        text_id: len(tokens_of(SPLITS[split] / "texts" / f"{text_id}.txt"))
        for split in SPLITS
        for text_id in text_ids(split)
    }
    assert {text_id: tokens for _, _, text_id, _, tokens, _, _ in got} == lengths
    with (DATA.parent / "nlg_systems.csv").open(encoding="utf-8", newline="") as stream:
        systems = {row["TEXT_ID"].removesuffix(".txt"): row["SYSTEM"] for row in csv.DictReader(stream)}
    assert {text_id: system for _, _, text_id, _, _, system, _ in got} == {t: systems.get(t) for t in lengths}
    games = {}
    for folder in SPLITS.values():
        for line in (folder / "shared_task.jsonl").read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            month, day, year = record["day"].split("_")
            games[record["shared_task_text_id"]] = f"20{year}-{month}-{day}|{record['home_name']}|{record['vis_name']}"
    assert {text_id: input_id for _, _, text_id, _, _, _, input_id in got} == games


def test_many_texts_are_scored_in_processes_of_their_own_alike(monkeypatch):
    texts = [
        ("c", "s", path.stem, " ".join(tokens_of(path)), " ".join(tokens_of(path))[::-1])
        for folder in SPLITS.values()
        for path in sorted((folder / "texts").glob("*.txt"))
    ]
    monkeypatch.setattr(builtin_metrics, "TEXTS_IN_PROCESS", 40)  # 90 texts: two processes on two cores
    monkeypatch.setattr(builtin_metrics.os, "cpu_count", lambda: 2)
    pools = []

    class Pool(builtin_metrics.ProcessPoolExecutor):
        def __init__(self, workers, **options):
            pools.append(workers)
            super().__init__(workers, **options)

    monkeypatch.setattr(builtin_metrics, "ProcessPoolExecutor", Pool)
    assert builtin_metrics.scored_pairs(texts) == builtin_metrics.reference_scores([t[3:] for t in texts])
    assert pools == [2]
