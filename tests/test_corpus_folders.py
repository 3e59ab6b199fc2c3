"""Corpus folders and factgenie campaigns registered with the database: given to build and refresh
(--corpus-dir) or imported; lists in CSV as in JSONL; kept through build and refresh; reloaded by refresh when a
file of them is added, changed or removed; a refused file recorded with its file and line and never taking the
rest down; the offset audit in rejections, in the saved analysis offset_audit and in the summaries."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
from pathlib import Path

import pytest
from accuracy_db.etl import corpus_files
from accuracy_db.etl.span_csv import csv_objects
from database_rows import rows
from hypothesis import given, settings
from hypothesis import strategies as st
from shared_data import DATA, EXAMPLES
from test_corpus_commands import assert_ties_are_the_same_row

from accuracy_db.cli.main import run
from accuracy_db.errors import Problem, SpanProblem
from accuracy_db.ingest import corpus_folders
from accuracy_db.ingest.build import build
from accuracy_db.ingest.refresh import refresh
from accuracy_db.ingest.watch import folder_state
from accuracy_db.store import database
from accuracy_db.store.analyses import saved_analyses

# w1 "Rain in Oslo, 12 degrees.": tokens Rain 0-4, in 5-7, Oslo, 8-13, 12 14-16, degrees. 17-25.
# w2 "Sunny in Rome.\nWind from the north.": Sunny 0-5, in 6-8, Rome. 9-14, Wind 15-19, from 20-24, the 25-28,
# north. 29-35.
TEXTS = [
    {"id": "w1", "text": "Rain in Oslo, 12 degrees.", "split": "dev"},
    {"id": "w2", "text": "Sunny in Rome.\nWind from the north.", "split": "dev"},
]
CATEGORIES = "- name: Wrong\n  colour: '#D55E00'\n- name: Unsupported\n"
GOLD = [
    {"text_id": "w1", "category": "Wrong", "start": 14, "end": 16},
    {"text_id": "w2", "category": "Unsupported", "token_start": 4, "token_end": 6},
]
# The same spans as METRIC_CSV, in JSONL: the two formats must give the same list.
METRIC = [
    {"text_id": "w1", "category": "Wrong", "start": 14, "text": "12 deg"},  # widened to tokens 4-5
    {"text_id": "w2", "category": "Wrong", "start": 0, "end": 5},  # Sunny, token 1
    {"text_id": "w2", "category": "Unsupported", "token_start": 5, "token_end": 5, "comment": 'a, "quoted"\nnote'},
    {"text_id": "w1", "category": "Wrong", "start": 2, "text": "Oslo"},  # relocated to 8 (token 3)
]
METRIC_CSV = (
    "text_id,category,start,end,text,token_start,token_end,comment\n"
    "w1,Wrong,14,,12 deg,,,\n"
    "w2,Wrong,0,5,,,,\n"
    'w2,Unsupported,,,,5,5,"a, ""quoted""\nnote"\n'
    "w1,Wrong,2,,Oslo,,,\n"
)


def jsonl(records: list) -> str:
    return "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records)


def corpus_folder(root: Path, name: str = "weather") -> Path:
    folder = root / name
    (folder / "lists").mkdir(parents=True)
    (folder / "texts.jsonl").write_text(jsonl(TEXTS))
    (folder / "categories.yaml").write_text(CATEGORIES)
    (folder / "lists" / "gold.jsonl").write_text(jsonl(GOLD))
    (folder / "lists" / "metric.csv").write_text(METRIC_CSV)
    (folder / "lists" / "metric.yaml").write_text("team: Met\napproach: metric\n")
    (folder / "lists" / "metric_jsonl.jsonl").write_text(jsonl(METRIC))
    return folder


def lists(db: Path, corpus: str = "weather") -> list:
    return rows(db, "SELECT name, row_count FROM annotation_sets WHERE corpus = ? ORDER BY name", [corpus])


def spans_of(db: Path, name: str) -> list:
    return rows(
        db,
        "SELECT text_id, doc_token_start, doc_token_end, category, comment FROM mistakes JOIN annotation_sets"
        " USING (set_id) WHERE corpus = 'weather' AND name = ? ORDER BY ALL",
        [name],
    )


def scores_of(db: Path, name: str) -> list:
    return rows(
        db,
        "SELECT scope, recall, precision FROM scores WHERE corpus = 'weather' AND submission = ? ORDER BY position",
        [name],
    )


def refreshed(db: Path, *corpus_dirs: Path):
    return refresh(db, DATA, EXAMPLES, corpus_dirs=corpus_dirs)


def test_a_csv_list_gives_the_spans_and_scores_its_jsonl_twin_gives_with_its_sidecar(db, tmp_path):
    report = refreshed(db, corpus_folder(tmp_path))
    assert report.corpora_loaded == ["weather"] and report.corpus_refusals == {}
    assert lists(db) == [("gold", 2), ("metric", 4), ("metric_jsonl", 4)]
    assert (
        spans_of(db, "metric")
        == spans_of(db, "metric_jsonl")
        == [
            ("w1", 3, 3, "Wrong", None),
            ("w1", 4, 5, "Wrong", None),
            ("w2", 1, 1, "Wrong", None),
            ("w2", 5, 5, "Unsupported", 'a, "quoted"\nnote'),
        ]
    )
    assert scores_of(db, "metric") == scores_of(db, "metric_jsonl") != []
    assert rows(db, "SELECT corpus, submission, team, approach FROM submission_metadata WHERE corpus = 'weather'") == [
        ("weather", "metric", "Met", "metric")
    ]
    # one relocated and one widened span in each of the two lists, 4 in all
    assert report.adjusted_spans == {"relocated": 2, "widened": 2} and report.refused_spans == 0
    assert "; corpora: 1 reloaded, 0 unchanged, 0 file(s) refused; spans adjusted: 2 relocated, 2 widened" in (
        report.summary()
    )
    # the shared task is untouched: 7 lists (the examples' 5 and the checker's, one per split), 7 rows each
    assert rows(db, "SELECT count(*) FROM scores WHERE corpus = 'shared-task'")[0][0] == 49


BAD_ROWS = [
    ("w1,Wrong,x,,12,,,\n", 2, "start is 'x', not a whole number"),
    ("w1,Wrong,14,16\n", 2, "4 cells, but the header has 8 columns"),
    ("w1,Wrong,-1,,12,,,\n", 2, "the span's start is -1: the span was not located in the text"),
    ("w1,Wrong,3,,Paris,,,\n", 2, "the span's text 'Paris' is not at offset 3"),
    ("w1,Wrong,20,40,,,,\n", 2, "characters 20-40 are not within w1 (0-25)"),
    ("w1,Wrong,,,,5,6,\n", 2, "tokens 5-6 are not tokens of w1 (1-5)"),
    ("w9,Wrong,0,1,,,,\n", 2, 'text_id "w9" is not a text of texts.jsonl'),
    ("w1,Bad,0,1,,,,\n", 2, 'category "Bad" is not one of Wrong, Unsupported'),
    ("w1,Wrong,0,1,,,,\n\nw1,Wrong,99999999999999999999,,x,,,\n", 4, "not a whole number"),
]


def test_each_bad_csv_row_refuses_its_list_alone_naming_file_and_line(db, tmp_path):
    folder = corpus_folder(tmp_path)
    bad = [folder / "lists" / f"bad{number}.csv" for number in range(len(BAD_ROWS))]
    for path, (row, _, _) in zip(bad, BAD_ROWS, strict=True):
        path.write_text("text_id,category,start,end,text,token_start,token_end,comment\n" + row)
    report = refreshed(db, folder)
    assert sorted(report.corpus_refusals) == sorted(map(str, bad))
    for path, (_, line, message) in zip(bad, BAD_ROWS, strict=True):
        problems = report.corpus_refusals[str(path)]
        assert [(p.file, p.line) for p in problems] == [(str(path), line)] and message in problems[0].message
    spans = {p.line: isinstance(p, SpanProblem) for p in report.corpus_refusals[str(bad[2])]}
    assert spans == {2: True} and report.refused_spans == 4  # -1, Paris, characters and tokens beyond the text
    assert [name for name, _ in lists(db)] == ["gold", "metric", "metric_jsonl"]  # nothing of bad*, the rest loaded
    assert scores_of(db, "metric") != []


@pytest.mark.parametrize(
    ("content", "line", "message"),
    [
        ("text_id,category,start,START,end\n", 1, "column 'start' is given twice"),
        ("text_id,category,begin\n", 1, "unknown column 'begin'"),
        ("text_id,start,end\n", 1, "no column category"),
        ("", None, "the file is empty"),
        ('text_id,category,start,end\nw1,"Wrong,0,1\n', 2, "not valid CSV"),
    ],
)
def test_a_bad_csv_header_or_file_is_refused(tmp_path, content, line, message):
    path = tmp_path / "list.csv"
    path.write_text(content)
    problems: list[Problem] = []
    assert csv_objects(path, problems) == [] or message == "not valid CSV"
    assert [(p.line, message in p.message) for p in problems][:1] == [(line, True)]


def test_csv_rows_are_numbered_by_the_line_they_start_on(tmp_path):
    path = tmp_path / "list.csv"
    path.write_text('text_id,category,comment,start,end\nw1,A,"two\nlines",0,1\n\nw2,B,,-3,7\n')
    assert csv_objects(path, []) == [
        (2, {"text_id": "w1", "category": "A", "comment": "two\nlines", "start": 0, "end": 1}),
        (5, {"text_id": "w2", "category": "B", "start": -3, "end": 7}),
    ]


def test_bad_jsonl_lines_a_list_given_twice_and_a_bad_sidecar_refuse_only_themselves(db, tmp_path):
    folder = corpus_folder(tmp_path)
    lists_dir = folder / "lists"
    (lists_dir / "broken.jsonl").write_text(jsonl([GOLD[0], "{not json", '["a list"]']))
    (lists_dir / "twice.jsonl").write_text(jsonl(GOLD))
    (lists_dir / "twice.csv").write_text("text_id,category,start,end\nw1,Wrong,14,16\n")
    (lists_dir / "metric.yaml").write_text("team: [a, b]\n")
    os.mkfifo(lists_dir / "fifo.jsonl")  # never opened for reading: it would block
    (lists_dir / "folder.csv").mkdir()
    (lists_dir / "dangling.jsonl").symlink_to(tmp_path / "nowhere.jsonl")
    report = refreshed(db, folder)
    found = {(Path(p.file).name, p.line, type(p)) for problems in report.corpus_refusals.values() for p in problems}
    assert found == {
        ("broken.jsonl", 2, Problem),
        ("broken.jsonl", 3, Problem),
        ("twice.jsonl", None, Problem),
        ("twice.csv", None, Problem),
        ("metric.yaml", None, Problem),
        ("fifo.jsonl", None, Problem),
        ("folder.csv", None, Problem),
        ("dangling.jsonl", None, Problem),
    }
    messages = {Path(file).name: problems[0].message for file, problems in report.corpus_refusals.items()}
    assert messages["fifo.jsonl"] == "not a regular file: it is a FIFO (named pipe)"
    assert messages["folder.csv"] == "not a regular file: it is a directory"
    assert messages["dangling.jsonl"].startswith("cannot read the file: it is a symbolic link")
    assert messages["twice.csv"] == "the list twice is given twice (twice.csv and twice.jsonl)"
    assert [name for name, _ in lists(db)] == ["gold", "metric", "metric_jsonl"]
    assert rows(db, "SELECT count(*) FROM submission_metadata WHERE corpus = 'weather'") == [(0,)]
    assert rows(db, "SELECT count(*) FROM corpus_rejections") == [(8,)]


@pytest.mark.parametrize(
    ("file", "content", "message"),
    [
        ("texts.jsonl", jsonl([*TEXTS, TEXTS[0]]), "id w1 is given again (first on line 1)"),
        ("texts.jsonl", jsonl([TEXTS[0], "{"]), "not valid JSON"),
        ("categories.yaml", "name: Wrong\n", "expected a list of categories"),
    ],
)
def test_a_bad_texts_or_categories_file_refuses_the_corpus_and_nothing_else(db, tmp_path, file, content, message):
    folder = corpus_folder(tmp_path)
    (folder / file).write_text(content)
    report = refreshed(db, folder)
    assert [message in p.message for p in report.corpus_refusals[str(folder / file)]] == [True]
    assert rows(db, "SELECT count(*) FROM texts WHERE corpus = 'weather'") == [(0,)] and lists(db) == []
    assert rows(db, "SELECT count(*) FROM scores WHERE corpus = 'shared-task'")[0][0] == 49


def test_build_takes_corpus_dirs_and_keeps_registered_folders_through_a_rebuild(tmp_path, capsys):
    weather = corpus_folder(tmp_path)
    db = tmp_path / "accuracy.duckdb"
    (weather / "lists" / "bad.csv").write_text("text_id,category,start,text\nw1,Wrong,-1,12\n")
    assert run(["build", "--data", str(DATA), "--db", str(db), "--corpus-dir", str(weather)]) == 0
    out, err = capsys.readouterr()
    assert "; corpora: 1 loaded, 0 unchanged, 1 file(s) refused; spans adjusted: 2 relocated, 2 widened;" in out
    assert "1 span(s) refused." in out
    assert f"refused {weather / 'lists' / 'bad.csv'}: 1 problem(s), nothing of it loaded" in err
    assert "Traceback" not in err
    built = lists(db)
    # a factgenie campaign imported into the corpus is registered too
    campaign = tmp_path / "camp"
    (campaign / "files").mkdir(parents=True)
    (campaign / "metadata.json").write_text(
        json.dumps({"id": "camp", "config": {"annotation_span_categories": [{"name": "Wrong"}]}})
    )
    record = {"dataset": "d", "split": "dev", "setup_id": "s", "example_idx": 0, "text_id": "w1"}
    record |= {"output": TEXTS[0]["text"], "annotations": [{"text": "12", "start": 14, "type": 0}]}
    (campaign / "files" / "a.jsonl").write_text(jsonl([record | {"metadata": {"annotator_id": "llm"}}]))
    assert run(["import", "factgenie", "--db", str(db), "--corpus", "weather", str(campaign)]) == 0
    with_campaign = lists(db)
    assert with_campaign == sorted([*built, ("camp/llm", 1)])
    before = rows(db, "SELECT scope, submission, recall FROM scores WHERE corpus = 'weather' ORDER BY ALL")
    capsys.readouterr()
    # a build without --corpus-dir loads the registered folders again, in the order they were registered
    assert run(["build", "--data", str(DATA), "--db", str(db)]) == 0
    assert lists(db) == with_campaign
    assert rows(db, "SELECT scope, submission, recall FROM scores WHERE corpus = 'weather' ORDER BY ALL") == before
    assert rows(db, "SELECT format, corpus, kind FROM corpus_folders ORDER BY position") == [
        ("corpus", "weather", None),
        ("factgenie", "weather", "submission"),
    ]
    capsys.readouterr()
    # the offset audit: rejections --offsets and the saved analysis
    assert run(["rejections", "--db", str(db), "--offsets", "--format", "json"]) == 0
    audit = json.loads(capsys.readouterr().out)
    assert [(Path(r["file"]).name, r["line_number"], r["outcome"]) for r in audit] == [
        ("bad.csv", 2, "refused"),
        ("metric.csv", 2, "widened"),
        ("metric.csv", 6, "relocated"),  # the row before spans lines 4 and 5 (a quoted line break)
        ("metric_jsonl.jsonl", 1, "widened"),
        ("metric_jsonl.jsonl", 4, "relocated"),
    ]
    assert audit[2] | {"file": None} == {
        "corpus": "weather",
        "list_name": "metric",
        "split": "dev",
        "file": None,
        "line_number": 6,
        "text_id": "w1",
        "outcome": "relocated",
        "given_start": 2,
        "given_text": "Oslo",
        "char_start": 8,
        "char_end": 13,
        "doc_token_start": 3,
        "doc_token_end": 3,
        "message": None,
    }
    assert "start is -1" in audit[0]["message"]
    assert run(["query", "--db", str(db), "--saved", "offset_audit", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == audit
    assert_ties_are_the_same_row(db, "offset_audit")
    assert run(["rejections", "--db", str(db), "--format", "json"]) == 0
    refused = json.loads(capsys.readouterr().out)
    assert [(r["corpus"], r["submission"], Path(r["file"]).name, r["line"]) for r in refused][-1:] == [
        ("weather", None, "bad.csv", 2)
    ]
    assert [r["corpus"] for r in refused[:-1]] == ["shared-task"] * (len(refused) - 1)


def test_refresh_reloads_a_corpus_only_when_a_file_of_its_folders_changed(db, tmp_path):
    weather = corpus_folder(tmp_path)
    refreshed(db, weather)
    stamp = os.stat(db).st_mtime_ns
    report = refreshed(db)  # registered now: no need to name it again
    assert not report.published and report.corpora_unchanged == ["weather"] and report.corpora_loaded == []
    assert os.stat(db).st_mtime_ns == stamp
    assert "; corpora: 0 reloaded, 1 unchanged, 0 file(s) refused" in report.summary()

    (weather / "lists" / "second.jsonl").write_text(jsonl(GOLD))  # added: the gold list's spans score 1.0
    report = refreshed(db)
    assert report.published and report.corpora_loaded == ["weather"]
    assert {recall for _, recall, _ in scores_of(db, "second")} == {1.0}
    (weather / "lists" / "second.jsonl").write_text(jsonl(GOLD[:1]))  # changed
    refreshed(db)
    assert ("second", 1) in lists(db) and scores_of(db, "second")[0] == ("ALL", 0.5, 1.0)
    (weather / "lists" / "second.jsonl").unlink()  # removed
    refreshed(db)
    assert [name for name, _ in lists(db)] == ["gold", "metric", "metric_jsonl"]
    assert rows(db, "SELECT count(*) FROM mistakes WHERE set_id NOT IN (SELECT set_id FROM annotation_sets)") == [(0,)]
    assert rows(
        db, "SELECT count(*) FROM scored_mistakes WHERE submission_id NOT IN (SELECT set_id FROM annotation_sets)"
    ) == [(0,)]
    # what a refresh built equals what a build from the same folders gives
    fresh = tmp_path / "fresh.duckdb"
    build(DATA, fresh, EXAMPLES, corpus_dirs=[weather])
    query = "SELECT submission, scope, recall, precision FROM scores WHERE corpus = 'weather' ORDER BY ALL"
    assert rows(db, query) == rows(fresh, query)


def factgenie_campaign(folder: Path, files: dict[str, list]) -> Path:
    (folder / "files").mkdir(parents=True, exist_ok=True)
    categories = [{"name": "Incorrect"}, {"name": "Unchecked"}]
    (folder / "metadata.json").write_text(
        json.dumps({"id": folder.name, "config": {"annotation_span_categories": categories}})
    )
    for name, records in files.items():
        (folder / "files" / name).write_text(jsonl(records))
    return folder


def every_view_and_analysis_reads(db: Path) -> None:
    """Every view and saved analysis of the database reads whole without an error: on a database whose corpus had
    been loaded again, DuckDB 2.0 failed inside a hash join of one of them (duckdb/duckdb#24807)."""
    con = database.open_existing(db)
    try:
        views = con.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal ORDER BY view_name").fetchall()
        for (view,) in views:
            con.execute(f"SELECT * FROM {view}").fetchall()
        values = {"submission": "llm/gpt", "first": "llm/gpt", "second": "llm/claude"}
        for analysis in saved_analyses():
            con.execute(analysis.sql, {name: values[name] for name in analysis.parameters}).fetchall()
    finally:
        con.close()


def output_record(index: int, annotator: str, spans: list[tuple[str, int]]) -> dict:
    output = ["Smith scored 31 points.", "Jones added 12 rebounds."][index]
    return {
        "dataset": "games", "split": "test", "setup_id": "m", "example_idx": index, "output": output,
        "annotations": [{"text": text, "start": output.index(text), "type": kind} for text, kind in spans],
        "metadata": {"annotator_id": annotator},
    }  # fmt: skip


def test_refresh_picks_up_new_changed_and_removed_files_of_an_imported_campaign(db, tmp_path, capsys):
    humans = factgenie_campaign(
        tmp_path / "humans", {"a.jsonl": [output_record(0, "h", [("31", 0)]), output_record(1, "h", [("12", 0)])]}
    )
    llm = factgenie_campaign(tmp_path / "llm", {"a.jsonl": [output_record(0, "gpt", [("31", 0)])]})
    assert run(["import", "factgenie", "--db", str(db), "--corpus", "games", "--as", "gold", str(humans)]) == 0
    assert run(["import", "factgenie", "--db", str(db), "--corpus", "games", str(llm)]) == 0
    assert not refreshed(db).published  # the import recorded the campaigns' files
    names = lambda: rows(db, "SELECT name, row_count FROM annotation_sets WHERE corpus = 'games' ORDER BY 1")  # noqa: E731
    assert names() == [("gold", 2), ("llm/gpt", 1)]

    (llm / "files" / "b.jsonl").write_text(jsonl([output_record(1, "claude", [("Jones", 1), ("12", 0)])]))
    report = refreshed(db)
    assert report.corpora_loaded == ["games"] and names() == [("gold", 2), ("llm/claude", 2), ("llm/gpt", 1)]
    # each annotator is scored on the example it annotated: gpt's finds its one gold mistake, claude's too
    recall = "SELECT recall FROM scores WHERE submission = ? AND scope = 'ALL'"
    assert rows(db, recall, ["llm/claude"]) == [(1.0,)] and rows(db, recall, ["llm/gpt"]) == [(1.0,)]
    # the gold campaign changes: every list of the corpus is scored against the new gold list, which has no mistake
    # in the example claude annotated (recall undefined)
    (humans / "files" / "a.jsonl").write_text(jsonl([output_record(0, "h", [("31", 0)])]))
    refreshed(db)
    assert rows(db, recall, ["llm/gpt"]) == [(1.0,)] and rows(db, recall, ["llm/claude"]) == [(None,)]
    every_view_and_analysis_reads(db)
    (llm / "files" / "b.jsonl").unlink()
    refreshed(db)
    assert names() == [("gold", 1), ("llm/gpt", 1)]
    # a malformed line refuses the campaign alone: the gold campaign stays loaded
    (llm / "files" / "b.jsonl").write_text('{"dataset": \n')
    report = refreshed(db)
    assert [
        (p.line, "not valid JSON" in p.message) for p in report.corpus_refusals[str(llm / "files" / "b.jsonl")]
    ] == [(1, True)]
    assert names() == [("gold", 1)]
    assert not refreshed(db).published and refreshed(db).corpus_refusals  # refused on every run, never unchanged
    (llm / "files" / "b.jsonl").unlink()
    refreshed(db)
    assert names() == [("gold", 1), ("llm/gpt", 1)] and rows(db, "SELECT count(*) FROM corpus_rejections") == [(0,)]


def test_files_that_vanish_during_a_refresh_leave_a_whole_database_and_the_next_refresh_catches_up(
    db, tmp_path, monkeypatch
):
    weather = corpus_folder(tmp_path)
    refreshed(db, weather)
    early, late = weather / "lists" / "early.jsonl", weather / "lists" / "late.csv"
    early.write_text(jsonl(GOLD))
    late.write_text("text_id,category,start,end\nw1,Wrong,14,16\n")
    load_folder, list_files = corpus_folders.load_folder, corpus_files.list_files

    def early_goes(con, registration):  # after the folder was fingerprinted, before the loader lists it
        early.unlink()
        return load_folder(con, registration)

    def late_goes(folder):  # after the loader listed it, before it is read
        listed = list_files(folder)
        late.unlink()
        return listed

    monkeypatch.setattr(corpus_folders, "load_folder", early_goes)
    monkeypatch.setattr(corpus_files, "list_files", late_goes)
    report = refreshed(db)
    assert [p.message for p in report.corpus_refusals[str(late)]][0].startswith("cannot read the file")
    assert [name for name, _ in lists(db)] == ["gold", "metric", "metric_jsonl"] and scores_of(db, "metric") != []
    monkeypatch.undo()
    report = refreshed(db)  # the files the last refresh fingerprinted are gone: the corpus is loaded again
    assert report.corpora_loaded == ["weather"] and report.corpus_refusals == {}
    assert [name for name, _ in lists(db)] == ["gold", "metric", "metric_jsonl"]


def test_a_registered_folder_that_is_gone_is_refused_and_comes_back_when_it_does(db, tmp_path):
    weather = corpus_folder(tmp_path)
    refreshed(db, weather)
    moved = weather.rename(tmp_path / "elsewhere")
    report = refreshed(db)
    assert [p.message for p in report.corpus_refusals[str(weather)]] == ["no such folder: expected a corpus folder"]
    assert lists(db) == [] and rows(db, "SELECT count(*) FROM texts WHERE corpus = 'weather'") == [(0,)]
    moved.rename(weather)
    assert refreshed(db).corpora_loaded == ["weather"] and len(lists(db)) == 3


def test_a_rebuild_by_refresh_keeps_the_registered_folders(db, tmp_path, monkeypatch):
    refreshed(db, corpus_folder(tmp_path))
    before = rows(db, "SELECT submission, scope, recall FROM scores ORDER BY ALL")
    monkeypatch.setattr(
        "accuracy_db.ingest.refresh.schema_source",
        lambda: corpus_folders.Source("schema", "tables", "x", 0, 0, "other"),
    )
    report = refreshed(db)
    assert report.command == "refresh" and report.corpora_loaded == ["weather"]
    assert rows(db, "SELECT submission, scope, recall FROM scores ORDER BY ALL") == before


def test_two_corpus_dirs_of_one_name_and_a_missing_one_are_refused_in_one_line(db, tmp_path, capsys):
    first, second = corpus_folder(tmp_path / "a"), corpus_folder(tmp_path / "b")
    command = ["refresh", "--data", str(DATA), "--db", str(db), "--submissions", str(EXAMPLES)]
    assert run([*command, "--corpus-dir", str(first), "--corpus-dir", str(second)]) == 1
    err = capsys.readouterr().err
    assert f"corpus weather is loaded from {first} already" in err and len(err.strip().splitlines()) == 1
    assert run([*command, "--corpus-dir", str(tmp_path / "nowhere")]) == 1
    err = capsys.readouterr().err
    assert f"{tmp_path / 'nowhere'}: no such corpus folder" in err and len(err.strip().splitlines()) == 1
    assert rows(db, "SELECT count(*) FROM corpus_folders") == [(0,)]


def test_a_corpus_folder_whose_text_ids_another_corpus_has_is_refused_alone(db, tmp_path):
    first, second = corpus_folder(tmp_path), corpus_folder(tmp_path, "climate")
    report = refreshed(db, first, second)
    problems = report.corpus_refusals[str(second / "texts.jsonl")]
    assert [(p.line, p.message) for p in problems] == [
        (1, f"text id w1 is a text of corpus weather ({first}) already"),
        (2, f"text id w2 is a text of corpus weather ({first}) already"),
    ]
    assert len(lists(db)) == 3 and lists(db, "climate") == []


def test_the_watch_sees_a_change_in_a_registered_folder(tmp_path):
    weather = corpus_folder(tmp_path)
    registrations = [corpus_folders.corpus_folder(weather)]
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    before = folder_state(inbox, DATA, registrations)
    (weather / "lists" / "new.csv").write_text("text_id,category\n")
    assert folder_state(inbox, DATA, registrations) != before


def test_span_problems_are_marked_as_refused_spans(tmp_path):
    path = tmp_path / "list.csv"
    path.write_text("text_id,category,start,text\nw1,Wrong,-1,x\n")
    assert csv_objects(path, []) == [(2, {"text_id": "w1", "category": "Wrong", "start": -1, "text": "x"})]
    assert issubclass(SpanProblem, Problem)
    assert list(csv.reader(io.StringIO(METRIC_CSV)))[3][7] == 'a, "quoted"\nnote'  # the fixture's own CSV


def test_import_corpus_refuses_a_folder_with_a_bad_csv_list_whole_and_registers_nothing(db, tmp_path, capsys):
    folder = corpus_folder(tmp_path)
    (folder / "lists" / "bad.csv").write_text("text_id,category,start,end\nw1,Wrong,14\nw1,Wrong,20,40\n")
    assert run(["import", "corpus", "--db", str(db), str(folder)]) == 1
    err = capsys.readouterr().err
    assert f"{folder / 'lists' / 'bad.csv'}: line 2: 3 cells, but the header has 4 columns" in err
    assert f"{folder / 'lists' / 'bad.csv'}: line 3: characters 20-40 are not within w1 (0-25)" in err
    assert "Traceback" not in err
    assert rows(db, "SELECT count(*) FROM corpora WHERE corpus = 'weather'") == [(0,)]
    assert rows(db, "SELECT count(*) FROM corpus_folders") == [(0,)]
    (folder / "lists" / "bad.csv").unlink()
    assert run(["import", "corpus", "--db", str(db), str(folder)]) == 0
    assert rows(db, "SELECT folder, format, corpus FROM corpus_folders") == [(str(folder), "corpus", "weather")]
    assert not refreshed(db).published  # the import recorded the folder's files


def test_a_campaign_imported_into_the_shared_task_is_reloaded_alone(db, tmp_path):
    campaign = tmp_path / "examples"
    assert run(["export", "factgenie", "--db", str(db), "--sets", "submission", "--out", str(campaign)]) == 0
    assert run(["import", "factgenie", "--db", str(db), "--corpus", "shared-task", str(campaign)]) == 0
    counts = {name: f"SELECT count(*) FROM {name}" for name in database.incremental_models()}  # no row twice
    scores = "SELECT submission, split, scope, recall, precision FROM scores ORDER BY ALL"
    before = {name: rows(db, sql) for name, sql in counts.items()}, rows(db, scores)
    (path,) = (campaign / "files").glob("*.jsonl")
    path.write_text(path.read_text() + "\n")  # other bytes, the same records
    report = refreshed(db)
    assert report.corpora_loaded == ["shared-task"] and report.corpus_refusals == {}
    assert ({name: rows(db, sql) for name, sql in counts.items()}, rows(db, scores)) == before


CELL = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\0"), max_size=12)  # NUL: refused


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.fixed_dictionaries(
            {"text_id": st.text("abc", min_size=1, max_size=3), "category": CELL.filter(str.strip)},
            optional={"comment": CELL.filter(bool), "start": st.integers(-5, 10**12), "text": CELL.filter(bool)},
        ),
        max_size=6,
    )
)
def test_csv_rows_read_back_as_written_each_at_the_line_it_starts_on(tmp_path_factory, spans):
    """Rows written by Python's csv module (any text: commas, quotes, line breaks) read back as the same mappings,
    each numbered by the line it starts on: 2 plus the line breaks written before it."""
    path = tmp_path_factory.mktemp("csv") / "list.csv"
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["text_id", "category", "comment", "start", "text"])
    expected = []
    for span in spans:
        expected.append((out.getvalue().count("\n") + 1, span))
        writer.writerow([span.get(key, "") for key in ("text_id", "category", "comment", "start", "text")])
    path.write_text(out.getvalue(), encoding="utf-8", newline="")
    problems: list[Problem] = []
    assert csv_objects(path, problems) == expected and problems == []


def weather_token_counts(db: Path) -> set:
    return set(
        rows(db, "SELECT category, token, occurrences, mistakes FROM gold_token_counts WHERE corpus = 'weather'")
    )


def test_gold_token_counts_are_computed_again_when_the_gold_lists_change_and_only_then(db, tmp_path):
    weather = corpus_folder(tmp_path)
    refreshed(db, weather)
    # GOLD marks "12" of w1 as Wrong, and tokens 4-6 of w2 ("Wind from the") as Unsupported
    assert weather_token_counts(db) == {
        ("Wrong", "12", 1, 1),
        ("Unsupported", "Wind", 1, 1),
        ("Unsupported", "from", 1, 1),
        ("Unsupported", "the", 1, 1),
    }

    # a row changed by hand shows whether a refresh computes the table again
    con = database.connect_writable(db)
    con.execute("UPDATE gold_token_counts SET occurrences = 99 WHERE corpus = 'weather' AND token = 'the'")
    con.close()
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    shutil.copyfile(EXAMPLES / "gsml_doc_based.csv", inbox / "gsml_doc_based.csv")
    report = refresh(db, DATA, inbox)  # submissions removed, the gold lists as they were: not computed again
    assert report.published and report.retired
    assert ("Unsupported", "the", 99, 1) in weather_token_counts(db)

    (weather / "lists" / "gold.jsonl").write_text(jsonl(GOLD[:1]))  # the gold list changed: computed again
    refresh(db, DATA, inbox)
    assert weather_token_counts(db) == {("Wrong", "12", 1, 1)}
