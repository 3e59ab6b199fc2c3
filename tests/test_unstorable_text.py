"""A NUL, which DuckDB stores and no text of PostgreSQL can hold (export postgres failed as a whole, naming no table
or row), is refused at import by every importer, in one line naming the file and the line: written as such in a CSV
or a text file, or escaped in JSON (\\u0000) or YAML (\\0); nothing of the refused file is loaded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from accuracy_db.etl import box_score_records, games_csv, texts
from accuracy_db.etl.unstorable_text import UnstorableText, unstorable_text
from test_bad_input import GOOD_ROW, refusal
from test_bad_input import con as con  # noqa: F401 (the fixture)
from test_corpus_folders import corpus_folder
from test_factgenie_import import LLM, campaign, record, span

from accuracy_db.cli.main import run
from accuracy_db.errors import InputError
from accuracy_db.ingest.inbox import read_sidecar

RAW_NUL = "holds a NUL character (byte 0), which no text can hold"
ESCAPED_NUL = "holds a NUL (\\u0000), which no text can hold"


def refused_import(db: Path, capsys, *arguments: str) -> str:
    """Run an import that must be refused, leaving the database as it was; what it printed."""
    before = db.read_bytes()
    assert run(["import", *arguments, "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert "nothing was loaded" in err and "Traceback" not in err
    assert db.read_bytes() == before
    return err


def with_line(path: Path, line_number: int, line: str) -> None:
    lines = path.read_text().splitlines(keepends=True)
    lines[line_number - 1] = line
    path.write_text("".join(lines))


@pytest.mark.parametrize(
    ("file", "line", "content", "message"),
    [
        ("texts.jsonl", 2, json.dumps({"id": "w2", "text": "Sunny\0 in Rome.", "split": "dev"}), ESCAPED_NUL),
        (
            "lists/metric_jsonl.jsonl",
            2,
            json.dumps({"text_id": "w2", "category": "Wrong", "start": 0, "end": 5, "comment": "a\0b"}),
            ESCAPED_NUL,
        ),
        ("lists/metric.csv", 3, "w2,Wrong,0,5,,,,a\0b\n", RAW_NUL),
    ],
    ids=["a text", "a comment in JSONL", "a comment in CSV"],
)
def test_import_corpus_refuses_a_nul_naming_file_and_line(db, tmp_path, capsys, file, line, content, message):
    folder = corpus_folder(tmp_path)
    with_line(folder / file, line, content + "\n")
    err = refused_import(db, capsys, "corpus", str(folder))
    assert f"{folder / file}: line {line}: " in err and message in err


def test_import_corpus_refuses_an_escaped_nul_in_categories_yaml(db, tmp_path, capsys):
    folder = corpus_folder(tmp_path)
    (folder / "categories.yaml").write_text('- name: Wrong\n  description: "a\\0b"\n- name: Unsupported\n')
    err = refused_import(db, capsys, "corpus", str(folder))
    assert f"{folder / 'categories.yaml'}: not valid text: 'a\\x00b' {ESCAPED_NUL}" in err


@pytest.mark.parametrize(
    "bad",
    [
        record(1, "gpt", [], output="Smith scored 31\0 points. Jones added 12."),
        record(1, "gpt", [span("Smith scored 31 points. Jones added 12.", "31", reason="no\0 data")]),
    ],
    ids=["an output", "a reason"],
)
def test_import_factgenie_refuses_a_nul_naming_file_and_line(db, tmp_path, capsys, bad):
    folder = campaign(tmp_path, [LLM[0], bad])
    err = refused_import(db, capsys, "factgenie", str(folder))
    assert f"{folder / 'files' / 'a.jsonl'}: line 2: not valid text: " in err and ESCAPED_NUL in err


@pytest.mark.parametrize(
    "row",
    ["S001.txt,1,2,won,3,3,3,3,WORD,l\0st,", "S001.txt,1,2,won,3,3,3,3,WORD,,a\0comment"],
    ids=["CORRECTION", "COMMENT"],
)
def test_a_mistake_list_with_a_nul_in_a_cell_is_refused_naming_the_line(con, tmp_path, row):  # noqa: F811
    assert refusal(con, tmp_path, GOOD_ROW, row) == [f"line 3: {RAW_NUL}"]


def test_a_shared_task_text_with_a_nul_is_refused_naming_the_line(tmp_path):
    (tmp_path / "S001.txt").write_text("The Celtics won .\nThomas\0 scored .\n")
    with pytest.raises(InputError) as refused:
        texts.read_texts(tmp_path)
    assert [str(problem) for problem in refused.value.problems] == [f"{tmp_path / 'S001.txt'}: line 2: {RAW_NUL}"]


def test_a_sidecar_with_an_escaped_nul_is_refused(tmp_path):
    for name, content in (("a.json", '{"team": "T\\u0000"}'), ("b.yaml", 'team: "T\\0"\n'), ("c.yml", "team: T\0\n")):
        (tmp_path / name).write_text(content)
        with pytest.raises(InputError) as refused:
            read_sidecar(tmp_path / name)
        assert "NUL" in str(refused.value) and str(refused.value).startswith(f"{tmp_path / name}: ")


def test_a_box_score_or_a_games_csv_with_a_nul_is_refused(tmp_path):
    with pytest.raises(UnstorableText, match="NUL"):
        box_score_records.parse_json(b'{"shared_task_text_id": "S001", "home_name": "Celt\\u0000ics"}')
    assert box_score_records.parse_json(b'{"name": "no \\\\u0000 here"}') == {"name": "no \\u0000 here"}
    path = tmp_path / "games.csv"
    path.write_text("text_id,home\nS001,Celt\0ics\n")
    problems = []
    assert games_csv.read_games_csv(path, problems) is None
    assert [str(problem) for problem in problems] == [f"{path}: line 2: {RAW_NUL}"]


@pytest.mark.parametrize(
    ("value", "refused"),
    [
        ({"a": ["b", {"c\0": 1}]}, True),  # in a key
        ({"a": ["b", {"c": "\ud800"}]}, True),
        ({"a": ["b", {"c": "\\u0000"}]}, False),  # a backslash, a u and four digits
        ("x" * 100 + "\0", True),
    ],
)
def test_the_walk_finds_a_nul_or_a_lone_surrogate_anywhere(value, refused):
    assert (unstorable_text(value) is not None) == refused
