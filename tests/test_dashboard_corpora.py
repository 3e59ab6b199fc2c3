"""The dashboard with more than one corpus (issue 12, item 7) and its agreement features (issue 13, item 4), run by
Streamlit's AppTest on the shared-task data with the example submissions plus a corpus imported with
`accuracy-db import corpus`: weather, three texts of its own split dev with source data, its own two categories
(one with a colour, one without) and three lists (gold, metric, llm). Every figure shown is checked against the
function or view the command line reads, or against counts worked out by hand from the spans below."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qsl

import pytest
import streamlit as st
from accuracy_db.dashboard import DB_ENV
from accuracy_db.dashboard.palette import Categories, hex_colour, initials_of
from accuracy_db.dashboard.source_data import source_tables
from hostile_names import IMAGE_NAME, TAG_NAME
from hypothesis import given, settings, strategies
from streamlit.testing.v1 import AppTest
from test_dashboard import (  # noqa: F401  (fresh_caches: autouse)
    APP,
    assert_no_markup_from_names,
    chart,
    examples_without_checker,
    fresh_caches,
    labelled,
    open_page,
    table,
)
from weather_corpus import TEXTS, import_weather

from accuracy_db.stats import agreement, ranking
from accuracy_db.stats.intervals import Resampling
from accuracy_db.store import database


@pytest.fixture(scope="module")
def built_db(tmp_path_factory) -> Path:
    """The examples alone, without the box-score checker's list (test_dashboard.examples_without_checker)."""
    return examples_without_checker(tmp_path_factory)


@pytest.fixture(scope="module")
def corpora_db(built_db, tmp_path_factory) -> Path:
    """The shared-task database with the example submissions, and the weather corpus imported."""
    folder = tmp_path_factory.mktemp("corpora")
    path = folder / "accuracy.duckdb"
    shutil.copyfile(built_db, path)
    import_weather(path, folder)
    return path


def opened_at(db: Path, monkeypatch, page: str, **address) -> AppTest:
    """The dashboard opened at an address: the page with these query parameters, as a link opens it."""
    monkeypatch.setenv(DB_ENV, str(db))
    at = AppTest.from_file(str(APP), default_timeout=60)
    for name, value in address.items():
        at.query_params[name] = value
    at.switch_page(f"app_pages/{page}.py").run()  # the page first, as a link opens it
    assert not at.exception, at.exception
    return at


def set_ids(db: Path, names: list[str], split: str = "train", corpus: str = "shared-task") -> list[int]:
    """The ids of lists as the pages' list choosers hold them (gold list: the gold list of the split)."""
    found = connected(
        db,
        lambda con: dict(
            con.execute(
                "SELECT CASE kind WHEN 'gold' THEN 'gold list' ELSE name END, set_id FROM annotation_sets"
                " WHERE corpus = $corpus AND split = $split",
                {"corpus": corpus, "split": split},
            ).fetchall()
        ),
    )
    return [found[name] for name in names]


def connected(db: Path, work):
    con = database.open_existing(db)
    try:
        return work(con)
    finally:
        con.close()


# The selector


def test_one_corpus_has_no_selector_and_the_pages_look_as_before(built_db, monkeypatch):
    for page in ("leaderboard", "errors", "document", "gold", "agreement"):
        at = open_page(built_db, page, monkeypatch)
        assert "Corpus" not in [widget.label for widget in at.selectbox], page


@pytest.mark.parametrize("page", ["leaderboard", "significance", "validity", "difficulty", "errors", "document",
                                  "gold", "agreement"])  # fmt: skip
def test_every_page_that_chooses_a_split_chooses_the_corpus_first_the_shared_task(corpora_db, monkeypatch, page):
    at = open_page(corpora_db, page, monkeypatch)
    corpus = labelled(at.selectbox, "Corpus")
    assert (corpus.value, corpus.options) == ("shared-task", ["shared-task", "weather"])
    corpus.set_value("weather").run()
    assert not at.exception and not at.error, (at.exception, at.error)
    assert labelled(at.selectbox, "Corpus").value == "weather"
    if page not in ("validity", "document"):  # these choose a submission or a text, whose split follows
        assert labelled(at.selectbox, "Split").options == ["dev"]


def test_the_chosen_corpus_is_kept_from_page_to_page(corpora_db, monkeypatch):
    at = open_page(corpora_db, "leaderboard", monkeypatch)
    labelled(at.selectbox, "Corpus").set_value("weather").run()
    at.switch_page("app_pages/errors.py").run()
    assert labelled(at.selectbox, "Corpus").value == "weather"
    assert labelled(at.multiselect, "Categories").options == ["Wrong", "Unsupported"]


def test_the_leaderboard_of_a_corpus_ranks_it_in_its_own_scopes_as_the_command_does(corpora_db, monkeypatch):
    at = open_page(corpora_db, "leaderboard", monkeypatch)
    assert list(table(at, "leaderboard")["submission"])[:2] == ["gsml_doc_based", "gsml_sent_based"]  # as before
    labelled(at.selectbox, "Corpus").set_value("weather").run()
    assert labelled(at.selectbox, "Scope").options == ["ALL", "Wrong", "Unsupported"]
    labelled(at.selectbox, "Scope").set_value("Wrong").run()
    board = table(at, "leaderboard")
    expected = connected(
        corpora_db, lambda con: ranking.leaderboard(con, "dev", "Wrong", Resampling(), 10_000, "weather")
    )
    assert list(board["submission"]) == [row["submission"] for row in expected] == ["llm", "metric"]
    # In Wrong: llm matches both Wrong gold mistakes of 2 (1.000); metric matches w1's of 2 (0.500).
    assert list(board["recall"]) == [1.0, 0.5] == [row["recall"] for row in expected]
    spec, _ = chart(at, "category_chart")
    assert spec["facet"]["column"]["sort"] == ["Wrong", "Unsupported"]  # a small chart per category, in its order


def test_the_errors_browser_of_a_corpus_lists_its_outcomes_and_keeps_the_corpus_in_the_address(corpora_db, monkeypatch):
    at = opened_at(corpora_db, monkeypatch, "errors", corpus="weather")
    assert labelled(at.selectbox, "Corpus").value == "weather"
    rows = table(at, "error_rows")
    # Within each category: metric matches w1 (Wrong) and w2 (Unsupported), misses w3, Sunny a false alarm; llm
    # matches w1 and w3, misses w2, Oslo (Unsupported, no gold Unsupported there) a false alarm.
    outcomes = sorted(zip(rows["submission"], rows["text_id"], rows["outcome"]))
    assert outcomes == [
        ("llm", "w1", "false alarm"), ("llm", "w1", "matched"), ("llm", "w2", "missed"), ("llm", "w3", "matched"),
        ("metric", "w1", "matched"), ("metric", "w2", "false alarm"), ("metric", "w2", "matched"),
        ("metric", "w3", "missed"),
    ]  # fmt: skip
    assert at.query_params["corpus"] == "weather"


# The document view


def test_a_link_to_a_text_of_another_corpus_opens_it_in_its_corpus_with_its_colours_and_source_data(
    corpora_db, monkeypatch
):
    at = opened_at(corpora_db, monkeypatch, "document", text="w1", submission="metric")
    assert labelled(at.selectbox, "Corpus").value == "weather"
    assert at.selectbox(key="text").value == "w1"
    assert "1 gold mistakes; metric lists 1: 1 gold mistakes matched, 0 missed" in at.markdown[0].value
    legend, text = (element.value for element in at.get("html")[:2])
    # Wrong has its own colour (#D55E00); Unsupported none, so it takes the first Okabe–Ito colour unused (#0072B2).
    assert "background: rgba(213, 94, 0, 0.28)" in text and "G1·W✓" in text
    assert "Wrong (W)" in legend
    source = [table(at, f"source_data_{number}") for number in range(2)]
    assert dict(zip(source[0]["field"], source[0]["value"])) == {"city": "Oslo", "temp": "14"}
    assert list(zip(source[1]["hour"], source[1]["rain"])) == [("9", "true"), ("12", "false")]
    with pytest.raises(KeyError):
        at.get_by_key("box_score")


def test_a_text_without_source_data_or_game_says_so(corpora_db, monkeypatch):
    at = open_page(corpora_db, "document", monkeypatch)
    labelled(at.selectbox, "Corpus").set_value("weather").run()
    at.selectbox(key="text").set_value("w3").run()
    assert [info.value for info in at.info] == ["No game data or source data for this text."]


def lanes_page(db: Path, monkeypatch, layout: str, lists: list[str]):
    """The document view of S001 with these lists (by name; gold list for the gold list) in a layout."""
    at = open_page(db, "document", monkeypatch)
    at.radio(key="document_layout").set_value(layout).run()
    labelled(at.multiselect, "Lists").set_value(set_ids(db, lists)).run()
    assert not at.exception, at.exception
    return at


def test_the_document_view_shows_any_number_of_lists_in_lanes(built_db, monkeypatch):
    at = lanes_page(built_db, monkeypatch, "lanes", ["gold list", "submission", "gsml_doc_based"])
    [element] = at.get_by_key("lanes_text").get("html")
    text = element.value
    # S001: 16 gold mistakes (lane A), the example submission's 12 (B), the gold list's copy's 16 (C).
    for letter, count in (("A", 16), ("B", 12), ("C", 16)):
        labels = re.findall(rf">{letter}(\d+)·", text)
        assert sorted(map(int, labels)) == list(range(1, count + 1)), letter
    assert "bottom 10px" in text  # lane C, two lanes below the text
    assert "repeating-linear-gradient" in text  # the submission's false alarms are dashed
    mistakes = table(at, "document_mistakes")
    assert mistakes["list"].value_counts().to_dict() == {"gold list": 16, "gsml_doc_based": 16, "submission": 12}
    # The submission's outcomes are those of the gold-and-submission view: 4 false alarms, 8 matched.
    assert mistakes[mistakes["list"] == "submission"]["outcome"].value_counts().to_dict() == {
        "matched": 8,
        "false alarm": 4,
    }


def test_the_document_view_shows_two_submissions_side_by_side(built_db, monkeypatch):
    at = lanes_page(built_db, monkeypatch, "side by side", ["submission", "gsml_sent_based"])
    left, right = (at.get_by_key(f"side_by_side_{letter}").get("html")[0].value for letter in "AB")
    assert len(re.findall(r">A\d+·", left)) == 12 and ">B" not in left
    assert len(re.findall(r">B\d+·", right)) == 16 and ">A" not in right


def test_a_link_names_the_layout_and_its_lists(built_db, monkeypatch):
    at = opened_at(
        built_db, monkeypatch, "document", text="S001", layout="lanes", list=["submission", "gsml_doc_based"]
    )
    [element] = at.get_by_key("lanes_text").get("html")
    assert len(re.findall(r">A\d+·", element.value)) == 12 and len(re.findall(r">B\d+·", element.value)) == 16
    assert at.query_params["list"] == ["submission", "gsml_doc_based"]
    at.radio(key="document_layout").set_value("gold and one submission").run()
    assert "list" not in at.query_params and "layout" not in at.query_params


def test_a_link_naming_a_list_twice_or_unknown_lists_shows_each_known_list_once(built_db, monkeypatch):
    at = opened_at(
        built_db, monkeypatch, "document", text="S001", layout="lanes", list=["submission", "x", "submission"]
    )
    assert at.query_params["list"] == "submission"  # one value: AppTest gives it as such


# The agreement page


def test_the_agreement_matrix_holds_the_figures_of_the_command(built_db, monkeypatch):
    at = open_page(built_db, "agreement", monkeypatch)
    labelled(at.multiselect, "Lists").set_value(set_ids(built_db, ["gold list", "submission"])).run()
    at.radio(key="agreement_figure").set_value("f1").run()
    _, cells = chart(at, "agreement_matrix")
    expected = connected(built_db, lambda con: agreement.agreement(con, ["gold", "submission"], "train", ["ALL"]))
    shown = {(row.reference, row.compared): row.f1 for row in cells.itertuples()}
    assert shown == {(row["reference"], row["compared"]): row["f1"] for row in expected["pairs"]}
    assert round(shown[("gold", "submission")], 3) == 0.392  # as docs/scoring.md gives it, both ways
    correlations = table(at, "agreement_correlations")
    # Pearson's r and Spearman's rho of docs/statistics.md (and of `accuracy-db validity submission`), with their p-values
    shown = [(f"{value:.3f}", p) for value, p in zip(correlations["value"], correlations["p-value"])]
    assert shown == [("0.556", "< 0.0001"), ("0.608", "< 0.0001")]


def test_the_agreement_matrix_under_another_scheme_is_the_command_s(built_db, monkeypatch):
    at = open_page(built_db, "agreement", monkeypatch)
    labelled(at.multiselect, "Lists").set_value(set_ids(built_db, ["gold list", "submission"])).run()
    labelled(at.selectbox, "Match scheme").set_value("partial").run()
    at.radio(key="agreement_figure").set_value("recall").run()
    _, cells = chart(at, "agreement_matrix")
    expected = connected(
        built_db, lambda con: agreement.agreement(con, ["gold", "submission"], "train", ["ALL"], scheme="partial")
    )
    shown = {(row.reference, row.compared): (row.recall, row.matched) for row in cells.itertuples()}
    assert shown == {(row["reference"], row["compared"]): (row["recall"], row["matched"]) for row in expected["pairs"]}
    assert shown[("gold", "submission")][1] == 247.5  # COR 145 + 0.5 PAR 205, as nervaluate counts it
    assert all("|scheme:partial|" in value for value in table(at, "agreement_pairs")["signature"])


def test_two_lists_disagreements_on_a_text_are_those_of_the_scoring(built_db, monkeypatch):
    at = open_page(built_db, "agreement", monkeypatch)
    labelled(at.multiselect, "Lists").set_value(set_ids(built_db, ["gold list", "submission"])).run()
    # S001 scored as the example submission is: 8 matched, 8 missed (only in A), 4 false alarms (only in B).
    assert "16 gold" not in markdown_of(at)
    assert "8 matched, **12 disagreements** (8 only in A, 4 only in B; ALL scope)" in markdown_of(at)
    disagreements = table(at, "agreement_disagreements")
    assert disagreements["only in"].value_counts().to_dict() == {"A": 8, "B": 4}
    [element] = at.get_by_key("agreement_text").get("html")
    assert len(re.findall(r">A\d+·", element.value)) == 16 and len(re.findall(r">B\d+·", element.value)) == 12
    # and the text's links: to the Document view with the pair's submission, and to that submission's errors on it
    document, errors = (dict(parse_qsl(link.proto.query_string)) | {"page": link.proto.page} for link in page_links(at))
    assert [document[name] for name in ("page", "split", "text", "submission")] == [
        "document",
        "train",
        "S001",
        "submission",
    ]
    assert (errors["page"], errors["submission"], errors["text"]) == ("errors", "submission", "S001")
    assert "category" not in errors and "outcome" not in errors  # every mistake of the submission on the text


def page_links(at) -> list:
    """The same-tab links of the page's main part, in order."""
    return [element for element in at.main.get("page_link") if not element.proto.external]


def markdown_of(at) -> str:
    return "\n".join(element.value for element in at.markdown)


def test_the_agreement_page_shows_hostile_names_as_text(hostile_db, monkeypatch):
    at = open_page(hostile_db, "agreement", monkeypatch)
    labelled(at.multiselect, "Lists").set_value(set_ids(hostile_db, ["gold list", IMAGE_NAME, TAG_NAME])).run()
    assert_no_markup_from_names(at)
    second = labelled(at.selectbox, "List B (scored against A)")
    assert second.options == [IMAGE_NAME, TAG_NAME]  # shown as named
    assert second.value == set_ids(hostile_db, [TAG_NAME])[0]  # the last chosen
    pages = [element.value for element in at.get("html")]
    assert all(TAG_NAME not in page for page in pages)  # never a tag: escaped wherever it is written
    assert any(f"lane 2: {html.escape(TAG_NAME)}" in page for page in pages)


def test_agreement_in_a_corpus_s_own_categories(corpora_db, monkeypatch):
    at = open_page(corpora_db, "agreement", monkeypatch)
    labelled(at.selectbox, "Corpus").set_value("weather").run()
    assert labelled(at.selectbox, "Scope").options == ["ALL", "Wrong", "Unsupported"]
    _, cells = chart(at, "agreement_matrix")
    recall = {(row.reference, row.compared): row.recall for row in cells.itertuples()}
    # metric and llm against the gold list: 2 of its 3 mistakes each, as the leaderboard scores them.
    scores = connected(
        corpora_db,
        lambda con: dict(
            con.execute("SELECT submission, recall FROM scores WHERE corpus = 'weather' AND scope = 'ALL'").fetchall()
        ),
    )
    assert recall[("gold", "metric")] == scores["metric"] == pytest.approx(2 / 3)
    assert recall[("gold", "llm")] == scores["llm"] == pytest.approx(2 / 3)
    assert set(table(at, "agreement_categories")["measure"]) == {"Fleiss' κ", "Krippendorff's α"}  # in words
    labelled(at.selectbox, "Scope").set_value("Wrong").run()
    _, cells = chart(at, "agreement_matrix")
    recall = {(row.reference, row.compared): row.recall for row in cells.itertuples()}
    assert recall[("gold", "llm")] == 1.0 and recall[("gold", "metric")] == 0.5


def test_the_per_text_counts_of_a_list_keep_to_its_corpus(corpora_db):
    rows = connected(
        corpora_db,
        lambda con: con.execute(
            "SELECT scope, text_id, mistakes FROM list_text_counts WHERE name = 'metric' ORDER BY ALL"
        ).fetchall(),
    )
    assert {scope for scope, _, _ in rows} == {"ALL", "Wrong", "Unsupported"}
    assert {text for _, text, _ in rows} == {"w1", "w2", "w3"}
    assert [(text, n) for scope, text, n in rows if scope == "ALL"] == [("w1", 1), ("w2", 2), ("w3", 0)]


def test_a_corpus_s_own_dev_split_is_not_the_shared_task_s_train(corpora_db):
    weather = connected(corpora_db, lambda con: ranking.leaderboard(con, "dev", corpus="weather"))
    shared = connected(corpora_db, lambda con: ranking.leaderboard(con, "dev"))
    assert {row["split"] for row in weather} == {"dev"} and len(weather) == 2
    assert {row["split"] for row in shared} == {"train"} and len(shared) == 5


# Colours, initials and source data


@pytest.mark.parametrize(
    "given, taken",
    [("#d55e00", "#D55E00"), ("#abc", "#AABBCC"), ("rgb(214, 39, 40)", "#D62728"), ("rgba(0,0,0,0.5)", "#000000"),
     ("red; background: url(http://example.com/x)", None), ("rgb(300, 0, 0)", None), ("", None), (None, None),
     ('#000" onmouseover="x', None)],
)  # fmt: skip
def test_a_corpus_s_colour_is_taken_only_in_a_form_that_carries_nothing_else(given, taken):
    assert hex_colour(given) == taken


def test_categories_without_a_usable_colour_take_okabe_ito_colours_the_corpus_does_not_use():
    categories = Categories.of([("A", "#0072B2"), ("B", None), ("C", "url(x)")])
    assert categories.colours == {"A": "#0072B2", "B": "#E69F00", "C": "#009E73"}


@settings(max_examples=60, deadline=None)
@given(strategies.lists(strategies.text(min_size=1, max_size=12), min_size=1, max_size=8, unique=True))
def test_every_category_gets_initials_of_its_own(names):
    initials = initials_of(names)
    assert set(initials) == set(names)
    assert len(set(initials.values())) == len(names) and all(initials.values())


def initials_before_issue_36(names: list[str]) -> dict[str, str]:
    """palette.initials_of as it was before issue 36 (a count over every label for each name, each round): the
    reference the linear one must agree with."""
    words = {name: [w for w in re.split(r"[\s_-]+", name) if w] or [name] for name in names}
    labels = {name: "".join(w[0] for w in parts).capitalize() for name, parts in words.items()}
    for length in range(2, max((len(name) for name in names), default=0) + 1):
        clashing = {name for name in names if list(labels.values()).count(labels[name]) > 1}
        if not clashing:
            break
        for name in clashing:
            labels[name] = name[:length].replace(" ", "").capitalize()
    if len(set(labels.values())) < len(names) or "" in labels.values():
        return {name: str(position) for position, name in enumerate(names, start=1)}
    return labels


# Names made of few letters, spaces, underscores and dashes, so that initials clash and get lengthened.
CLASHING_NAMES = strategies.text(alphabet="aAbB _-é", min_size=1, max_size=8)


@settings(max_examples=300, deadline=None)
@given(strategies.lists(CLASHING_NAMES | strategies.text(min_size=1, max_size=12), max_size=12, unique=True))
def test_initials_are_those_of_the_definition_before_they_were_made_linear(names):
    assert initials_of(names) == initials_before_issue_36(names)


def test_twenty_thousand_categories_get_labels_of_their_own_in_a_moment():
    """As many categories as an import takes (issue 36: 4,000 took 3 s, in a count per name per round; 20,000
    would have taken minutes on every run of a page). A subprocess, so that a hang is bounded."""
    script = (
        "from accuracy_db.dashboard.palette import Categories\n"
        "names = [f'x{i}' for i in range(10000)] + [f'category {i}' for i in range(10000)]\n"
        "categories = Categories.of([(name, None) for name in names])\n"
        "print(len(categories.names), len(set(categories.initials.values())), categories.initial('category 7'))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["20000", "20000", "Category7"]  # C7 is category 70…79's too


def test_a_corpus_s_categories_are_worked_out_once_not_on_every_run_of_a_page(corpora_db, monkeypatch):
    worked_out = []
    of = Categories.of.__func__
    monkeypatch.setattr(Categories, "of", classmethod(lambda cls, rows: worked_out.append(rows) or of(cls, rows)))
    st.cache_data.clear()  # as a fresh server: the module's other tests have worked them out already
    at = opened_at(corpora_db, monkeypatch, "errors", corpus="weather")
    at.run()
    at.switch_page("app_pages/document.py").run()
    assert not at.exception, at.exception
    assert worked_out == [[("Wrong", "#D55E00"), ("Unsupported", None)]]


def test_source_data_becomes_tables_named_by_their_path():
    found, left_out = source_tables(json.dumps(TEXTS[0]["data"] | {"notes": ["a", None], "home": {"team": "x"}}))
    assert found == [
        ("data", [{"field": "city", "value": "Oslo"}, {"field": "temp", "value": "14"}]),
        ("data.hours", [{"hour": "9", "rain": "true"}, {"hour": "12", "rain": "false"}]),
        ("data.notes", [{"value": "a"}, {"value": None}]),
        ("data.home", [{"field": "team", "value": "x"}]),
    ]
    assert left_out == 0
    assert source_tables("not json") == ([("data", [{"field": "data", "value": "not json"}])], 0)
