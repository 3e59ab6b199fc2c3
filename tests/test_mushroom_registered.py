"""Mu-SHROOM files imported into a database are registered with it (corpus_folders.py), as corpus folders and
factgenie campaigns are: a build loads them again, giving the rows the imports gave; a refresh loads a changed
prediction file again alone (its figures then those of a fresh import of it, the gold not touched) and nothing when
no file changed; a file that is gone is refused in one line, the rest of the database kept, and is loaded again
when it comes back."""

from __future__ import annotations

import shutil
from pathlib import Path

from database_rows import rows
from shared_data import DATA, EXAMPLES
from test_mushroom import GOLD, write

from accuracy_db.cli.main import run
from accuracy_db.ingest.build import build
from accuracy_db.ingest.refresh import refresh

LABELLED = [
    {**GOLD[0], "soft_labels": [{"start": 1, "end": 2, "prob": 0.8}], "annotations": {"p": [[1, 2]], "q": [[0, 1]]}},
    {**GOLD[1], "hard_labels": [[0, 2]], "soft_labels": [{"start": 0, "end": 2, "prob": 0.6}]},
]
PREDICTED = [{"id": "x-1", "soft_labels": [{"start": 0, "end": 2, "prob": 0.7}]}, {"id": "x-2", "hard_labels": []}]
CHANGED = [{"id": "x-1", "hard_labels": [[1, 2]]}, {"id": "x-2", "soft_labels": [{"start": 1, "end": 3, "prob": 0.9}]}]


def imported(db: Path, tmp_path: Path, predicted=PREDICTED) -> tuple[Path, Path]:
    """The labelled file imported as the gold of corpus mushroom, then a prediction file as its submission sys."""
    gold, prediction = write(tmp_path / "ref.jsonl", LABELLED), write(tmp_path / "pred.jsonl", predicted)
    assert run(["import", "mushroom", "--db", str(db), "--as", "gold", str(gold)]) == 0
    assert run(["import", "mushroom", "--db", str(db), "--name", "sys", str(prediction)]) == 0
    return gold, prediction


def figures(db: Path) -> dict[str, list]:
    """The mushroom scheme's figures and the labels read, by submission (not by id: a list loaded again has a new
    one)."""
    ids = "submission_id, gold_id"
    return {
        "scores": rows(db, f"SELECT * EXCLUDE ({ids}) FROM mushroom_scores ORDER BY ALL"),
        "leaderboard": rows(db, f"SELECT * EXCLUDE ({ids}) FROM mushroom_leaderboard ORDER BY ALL"),
        "labels": rows(
            db,
            "SELECT name, text_id, label, char_start, char_end, probability FROM character_labels"
            " JOIN annotation_sets USING (set_id) ORDER BY ALL",
        ),
    }


def lists(db: Path) -> list:
    """Every list but when it was loaded."""
    return rows(db, "SELECT * EXCLUDE (loaded_at) FROM annotation_sets ORDER BY set_id")


def loaded(db: Path, corpus: str) -> list:
    """The lists of a corpus with when they were loaded: a list loaded again has a later time and a new id."""
    return rows(db, f"SELECT set_id, kind, name, loaded_at FROM annotation_sets WHERE corpus = '{corpus}' ORDER BY ALL")


SHARED_TASK_SCORES = "SELECT * FROM scores WHERE corpus = 'shared-task' ORDER BY ALL"


def refreshed(db: Path):
    return refresh(db, DATA, EXAMPLES)


def test_a_build_loads_the_imported_files_again_giving_the_same_rows(db, tmp_path):
    gold, prediction = imported(db, tmp_path)
    before, lists_before = figures(db), lists(db)
    assert [name for name, *_ in before["scores"]] == ["annotator/p", "annotator/q", "sys"]
    assert len(before["leaderboard"]) == 3
    assert rows(db, "SELECT folder, format, corpus, kind, name FROM corpus_folders ORDER BY position") == [
        (str(gold), "mushroom", "mushroom", "gold", None),
        (str(prediction), "mushroom", "mushroom", "submission", "sys"),
    ]
    report = build(DATA, db, EXAMPLES)
    assert report.corpora_loaded == ["mushroom"] and report.corpus_refusals == {}
    assert figures(db) == before and lists(db) == lists_before


def test_refresh_loads_a_changed_prediction_file_alone_and_nothing_when_nothing_changed(db, tmp_path, built_db):
    _, prediction = imported(db, tmp_path)
    lists_before = loaded(db, "mushroom")
    report = refreshed(db)
    assert report.corpora_loaded == [] and report.corpora_unchanged == ["mushroom"]
    assert loaded(db, "mushroom") == lists_before
    write(prediction, CHANGED)
    report = refreshed(db)
    assert report.corpora_loaded == ["mushroom"] and report.corpus_refusals == {}
    after = loaded(db, "mushroom")
    assert [row for row in after if row[2] != "sys"] == [row for row in lists_before if row[2] != "sys"]
    assert [row[0] for row in after if row[2] == "sys"] > [row[0] for row in lists_before]  # loaded again
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    fresh_db = fresh / "accuracy.duckdb"
    shutil.copyfile(built_db, fresh_db)
    imported(fresh_db, fresh, CHANGED)
    assert figures(db) == figures(fresh_db)
    assert refreshed(db).corpora_loaded == []


def test_a_prediction_file_gone_or_broken_is_refused_in_one_line_and_loaded_when_it_comes_back(db, tmp_path):
    _, prediction = imported(db, tmp_path)
    before, shared_task = figures(db), rows(db, SHARED_TASK_SCORES)
    moved = prediction.rename(tmp_path / "elsewhere.jsonl")
    report = refreshed(db)
    [problem] = report.corpus_refusals[str(prediction)]
    assert str(problem).startswith(f"{prediction}: ") and "\n" not in str(problem)
    assert [name for name, *_ in figures(db)["scores"]] == ["annotator/p", "annotator/q"]
    assert rows(db, SHARED_TASK_SCORES) == shared_task
    report = refreshed(db)  # refused on every run, and not read again
    assert report.corpora_loaded == [] and list(report.corpus_refusals) == [str(prediction)]
    moved.rename(prediction)
    report = refreshed(db)
    assert report.corpora_loaded == ["mushroom"] and report.corpus_refusals == {} and figures(db) == before
    write(prediction, [{"id": "x-1", "hard_labels": [[0, 99]]}])  # broken: refused as the import refuses it
    report = refreshed(db)
    assert [str(p) for p in report.corpus_refusals[str(prediction)]] == [
        f"{prediction}: line 1: hard_labels: characters 0-99 are not a span of the text (0-7)"
    ]
    assert [name for name, *_ in figures(db)["scores"]] == ["annotator/p", "annotator/q"]


def test_a_gold_file_that_is_gone_takes_its_corpus_alone_and_brings_it_back(db, tmp_path):
    """Its predictions are refused with it: there is no gold to score them against."""
    gold, prediction = imported(db, tmp_path)
    before, shared_task = figures(db), rows(db, SHARED_TASK_SCORES)
    moved = gold.rename(tmp_path / "elsewhere.jsonl")
    report = refreshed(db)
    [problem] = report.corpus_refusals[str(gold)]
    assert str(problem).startswith(f"{gold}: ") and "\n" not in str(problem)
    assert list(report.corpus_refusals) == sorted([str(gold), str(prediction)])
    assert figures(db) == {"scores": [], "leaderboard": [], "labels": []}
    assert rows(db, "SELECT count(*) FROM texts WHERE corpus = 'mushroom'") == [(0,)]
    assert rows(db, SHARED_TASK_SCORES) == shared_task
    moved.rename(gold)
    report = refreshed(db)
    assert report.corpora_loaded == ["mushroom"] and report.corpus_refusals == {} and figures(db) == before
