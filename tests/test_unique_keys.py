"""Every primary and unique key of the schema, listed from a database itself, has a case here: the duplicate an input
can give it, fed to the command that loads that input, which refuses it (exit 1, no traceback, nothing loaded) in a
line naming both places; or, for a key no input gives, what makes it unique."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from shared_data import DATA

from accuracy_db.cli.main import run
from accuracy_db.ingest.build import build
from accuracy_db.store import database

HEADER = "TEXT_ID,SENTENCE_ID,ANNOTATION_ID,TOKENS,SENT_TOKEN_START,SENT_TOKEN_END,DOC_TOKEN_START,DOC_TOKEN_END,TYPE,CORRECTION,COMMENT\n"
GAMES_HEADER = "TEXT_ID,HOME_NAME,VIS_NAME,LINE_ID_FROM_TEST_SET,DATE,BREF_BOX,BREF_HOME,BREF_VIS,CALENDAR\n"
CURATION = "curation/S001_01_To_60.txt/CURATION_USER.tsv"


def game(text_id: str, line: int) -> str:
    return f"{text_id},Celtics,Heat,{line},11_05_14,,,,\n"


def data_folder(root: Path) -> Path:
    """A data folder of two texts: the shared task's S001 (train, with its curation export) and T001 (test)."""
    data = root / "data"
    (data / "texts").mkdir(parents=True)
    (data / "test_set" / "texts").mkdir(parents=True)
    shutil.copyfile(DATA / "texts" / "S001.txt", data / "texts" / "S001.txt")
    (data / "test_set" / "texts" / "T001.txt").write_text("The Hawks lost .\n")
    (data / "gsml.csv").write_text(HEADER)
    (data / "test_set" / "gsml.csv").write_text(HEADER)
    (data / CURATION).parent.mkdir(parents=True)
    shutil.copyfile(DATA / CURATION, data / CURATION)
    return data


def box_score_record(text_id: str = "S001") -> dict:
    record = json.loads((DATA / "shared_task.jsonl").read_text().split("\n", 1)[0])
    return {**record, "shared_task_text_id": text_id}


def corpus_folder(root: Path, name: str, text_ids: list[str]) -> Path:
    folder = root / name
    (folder / "lists").mkdir(parents=True)
    texts = [{"id": text_id, "text": f"Rain in Oslo, text {text_id}."} for text_id in text_ids]
    (folder / "texts.jsonl").write_text("".join(json.dumps(text) + "\n" for text in texts))
    (folder / "categories.yaml").write_text("- name: Wrong\n")
    return folder


def campaign(root: Path, text_id: str) -> Path:
    folder = root / "camp"
    (folder / "files").mkdir(parents=True)
    metadata = {"id": "camp", "config": {"annotation_span_categories": [{"name": "Wrong"}]}}
    (folder / "metadata.json").write_text(json.dumps(metadata))
    record = {
        "dataset": "d", "split": "test", "setup_id": "s", "example_idx": 0, "text_id": text_id, "output": "Rain.",
        "annotations": [], "metadata": {"annotator_id": "a"},
    }  # fmt: skip
    (folder / "files" / "a.jsonl").write_text(json.dumps(record) + "\n")
    return folder


@dataclass(frozen=True)
class Duplicate:
    """An input giving a key twice: make(root) writes it under root (the data folder is root/data, the database
    root/db.duckdb, built from it when `built`) and returns the command's arguments; the refusal is the line
    holding `line`, which names both places (each given relative to root)."""

    make: Callable[[Path], list[str]]
    line: str
    places: tuple[str, str]
    built: bool = False


def build_args(root: Path) -> list[str]:
    return ["build", "--data", str(root / "data"), "--db", str(root / "db.duckdb")]


def text_in_both_splits(root: Path) -> list[str]:
    shutil.copyfile(root / "data" / "texts" / "S001.txt", root / "data" / "test_set" / "texts" / "S001.txt")
    return build_args(root)


def game_in_both_splits(root: Path) -> list[str]:
    (root / "data" / "games.csv").write_text(GAMES_HEADER + game("S001", 5))
    (root / "data" / "test_set" / "games.csv").write_text(GAMES_HEADER + game("T001", 6) + game("S001", 7))
    return build_args(root)


def game_twice_in_games_csv(root: Path) -> list[str]:
    (root / "data" / "games.csv").write_text(GAMES_HEADER + game("S001", 5) + game("S001", 8))
    return build_args(root)


def game_twice_in_the_box_scores(root: Path) -> list[str]:
    record = json.dumps(box_score_record())
    (root / "data" / "shared_task.jsonl").write_text(f"{record}\n{record}\n")
    return build_args(root)


def player_index_twice(root: Path) -> list[str]:
    record = box_score_record()
    for values in record["box_score"].values():
        values["00"] = values["0"]
    (root / "data" / "shared_task.jsonl").write_text(json.dumps(record) + "\n")
    return build_args(root)


def nlg_system_twice(root: Path) -> list[str]:
    (root / "nlg_systems.csv").write_text("TEXT_ID,SYSTEM\nS001,wiseman\nS001,puduppully\n")
    return build_args(root)


def curation_export_twice(root: Path) -> list[str]:
    again = root / "data" / "curation" / "S001_00_Existing.txt" / "CURATION_USER.tsv"
    again.parent.mkdir()
    shutil.copyfile(root / "data" / CURATION, again)
    return build_args(root)


def text_twice_in_texts_jsonl(root: Path) -> list[str]:
    folder = corpus_folder(root, "weather", ["w1", "w2", "w1"])
    return ["import", "corpus", "--db", str(root / "db.duckdb"), str(folder)]


def corpus_text_of_the_shared_task(root: Path) -> list[str]:
    folder = corpus_folder(root, "weather", ["w1", "S001"])
    return ["import", "corpus", "--db", str(root / "db.duckdb"), str(folder)]


def corpus_text_of_another_corpus(root: Path) -> list[str]:
    assert run(["import", "corpus", "--db", str(root / "db.duckdb"), str(corpus_folder(root, "a", ["w1"]))]) == 0
    folder = corpus_folder(root / "b", "weather", ["w1"])
    return ["import", "corpus", "--db", str(root / "db.duckdb"), str(folder)]


def campaign_text_of_the_shared_task(root: Path) -> list[str]:
    return ["import", "factgenie", "--db", str(root / "db.duckdb"), str(campaign(root, "T001"))]


def category_twice(root: Path) -> list[str]:
    folder = corpus_folder(root, "weather", ["w1"])
    (folder / "categories.yaml").write_text("- name: Wrong\n- name: Unsupported\n- name: Wrong\n")
    return ["import", "corpus", "--db", str(root / "db.duckdb"), str(folder)]


def corpus_from_two_folders(root: Path) -> list[str]:
    first, second = corpus_folder(root / "a", "weather", ["w1"]), corpus_folder(root / "b", "weather", ["w2"])
    return [*build_args(root), "--corpus-dir", str(first), "--corpus-dir", str(second)]


def list_in_two_files(root: Path) -> list[str]:
    folder = corpus_folder(root, "weather", ["w1"])
    (folder / "lists" / "metric.jsonl").write_text(
        json.dumps({"text_id": "w1", "category": "Wrong", "start": 0, "end": 4}) + "\n"
    )
    (folder / "lists" / "metric.csv").write_text("text_id,category,start,end\nw1,Wrong,0,4\n")
    return ["import", "corpus", "--db", str(root / "db.duckdb"), str(folder)]


def metric_imported_twice(root: Path) -> list[str]:
    (root / "first.csv").write_text("text_id,bertscore\nT001,0.5\n")
    (root / "second.csv").write_text("text_id,bertscore\nT001,0.7\n")
    importing = ["import", "scores", "--higher-is-better", "--db", str(root / "db.duckdb")]
    assert run([*importing, str(root / "first.csv")]) == 0
    return [*importing, str(root / "second.csv")]


def text_scored_twice(root: Path) -> list[str]:
    (root / "scores.csv").write_text("text_id,score\nT001,1\nT001.txt,2\n")
    return ["import", "scores", "--lower-is-better", "--db", str(root / "db.duckdb"), str(root / "scores.csv")]


# Places: {root} is the case's folder, {built} the folder of the database the case starts from (when built).
DUPLICATES: dict[tuple[str, tuple[str, ...]], list[Duplicate]] = {
    ("texts", ("text_id",)): [
        Duplicate(text_in_both_splits, "text S001 is a text of the train split already",
                  ("{root}/data/test_set/texts/S001.txt: text", "({root}/data/texts/S001.txt)")),
        Duplicate(text_twice_in_texts_jsonl, "id w1 is given again",
                  ("{root}/weather/texts.jsonl: line 3", "(first on line 1)"), built=True),
        Duplicate(corpus_text_of_the_shared_task, "text id S001 is a text of corpus shared-task",
                  ("{root}/weather/texts.jsonl: line 2", "({built}/data/texts/S001.txt)"), built=True),
        Duplicate(corpus_text_of_another_corpus, "text id w1 is a text of corpus a",
                  ("{root}/b/weather/texts.jsonl: line 1", "({root}/a)"), built=True),
        Duplicate(campaign_text_of_the_shared_task, "text T001 is a text of corpus shared-task",
                  ("{root}/camp/files/a.jsonl: line 1", "({built}/data/test_set/texts/T001.txt)"), built=True),
    ],
    ("games", ("text_id",)): [
        Duplicate(game_in_both_splits, "S001 has a game already",
                  ("{root}/data/test_set/games.csv: line 3", "({root}/data/games.csv line 2)")),
        Duplicate(game_twice_in_games_csv, "S001 is already on line 2", ("{root}/data/games.csv: line 3", "line 2")),
        Duplicate(game_twice_in_the_box_scores, "S001 is already on line 1",
                  ("{root}/data/shared_task.jsonl: line 2", "line 1")),
    ],
    ("player_games", ("text_id", "player_index")): [
        Duplicate(player_index_twice, "player index 0 is given twice",
                  ("{root}/data/shared_task.jsonl: line 1", "('0' and '00')")),
    ],
    ("nlg_systems", ("text_id",)): [
        Duplicate(nlg_system_twice, "S001 is already on line 2", ("{root}/nlg_systems.csv: line 3", "line 2")),
    ],
    ("curation_exports", ("text_id",)): [
        Duplicate(curation_export_twice, "S001 already has an export",
                  ("{root}/data/curation/S001_01_To_60.txt/CURATION_USER.tsv: S001",
                   ": {root}/data/curation/S001_00_Existing.txt/CURATION_USER.tsv")),
    ],
    ("categories", ("corpus", "category")): [
        # (categories.yaml is read as YAML: it has no lines to name; the file, and the name listed twice)
        Duplicate(category_twice, "category 'Wrong' is listed twice",
                  ("{root}/weather/categories.yaml", "'Wrong'"), built=True),
    ],
    ("corpora", ("corpus",)): [
        Duplicate(corpus_from_two_folders, "corpus weather is loaded from",
                  ("{root}/b/weather: corpus", "from {root}/a/weather")),
    ],
    ("annotation_sets", ("corpus", "kind", "name", "split")): [
        Duplicate(list_in_two_files, "metric.csv: the list metric is given twice",  # (and metric.jsonl: …)
                  ("{root}/weather/lists/metric.csv", "(metric.csv and metric.jsonl)"), built=True),
    ],
    ("metrics", ("corpus", "split", "metric")): [
        Duplicate(metric_imported_twice, "the metric 'bertscore' of split test is loaded already",
                  ("{root}/second.csv: line 1", "(from {root}/first.csv)"), built=True),
    ],
    ("text_scores", ("corpus", "metric", "text_id")): [
        Duplicate(text_scored_twice, "T001 is given again", ("{root}/scores.csv: line 3", "(first on line 2)"),
                  built=True),
    ],
}  # fmt: skip

# The keys no input gives: what makes each unique.
UNIQUE_BY_CONSTRUCTION = {
    ("annotation_sets", ("set_id",)): "numbered by the sequence annotation_set_ids",
    ("categories", ("corpus", "position")): "numbered by corpus_texts.create_corpus in the order the list gives",
    ("corpus_folders", ("position",)): "numbered by corpus_folders.register, the registrations in order",
    ("corpus_folders", ("folder", "corpus", "name")): "corpus_folders.register adds a registration only when it is new",
    ("model_inputs", ("model",)): "written by database.materialize, one row a model of queries/",
    (
        "source_files",
        ("role", "corpus", "name"),
    ): "written INSERT OR REPLACE by sources.record: a file read again replaces",
    ("team_games", ("text_id", "side")): "a game's home and visitor lines (games.text_id is the key)",
    ("curated_mistakes", ("text_id", "doc_token_start")): "an export a text, and a token line starts one mistake",
    ("submission_metadata", ("corpus", "submission")): "a sidecar a list: the first of NAME.json, .yaml, .yml",
    ("list_coverage", ("set_id", "text_id")): "annotation_sets.cover_texts inserts each list's texts DISTINCT",
    ("factgenie_lists", ("set_id",)): "one row a list, written by the factgenie import with the list's new set_id",
    ("factgenie_records", ("set_id", "text_id")): "a list is one annotator's: the import refuses an annotator's "
    "second record of a text, naming both lines (factgenie.conflicting_records, tests/test_factgenie_import.py)",
    ("text_systems", ("text_id",)): "one row an item of an MQM file, whose text ids the import refuses when two items"
    " share one (tests/test_mqm.py)",
    ("mqm_ratings", ("set_id", "text_id", "rater")): "mqm_files.read_file keeps an item's raters once each",
    ("mqm_errors", ("set_id", "line_number", "error_index")): "an error a place of a line of its file",
    ("mqm_weights", ("severity", "category")): "the schema's rules; a weights file giving a rule twice is refused"
    " (etl/mqm_weights.py)",
}


def schema_keys() -> set[tuple[str, tuple[str, ...]]]:
    con = database.open_new(None)
    try:
        rows = con.execute(
            "SELECT table_name, constraint_column_names FROM duckdb_constraints()"
            " WHERE constraint_type IN ('PRIMARY KEY', 'UNIQUE')"
        ).fetchall()
    finally:
        con.close()
    return {(table, tuple(columns)) for table, columns in rows}


def test_every_key_of_the_schema_has_a_case():
    """A key added to schema/*.sql fails here until its duplicate has a case (or why none can come is said)."""
    assert DUPLICATES.keys().isdisjoint(UNIQUE_BY_CONSTRUCTION)
    assert schema_keys() == DUPLICATES.keys() | UNIQUE_BY_CONSTRUCTION.keys()


@pytest.fixture(scope="module")
def built_root(tmp_path_factory) -> Path:
    """The data folder, and a database built from it."""
    root = tmp_path_factory.mktemp("built")
    build(data_folder(root), root / "db.duckdb")
    return root


CASES = [(key, duplicate) for key, duplicates in DUPLICATES.items() for duplicate in duplicates]


@pytest.mark.parametrize(
    "key, duplicate", CASES, ids=[f"{key[0]}-{duplicate.make.__name__}" for key, duplicate in CASES]
)
def test_a_duplicate_is_refused_in_a_line_naming_both_places(key, duplicate, built_root, tmp_path, capsys):
    if duplicate.built:  # (the database names the data folder it was built from: built_root's)
        shutil.copyfile(built_root / "db.duckdb", tmp_path / "db.duckdb")
    else:
        data_folder(tmp_path)
    args = duplicate.make(tmp_path)
    capsys.readouterr()
    before = (tmp_path / "db.duckdb").read_bytes() if duplicate.built else None
    assert run(args) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if duplicate.line in line]
    assert len(lines) == 1, err
    for place in duplicate.places:
        assert place.format(root=tmp_path, built=built_root) in lines[0], err
    # nothing loaded: no database where there was none, the one there as it was
    assert (tmp_path / "db.duckdb").read_bytes() == before if before else not (tmp_path / "db.duckdb").exists()
