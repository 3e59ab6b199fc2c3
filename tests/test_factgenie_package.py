"""factgenie itself opens what `accuracy-db export factgenie` writes: its own campaign index loads each exported
folder as an external campaign, and its own annotation index reads back every span of every list, keyed and
categorised as factgenie keys them (dataset, split, setup_id and example_idx slugified, the type an index into the
campaign's categories), at the characters the database gives the span's tokens, with its correction.

factgenie (the package, 1.2.1) is installed by `make install-dev` without its dependencies: they include LLM clients
and the Google Cloud SDK, which its loading code never imports; the few it does import (Flask, pydantic,
python-slugify, tqdm, pandas) are in the dev extras."""

from __future__ import annotations

import shutil
from types import SimpleNamespace

import factgenie.campaign
import factgenie.workflows
import pytest
from weather_corpus import import_weather

from accuracy_db.cli.main import run
from accuracy_db.store import database

CORPORA = ["shared-task", "weather"]


@pytest.fixture(scope="module")
def campaigns(built_db, tmp_path_factory):
    """The shared-task database with the weather corpus, every list of each corpus exported to a campaign folder
    of its own, and factgenie's two indexes of the folder of campaigns."""
    folder = tmp_path_factory.mktemp("factgenie")
    db = folder / "accuracy.duckdb"
    shutil.copyfile(built_db, db)
    import_weather(db, folder)
    for corpus in CORPORA:
        out = folder / "campaigns" / f"{corpus}-lists"
        assert run(["export", "factgenie", "--db", str(db), "--corpus", corpus, "--out", str(out)]) == 0
    with pytest.MonkeyPatch.context() as patch:
        for module in (factgenie.campaign, factgenie.workflows):
            patch.setattr(module, "CAMPAIGN_DIR", str(folder / "campaigns"))
        app = SimpleNamespace(db={"annotation_index": None, "running_campaigns": set()})
        index = factgenie.workflows.generate_campaign_index(app)
        annotations = factgenie.workflows.get_annotation_index(app)
    return db, index, annotations


def spans_in_database(db, corpus: str) -> dict[tuple, list[tuple]]:
    """(list name, split, the text's place in its split by id) -> its spans as (start, text, category), in
    characters of the text, as the database has them."""
    con = database.open_existing(db)
    rows = con.execute(
        """
        WITH places AS (
            SELECT text_id, split, generated_text,
                row_number() OVER (PARTITION BY split ORDER BY text_id) - 1 AS example_idx
            FROM texts WHERE corpus = $corpus
        ),
        spans AS (
            SELECT sets.name, mistakes.text_id, mistakes.category, mistakes.correction,
                min(tokens.char_start) AS char_start, max(tokens.char_end) AS char_end
            FROM mistakes
            JOIN annotation_sets AS sets USING (set_id)
            JOIN tokens ON tokens.text_id = mistakes.text_id
                AND tokens.doc_token BETWEEN mistakes.doc_token_start AND mistakes.doc_token_end
            WHERE sets.corpus = $corpus
            GROUP BY mistakes.mistake_id, sets.name, mistakes.text_id, mistakes.category, mistakes.correction
        )
        SELECT sets.name, places.split, places.example_idx, spans.char_start,
            substring(places.generated_text, spans.char_start + 1, spans.char_end - spans.char_start), spans.category,
            spans.correction
        FROM annotation_sets AS sets
        JOIN places ON places.split = sets.split
        LEFT JOIN spans ON spans.name = sets.name AND spans.text_id = places.text_id
        WHERE sets.corpus = $corpus
        """,
        {"corpus": corpus},
    ).fetchall()
    con.close()
    found: dict[tuple, list[tuple]] = {}
    for name, split, example_idx, start, text, category, correction in rows:
        spans = found.setdefault((name, split, example_idx), [])
        if start is not None:
            spans.append((start, text, category, correction))
    return {key: sorted(spans, key=str) for key, spans in found.items()}


def test_factgenie_indexes_every_exported_folder_as_an_external_campaign(campaigns):
    _, index, _ = campaigns
    assert sorted(index) == [f"{corpus}-lists" for corpus in CORPORA]
    for campaign in index.values():
        assert isinstance(campaign, factgenie.campaign.ExternalCampaign)
        assert campaign.metadata["mode"] == factgenie.campaign.CampaignMode.EXTERNAL
        assert set(campaign.db["status"]) == {factgenie.campaign.ExampleStatus.FINISHED}


def checker_corrections(db) -> int:
    con = database.open_existing(db)
    try:
        query = "SELECT count(correction) FROM mistakes JOIN annotation_sets USING (set_id) WHERE name = 'boxscore'"
        return con.execute(query).fetchone()[0]
    finally:
        con.close()


@pytest.mark.parametrize("corpus", CORPORA)
def test_factgenie_reads_back_every_span_of_every_list(campaigns, corpus):
    db, index, annotations = campaigns
    categories = [c["name"] for c in index[f"{corpus}-lists"].metadata["config"]["annotation_span_categories"]]
    read = annotations[annotations["campaign_id"] == f"{corpus}-lists"]
    assert set(read["dataset"]) == set(read["setup_id"]) == {corpus}  # slugified, the keys stay the same
    by_factgenie = {
        (row.annotator_id, row.split, row.example_idx): sorted(
            (
                (span["start"], span["text"], categories[span["type"]], span.get("correction"))
                for span in row.annotations
            ),
            key=str,
        )
        for row in read.itertuples()
    }
    assert len(by_factgenie) == len(read)  # one record per list and text
    expected = spans_in_database(db, corpus)
    assert by_factgenie == expected
    assert sum(len(spans) for spans in expected.values()) > 0
    corrections = sum(correction is not None for spans in expected.values() for *_, correction in spans)
    # each in factgenie's index beside its span: the gold files' 2,985, and the box-score checker's own (the box
    # score's values) on the shared task
    assert corrections == (2985 + checker_corrections(db) if corpus == "shared-task" else 0)
