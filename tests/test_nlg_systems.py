"""nlg_systems.csv, the optional metadata saying which neural system generated a text: loaded when it is beside
the data folder, checked line by line like every other input; without it, the package's copy names the systems
of the shared-task texts it knows, when the loaded texts are those texts."""

from __future__ import annotations

import csv
import shutil

import pytest
from accuracy_db.etl.nlg_systems import load_nlg_systems
from shared_data import DATA, SHARED

from accuracy_db.errors import InputError
from accuracy_db.ingest.build import build
from accuracy_db.store import database


def test_the_shared_data_names_the_system_of_21_train_texts(built):
    rows = built.execute(
        "SELECT system, any_value(reference), count(*), min(text_id), max(text_id), bool_and(split = 'train') "
        "FROM nlg_systems JOIN texts USING (text_id) GROUP BY system ORDER BY system"
    ).fetchall()
    assert rows == [
        ("puduppully", "Puduppully et al. 2019", 7, "S012", "S018", True),
        ("rebuffel", "Rebuffel et al. 2020", 7, "S022", "S028", True),
        ("wiseman", "Wiseman et al. 2017", 7, "S005", "S011", True),
    ]


@pytest.fixture
def two_texts():
    con = database.open_new(None)
    con.execute(
        "INSERT INTO texts (text_id, split, generated_text, detokenized_text, token_count, sentence_count)"
        " VALUES ('S001', 'train', 'a', NULL, 1, 1), ('S002', 'train', 'b', NULL, 1, 1)"
    )
    yield con
    con.close()


def test_every_problem_is_named_by_line_and_nothing_is_loaded(two_texts, tmp_path):
    path = tmp_path / "nlg_systems.csv"
    path.write_text(
        "TEXT_ID,SYSTEM,REFERENCE\n"
        "S001.txt,wiseman,Wiseman et al. 2017\n"
        "S001,puduppully,\n"
        "S099,rebuffel,\n"
        "S002,,\n"
        "S002,wiseman\n"
    )
    with pytest.raises(InputError) as caught:
        load_nlg_systems(two_texts, path)
    assert [str(problem) for problem in caught.value.problems] == [
        f"{path}: line 3: S001 is already on line 2",
        f"{path}: line 4: S099 is not a text of the data folder",
        f"{path}: line 5: no SYSTEM",
        f"{path}: line 6: 2 cells where the header has 3",
    ]
    assert two_texts.execute("SELECT count(*) FROM nlg_systems").fetchone() == (0,)


def test_a_missing_column_is_named(two_texts, tmp_path):
    path = tmp_path / "nlg_systems.csv"
    path.write_text("TEXT_ID,REFERENCE\nS001,Wiseman et al. 2017\n")
    with pytest.raises(InputError, match="line 1: missing column\\(s\\): SYSTEM"):
        load_nlg_systems(two_texts, path)


def test_the_reference_column_is_optional(two_texts, tmp_path):
    path = tmp_path / "nlg_systems.csv"
    path.write_text("TEXT_ID,SYSTEM\nS002,rebuffel\n")
    assert load_nlg_systems(two_texts, path) == 1
    assert two_texts.execute("SELECT * FROM nlg_systems").fetchall() == [("S002", "rebuffel", None)]


def shared_rows() -> list[tuple]:
    with (SHARED / "nlg_systems.csv").open(newline="") as stream:
        return sorted((row["TEXT_ID"], row["SYSTEM"], row["REFERENCE"]) for row in csv.DictReader(stream))


def test_without_the_file_the_package_gives_the_same_rows_and_a_bad_one_stops_the_build(tmp_path):
    data = tmp_path / "data" / "accuracy-shared-task"
    data.parent.mkdir()
    data.symlink_to(DATA)  # the data read in place, from a folder with no nlg_systems.csv beside it (as fetch-data's)
    db = tmp_path / "accuracy.duckdb"
    build(data, db)
    con = database.open_existing(db)
    assert len(shared_rows()) == 21
    assert con.execute("SELECT * FROM nlg_systems ORDER BY text_id").fetchall() == shared_rows()
    con.close()

    bad = data.parent / "nlg_systems.csv"
    bad.write_text((SHARED / "nlg_systems.csv").read_text() + "S005,wiseman,Wiseman et al. 2017\n")
    with pytest.raises(InputError, match="line 23: S005 is already on line 2"):
        build(data, tmp_path / "other.duckdb")
    assert not (tmp_path / "other.duckdb").exists()


def test_the_data_folder_file_wins_over_the_package(tmp_path):
    data = tmp_path / "data" / "accuracy-shared-task"
    data.parent.mkdir()
    data.symlink_to(DATA)
    (data.parent / "nlg_systems.csv").write_text("TEXT_ID,SYSTEM\nS001,other\n")
    build(data, tmp_path / "accuracy.duckdb")
    con = database.open_existing(tmp_path / "accuracy.duckdb")
    assert con.execute("SELECT * FROM nlg_systems").fetchall() == [("S001", "other", None)]
    con.close()


def copied_data(tmp_path):
    """A data folder with copies of the train split's texts (to change) and its other files, without nlg_systems.csv."""
    data = tmp_path / "data" / "accuracy-shared-task"
    shutil.copytree(DATA / "texts", data / "texts")
    for name in ("gsml.csv", "games.csv", "shared_task.jsonl"):
        shutil.copy(DATA / name, data / name)
    return data


def test_the_package_names_no_system_for_other_texts_under_the_same_ids(tmp_path):
    data = copied_data(tmp_path)
    text = data / "texts" / "S006.txt"
    text.write_text(text.read_text().replace(" the ", " a ", 1))  # S006 is now another text
    build(data, tmp_path / "accuracy.duckdb")
    con = database.open_existing(tmp_path / "accuracy.duckdb")
    named = [text_id for (text_id,) in con.execute("SELECT text_id FROM nlg_systems ORDER BY text_id").fetchall()]
    assert named == [text_id for text_id, *_ in shared_rows() if text_id != "S006"]
    con.close()


def test_a_corpus_of_other_texts_gets_no_system_and_builds(tmp_path):
    """A generated corpus names its texts S001… too, but none is a text the package knows."""
    data = copied_data(tmp_path)
    for text in (data / "texts").glob("*.txt"):
        text.write_text(text.read_text().replace(" the ", " a ", 1))
    build(data, tmp_path / "accuracy.duckdb")
    con = database.open_existing(tmp_path / "accuracy.duckdb")
    assert con.execute("SELECT count(*) FROM nlg_systems").fetchall() == [(0,)]
    con.close()
