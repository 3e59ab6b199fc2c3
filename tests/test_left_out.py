"""What the format's own tool reads without complaint is read, not refused: an empty span (start = end) marks nothing
and is left out, and a field the tool never reads (a Mu-SHROOM file's annotations) never blocks a load. Each kind is
counted in one warning line a file with its first example; --strict refuses them. On the 21 labelled files
Mu-SHROOM published (../shared/data/mushroom), whose counts the tests work out from the JSON themselves; on corpus
folders and factgenie campaigns written here. A Mu-SHROOM file given where another format was expected is told in
one line naming the command or flag that reads it."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
import shared_data
from database_rows import rows
from test_corpus_files import corpus_folder
from test_factgenie_import import OUTPUTS, campaign, record, span
from test_mushroom import expected, write

from accuracy_db.cli.main import run
from accuracy_db.ingest import corpus_folders
from accuracy_db.ingest.sources import Source
from accuracy_db.ingest.sources import record as record_source
from accuracy_db.store import database

MUSHROOM = shared_data.SHARED / "mushroom"  # (read in place; the module reads the shared data)
FILES = sorted((MUSHROOM / "val").glob("*.jsonl")) + sorted((MUSHROOM / "test").glob("*.jsonl"))
EN_VAL = MUSHROOM / "val" / "mushroom.en-val.v2.extra.jsonl"  # 16 empty annotator spans, and one past the text
EMPTY = "empty span(s) (start = end) left out: they mark nothing"
UNREAD = "annotation(s) left out that cannot be read: the task's scorer never reads annotations"


def corpus_of(path: Path) -> str:
    """mu-ar-val for mushroom.ar-val.v2.extra.jsonl."""
    return "mu-" + path.name.split(".")[1]


def published(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def left_out(path: Path) -> tuple[list[str], int]:
    """The warning lines an import of the file as gold must print, worked out from its JSON: its empty spans (by
    field), and its annotator spans that are not within their text (the task's scorer reads neither); and how
    many spans they count."""
    empty, outside = [], []
    for number, line in enumerate(published(path), start=1):
        length = len(line["model_output_text"])
        given = [("hard_labels", "hard_labels", s, e) for s, e in line["hard_labels"]]
        given += [("soft_labels", "soft_labels", s["start"], s["end"]) for s in line["soft_labels"]]
        given += [
            ("annotations", f"annotations.{name}", s, e)
            for name, spans in line["annotations"].items()
            for s, e in spans
        ]
        for field, key, start, end in given:
            if start == end:
                empty.append((field, f"line {number}: {key}: characters {start}-{end} are an empty span (start = end)"))
            elif not 0 <= start < end <= length:
                message = f"line {number}: {key}: characters {start}-{end} are not a span of the text (0-{length})"
                outside.append(("annotations", message))
    warnings = []
    for kind, found in ((EMPTY, empty), (UNREAD, outside)):
        if found:
            counts = ", ".join(f"{field} {count}" for field, count in sorted(Counter(f for f, _ in found).items()))
            warnings.append(
                f"warning: {path}: {len(found)} {kind} ({counts}); first: {found[0][1]}; --strict refuses them"
            )
    return warnings, len(empty) + len(outside)


@pytest.fixture(scope="module")
def empty_db(tmp_path_factory) -> Path:
    """A database of no corpus (no texts), which open_existing opens."""
    path = tmp_path_factory.mktemp("empty") / "accuracy.duckdb"
    con = database.open_new(path)
    record_source(con, [Source("version", "definitions", "accuracy_db", 0, 0, database.definitions_digest())])
    con.close()
    return path


def command(args: list[str]) -> tuple[int, str, str]:
    """Run the command line: its exit status, and what it printed on stdout and on stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = run(args)
    return status, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def imported(empty_db, tmp_path_factory) -> tuple[Path, dict[Path, tuple[int, str, str]]]:
    """The 21 published files, each imported as the gold of a corpus of its own into one database."""
    db = tmp_path_factory.mktemp("published") / "accuracy.duckdb"
    shutil.copyfile(empty_db, db)
    runs = {
        path: command(["import", "mushroom", "--db", str(db), "--as", "gold", "--corpus", corpus_of(path), str(path)])
        for path in FILES
    }
    return db, runs


def test_the_21_published_files_are_there():
    assert [path.name.split(".")[1] for path in FILES] == [
        *(f"{lang}-val" for lang in ("ar", "de", "en", "es", "fi", "fr", "hi", "it", "sv", "zh")),
        *(f"{lang}-tst" for lang in ("ca", "cs", "de", "es", "eu", "fa", "fi", "fr", "hi", "it", "sv")),
    ]


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name.split(".")[1])
def test_each_published_file_loads_whole_with_one_warning_line_a_kind(imported, path):
    db, runs = imported
    status, out, err = runs[path]
    assert status == 0, err
    assert out.count("\n") == 1 and out.startswith("imported ")
    # one line a kind, the counts and the first of each those of the JSON; no line about the shared-task scheme's
    # refusal of lists whose labels overlap as token spans (it does not apply to characters)
    assert err.splitlines() == left_out(path)[0]
    lines = published(path)
    corpus = corpus_of(path)
    assert rows(db, "SELECT count(*) FROM texts WHERE corpus = ?", [corpus]) == [(len(lines),)]
    # every label but the empty ones (and the annotator spans not within their text) is kept exactly
    kept = lambda spans, length: [(s, e) for s, e in spans if 0 <= s < e <= length]  # noqa: E731
    want = sorted(
        [("gold", line["id"], "hard", s, e, None) for line in lines for s, e in kept(line["hard_labels"], 10**9)]
        + [
            ("gold", line["id"], "soft", s["start"], s["end"], s["prob"])
            for line in lines
            for s in line["soft_labels"]
            if s["start"] < s["end"]
        ]
        + [
            (f"annotator/{name}", line["id"], "hard", s, e, None)
            for line in lines
            for name, spans in line["annotations"].items()
            for s, e in kept(spans, len(line["model_output_text"]))
        ]
    )
    got = rows(
        db,
        "SELECT name, text_id, label, char_start, char_end, probability FROM character_labels"
        " JOIN annotation_sets USING (set_id) WHERE corpus = ? AND (name = 'gold' OR label = 'hard') ORDER BY ALL",
        [corpus],
    )
    assert got == want


def test_strict_refuses_what_the_import_leaves_out_and_loads_nothing(empty_db, tmp_path):
    db = tmp_path / "accuracy.duckdb"
    shutil.copyfile(empty_db, db)
    before = db.read_bytes()
    status, _, err = command(["import", "mushroom", "--db", str(db), "--as", "gold", "--strict", str(EN_VAL)])
    assert status == 1
    # what the import without --strict counted: each is now a problem of its line
    warnings, counted = left_out(EN_VAL)
    assert len(warnings) == 2 and counted > 1
    assert f"{counted} problem(s) in {EN_VAL}; nothing was loaded." in err
    first = warnings[0].split("; first: ")[1].split("; --strict")[0]  # the first empty span, on line 1
    assert err.startswith(f"{EN_VAL}: {first}\n")
    assert "Traceback" not in err and db.read_bytes() == before


def test_evaluate_reads_empty_spans_as_the_task_s_scorer_and_strict_refuses_them(tmp_path):
    """A prediction made of one annotator's spans, its empty ones included (and an empty soft label), scored
    against the published English gold as the oracle scores them: an empty span marks nothing."""
    gold = published(EN_VAL)
    within = {  # the annotators whose spans are all within their texts (a prediction's must be)
        name
        for name in {name for line in gold for name in line["annotations"]}
        if all(e <= len(line["model_output_text"]) for line in gold for _, e in line["annotations"].get(name, []))
    }
    annotator = next(
        name
        for line in gold
        for name, spans in line["annotations"].items()
        if name in within and any(s == e for s, e in spans)
    )
    predicted = [
        {
            "id": line["id"],
            "hard_labels": line["annotations"].get(annotator, []),
            "soft_labels": [{"start": s, "end": e, "prob": 0.9} for s, e in line["annotations"].get(annotator, [])]
            + [{"start": 0, "end": 0, "prob": 0.3}],
        }
        for line in gold
    ]
    empty_of_annotator = sum(s == e for line in predicted for s, e in line["hard_labels"])
    assert empty_of_annotator > 0
    submitted = write(tmp_path / "pred.jsonl", predicted)
    figures = expected(gold, predicted)
    means = [sum(figure[i] for figure in figures.values()) / len(figures) for i in (0, 1)]
    args = ["evaluate", "--scheme", "mushroom", "--gsml", str(EN_VAL), "--submitted", str(submitted)]
    status, out, err = command([*args, "--format", "json"])
    assert status == 0, err
    [report] = json.loads(out)
    assert report["texts"] == len(gold) and [report["iou"], report["cor"]] == pytest.approx(means, abs=1e-9)
    # one line, for the predictions: the gold's empty spans are its annotators', which evaluate, as the task's
    # scorer, never reads
    [line] = err.splitlines()
    assert line.startswith(
        f"warning: {submitted}: {2 * empty_of_annotator + len(gold)} {EMPTY} (hard_labels {empty_of_annotator},"
        f" soft_labels {empty_of_annotator + len(gold)}); first: line "
    )
    status, _, err = command([*args, "--strict"])
    assert status == 1 and "are an empty span (start = end)" in err and "nothing was loaded" in err


def test_a_prediction_whose_text_differs_is_scored_on_the_gold_s_and_strict_refuses_it(tmp_path):
    gold = write(tmp_path / "ref.jsonl", [{"id": "t1", "model_output_text": "abc", "hard_labels": [[0, 1]]}])
    predicted = write(tmp_path / "pred.jsonl", [{"id": "t1", "model_output_text": "abd", "hard_labels": [[0, 1]]}])
    args = ["evaluate", "--scheme", "mushroom", "--gsml", str(gold), "--submitted", str(predicted)]
    status, out, err = command([*args, "--format", "csv"])
    assert status == 0 and out.splitlines()[1] == "1,1.0,1.0"
    assert err.splitlines() == [
        f"warning: {predicted}: 1 line(s) whose model_output_text differs from the gold's: scored on the gold's, as"
        " the task's scorer does (model_output_text 1); first: line 1: model_output_text differs from the gold's text"
        " of t1; --strict refuses them"
    ]
    status, _, err = command([*args, "--strict"])
    assert status == 1 and f"{predicted}: line 1: model_output_text differs from the gold's text of t1" in err


def test_annotations_that_cannot_be_read_are_left_out_and_counted(empty_db, tmp_path):
    lines = [
        {"id": "u1", "model_output_text": "one two", "hard_labels": [], "annotations": {"p": [[0, 3]], "q": "x"}},
        {"id": "u2", "model_output_text": "three", "hard_labels": [[0, 5]], "annotations": [[0, 1]]},
        {"id": "u3", "model_output_text": "four", "hard_labels": [], "annotations": {"p": [[2, 9], [0, 4]]}},
    ]
    db = tmp_path / "accuracy.duckdb"
    shutil.copyfile(empty_db, db)
    gold = write(tmp_path / "ref.jsonl", lines)
    status, _, err = command(["import", "mushroom", "--db", str(db), "--as", "gold", str(gold)])
    assert status == 0
    assert err.splitlines() == [
        f"warning: {gold}: 3 {UNREAD} (annotations 3); first: line 1: annotations.q is not a list of [start, end]"
        " pairs of whole numbers; --strict refuses them"
    ]
    assert rows(
        db,
        "SELECT name, text_id, char_start, char_end FROM character_labels JOIN annotation_sets USING (set_id)"
        " WHERE kind = 'submission' AND label = 'hard' ORDER BY ALL",
    ) == [("annotator/p", "u1", 0, 3), ("annotator/p", "u3", 0, 4)]
    status, _, err = command(
        ["import", "mushroom", "--db", str(db), "--as", "gold", "--strict", "--corpus", "s", str(gold)]
    )
    assert status == 1 and "3 problem(s)" in err


def test_a_corpus_folder_s_empty_spans_are_left_out_and_counted(empty_db, tmp_path):
    gold = [
        {"text_id": "w1", "category": "Wrong", "start": 14, "end": 16},
        {"text_id": "w1", "category": "Wrong", "start": 3, "end": 3},
        {"text_id": "w2", "category": "Wrong", "start": 5, "text": ""},
    ]
    folder = corpus_folder(tmp_path, gold=gold, metric=[{"text_id": "w2", "category": "Wrong", "start": 0, "end": 5}])
    (folder / "lists" / "csvlist.csv").write_text("text_id,category,start,end\nw1,Wrong,0,0\nw1,Wrong,0,4\n")
    db = tmp_path / "accuracy.duckdb"
    shutil.copyfile(empty_db, db)
    before = db.read_bytes()
    status, _, err = command(["import", "corpus", "--db", str(db), "--strict", str(folder)])
    assert status == 1 and "3 problem(s)" in err and db.read_bytes() == before
    status, out, err = command(["import", "corpus", "--db", str(db), str(folder)])
    assert status == 0 and "imported 3 list(s) (3 spans)" in out
    assert sorted(err.splitlines()) == [
        f"warning: {folder / 'lists' / 'csvlist.csv'}: 1 {EMPTY} (start-end 1); first: line 2: characters 0-0 of w1"
        " are an empty span; --strict refuses them",
        f"warning: {folder / 'lists' / 'gold.jsonl'}: 2 {EMPTY} (start-end 1, text 1); first: line 2: characters 3-3"
        " of w1 are an empty span; --strict refuses them",
    ]
    # build and refresh, loading the registered folder again, warn alike
    registrations = corpus_folders.published_registrations(db)
    con = database.connect_writable(db)
    try:
        warnings = corpus_folders.load_corpora(con, registrations, ["weather"])
    finally:
        con.close()
    assert sorted(f"warning: {warning}" for warning in warnings) == sorted(err.splitlines())


def test_a_factgenie_annotation_that_factgenie_drops_is_left_out_and_counted(empty_db, tmp_path):
    """factgenie's span index (read by its F1, gamma and counts) drops an annotation of empty text, and one whose
    type is no category index."""
    annotations = [span(OUTPUTS[0], "Miami"), {"text": "", "start": 3, "type": 0, "reason": ""}]
    no_category = [span(OUTPUTS[1], "31"), {"text": "Smith", "start": 0, "type": 2}, span(OUTPUTS[1], "Jones", 7)]
    folder = campaign(tmp_path, [record(0, "gpt", annotations), record(1, "gpt", no_category)], "llm")
    db = tmp_path / "accuracy.duckdb"
    shutil.copyfile(empty_db, db)
    before = db.read_bytes()
    status, _, err = command(["import", "factgenie", "--db", str(db), "--strict", str(folder)])
    assert status == 1 and "line 1: annotation 2: the span's text at 3 is empty" in err and db.read_bytes() == before
    assert (
        "line 2: annotation 3: type 7 is not a category index (the categories are 0 Incorrect, 1 Not checkable)" in err
    )
    status, out, err = command(["import", "factgenie", "--db", str(db), str(folder)])
    assert status == 0 and "imported 1 list(s) (2 spans)" in out
    categories = "(the categories are 0 Incorrect, 1 Not checkable)"
    assert err.splitlines() == [
        f"warning: {folder / 'files' / 'a.jsonl'}: 1 {EMPTY} (annotations 1); first: line 1: annotation 2: the"
        " span's text at 3 is empty; --strict refuses them",
        f"warning: {folder / 'files' / 'a.jsonl'}: 2 annotation(s) left out whose type is no category index:"
        f" factgenie's analyses drop them (type 2); first: line 2: annotation 2: type 2 is not a category index"
        f" {categories}; --strict refuses them",
    ]


@pytest.mark.parametrize(
    ("args", "expected_hint"),
    [
        (
            ["evaluate", "--gsml", "{file}", "--submitted", "{file}"],
            "is a Mu-SHROOM file, not a mistake list: give --scheme mushroom to score it as the task's scorer does",
        ),
        (["import", "corpus", "--db", "{db}", "{file}"], "is a Mu-SHROOM file, not a corpus folder: import it with"),
        (
            ["import", "factgenie", "--db", "{db}", "{file}"],
            "is a Mu-SHROOM file, not a factgenie campaign folder: import it with",
        ),
        (
            ["import", "scores", "--db", "{db}", "--higher-is-better", "{file}"],
            "is a Mu-SHROOM file, not a file of scores: import it with",
        ),
    ],
    ids=["evaluate", "corpus", "factgenie", "scores"],
)
def test_a_mushroom_file_given_for_another_format_is_told_in_one_line(empty_db, args, expected_hint):
    file = MUSHROOM / "val" / "mushroom.de-val.v2.extra.jsonl"
    status, out, err = command([arg.format(file=file, db=empty_db) for arg in args])
    assert status == 1 and out == ""
    [line] = err.splitlines()
    assert line.startswith(f"error: {file} {expected_hint}")
    if args[0] == "import":
        assert "`accuracy-db import mushroom FILE --as gold`" in err


def test_lists_read_with_characters_are_not_reported_as_refused_by_the_shared_task_scheme(empty_db, tmp_path):
    """Labels that overlap as token spans (two inside one token: any text written without spaces) make the
    shared-task scheme refuse the list, which scheme_refusals records so that no match scheme scores it; the import
    does not print it, a line a list as it did: the mushroom scheme scores characters."""
    text = "中文很好。 one two"
    lines = [
        {
            "id": f"z{n}",
            "lang": "ZH",
            "model_output_text": text,
            "hard_labels": [[0, 1], [2, 3]],  # two labels inside the token 中文很好。
            "soft_labels": [],
            "annotations": {f"a{n}": [[0, 2], [1, 3]], "b": [[6, 9]]},
        }
        for n in range(3)
    ]
    db = tmp_path / "accuracy.duckdb"
    shutil.copyfile(empty_db, db)
    status, out, err = command(
        ["import", "mushroom", "--db", str(db), "--as", "gold", str(write(tmp_path / "z.jsonl", lines))]
    )
    assert status == 0 and err == ""
    assert "imported 5 list(s)" in out
    assert rows(db, "SELECT name FROM scheme_refusals JOIN annotation_sets USING (set_id) ORDER BY name") == [
        ("annotator/a0",),
        ("annotator/a1",),
        ("annotator/a2",),
        ("gold",),
    ]
