"""A factgenie campaign in, out and in again (accuracy-db import factgenie, export factgenie): the campaign comes
back as it came (each record's key, file, line and fields, each annotation's fields, the categories and the rest of
metadata.json), a database that imports the export holds the rows of the one that imported the campaign, and lists
whose names become one file name each keep a file of their own."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from accuracy_db.etl import factgenie
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accuracy_db.cli.main import run
from accuracy_db.errors import AccuracyDbError
from accuracy_db.ingest.sources import Source, record
from accuracy_db.interchange.export_factgenie import export_factgenie
from accuracy_db.interchange.imports import import_corpus, import_factgenie
from accuracy_db.names import name_problem
from accuracy_db.store import database

CATEGORIES = [
    {"name": "Incorrect", "color": "rgb(214, 39, 40)", "description": "Contradicts the data.", "key": "i"},
    {"name": "Not checkable", "description": "Cannot be checked."},  # no colour
    {"name": "Ünïcode ✓", "color": "#009E73"},  # no description
]
METADATA = {
    "id": "camp",
    "mode": "llm_eval",
    "config": {"annotation_span_categories": CATEGORIES, "annotation_granularity": "words", "idle_time": 5},
    "created": "2024-05-01 10:00:00",
    "status": "finished",
}
WORDS = ["Boston", "beat", "Miami", "102-98", "on", "Friday.", "Smith", "scored", "31", "points;", "Ødegaard", "née"]


def output_of(setup: str, example_idx: int) -> str:
    """A text of its own for every output: words picked by the setup and the example."""
    shift = len(setup) + 7 * example_idx
    return " ".join(WORDS[(shift + 5 * i) % len(WORDS)] for i in range(8)) + f" {setup} #{example_idx}"


def annotations_of(output: str, example_idx: int) -> list[dict]:
    """Exact spans, spans inside a word (widened), at a wrong offset (relocated), without a reason or with fields
    factgenie does not have."""
    words = output.split(" ")
    third = output.index(words[2], len(words[0]) + len(words[1]) + 2)
    return [
        {"text": words[2], "start": third, "type": example_idx % 3, "reason": "wrong"},
        {"text": words[0][:2], "start": 0, "type": 1},  # widened to the whole first word, no reason
        {"text": output.rsplit(" ", 2)[1], "start": 0, "type": 2, "reason": None, "confidence": 0.75},  # relocated
    ][: example_idx % 4]


CAMPAIGN_FILES = {
    # a.jsonl: two annotators' records interleaved; b.jsonl: the second setup, by one of them
    "a.jsonl": [("llama", idx, annotator) for idx in range(15) for annotator in ("human", 7)],
    "b.jsonl": [("mistral", idx, "human") for idx in (0, 1, 2, 10, 11, 12, 13, 14, 100, 101, 1000, 3, 4, 5, 6)],
}


def campaign_record(setup: str, example_idx: int, annotator) -> dict:
    output = output_of(setup, example_idx)
    metadata = {"annotator_id": annotator, "annotator_group": 2, "campaign_id": "camp", "extra": [1, {"x": None}]}
    return {
        "dataset": "games",
        "split": "test",
        "setup_id": setup,
        "example_idx": example_idx,
        "metadata": metadata,
        "output": output,
        "annotations": annotations_of(output, example_idx),
        "flags": [example_idx % 2 == 0],
        "options": [],
        "note": "a field factgenie does not know",
    }


def write_campaign(folder: Path, metadata: dict, files: dict[str, list[dict]]) -> Path:
    (folder / "files").mkdir(parents=True)
    (folder / "metadata.json").write_text(json.dumps(metadata, ensure_ascii=False), encoding="utf-8")
    for name, records in files.items():
        lines = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
        (folder / "files" / name).write_text(lines, encoding="utf-8")
    return folder


def thirty_outputs(root: Path) -> Path:
    """A campaign of thirty outputs of two setups (example_idx up to 1000), two annotators (one of them numbered),
    in two files."""
    files = {name: [campaign_record(*key) for key in keys] for name, keys in CAMPAIGN_FILES.items()}
    return write_campaign(root / "in" / "camp", METADATA, files)


@pytest.fixture
def campaign(tmp_path) -> Path:
    return thirty_outputs(tmp_path)


def read_folder(folder: Path) -> dict:
    """metadata.json and every file of files/ as JSON values, line by line."""
    files = {
        path.name: [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        for path in sorted((folder / "files").glob("*.jsonl"))
    }
    return {"metadata.json": json.loads((folder / "metadata.json").read_text(encoding="utf-8")), **files}


# Every row a campaign gives, but where and when it was read from (the folder's path, its bytes' digest, the time).
ROWS = {
    "corpora": "SELECT corpus, description FROM corpora WHERE corpus = getvariable('corpus')",
    "categories": "SELECT * FROM categories WHERE corpus = getvariable('corpus')",
    "texts": "SELECT * FROM texts WHERE corpus = getvariable('corpus')",
    "tokens": "SELECT tokens.* FROM tokens JOIN texts USING (text_id) WHERE corpus = getvariable('corpus')",
    "annotation_sets": "SELECT set_id, kind, name, split, row_count FROM annotation_sets WHERE corpus = getvariable('corpus')",
    "mistakes": "SELECT * FROM mistakes WHERE set_id IN (SELECT set_id FROM lists)",
    "offset_adjustments": "SELECT * REPLACE (parse_filename(file) AS file) FROM offset_adjustments"
    " WHERE set_id IN (SELECT set_id FROM lists)",
    "scheme_refusals": "SELECT * FROM scheme_refusals WHERE set_id IN (SELECT set_id FROM lists)",
    "factgenie_lists": "SELECT * FROM factgenie_lists WHERE set_id IN (SELECT set_id FROM lists)",
    "factgenie_records": "SELECT * FROM factgenie_records WHERE set_id IN (SELECT set_id FROM lists)",
}


def rows_of(db: Path, corpus: str) -> dict[str, list]:
    con = database.open_existing(db)
    try:
        con.execute("SET VARIABLE corpus = ?", [corpus])
        con.execute(
            "CREATE TEMP TABLE lists AS SELECT set_id FROM annotation_sets WHERE corpus = getvariable('corpus')"
        )
        found = {table: con.execute(f"{sql} ORDER BY ALL").fetchall() for table, sql in ROWS.items()}
    finally:
        con.close()
    return found


def test_a_campaign_exported_comes_back_as_it_came(built_db, campaign, tmp_path):
    db = tmp_path / "accuracy.duckdb"
    shutil.copyfile(built_db, db)
    import_factgenie(db, campaign, "games")
    out = tmp_path / "out" / "camp"
    assert export_factgenie(db, "games", out) == 2  # camp/7 and camp/human
    assert read_folder(out) == read_folder(campaign) | {"metadata.json": METADATA | {"mode": "external"}}


def test_a_database_importing_the_export_holds_every_row_the_campaign_gave(built_db, campaign, tmp_path):
    first, second = tmp_path / "first.duckdb", tmp_path / "second.duckdb"
    for db in (first, second):
        shutil.copyfile(built_db, db)
    assert run(["import", "factgenie", "--db", str(first), str(campaign), "--corpus", "games"]) == 0
    out = tmp_path / "out" / "camp"
    assert run(["export", "factgenie", "--db", str(first), "--corpus", "games", "--out", str(out)]) == 0
    assert run(["import", "factgenie", "--db", str(second), str(out), "--corpus", "games"]) == 0
    before, after = rows_of(first, "games"), rows_of(second, "games")
    as_external = [
        (set_id, json.loads(metadata) | {"mode": "external"}) for set_id, metadata in before["factgenie_lists"]
    ]
    assert as_external == [(set_id, json.loads(metadata)) for set_id, metadata in after["factgenie_lists"]]
    assert before | {"factgenie_lists": None} == after | {"factgenie_lists": None}
    assert len(before["texts"]) == 30 and len(before["annotation_sets"]) == 2
    assert len(before["mistakes"]) == 60
    assert {adjustment for *_, adjustment in [row[:5] for row in before["offset_adjustments"]]} == {
        "widened",
        "relocated",
    }


# Names that become one name in a file name ("team_a", "_"), and a name past a file name's 255 bytes with the rest.
ALIKE = ["team a", "team+a", "é", "ü", "n" * 200]  # 200: the longest name the rule of names takes


def test_lists_whose_names_become_one_file_name_each_keep_a_file_and_come_back(built_db, tmp_path):
    """A corpus of its own (its texts t1, t2, t10), lists named alike: every list comes back with its spans, and the
    texts are numbered in natural order of their ids."""
    db = tmp_path / "accuracy.duckdb"
    shutil.copyfile(built_db, db)
    folder = tmp_path / "alike"
    (folder / "lists").mkdir(parents=True)
    texts = [
        {"id": text_id, "text": f"Text {text_id} says one two three.", "split": "dev"}
        for text_id in ("t10", "t2", "t1")
    ]
    (folder / "texts.jsonl").write_text("".join(json.dumps(text) + "\n" for text in texts))
    (folder / "categories.yaml").write_text("- name: Wrong\n")
    for number, name in enumerate(ALIKE, start=2):
        span = {"text_id": "t10", "category": "Wrong", "token_start": number, "token_end": number}
        (folder / "lists" / f"{name}.jsonl").write_text(json.dumps(span) + "\n", encoding="utf-8")
    import_corpus(db, folder)
    out = tmp_path / "out"
    assert export_factgenie(db, "alike", out) == len(ALIKE)
    assert len(list((out / "files").glob("*.jsonl"))) == len(ALIKE)
    records = [json.loads(line) for path in (out / "files").glob("*.jsonl") for line in path.open(encoding="utf-8")]
    assert {(r["text_id"], r["example_idx"]) for r in records} == {("t1", 0), ("t2", 1), ("t10", 2)}
    import_factgenie(db, out, "alike")
    con = database.open_existing(db)
    try:
        spans = con.execute(
            "SELECT name, text_id, doc_token_start FROM mistakes JOIN annotation_sets USING (set_id)"
            " WHERE corpus = 'alike' ORDER BY ALL"
        ).fetchall()
    finally:
        con.close()
    originals = [(name, "t10", number) for number, name in enumerate(ALIKE, start=2)]
    assert spans == sorted(originals + [(f"out/{name}", text_id, number) for name, text_id, number in originals])


def test_two_lists_that_would_be_one_annotator_are_refused_naming_both(built_db, tmp_path):
    db = tmp_path / "accuracy.duckdb"
    shutil.copyfile(built_db, db)
    for name in ("first", "second"):
        files = {"a.jsonl": [campaign_record("llama", idx, "human") for idx in range(2)]}
        import_factgenie(db, write_campaign(tmp_path / name, METADATA | {"id": name}, files), "games")
    with pytest.raises(AccuracyDbError, match="lists first/human and second/human of split test would both be"):
        export_factgenie(db, "games", tmp_path / "out")
    export_factgenie(db, "games", tmp_path / "apart", ["first/human"])
    assert not (tmp_path / "out").exists()


def test_two_texts_that_would_be_one_output_to_factgenie_are_refused_naming_both(built_db, tmp_path):
    """Records that name their texts (text_id) may share a key, which factgenie would take for one output."""
    db = tmp_path / "accuracy.duckdb"
    shutil.copyfile(built_db, db)
    records = [campaign_record("llama", idx, "human") | {"text_id": f"x{idx}", "example_idx": 0} for idx in (1, 2)]
    import_factgenie(db, write_campaign(tmp_path / "keys", METADATA, {"a.jsonl": records}), "games")
    with pytest.raises(AccuracyDbError, match="texts x1 and x2 would both be output games/test/llama/0 of the"):
        export_factgenie(db, "games", tmp_path / "out")
    assert not (tmp_path / "out").exists()


@pytest.fixture(scope="module")
def empty_db(tmp_path_factory) -> Path:
    """A database of no corpus but the shared task's (no texts), which open_existing opens."""
    path = tmp_path_factory.mktemp("empty") / "accuracy.duckdb"
    con = database.open_new(path)
    record(con, [Source("version", "definitions", "accuracy_db", 0, 0, database.definitions_digest())])
    con.close()
    return path


# Printable names (letters, digits, punctuation, symbols, spaces), none of them the scope ALL; among them names that
# become one file name. Tokens: the same characters but spaces.
PRINTABLE = ("L", "N", "P", "S")
NAMES = st.sampled_from(["team a", "team+a", "é", "ü", "Ødegaard ✓", "x"]) | st.text(
    st.characters(whitelist_categories=(*PRINTABLE, "Zs")), min_size=1, max_size=8
).filter(lambda name: name_problem(name, "annotator") is None)  # names the rule of names takes
TOKEN = st.text(st.characters(whitelist_categories=PRINTABLE), min_size=1, max_size=6)


@st.composite
def campaigns(draw) -> tuple[dict, dict]:
    """metadata.json and the files of a random campaign: several setups, splits and annotators, many-digit
    example_idx, Unicode everywhere, spans exact or inside words, fields factgenie does not have."""
    categories = draw(st.lists(NAMES, min_size=1, max_size=3, unique=True))
    entries = [
        {"name": name}
        | draw(
            st.fixed_dictionaries(
                {}, optional={"color": st.sampled_from(["#000000", "rgb(1, 2, 3)"]), "description": NAMES}
            )
        )
        for name in categories
    ]
    metadata = {"id": "camp", "mode": "external", "config": {"annotation_span_categories": entries}}
    metadata |= draw(st.fixed_dictionaries({}, optional={"created": NAMES, "extra": st.lists(st.integers())}))
    setups = draw(st.lists(NAMES, min_size=1, max_size=3, unique=True))
    indexes = st.sampled_from([0, 1, 2, 10, 11, 100]) | st.integers(0, 10**15)
    outputs = draw(
        st.lists(
            st.tuples(st.sampled_from(["test", "dév"]), st.sampled_from(setups), indexes),
            min_size=1,
            max_size=5,
            unique_by=lambda o: o[1:],
        )
    )
    annotators = draw(st.lists(NAMES | st.integers(0, 99), min_size=1, max_size=3, unique_by=str))
    files: dict[str, list] = {}
    for split, setup, example_idx in outputs:
        tokens = draw(st.lists(TOKEN, min_size=1, max_size=6))
        output = " ".join(tokens)
        starts = [sum(len(t) + 1 for t in tokens[:i]) for i in range(len(tokens))]
        for annotator in draw(st.lists(st.sampled_from(annotators), min_size=1, unique=True)):
            annotations = []
            for _ in range(draw(st.integers(0, 3))):
                first = draw(st.integers(0, len(tokens) - 1))
                last = draw(st.integers(first, len(tokens) - 1))
                start = starts[first] + draw(st.integers(0, len(tokens[first]) - 1))
                end = draw(
                    st.integers(start + 1 if first == last else starts[last] + 1, starts[last] + len(tokens[last]))
                )
                annotation = {"text": output[start:end], "start": start, "type": draw(st.integers(0, len(entries) - 1))}
                annotation |= draw(st.fixed_dictionaries({}, optional={"reason": NAMES, "score": st.integers()}))
                annotations.append(annotation)
            record = {"dataset": "games", "split": split, "setup_id": setup, "example_idx": example_idx}
            record |= {"output": output, "annotations": annotations, "metadata": {"annotator_id": annotator}}
            record |= draw(st.fixed_dictionaries({}, optional={"flags": st.lists(st.booleans()), "ünknown": NAMES}))
            files.setdefault(draw(st.sampled_from(["a.jsonl", "b.jsonl", "é.jsonl"])), []).append(record)
    return metadata, files


def load_campaign(db: Path, folder: Path) -> None:
    con = database.connect_writable(db)
    try:
        factgenie.load_campaign(con, factgenie.read_campaign(folder), "games", "submission")
    finally:
        con.close()


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(campaigns())
def test_any_campaign_comes_back_as_it_came_and_gives_the_same_rows(empty_db, tmp_path_factory, campaign):
    metadata, files = campaign
    root = tmp_path_factory.mktemp("campaign")
    original = write_campaign(root / "in" / "camp", metadata, files)
    first, second = root / "first.duckdb", root / "second.duckdb"
    for db in (first, second):
        shutil.copyfile(empty_db, db)
    load_campaign(first, original)
    exported = root / "out" / "camp"
    export_factgenie(first, "games", exported)
    assert read_folder(exported) == read_folder(original)
    load_campaign(second, exported)
    assert rows_of(first, "games") == rows_of(second, "games")
