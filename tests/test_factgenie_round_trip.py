"""factgenie out and in (accuracy-db export factgenie, import factgenie): the shared task's gold lists exported and
imported back as submissions score 1.0 wherever a figure is defined, every example submission exported and
imported back scores exactly as its CSV, and the spans come back the same, with their corrections and comments."""

from __future__ import annotations

import csv
import json
import shutil

import pytest
from shared_data import DATA

from accuracy_db.cli.main import run
from accuracy_db.interchange.export_factgenie import export_factgenie
from accuracy_db.interchange.imports import import_factgenie
from accuracy_db.store import database

FIGURES = ("recall", "precision", "f1", "token_recall", "token_precision", "token_f1")
COUNTS = ("matched", "gold_total", "submitted_total", "token_matched", "gold_tokens", "submitted_tokens")


@pytest.fixture(scope="module")
def round_trip(built_db, tmp_path_factory):
    """A copy of the built database with every shared-task list exported to one campaign and imported back."""
    folder = tmp_path_factory.mktemp("round-trip")
    db = folder / "accuracy.duckdb"
    shutil.copyfile(built_db, db)
    campaign = folder / "shared-task-lists"
    assert run(["export", "factgenie", "--db", str(db), "--corpus", "shared-task", "--out", str(campaign)]) == 0
    assert run(["import", "factgenie", "--db", str(db), str(campaign), "--corpus", "shared-task"]) == 0
    con = database.open_existing(db)
    yield con, campaign, db
    con.close()


def scores_of(con, name: str) -> dict:
    rows = con.execute(
        f"SELECT split, scope, {', '.join(FIGURES + COUNTS)} FROM scores WHERE submission = ? ORDER BY split, position",
        [name],
    ).fetchall()
    return {(split, scope): values for split, scope, *values in rows}


def test_the_gold_lists_exported_and_imported_back_score_one_everywhere(round_trip):
    con, campaign, db = round_trip
    scores = scores_of(con, f"{campaign.name}/gold")
    assert {split for split, _ in scores} == {"train", "test"}
    assert len(scores) == 14  # seven scopes of each split
    for (split, scope), values in scores.items():
        figures, counts = values[: len(FIGURES)], dict(zip(COUNTS, values[len(FIGURES) :]))
        assert counts["matched"] == counts["gold_total"] == counts["submitted_total"]
        assert counts["token_matched"] == counts["gold_tokens"] == counts["submitted_tokens"]
        assert all(figure == 1.0 for figure in figures if figure is not None), (split, scope)
        assert (figures[0] is None) == (counts["gold_total"] == 0)


def test_every_example_submission_exported_and_imported_back_scores_as_its_csv(round_trip):
    con, campaign, db = round_trip
    query = "SELECT DISTINCT submission FROM scores WHERE corpus = 'shared-task'"
    names = [name for (name,) in con.execute(query).fetchall()]
    csv_names = [name for name in names if "/" not in name]
    assert len(csv_names) == 5 + 1  # and the box-score checker's list (of both splits), which build adds
    for name in csv_names:
        assert scores_of(con, f"{campaign.name}/{name}") == scores_of(con, name), name


def test_the_spans_come_back_the_same(round_trip):
    con, campaign, db = round_trip
    pairs = con.execute(
        """
        WITH spans AS (
            SELECT lists.kind, lists.name, lists.split, m.text_id, m.doc_token_start, m.doc_token_end, m.category,
                coalesce(m.comment, '') AS comment, m.correction
            FROM mistakes AS m JOIN annotation_sets AS lists USING (set_id)
        )
        SELECT original.name, count(*), count(back.name)
        FROM spans AS original
        LEFT JOIN spans AS back
            ON back.name = $campaign || '/' || original.name AND back.kind = 'submission'
            AND back.split = original.split AND back.text_id = original.text_id
            AND back.doc_token_start = original.doc_token_start AND back.doc_token_end = original.doc_token_end
            AND back.category = original.category AND back.comment = original.comment
            AND back.correction IS NOT DISTINCT FROM original.correction
        WHERE original.name NOT LIKE '%/%'
        GROUP BY original.name
        """,
        {"campaign": campaign.name},
    ).fetchall()
    assert len(pairs) == 7  # the gold lists, five submissions and the box-score checker's list
    assert all(total == found for _, total, found in pairs)
    sizes = con.execute(
        "SELECT name, split, row_count FROM annotation_sets WHERE name LIKE ? ORDER BY ALL", [f"{campaign.name}/%"]
    ).fetchall()
    originals = con.execute(
        "SELECT ? || '/' || name, split, row_count FROM annotation_sets WHERE name NOT LIKE '%/%' ORDER BY ALL",
        [campaign.name],
    ).fetchall()
    assert sizes == originals
    # Token spans became exact character offsets: nothing was widened, trimmed or moved on the way back.
    assert con.execute("SELECT count(*) FROM offset_adjustments").fetchall() == [(0,)]


def test_every_correction_and_comment_of_the_gold_files_comes_back(round_trip):
    """Each gold mistake of the shared task's files (read here with the csv module) comes back from the campaign
    with its correction and comment: 1,307 corrections of the gold lists, and 2,985 with the two submissions that
    repeat the gold (which lost them all on the way until corrections were exported)."""
    con, campaign, db = round_trip
    back = con.execute(
        """
        SELECT text_id, doc_token_start, doc_token_end, category, correction, coalesce(comment, '')
        FROM mistakes JOIN annotation_sets USING (set_id) WHERE name = ? ORDER BY ALL
        """,
        [f"{campaign.name}/gold"],
    ).fetchall()
    given = []
    for folder in (DATA, DATA / "test_set"):
        with (folder / "gsml.csv").open(encoding="utf-8", newline="") as stream:
            for row in csv.DictReader(stream):
                where = (row["TEXT_ID"].removesuffix(".txt"), int(row["DOC_TOKEN_START"]), int(row["DOC_TOKEN_END"]))
                given.append((*where, row["TYPE"], row["CORRECTION"] or None, row["COMMENT"]))
    assert back == sorted(given)
    assert sum(correction is not None for *_, correction, _ in back) == 1307
    corrections = "SELECT count(correction) FROM mistakes JOIN annotation_sets USING (set_id) WHERE name LIKE ?"
    # the box-score checker's list gives corrections of its own (the box score's values), which come back too
    (checker,) = con.execute(corrections.replace("LIKE", "="), ["boxscore"]).fetchone()
    assert checker > 0
    assert con.execute(corrections, [f"{campaign.name}/%"]).fetchall() == [(2985 + checker,)]
    assert con.execute(corrections.replace("LIKE", "NOT LIKE"), ["%/%"]).fetchall() == [(2985 + checker,)]


def test_the_campaign_folder_is_in_factgenie_s_format(round_trip):
    """What factgenie's loader reads (metadata.json's mode, id and config.annotation_span_categories; each record's
    dataset, split, setup_id, example_idx, output, annotations with text, start and type; metadata.annotator_id and
    annotator_group; db.csv's key columns)."""
    con, campaign, db = round_trip
    metadata = json.loads((campaign / "metadata.json").read_text())
    assert metadata["mode"] == "external" and metadata["id"] == campaign.name
    categories = [c["name"] for c in metadata["config"]["annotation_span_categories"]]
    assert categories == ["NAME", "NUMBER", "WORD", "CONTEXT", "NOT_CHECKABLE", "OTHER"]
    records = [json.loads(line) for path in (campaign / "files").glob("*.jsonl") for line in path.open()]
    texts = dict(con.execute("SELECT text_id, generated_text FROM texts").fetchall())
    # every text of each list's split: gold of train and test, five train lists, the checker's of train and test
    assert len(records) == 60 + 30 + 5 * 60 + 60 + 30
    for record in records:
        assert record["output"] == texts[record["text_id"]]
        assert isinstance(record["example_idx"], int) and record["metadata"]["annotator_id"]
        for annotation in record["annotations"]:
            start = annotation["start"]
            assert record["output"][start : start + len(annotation["text"])] == annotation["text"]
            assert 0 <= annotation["type"] < len(categories)
    header = (campaign / "db.csv").read_text().splitlines()[0].split(",")
    assert {"dataset", "split", "example_idx", "setup_id", "annotator_id", "annotator_group"} <= set(header)


def test_export_refuses_a_folder_that_is_not_new_and_an_unknown_corpus_or_list(built_db, tmp_path, capsys):
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "x").write_text("")
    assert run(["export", "factgenie", "--db", str(built_db), "--out", str(tmp_path / "taken")]) == 1
    assert "exists and is not an empty folder" in capsys.readouterr().err
    assert run(["export", "factgenie", "--db", str(built_db), "--corpus", "nope", "--out", str(tmp_path / "a")]) == 1
    assert "no corpus named 'nope' (the corpora: shared-task)" in capsys.readouterr().err
    with pytest.raises(Exception, match="has no list named nope"):
        export_factgenie(built_db, "shared-task", tmp_path / "b", ["nope"])


def test_importing_the_same_campaign_twice_is_refused_and_changes_nothing(round_trip, tmp_path):
    con, campaign, db = round_trip
    copy = tmp_path / "again.duckdb"
    shutil.copyfile(db, copy)
    before = copy.read_bytes()
    with pytest.raises(Exception, match=f"corpus shared-task already has a list {campaign.name}/gold of split test"):
        import_factgenie(copy, campaign, "shared-task")
    assert copy.read_bytes() == before
