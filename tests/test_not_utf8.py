"""Names and strings that are no UTF-8 text: a file name's bytes that are not UTF-8 (Python reads each as a lone
surrogate) and a JSON or YAML escape of half of a surrogate pair (\\ud800). DuckDB holds neither: every command that
met one stopped with a traceback, and one such name in the inbox stopped every refresh. Each is refused in a line that
names the file (its bytes shown as escapes, as ls shows them), and only what holds it."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from shared_data import DATA, EXAMPLES
from weather_corpus import CATEGORIES, LISTS, TEXTS, lines

from accuracy_db.cli.main import run
from accuracy_db.errors import InputError, Problem
from accuracy_db.printable import is_utf8, printable, utf8_text
from accuracy_db.store import database
from etl.bounded_yaml import load_bounded_yaml
from etl.box_score_records import parse_box_scores
from etl.corpus_files import jsonl_objects
from etl.factgenie import json_of

NOT_UTF8 = "the file's name is not UTF-8 text: rename the file"
HALF_PAIR = "holds half of a surrogate pair, which is no character"


def named(folder: Path, name: bytes) -> Path:
    """The path of a file of the folder whose name is these bytes."""
    return Path(os.fsdecode(os.fsencode(folder) + b"/" + name))


@given(st.binary(max_size=40))
def test_a_name_of_any_bytes_is_shown_with_its_bytes_that_are_not_utf8_as_escapes(raw):
    shown = utf8_text(os.fsdecode(raw))
    assert shown == raw.decode("utf-8", "backslashreplace")
    assert printable(os.fsdecode(raw)) == printable(shown)
    assert Problem(os.fsdecode(raw), None, "x").file == shown


@given(st.text(st.one_of(st.characters(), st.characters(categories=["Cs"]))))
def test_any_string_becomes_utf8_text_and_utf8_text_stays_as_it_is(text):
    shown = utf8_text(text)
    shown.encode("utf-8")
    printable(text).encode("utf-8")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        assert shown != text and not is_utf8(text)
    else:
        assert shown == text and is_utf8(text)


def test_an_argument_or_a_variable_that_is_not_utf8_is_refused_in_one_line(tmp_path, capsys, monkeypatch):
    db = named(tmp_path, b"db-\xff.duckdb")
    assert run(["build", "--data", str(DATA), "--db", str(db)]) == 2
    assert capsys.readouterr().err == f"error: the argument {tmp_path}/db-\\xff.duckdb is not UTF-8 text\n"
    assert not os.listdir(tmp_path)
    # or as the tool's environment variable (the database, the data folder)
    for variable in ("ACCURACY_DB_PATH", "ACCURACY_DB_DATA"):
        monkeypatch.setenv(variable, str(db))
        assert run(["build"]) == 2
        assert capsys.readouterr().err == (
            f"error: the environment variable {variable}={tmp_path}/db-\\xff.duckdb is not UTF-8 text\n"
        )
        monkeypatch.delenv(variable)
    assert not os.listdir(tmp_path)


def train_copy(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    shutil.copytree(DATA / "texts", data / "texts")
    for name in ("gsml.csv", "games.csv", "shared_task.jsonl", "token_lookup.yaml"):
        shutil.copy(DATA / name, data / name)
    return data


def test_a_text_or_a_curation_export_whose_name_is_not_utf8_fails_the_build_naming_it(tmp_path, capsys):
    data = train_copy(tmp_path)
    shutil.copy(data / "texts" / "S001.txt", named(data / "texts", b"S\xe91.txt"))
    db = tmp_path / "accuracy.duckdb"
    assert run(["build", "--data", str(data), "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert f"{data}/texts/S\\xe91.txt: {NOT_UTF8}\n" in err
    assert not db.exists()
    # the drop-in evaluate reads the texts the same way
    submitted = str(EXAMPLES / "submission.csv")
    assert run(["evaluate", "--gsml", str(data / "gsml.csv"), "--submitted", submitted]) == 1
    assert f"{data}/texts/S\\xe91.txt: {NOT_UTF8}\n" in capsys.readouterr().err

    os.remove(named(data / "texts", b"S\xe91.txt"))
    export = named(data / "curation", b"S001_\xe9") / "CURATION_USER.tsv"
    export.parent.mkdir(parents=True)
    shutil.copy(DATA / "curation" / "S001_01_To_60.txt" / "CURATION_USER.tsv", export)
    assert run(["build", "--data", str(data), "--db", str(db)]) == 1
    assert f"{data}/curation/S001_\\xe9/CURATION_USER.tsv: {NOT_UTF8}\n" in capsys.readouterr().err
    os.remove(export)
    assert run(["build", "--data", str(data), "--db", str(db)]) == 0


def weather_folder(folder: Path) -> Path:
    (folder / "lists").mkdir(parents=True)
    (folder / "texts.jsonl").write_text(lines(TEXTS))
    (folder / "categories.yaml").write_text(CATEGORIES)
    for name, spans in LISTS.items():
        (folder / "lists" / f"{name}.jsonl").write_text(lines(spans))
    return folder


def test_a_list_of_a_registered_folder_whose_name_is_not_utf8_is_refused_on_its_own(tmp_path, capsys):
    corpus = weather_folder(tmp_path / "weather")
    shutil.copy(corpus / "lists" / "llm.jsonl", named(corpus / "lists", b"llm-\xe9.jsonl"))
    db = tmp_path / "accuracy.duckdb"
    assert run(["build", "--data", str(DATA), "--db", str(db), "--corpus-dir", str(corpus)]) == 0
    assert f"{corpus}/lists/llm-\\xe9.jsonl: {NOT_UTF8}" in capsys.readouterr().err
    con = database.open_existing(db)
    try:
        scored = con.execute("SELECT DISTINCT submission FROM scores WHERE corpus = 'weather' ORDER BY 1").fetchall()
        refused = con.execute("SELECT file, message FROM corpus_rejections").fetchall()
    finally:
        con.close()
    assert scored == [("llm",), ("metric",)]
    assert refused == [(f"{corpus}/lists/llm-\\xe9.jsonl", NOT_UTF8)]
    assert run(["refresh", "--data", str(DATA), "--db", str(db), "--submissions", str(EXAMPLES)]) == 0


def test_a_json_line_with_half_a_surrogate_pair_or_a_number_too_long_is_refused_with_its_line(tmp_path):
    path = tmp_path / "texts.jsonl"
    path.write_text(
        '{"id": "a", "text": "fine \\ud83d\\ude00"}\n'  # a whole pair: an emoji
        '{"id": "b", "text": "half \\ud83d of one"}\n'
        '{"id": "c", "text": "x", "n": ' + "1" * 5000 + "}\n"
    )
    problems: list[Problem] = []
    assert list(jsonl_objects(path, problems)) == [(1, {"id": "a", "text": "fine \U0001f600"})]
    assert [str(problem) for problem in problems] == [
        f"{path}: line 2: not valid text: 'half \\ud83d of one' {HALF_PAIR}",
        f"{path}: line 3: not valid JSON: a number too long to read",
    ]

    problems = []
    assert json_of(path, '{"output": "\\udc00"}', 7, problems) is None
    assert json_of(path, '{"n": ' + "1" * 5000 + "}", 8, problems) is None
    assert json_of(path, '{"output": "\\ud83d\\ude00"}', 9, problems) == {"output": "\U0001f600"}
    assert [str(problem) for problem in problems] == [
        f"{path}: line 7: not valid text: '\\udc00' {HALF_PAIR}",
        f"{path}: line 8: not valid JSON: a number too long to read",
    ]


def test_a_box_score_record_with_half_a_surrogate_pair_is_refused_with_its_line():
    record = (DATA / "shared_task.jsonl").read_bytes().split(b"\n")[0]
    assert b'"home_city": "' in record
    half = record.replace(b'"home_city": "', b'"home_city": "\\ud800', 1)
    problems: list[Problem] = []
    box_scores = parse_box_scores("shared_task.jsonl", [record + b"\n" + half + b"\n"], problems)
    assert len(box_scores.games) == 1
    assert [(problem.line, problem.message.split(" holds")[0]) for problem in problems] == [
        (2, "not valid text: '\\ud800" + json.loads(record)["home_city"] + "'")
    ]


def test_a_yaml_escape_of_half_a_surrogate_pair_is_refused(monkeypatch):
    import yaml

    for text in ('team: "x\\ud800"\n', 'team: "x\\U0000dfff"\n'):
        with pytest.raises(InputError) as refused:  # libyaml refuses it itself
            load_bounded_yaml("sidecar.yaml", text, 3, "sidecar")
        assert [problem.file for problem in refused.value.problems] == ["sidecar.yaml"]
    monkeypatch.delattr(yaml, "CSafeLoader")  # PyYAML without libyaml reads it into the string
    with pytest.raises(InputError) as refused:
        load_bounded_yaml("sidecar.yaml", 'team: "x\\ud800"\n', 3, "sidecar")
    assert [str(problem) for problem in refused.value.problems] == [
        f"sidecar.yaml: not valid text: 'x\\ud800' {HALF_PAIR}"
    ]
