"""The dashboard's pages, run by Streamlit's AppTest on databases built from the shared-task data.

Most tests use the example submissions (all of the train split). derived_db adds a test split with two
submissions cut from the test gold list, its NAME mistakes and its NUMBER mistakes, whose figures are known
without the scorer: recall 212/622 and 224/622, precision 1, and 622 - 212 - 224 = 186 gold mistakes that
both miss."""

from __future__ import annotations

import csv
import hashlib
import html
import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qsl

import accuracy_db.dashboard
import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest
import streamlit as st
from accuracy_db.dashboard import DB_ENV, data, first_views
from accuracy_db.dashboard.literal import literal
from hostile_names import (
    HOSTILE_NAMES,
    HOSTILE_TEAM,
    IMAGE_NAME,
    MARKUP_FRAGMENTS,
    REFUSED_NAME,
    TAG_NAME,
)
from hypothesis import given, settings, strategies
from markdown_it import MarkdownIt
from shared_data import DATA, EXAMPLES
from sklearn.metrics import roc_auc_score, roc_curve
from streamlit.testing.v1 import AppTest

from accuracy_db.cli.commands.dashboard import app_file, streamlit_command
from accuracy_db.cli.main import run
from accuracy_db.defaults import WARM_ENV
from accuracy_db.formatting import UNDEFINED, p_value_text
from accuracy_db.ingest.build import build
from accuracy_db.stats import ranking, resampling, significance
from accuracy_db.stats.intervals import FIGURES, Resampling
from accuracy_db.stats.validity import validity
from accuracy_db.store import database

APP = Path(accuracy_db.dashboard.__file__).parent / "app.py"


def examples_without_checker(tmp_path_factory) -> Path:
    """The shared-task database the pages are checked on: the example submissions alone, all of the train split, as
    the pages were written for. Built with --no-check: the box-score checker's list gives the test split a
    submission too, and the pages open on the test split first (tests/test_checker.py checks the list)."""
    path = tmp_path_factory.mktemp("no_check") / "accuracy.duckdb"
    build(DATA, path, EXAMPLES, check=False)
    return path


@pytest.fixture(scope="module")
def built_db(tmp_path_factory) -> Path:
    """The examples alone, without the box-score checker's list (examples_without_checker)."""
    return examples_without_checker(tmp_path_factory)


@pytest.fixture(autouse=True, scope="module")
def fresh_caches():
    """Streamlit's caches live as long as the process. The dashboard keys each cached result by the identity of its
    database file (path, inode, modification time), as a server shares them between its visitors: the tests of
    this module share them too, and start without those of another module."""
    st.cache_data.clear()
    st.cache_resource.clear()
    yield
    st.cache_data.clear()
    st.cache_resource.clear()


@pytest.fixture(scope="module")
def derived_db(tmp_path_factory) -> Path:
    """The shared-task data with two test-split submissions: the test gold list's NAME rows, with a metadata
    sidecar, and its NUMBER rows."""
    folder = tmp_path_factory.mktemp("derived")
    submissions = folder / "submissions"
    submissions.mkdir()
    with (DATA / "test_set" / "gsml.csv").open(newline="", encoding="utf-8") as stream:
        reader = csv.DictReader(stream)
        gold = list(reader)
    for name, category in (("names_only", "NAME"), ("numbers_only", "NUMBER")):
        with (submissions / f"{name}.csv").open("w", newline="", encoding="utf-8") as stream:
            writer = csv.DictWriter(stream, fieldnames=reader.fieldnames, quoting=csv.QUOTE_ALL)
            writer.writeheader()
            writer.writerows(row for row in gold if row["TYPE"] == category)
    metadata = {"team": "Team Names", "system": "name checker", "approach": "metric", "description": "NAME rows"}
    (submissions / "names_only.json").write_text(json.dumps(metadata))
    path = folder / "accuracy.duckdb"
    build(DATA, path, submissions, check=False)  # these two alone on the test split (no box-score checker's list)
    return path


def open_page(db: Path, page: str, monkeypatch) -> AppTest:
    """The dashboard on a database, at one page, after its first run."""
    monkeypatch.setenv(DB_ENV, str(db))
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.switch_page(f"app_pages/{page}.py").run()  # as a browser opens the page's address
    assert not at.exception, at.exception
    return at


def labelled(widgets, label: str):
    """The widget of a page with this label."""
    return next(widget for widget in widgets if widget.label == label)


def table(at: AppTest, key: str):
    """The rows of a table of the page (pages show tables in containers named by key), as pandas."""
    return at.get_by_key(key).dataframe[0].value


def chart(at: AppTest, key: str):
    """The Altair chart of a page in the container named by key: its Vega-Lite spec and its rows (as pandas)."""
    [element] = at.get_by_key(key).get("vega_lite_chart")
    [dataset] = element.proto.datasets
    return json.loads(element.proto.spec), pa.ipc.open_stream(dataset.data.data).read_pandas()


class Selected(dict):
    """A selection as Streamlit hands it to a page: a dict whose keys read as attributes too (event.selection.rows)."""

    def __getattr__(self, name: str):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def click_chart(at: AppTest, key: str, selection: dict) -> AppTest:
    """Rerun the page as the browser does after a click on the chart (in the container named by key) that reruns on
    selection: with the chart's selection set through its key in the session state, as AppTest has it (it has no
    call to click a chart)."""
    [element] = at.get_by_key(key).get("vega_lite_chart")
    at.session_state[element.key] = Selected(selection=Selected(selection))
    return at.run()


def select_rows(at: AppTest, key: str, rows: list[int]) -> AppTest:
    """Rerun the page as the browser does after a click on rows of a table (in the container named by key) that
    reruns on selection. The table's st.dataframe has no key (with one, a selection would outlive a change of its
    rows), which AppTest's session state needs: the selection goes in with the widgets' states instead, as the
    browser sends it (AppTest has no call to click a table's row)."""
    [element] = at.get_by_key(key).dataframe
    states = at._tree.get_widget_states()
    state = states.widgets.add()
    state.id = element.proto.id
    state.string_value = json.dumps({"selection": {"rows": rows, "columns": [], "cells": []}})
    return at._run(states)


def markdown(at: AppTest) -> str:
    return "\n".join(element.value for element in at.markdown)


def sql(db: Path, query: str) -> list[tuple]:
    con = database.open_existing(db)
    try:
        return con.execute(query).fetchall()
    finally:
        con.close()


# Leaderboard


def with_interval(value: float, bounds: list[float]) -> str:
    """A figure and its interval as the table shows them, formatted here on its own: 0.288 [0.26, 0.32]."""
    return f"{value:.3f} [{bounds[0]:.2f}, {bounds[1]:.2f}]"


def ranked(db: Path, split: str, scope: str) -> list[dict]:
    """The leaderboard with intervals and clusters, as `accuracy-db leaderboard --ci` computes it."""
    con = database.open_existing(db)
    try:
        return ranking.leaderboard(con, split, scope, Resampling(), 10_000)
    finally:
        con.close()


def test_leaderboard_ranks_the_gold_copies_above_the_example_submission(built_db, monkeypatch):
    at = open_page(built_db, "leaderboard", monkeypatch)
    assert labelled(at.selectbox, "Split").value == "train"  # the only split with submissions
    assert labelled(at.selectbox, "Scope").value == "ALL"
    board = table(at, "leaderboard")
    assert list(board["submission"]) == [
        "gsml_doc_based",
        "gsml_sent_based",
        "submission",
        "submission_doc_based",
        "submission_sent_based",
    ]
    assert list(board["rank"]) == [1, 1, 3, 3, 3]
    assert [f"{value:.3f}" for value in board["recall"]] == ["1.000", "1.000", "0.288", "0.288", "0.288"]
    assert [f"{value:.3f}" for value in board["precision"]] == ["1.000", "1.000", "0.613", "0.613", "0.613"]
    assert [f"{value:.3f}" for value in board["token_f1"]] == ["1.000", "1.000", "0.320", "0.320", "0.320"]
    # The gold copies are significantly better than the example submissions: two clusters.
    assert list(board["cluster"]) == [1, 1, 2, 2, 2]


def test_leaderboard_shows_the_intervals_and_clusters_of_the_command(built_db, monkeypatch):
    at = open_page(built_db, "leaderboard", monkeypatch)
    labelled(at.selectbox, "Scope").set_value("NUMBER").run()
    board = table(at, "leaderboard")
    expected = ranked(built_db, "train", "NUMBER")
    assert list(board["submission"]) == [row["submission"] for row in expected]
    assert list(board["cluster"]) == [row["cluster"] for row in expected]
    for figure in FIGURES:  # each figure and its interval's bounds, numbers in columns of their own
        assert list(board[figure]) == [row[figure] for row in expected]
        assert list(board[f"{figure}_low"]) == [row[f"{figure}_ci"][0] for row in expected]
        assert list(board[f"{figure}_high"]) == [row[f"{figure}_ci"][1] for row in expected]
    assert all(row["signature"].split("|")[4] == "scope:NUMBER" for row in expected)
    assert list(table(at, "signatures")["signature"]) == [row["signature"] for row in expected]


def test_leaderboard_chart_has_the_interval_of_each_submission_as_an_error_bar(built_db, monkeypatch):
    at = open_page(built_db, "leaderboard", monkeypatch)
    at.radio(key="board_figure").set_value("token_f1").run()
    spec, points = chart(at, "interval_chart")
    expected = ranked(built_db, "train", "ALL")
    assert list(points["submission"]) == [row["submission"] for row in expected]
    assert list(points["value"]) == [row["token_f1"] for row in expected]
    assert list(points["low"]) == [row["token_f1_ci"][0] for row in expected]
    assert list(points["high"]) == [row["token_f1_ci"][1] for row in expected]
    assert points["low"].iloc[2] < points["value"].iloc[2] < points["high"].iloc[2]
    whiskers, dots, undefined = spec["hconcat"][0]["layer"]
    assert (dots["mark"]["type"], dots["encoding"]["x"]["field"]) == ("circle", "value")
    assert whiskers["mark"]["type"] == "rule"
    assert (whiskers["encoding"]["x"]["field"], whiskers["encoding"]["x2"]["field"]) == ("low", "high")
    # an axis that fits the intervals, not one from 0; whole names, read across, in rank order; clusters coloured
    assert whiskers["encoding"]["x"]["scale"]["zero"] is False
    assert whiskers["encoding"]["y"]["field"] == "submission"
    assert whiskers["encoding"]["y"]["sort"] == [row["submission"] for row in expected]
    assert whiskers["encoding"]["color"]["field"] == "cluster"
    assert list(points["cluster"]) == [f"cluster {row['cluster']}" for row in expected]


def bootstrap_difference_of_recalls(db: Path, a: str, b: str, split: str) -> tuple[float, list[float]]:
    """Recall of a minus recall of b, and its 95% percentile interval over the 1,000 default bootstrap resamples of
    the split's texts, computed here with numpy from the per-text counts and the replicates' draws."""
    rows = sql(
        db,
        f"SELECT submission, matched, gold FROM text_statistics WHERE split = '{split}' AND scope = 'ALL'"
        f" AND submission IN ('{a}', '{b}') ORDER BY submission, text_id",
    )
    per_text = {name: np.array([(m, g) for s, m, g in rows if s == name], dtype=float) for name in (a, b)}
    texts = len(per_text[a])
    settings = Resampling()
    draws = resampling.bootstrap_counts(settings.seed, np.arange(1, settings.resamples + 1, dtype=np.uint64), texts)
    recall = {name: (draws @ counts[:, 0]) / (draws @ counts[:, 1]) for name, counts in per_text.items()}
    observed = {name: counts[:, 0].sum() / counts[:, 1].sum() for name, counts in per_text.items()}
    return observed[a] - observed[b], list(np.percentile(recall[a] - recall[b], [2.5, 97.5]))


def test_leaderboard_chart_gives_each_submissions_difference_from_the_best(derived_db, monkeypatch, capsys):
    """numbers_only (recall 224/622) is the best of the test split; names_only (212/622) is 12/622 below it, on the
    same texts: the interval of that difference is the numpy percentiles of the paired resamples' differences, and
    its p that of `accuracy-db compare`."""
    at = open_page(derived_db, "leaderboard", monkeypatch)
    spec, points = chart(at, "interval_chart")
    best, other = points.iloc[0], points.iloc[1]
    assert (best["submission"], other["submission"]) == ("numbers_only", "names_only")
    assert (best["difference"], best["p"]) == (0.0, "the best") and pd.isna(best["difference_low"])
    difference, (low, high) = bootstrap_difference_of_recalls(derived_db, "names_only", "numbers_only", "test")
    assert difference == pytest.approx(-12 / 622)
    assert other["difference"] == pytest.approx(difference)
    assert (other["difference_low"], other["difference_high"]) == (pytest.approx(low), pytest.approx(high))
    assert run(["compare", "names_only", "numbers_only", "--db", str(derived_db), "--format", "json"]) == 0
    compared = json.loads(capsys.readouterr().out)
    assert [other["difference_low"], other["difference_high"]] == pytest.approx(compared["difference_ci"])
    assert other["p"] == p_value_text(compared["p_value"], compared["trials"])
    _, differences = spec["hconcat"]
    no_difference, whiskers, dots, _ = differences["layer"]
    assert no_difference["encoding"]["x"] == {"datum": 0}  # the line of no difference
    assert (whiskers["encoding"]["x"]["field"], whiskers["encoding"]["x2"]["field"]) == (
        "difference_low",
        "difference_high",
    )
    assert dots["encoding"]["x"]["field"] == "difference"


def test_a_click_on_a_leaderboard_dot_leaves_its_row_in_the_table(built_db, monkeypatch):
    at = open_page(built_db, "leaderboard", monkeypatch)
    assert len(table(at, "leaderboard")) == 5
    at = click_chart(at, "interval_chart", {"submission": [{"submission": "submission_doc_based"}]})
    assert not at.exception, at.exception
    assert at.title[0].value == "Leaderboard"  # the table is filtered; a row opens the Errors browser
    assert list(table(at, "leaderboard")["submission"]) == ["submission_doc_based"]
    at = click_chart(at, "interval_chart", {"from_best": [{"submission": "gsml_sent_based"}]})
    assert list(table(at, "leaderboard")["submission"]) == ["gsml_sent_based"]  # a dot of the differences too
    at = click_chart(at, "interval_chart", {"submission": [], "from_best": []})  # the chart's background
    assert len(table(at, "leaderboard")) == 5


def test_leaderboard_ranks_under_another_scheme_as_the_command_does(built_db, monkeypatch, capsys):
    at = open_page(built_db, "leaderboard", monkeypatch)
    labelled(at.selectbox, "Scope").set_value("NUMBER").run()
    assert labelled(at.selectbox, "Match scheme").value is None  # nothing computed until a scheme is chosen
    labelled(at.selectbox, "Match scheme").set_value("partial").run()
    shown = table(at, "scheme_leaderboard")
    args = ["leaderboard", "--db", str(built_db), "--split", "train", "--scope", "NUMBER", "--scheme", "partial"]
    assert run(args + ["--format", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert list(shown["submission"]) == [row["submission"] for row in printed]
    for column in ("rank", "matched", "gold_total", "submitted_total", "correct", "partial", "spurious"):
        assert list(shown[column]) == [row[column] for row in printed]
    assert list(shown["recall"]) == [row["recall"] for row in printed]
    assert all("scheme:partial" in row["signature"] for row in printed)
    assert list(table(at, "scheme_signatures")["signature"]) == [row["signature"] for row in printed]


def test_leaderboard_shows_a_submissions_figures_category_by_category(built_db, monkeypatch):
    at = open_page(built_db, "leaderboard", monkeypatch)
    labelled(at.selectbox, "Submission").set_value("submission").run()
    scores = table(at, "category_scores")
    assert list(scores["scope"]) == ["ALL", "NAME", "NUMBER", "WORD", "CONTEXT", "NOT_CHECKABLE", "OTHER"]
    name = scores[scores["scope"] == "NAME"].iloc[0]
    assert (name["matched"], name["gold_total"], name["submitted_total"]) == (160, 317, 237)
    assert round(name["recall"], 3) == 0.505
    assert list(scores[scores["scope"] == "WORD"]["precision"]) == [UNDEFINED]  # no WORD mistake submitted
    assert scores[scores["scope"] == "NAME"].iloc[0]["precision"] == f"{160 / 237:.3f}"  # a figure, as text beside it


def test_leaderboard_of_the_test_split_with_metadata(derived_db, monkeypatch):
    at = open_page(derived_db, "leaderboard", monkeypatch)
    assert labelled(at.selectbox, "Split").options == ["test"]  # the only split with submissions
    board = table(at, "leaderboard")
    assert list(board["submission"]) == ["numbers_only", "names_only"]
    assert list(board["recall"]) == pytest.approx([224 / 622, 212 / 622])
    assert list(board["precision"]) == list(board["precision_low"]) == list(board["precision_high"]) == [1.0] * 2
    assert list(board["team"]) == ["–", "Team Names"]  # NULL shown as – , as everywhere
    assert list(board["approach"]) == ["–", "metric"]


def test_a_zero_is_drawn_and_an_undefined_figure_says_so(derived_db, monkeypatch):
    """names_only finds every gold NAME mistake, numbers_only lists none: its NAME recall is 0.0 and its NAME
    precision undefined (nothing submitted to divide by)."""
    at = open_page(derived_db, "leaderboard", monkeypatch)
    labelled(at.selectbox, "Scope").set_value("NAME").run()
    at.radio(key="board_figure").set_value("recall").run()
    spec, points = chart(at, "interval_chart")
    assert dict(zip(points["submission"], points["value"])) == {"names_only": 1.0, "numbers_only": 0.0}
    _, _, undefined = spec["hconcat"][0]["layer"]  # a 0.0 is a dot like any other figure
    assert undefined["mark"]["type"] == "text" and undefined["mark"]["text"] == "undefined"
    assert undefined["transform"] == [{"filter": "!isValid(datum['value'])"}]
    spec, bars = chart(at, "category_chart")  # the per-category bars: a 0.0 is a tick on the axis
    _, zeros, undefined, _ = spec["spec"]["layer"]
    assert zeros["mark"]["type"] == "tick" and zeros["transform"] == [{"filter": "datum['value'] === 0"}]
    assert undefined["mark"]["type"] == "text" and undefined["mark"]["text"] == "undefined"
    name = bars[bars["scope"] == "NAME"].set_index(["submission", "figure"])["value"]
    assert name[("numbers_only", "recall")] == 0.0 and pd.isna(name[("numbers_only", "precision")])
    at.radio(key="board_figure").set_value("precision").run()
    _, points = chart(at, "interval_chart")
    assert points.set_index("submission")["value"].isna().to_dict() == {"names_only": False, "numbers_only": True}
    board = table(at, "leaderboard").set_index("submission")  # an undefined figure: an empty cell, said above it
    assert board.loc["names_only", ["precision", "precision_low", "precision_high"]].tolist() == [1.0] * 3
    assert board.loc["numbers_only", ["precision", "precision_low", "precision_high"]].isna().all()


def test_a_leaderboard_row_opens_the_errors_of_that_submission_in_its_scope(built_db, monkeypatch):
    at = open_page(built_db, "leaderboard", monkeypatch)
    labelled(at.selectbox, "Scope").set_value("NUMBER").run()
    board = table(at, "leaderboard")
    at = select_rows(at, "leaderboard", [list(board["submission"]).index("submission")])
    assert not at.exception, at.exception
    assert at.title[0].value == "Errors browser"
    assert labelled(at.multiselect, "Submissions").value == ["submission"]
    assert labelled(at.multiselect, "Categories").value == ["NUMBER"]
    assert labelled(at.multiselect, "Outcomes").value == ["missed", "false_alarm"]
    assert labelled(at.radio, "Matching").value == "within each category"  # as a category's scores match
    [(gold, matched, submitted)] = sql(
        built_db,
        "SELECT gold_total, matched, submitted_total FROM scores WHERE submission = 'submission' AND scope = 'NUMBER'",
    )
    assert at.subheader[0].value == f"{(gold - matched) + (submitted - matched)} mistakes"


@pytest.mark.parametrize(("figure", "outcomes"), [("recall", ["missed"]), ("precision", ["false_alarm"])])
def test_a_category_bar_opens_the_errors_its_figure_counts(built_db, monkeypatch, figure, outcomes):
    """A recall bar opens the gold mistakes the submission missed in the category, a precision bar its false alarms."""
    at = open_page(built_db, "leaderboard", monkeypatch)
    spec, bars = chart(at, "category_chart")  # a small chart per category, recall and precision side by side
    assert spec["facet"]["column"]["field"] == "scope"
    name = bars[(bars["submission"] == "submission") & (bars["scope"] == "NAME")]
    assert dict(zip(name["figure"], name["value"].round(3))) == {
        "recall": round(160 / 317, 3),
        "precision": round(160 / 237, 3),
    }
    at = click_chart(at, "category_chart", {"bar": [{"submission": "submission", "scope": "NAME", "figure": figure}]})
    assert not at.exception, at.exception
    assert at.title[0].value == "Errors browser"
    assert labelled(at.multiselect, "Categories").value == ["NAME"]
    assert labelled(at.multiselect, "Outcomes").value == outcomes
    [(gold, matched, submitted)] = sql(
        built_db,
        "SELECT gold_total, matched, submitted_total FROM scores WHERE submission = 'submission' AND scope = 'NAME'",
    )
    expected = gold - matched if figure == "recall" else submitted - matched
    assert at.subheader[0].value == f"{expected} mistakes"


def test_each_category_bar_has_the_interval_of_the_leaderboard_in_that_scope(built_db, monkeypatch):
    """The per-category bars' intervals are those `leaderboard --ci --scope CATEGORY` gives (the same resamples)."""
    at = open_page(built_db, "leaderboard", monkeypatch)
    spec, bars = chart(at, "category_chart")
    *_, whiskers = spec["spec"]["layer"]
    assert (whiskers["mark"]["type"], whiskers["encoding"]["y"]["field"], whiskers["encoding"]["y2"]["field"]) == (
        "rule",
        "low",
        "high",
    )
    for scope in ("NAME", "NUMBER"):
        shown = bars[bars["scope"] == scope].set_index(["submission", "figure"])
        for row in ranked(built_db, "train", scope):
            for figure in ("recall", "precision"):
                assert list(shown.loc[(row["submission"], figure), ["low", "high"]]) == row[f"{figure}_ci"]
    name = bars[(bars["submission"] == "submission") & (bars["scope"] == "NAME")].iloc[0]
    assert name["low"] < name["value"] < name["high"]


def test_the_scope_and_submission_chosen_are_kept_on_another_page(built_db, monkeypatch):
    at = open_page(built_db, "leaderboard", monkeypatch)
    labelled(at.selectbox, "Scope").set_value("NUMBER").run()
    labelled(at.selectbox, "Submission").set_value("submission_sent_based").run()
    assert at.query_params["scope"] == "NUMBER" and at.query_params["split"] == "train"
    at.query_params.clear()  # as the sidebar opens another page
    at.switch_page("app_pages/validity.py").run()
    assert not at.exception, at.exception
    assert labelled(at.selectbox, "Scope").value == "NUMBER"
    assert labelled(at.selectbox, "Submission").value == "submission_sent_based"
    assert {name: at.query_params[name] for name in ("split", "scope", "submission")} == {
        "split": "train",
        "scope": "NUMBER",
        "submission": "submission_sent_based",
    }


def test_the_scope_chosen_elsewhere_applies_to_the_errors_browser(built_db, monkeypatch):
    at = open_page(built_db, "leaderboard", monkeypatch)
    labelled(at.selectbox, "Scope").set_value("NUMBER").run()
    at.query_params.clear()  # as the sidebar opens another page
    at.switch_page("app_pages/errors.py").run()
    assert not at.exception, at.exception
    assert labelled(at.multiselect, "Categories").value == ["NUMBER"]
    assert labelled(at.radio, "Matching").value == "within each category"  # as the NUMBER scores count
    [(expected,)] = sql(
        built_db, "SELECT sum(gold_total + submitted_total - matched) FROM scores WHERE scope = 'NUMBER'"
    )
    assert at.subheader[0].value == f"{expected} mistakes"
    assert set(table(at, "error_rows")["category"]) == {"NUMBER"}


# Significance


def verdict(difference: float, p: float) -> str:
    """A significance cell's band, worked out here on its own: who is higher (A, the row, when A − B > 0), at
    p < 0.01 or p < 0.05, else not significant."""
    if p >= 0.05 or difference == 0:
        return "not significant (p ≥ 0.05)"
    return ("A" if difference > 0 else "B") + " higher, p < " + ("0.01" if p < 0.01 else "0.05")


def test_significance_matrix_has_the_p_value_of_every_ordered_pair(built_db, monkeypatch, capsys):
    at = open_page(built_db, "significance", monkeypatch)
    labelled(at.selectbox, "Figure").set_value("token_precision").run()
    spec, cells = chart(at, "significance_matrix")
    names = [row["submission"] for row in ranked(built_db, "train", "ALL")]
    con = database.open_existing(built_db)
    try:
        expected = significance.pairwise(con, names, "ALL", "token_precision", 10_000, Resampling(), interval=True)
    finally:
        con.close()
    assert len(cells) == len(names) * (len(names) - 1) == 20  # one cell per ordered pair, none on the diagonal
    assert sorted(zip(cells["a"], cells["b"])) == sorted((a, b) for a in names for b in names if a != b)
    # each p-value written as everywhere: at the floor of the 10,000 trials "< 0.0001" (both example lists against
    # the gold copies), else three significant digits; each difference with its interval, written here on its own
    written = [
        {k: row[k] for k in ("a", "b", "a_value", "b_value", "difference", "p_value", "trials")}
        | {
            "shown_difference": f"{row['difference']:+.3f} [{row['difference_ci'][0]:+.2f}, "
            f"{row['difference_ci'][1]:+.2f}]",
            "difference_low": row["difference_ci"][0],
            "difference_high": row["difference_ci"][1],
            "verdict": verdict(row["difference"], row["p_value"]),
            "p": p_value_text(row["p_value"], row["trials"]),
        }
        for row in expected
    ]
    assert cells.drop(columns="difference_ci").to_dict("records") == written
    assert [list(bounds) for bounds in cells["difference_ci"]] == [row["difference_ci"] for row in expected]
    assert "< 0.0001" in set(cells["p"])
    rect, difference, text = spec["layer"]
    assert (rect["mark"]["type"], rect["encoding"]["color"]["field"]) == ("rect", "verdict")
    assert (text["mark"]["type"], text["encoding"]["text"]["field"]) == ("text", "p")
    assert difference["encoding"]["text"]["field"] == "shown_difference"
    # the table: the difference and its interval's bounds as numbers, the largest difference first
    columns = ("a", "b", "a_value", "b_value", "difference", "difference_low", "difference_high", "p")
    shown = sorted(([row[k] for k in columns] for row in written), key=lambda row: -row[4])
    assert table(at, "pairwise")[list(columns)].values.tolist() == shown
    # A cell's interval is that of `compare A B` for its pair.
    args = ["compare", "submission", "gsml_doc_based", "--db", str(built_db), "--metric", "token_precision"]
    assert run(args + ["--format", "json"]) == 0
    compared = json.loads(capsys.readouterr().out)
    cell = cells[(cells["a"] == "submission") & (cells["b"] == "gsml_doc_based")].iloc[0]
    assert list(cell["difference_ci"]) == compared["difference_ci"]
    assert compared["difference_ci"][0] < cell["difference"] < compared["difference_ci"][1] < 0


def test_a_significance_cell_gives_the_pair_as_compare_does_and_links_to_their_errors(built_db, monkeypatch):
    at = open_page(built_db, "significance", monkeypatch)
    labelled(at.selectbox, "Scope").set_value("NAME").run()
    at = click_chart(at, "significance_matrix", {"pair": [{"a": "submission", "b": "gsml_sent_based"}]})
    assert not at.exception, at.exception
    pair = at.get_by_key("significance_pair")
    [command] = pair.get("code")
    assert command.value == (
        "accuracy-db compare submission gsml_sent_based --split train --scope NAME --scheme shared-task --metric recall"
    )
    assert markdown(at).startswith(
        f"**submission** against **{literal('gsml_sent_based')}**: recall 0.505 against 1.000, A − B -0.495 ["
    )
    page, address = same_tab_link(pair.get("page_link"))
    assert page == "errors"
    [link] = pair.get("page_link")
    assert [value for name, value in parse_qsl(link.proto.query_string) if name == "submission"] == [
        "submission",
        "gsml_sent_based",
    ]
    assert address["category"] == "NAME" and address["outcome"] == "missed"
    assert address["matching"] == "within each category"


def test_significance_matrix_in_a_category_of_the_test_split(derived_db, monkeypatch):
    at = open_page(derived_db, "significance", monkeypatch)
    labelled(at.selectbox, "Scope").set_value("NAME").run()
    _, cells = chart(at, "significance_matrix")
    # names_only finds every gold NAME mistake and numbers_only none: the largest difference there is.
    [(a, b, a_value, b_value)] = cells.head(1)[["a", "b", "a_value", "b_value"]].itertuples(index=False)
    assert (a, b, a_value, b_value) == ("names_only", "numbers_only", 1.0, 0.0)
    assert cells["p_value"].max() < 0.05


# Validity


def test_validity_has_a_scatter_per_category_with_equal_axes(built_db, monkeypatch):
    at = open_page(built_db, "validity", monkeypatch)
    labelled(at.selectbox, "Submission").set_value("submission").run()
    spec, points = chart(at, "validity_scatter")
    scopes = ["ALL", "NAME", "NUMBER", "WORD", "CONTEXT", "NOT_CHECKABLE", "OTHER"]
    assert [scatter["title"] for scatter in spec["concat"]] == scopes  # small multiples, one per scope
    texts = [text_id for (text_id,) in sql(built_db, "SELECT text_id FROM texts WHERE split = 'train' ORDER BY 1")]
    with (EXAMPLES / "submission.csv").open(newline="", encoding="utf-8") as stream:
        submitted = [(row["TEXT_ID"], row["TYPE"]) for row in csv.DictReader(stream)]
    with (DATA / "gsml.csv").open(newline="", encoding="utf-8") as stream:
        gold = [(row["TEXT_ID"], row["TYPE"]) for row in csv.DictReader(stream)]
    for scope, scatter in zip(scopes, spec["concat"]):
        of_scope = points[points["scope"] == scope]
        assert list(of_scope["text_id"]) == texts  # every text, those without mistakes too
        for row in of_scope.itertuples():
            counted = [
                sum(1 for text, category in rows if text == f"{row.text_id}.txt" and scope in ("ALL", category))
                for rows in (gold, submitted)
            ]
            assert [row.gold, row.submitted] == counted
        dashed, circles = scatter["layer"]
        assert circles["transform"] == [
            {"filter": f"(datum.scope === '{scope}')"},
            # texts with the same counts share a point, sized by how many they are
            {"joinaggregate": [{"op": "count", "as": "texts_here"}], "groupby": ["submission", "gold", "submitted"]},
        ]
        assert circles["encoding"]["size"]["field"] == "texts_here"
        assert circles["encoding"]["x"]["axis"] == circles["encoding"]["y"]["axis"] == {"format": "d", "tickMinStep": 1}
        assert (circles["encoding"]["x"]["field"], circles["encoding"]["y"]["field"]) == ("gold", "submitted")
        assert {"field": "gold", "title": "gold mistakes", "type": "quantitative"} in circles["encoding"]["tooltip"]
        most = max(of_scope["gold"].max(), of_scope["submitted"].max(), 1)
        assert circles["encoding"]["x"]["scale"]["domain"] == circles["encoding"]["y"]["scale"]["domain"] == [0, most]
        assert scatter["width"] == scatter["height"]  # equal axes: y = x is the diagonal
        assert dashed["encoding"]["x"]["scale"]["domain"] == [0, most]


def test_validity_overlays_the_submissions_chosen(built_db, monkeypatch):
    at = open_page(built_db, "validity", monkeypatch)
    labelled(at.selectbox, "Submission").set_value("submission").run()
    labelled(at.multiselect, "Submissions shown").set_value(["submission", "gsml_doc_based"]).run()
    _, points = chart(at, "validity_scatter")
    assert set(points["submission"]) == {"submission", "gsml_doc_based"}
    copy = points[points["submission"] == "gsml_doc_based"]
    assert (copy["gold"] == copy["submitted"]).all() and len(copy) == 60 * 7  # a copy of the gold list: on y = x
    theirs = points[points["submission"] == "submission"].set_index(["scope", "text_id"])
    assert (theirs["gold"] == copy.set_index(["scope", "text_id"])["gold"]).all()  # the same texts' gold counts


def test_validity_figures_write_p_values_as_the_command_line(built_db, monkeypatch):
    at = open_page(built_db, "validity", monkeypatch)
    labelled(at.selectbox, "Submission").set_value("submission").run()
    labelled(at.selectbox, "Scope").set_value("WORD").run()
    con = database.open_existing(built_db)
    try:
        expected = validity(con, "submission", ["WORD"], ["text"], "train", Resampling())
    finally:
        con.close()
    shown = table(at, "validity_figures")
    assert list(shown["p-value"]) == [p_value_text(row["p_value"]) for row in expected] == [UNDEFINED] * 3
    labelled(at.selectbox, "Scope").set_value("ALL").run()
    assert list(table(at, "validity_figures")["p-value"]) == ["< 0.0001"] * 3  # the CLI's


def test_clicking_a_text_in_the_scatter_opens_it_in_the_document_view(built_db, monkeypatch):
    at = open_page(built_db, "validity", monkeypatch)
    labelled(at.selectbox, "Submission").set_value("submission").run()
    click_chart(at, "validity_scatter", {"text_1": [{"text_id": "S005", "submission": "submission"}]})  # in NAME
    assert not at.exception, at.exception
    assert at.selectbox(key="text").value == "S005"
    assert labelled(at.selectbox, "Submission").value == "submission"
    assert at.markdown[0].value.startswith("**S005**")


# Metrics


def metrics_page(db: Path, monkeypatch, **address: str) -> AppTest:
    """The Metrics page opened at an address (/metrics?split=…&scope=…&metric=…), as a shared link opens it."""
    monkeypatch.setenv(DB_ENV, str(db))
    at = AppTest.from_file(str(APP), default_timeout=120)
    for name, value in address.items():
        at.query_params[name] = value
    at.switch_page("app_pages/metrics.py").run()
    assert not at.exception, at.exception
    return at


def mistakes_per_text(path: Path, category: str) -> dict[str, int]:
    """The rows of a mistake list of one category per text (S001, not S001.txt), read with the csv module."""
    with path.open(newline="", encoding="utf-8") as stream:
        return dict(
            Counter(row["TEXT_ID"].removesuffix(".txt") for row in csv.DictReader(stream) if row["TYPE"] == category)
        )


def shown_cell(value) -> str:
    """A cell of a page's table as text: a column with a NULL is text throughout, one without keeps its numbers."""
    return value if isinstance(value, str) else f"{value:g}"


def captions(at: AppTest) -> str:
    return "\n".join(element.value for element in at.caption)


def has_key(at: AppTest, key: str) -> bool:
    """Whether the page shows an element or a container named by key."""
    try:
        at.get_by_key(key)
    except KeyError:
        return False
    return True


def test_metrics_table_is_the_commands_for_the_split_and_scope(built_db, monkeypatch, capsys):
    at = metrics_page(built_db, monkeypatch, split="train", scope="NUMBER")
    assert (labelled(at.selectbox, "Split").value, labelled(at.selectbox, "Scope").value) == ("train", "NUMBER")
    args = ["metrics", "--db", str(built_db), "--split", "train", "--scope", "NUMBER"]
    assert run(args + ["--format", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert {row["level"] for row in printed} == {"text", "system"}
    for level in ("text", "system"):
        shown = table(at, f"metrics_{level}")
        expected = [row for row in printed if row["level"] == level]
        # sorted by the figure: measure by measure, as the command orders them, the highest value first, an
        # undefined one last (the system level was sorted by the metrics' names)
        measures = list(dict.fromkeys(row["measure"] for row in expected))
        expected.sort(key=lambda r: (measures.index(r["measure"]), r["value"] is None, -(r["value"] or 0)))
        assert list(shown["measure"]) == [row["measure"] for row in expected]
        assert list(shown["metric"]) == [row["metric"] for row in expected]
        for column, of_row in (
            ("value", lambda row: row["value"]),
            ("value_low", lambda row: row["ci"] and row["ci"][0]),
            ("value_high", lambda row: row["ci"] and row["ci"][1]),
        ):
            assert [None if pd.isna(v) else v for v in shown[column]] == [of_row(row) for row in expected]
        assert [shown_cell(rank) for rank in shown["rank"]] == [
            "–" if r["rank"] is None else str(r["rank"]) for r in expected
        ]
        assert list(shown["n"]) == [row["n"] for row in expected]
        assert list(shown["note"]) == [row["reason"] or "–" for row in expected]
    text_level = [row for row in printed if row["level"] == "text"]
    assert {row["rank"] for row in text_level if row["value"] is not None} >= {1, 2}  # clusters, not one rank
    assert all("|trials:1000" in row["signature"] for row in printed)  # the command's default trials, signed
    assert set(table(at, "metric_signatures")["signature"]) == {row["signature"] for row in printed}


def test_metrics_scatter_and_roc_curve_are_the_counts_per_text(built_db, monkeypatch):
    """The example submission as a metric in scope NUMBER of the train split: its points are the counts of the
    files. In CONTEXT, where 27 of the 60 texts have a gold mistake, the ROC curves of length and of BLEU are
    scikit-learn's."""
    at = metrics_page(built_db, monkeypatch, split="train", scope="NUMBER", metric="submission")
    assert labelled(at.selectbox, "Metric").value == "submission"
    assert dict(at.query_params) == {
        "corpus": "shared-task",
        "split": "train",
        "scope": "NUMBER",
        "metric": "submission",
    }
    spec, points = chart(at, "metric_scatter")
    texts = [text_id for (text_id,) in sql(built_db, "SELECT text_id FROM texts WHERE split = 'train' ORDER BY 1")]
    submitted = mistakes_per_text(EXAMPLES / "submission.csv", "NUMBER")
    with (DATA.parent / "nlg_systems.csv").open(newline="", encoding="utf-8") as stream:
        systems = {row["TEXT_ID"]: row["SYSTEM"] for row in csv.DictReader(stream)}
    assert list(points["text_id"]) == texts
    assert list(points["score"]) == [submitted.get(text_id, 0) for text_id in texts]
    assert list(points["gold"]) == [mistakes_per_text(DATA / "gsml.csv", "NUMBER").get(t, 0) for t in texts]
    assert list(points["system"]) == [systems.get(text_id, "not known") for text_id in texts]
    assert {"field": "text_id", "type": "nominal"} in spec["encoding"]["tooltip"]
    assert (spec["encoding"]["x"]["field"], spec["encoding"]["y"]["field"]) == ("gold", "score")
    assert spec["encoding"]["color"]["field"] == "system"

    labelled(at.selectbox, "Scope").set_value("CONTEXT").run()
    positive = [mistakes_per_text(DATA / "gsml.csv", "CONTEXT").get(text_id, 0) > 0 for text_id in texts]
    assert 0 < sum(positive) < len(texts)  # both classes
    for metric, sign in (("length", 1), ("bleu", -1)):  # longer is worse; a higher BLEU is better
        labelled(at.selectbox, "Metric").set_value(metric).run()
        _, points = chart(at, "metric_scatter")
        assert list(points["text_id"]) == texts  # BLEU scores every text: each has its game's reference
        spec, curve = chart(at, "metric_roc")
        false_positive_rate, true_positive_rate, thresholds = roc_curve(
            positive, sign * points["score"], drop_intermediate=False
        )
        assert len(curve) > 10  # a point per distinct score
        assert list(curve["false_positive_rate"]) == pytest.approx(list(false_positive_rate))
        assert list(curve["true_positive_rate"]) == pytest.approx(list(true_positive_rate))
        assert list(curve["threshold"][1:]) == pytest.approx(list(sign * thresholds[1:]))
        area = roc_auc_score(positive, sign * points["score"])
        assert f"ROC AUC {area:.3f} [" in captions(at)
        assert dict(at.query_params) == {
            "corpus": "shared-task",
            "split": "train",
            "scope": "CONTEXT",
            "metric": metric,
        }


def test_metrics_say_why_there_is_no_roc_curve_and_no_system_level(built_db, monkeypatch):
    """On the test split every text has a gold mistake, and no text's system is known (nlg_systems.csv names
    train texts only)."""
    at = metrics_page(built_db, monkeypatch, split="test")
    assert (labelled(at.selectbox, "Split").value, labelled(at.selectbox, "Scope").value) == ("test", "ALL")
    assert labelled(at.selectbox, "Metric").options == ["length", "bleu", "chrf"]  # in the order of their Pearson
    infos = [element.value for element in at.info]
    assert "Nothing to measure at the system level: no text's system is known (nlg_systems)." in infos
    assert "No ROC curve in scope ALL: every text has a gold mistake." in infos
    assert not has_key(at, "metric_roc")
    assert has_key(at, "metric_scatter")


def same_tab_link(elements) -> tuple[str, dict[str, str]]:
    """The one page link among elements, which opens in the same tab (keeping the session): its page and the
    parameters of its address."""
    [link] = [element.proto for element in elements]
    assert not link.external
    return link.page, dict(parse_qsl(link.query_string))


def test_the_leaderboard_links_to_the_metrics_of_its_split_and_scope(built_db, monkeypatch):
    at = open_page(built_db, "leaderboard", monkeypatch)
    labelled(at.selectbox, "Scope").set_value("NUMBER").run()
    page, address = same_tab_link(at.get("page_link"))
    assert page == "metrics"  # the page's address, /metrics
    # the choices the pages share: the leaderboard's split and scope, and its submission of the category table
    assert address == {
        "corpus": "shared-task",
        "split": "train",
        "scope": "NUMBER",
        "submission": "submission",  # the best-ranked that is not a copy of the gold list
    }


# Difficulty


def test_recall_by_found_by_k_and_by_annotators(built_db, monkeypatch):
    at = open_page(built_db, "difficulty", monkeypatch)
    _, found_by = chart(at, "found_by_chart")
    assert len(found_by) == 5 * 2  # five submissions, two levels each
    example = found_by[found_by["submission"] == "submission"].set_index("level")
    # The two gold copies find all 1214 gold mistakes; the three example copies the same 350 (the docs' ALL
    # row): so 350 mistakes are found by all five, the other 864 by the gold copies alone.
    assert example.loc["5", ["gold", "matched"]].tolist() == [350, 350]
    assert example.loc["2", ["gold", "matched"]].tolist() == [1214 - 350, 0]
    _, annotators = chart(at, "annotators_chart")
    example = annotators[annotators["submission"] == "submission"].set_index("level")
    assert example.loc["3", ["gold", "matched"]].tolist() == [989, 303]  # the figures of `accuracy-db difficulty`
    assert example.loc["2", ["gold", "matched"]].tolist() == [225, 47]
    assert example["recall"].tolist() == [303 / 989, 47 / 225]
    assert set(annotators["level"]) == {"3", "2"}  # every gold mistake of train is in the curation exports


def test_a_difficulty_bar_lists_its_gold_mistakes_and_a_row_opens_its_text(built_db, monkeypatch):
    at = open_page(built_db, "difficulty", monkeypatch)
    at = click_chart(at, "annotators_chart", {"bar": [{"submission": "submission", "level": "2"}]})
    assert not at.exception, at.exception
    rows = table(at, "annotators_mistakes")
    assert (len(rows), int(rows["found"].sum())) == (225, 47)  # as the bar's gold and matched above
    expected = sql(
        built_db,
        "SELECT text_id, count(*) FROM gold_mistake_difficulty WHERE split = 'train' AND annotators = 2 GROUP BY 1",
    )
    assert rows["text_id"].value_counts().to_dict() == dict(expected)
    first = rows["text_id"].iloc[0]
    at = select_rows(at, "annotators_mistakes", [0])
    assert not at.exception, at.exception
    assert at.title[0].value == "Document view"
    assert at.selectbox(key="text").value == first
    assert labelled(at.selectbox, "Submission").value == "submission"


# Errors browser


def test_filtering_on_name_leaves_only_name_rows(built_db, monkeypatch):
    at = open_page(built_db, "errors", monkeypatch)
    labelled(at.multiselect, "Categories").set_value(["NAME"]).run()
    rows = table(at, "error_rows")
    assert len(rows) == 50  # the first page
    assert set(rows["category"]) == {"NAME"}
    # Every matched, missed and falsely alarmed NAME mistake of the five submissions, as the NAME scores count them.
    [(expected,)] = sql(built_db, "SELECT sum(gold_total + submitted_total - matched) FROM scores WHERE scope = 'NAME'")
    assert at.subheader[0].value == f"{expected} mistakes"


def test_errors_of_one_submission_by_outcome(built_db, monkeypatch):
    at = open_page(built_db, "errors", monkeypatch)
    labelled(at.multiselect, "Submissions").set_value(["submission"])
    labelled(at.multiselect, "Outcomes").set_value(["false_alarm"]).run()
    rows = table(at, "error_rows")
    assert set(rows["outcome"]) == {"false alarm"}  # named as the filter names it
    assert set(rows["submission"]) == {"submission"}
    # Within each category, as the evaluate example's NAME and NUMBER rows (docs/scoring.md) count them: submitted - matched.
    assert at.subheader[0].value == f"{(237 - 160) + (334 - 154)} mistakes"
    labelled(at.radio, "Matching").set_value("across categories").run()
    # Across categories, as its ALL row counts them: a NAME mistake that overlaps a gold NUMBER one matches it.
    assert at.subheader[0].value == f"{571 - 350} mistakes"


def test_errors_show_the_marked_tokens_in_context(built_db, monkeypatch):
    at = open_page(built_db, "errors", monkeypatch)
    labelled(at.multiselect, "Submissions").set_value(["submission"])
    labelled(at.multiselect, "Texts").set_value(["S001"]).run()
    rows = table(at, "error_rows")
    wednesday = rows[(rows["marked"] == "Wednesday") & (rows["outcome"] == "matched")].iloc[0]
    assert wednesday["in_context"] == ", at TD Garden on [Wednesday] . The Celtics ( 32"
    assert wednesday["correction"] == "Friday"
    assert wednesday["matched_category"] == "NAME"
    assert set(rows["text_id"]) == {"S001"}
    assert labelled(at.get("download_button"), "Download these rows as CSV") is not None


def outcome_rows(db: Path, split: str, within_category: bool) -> list[dict]:
    """The rows of the errors browser, unfiltered, straight from mistake_outcomes."""
    con = database.open_existing(db)
    try:
        return (
            con.execute(
                f"""
            SELECT submission, text_id, outcome, tokens, correction, comment FROM mistake_outcomes
            WHERE split = '{split}' AND scope = {"category" if within_category else "'ALL'"}
                AND NOT (side = 'submitted' AND outcome = 'matched')
            """
            )
            .fetchdf()
            .to_dict("records")
        )
    finally:
        con.close()


@pytest.mark.parametrize("search", ["FRIDAY", "Celtics", "%", "_", "'; DROP TABLE mistakes; --", "[x]"])
def test_errors_search_finds_the_text_in_tokens_corrections_and_comments(built_db, monkeypatch, search):
    at = open_page(built_db, "errors", monkeypatch)
    at.text_input(key="error_search").set_value(search).run()
    assert not at.exception, at.exception

    def has(value) -> bool:
        return isinstance(value, str) and search.lower() in value.lower()

    expected = [
        row
        for row in outcome_rows(built_db, "train", True)
        if any(map(has, map(row.get, ("tokens", "correction", "comment"))))
    ]
    assert at.subheader[0].value == f"{len(expected)} mistakes"
    rows = table(at, "error_rows")
    assert len(rows) == min(50, len(expected))
    assert at.query_params["search"] == search
    if search in ("FRIDAY", "Celtics"):
        assert expected  # the search finds something, in any case


def test_errors_filters_live_in_the_address(built_db, monkeypatch):
    at = open_page(built_db, "errors", monkeypatch)
    labelled(at.multiselect, "Categories").set_value(["NAME", "WORD"])
    labelled(at.multiselect, "Outcomes").set_value(["missed"])
    labelled(at.multiselect, "Texts").set_value(["S001", "S002"])
    labelled(at.radio, "Matching").set_value("across categories").run()
    total = at.subheader[0].value
    address = dict(at.query_params)
    assert address == {
        "corpus": "shared-task",
        "split": "train",
        "matching": "across categories",
        "category": ["NAME", "WORD"],
        "outcome": "missed",
        "text": ["S001", "S002"],
    }
    # The same address in another session opens the same view.
    st.cache_data.clear()
    shared = AppTest.from_file(str(APP), default_timeout=60)
    shared.query_params.update(address)
    shared.switch_page("app_pages/errors.py").run()
    assert not shared.exception, shared.exception
    assert labelled(shared.multiselect, "Categories").value == ["NAME", "WORD"]
    assert labelled(shared.multiselect, "Texts").value == ["S001", "S002"]
    assert labelled(shared.radio, "Matching").value == "across categories"
    assert shared.subheader[0].value == total


def test_a_clicked_error_row_opens_its_detail_with_a_link_to_its_document_view(built_db, monkeypatch):
    at = open_page(built_db, "errors", monkeypatch)
    labelled(at.multiselect, "Submissions").set_value(["submission"])
    labelled(at.multiselect, "Texts").set_value(["S001"]).run()
    rows = table(at, "error_rows")
    number = next(i for i, row in enumerate(rows.itertuples()) if row.marked == "Wednesday")
    at = select_rows(at, "error_rows", [number])
    detail = at.get_by_key("error_detail")
    # above the table, seen at once (it came under the 50 rows, some 1,700 px lower)
    keys = [getattr(node, "key", None) for node in at._tree]
    assert keys.index("error_detail") < keys.index("error_rows")
    shown = [element.value for element in detail.markdown]
    assert shown[1] == literal(", at TD Garden on [Wednesday] . The Celtics ( 32")  # the whole context, wrapped
    assert shown[2] == f"*Correction:* {literal('Friday')}"
    page, address = same_tab_link(detail.get("page_link"))
    assert page == "document"
    assert {name: address[name] for name in ("split", "submission", "text")} == {
        "split": "train",
        "submission": "submission",
        "text": "S001",
    }


def test_errors_chart_comes_first_with_false_alarms_as_bars_of_their_own(built_db, monkeypatch):
    at = open_page(built_db, "errors", monkeypatch)
    labelled(at.multiselect, "Submissions").set_value(["submission"]).run()
    spec, counts = chart(at, "error_counts")
    assert spec["spec"]["encoding"]["yOffset"]["field"] == "bar"
    # The legend above the panels, its labels whole, and every category's label whole, however thin its bars.
    legend = spec["spec"]["encoding"]["color"]["legend"]
    assert (legend["orient"], legend["labelLimit"]) == ("top", 0)
    axis = spec["spec"]["encoding"]["y"]["axis"]
    assert (axis["labelLimit"], axis["labelOverlap"]) == (0, False)
    by_bar = counts.groupby(["bar", "outcome"])["mistakes"].sum().to_dict()
    # Within each category, as the scores of the example's categories count them (the test above).
    [(gold, matched, submitted)] = sql(
        built_db,
        "SELECT sum(gold_total), sum(matched), sum(submitted_total) FROM scores "
        "WHERE submission = 'submission' AND scope <> 'ALL'",
    )
    assert by_bar == {
        ("gold mistakes", "matched"): matched,
        ("gold mistakes", "missed"): gold - matched,
        ("false alarms", "false alarm"): submitted - matched,
    }


def test_a_click_on_an_errors_bar_leaves_its_rows_in_the_table(built_db, monkeypatch):
    at = open_page(built_db, "errors", monkeypatch)
    labelled(at.multiselect, "Submissions").set_value(["submission", "submission_doc_based"]).run()
    bar = {"submission": "submission", "category": "NAME", "outcome_key": "missed"}
    at = click_chart(at, "error_counts", {"bar": [bar]})
    assert not at.exception, at.exception
    assert labelled(at.multiselect, "Submissions").value == ["submission", "submission_doc_based"]  # filters kept
    rows = table(at, "error_rows")
    assert len(rows) == 50 and set(zip(rows["submission"], rows["category"], rows["outcome"])) == {
        ("submission", "NAME", "missed")
    }
    [(missed,)] = sql(
        built_db, "SELECT gold_total - matched FROM scores WHERE submission = 'submission' AND scope = 'NAME'"
    )
    assert missed == 157 and at.number_input(key="error_page").max == -(-missed // 50)
    assert f"NAME · missed ({missed})" in markdown(at)
    at = click_chart(at, "error_counts", {"bar": []})  # the chart's background: every row again
    assert set(table(at, "error_rows")["submission"]) == {"submission"}  # the first page, in name order
    assert at.number_input(key="error_page").max > -(-missed // 50)


def test_errors_filters_are_summarised_in_one_line(built_db, monkeypatch):
    at = open_page(built_db, "errors", monkeypatch)
    labelled(at.multiselect, "Categories").set_value(["NAME", "WORD"])
    labelled(at.multiselect, "Outcomes").set_value(["missed", "false_alarm"]).run()
    [line] = at.get_by_key("error_filters").markdown
    assert line.value == (
        "split train · submissions: every one · categories: NAME, WORD · outcomes: missed, false alarm · every text "
        "· matched within each category"
    )


def test_errors_rows_are_tall_enough_to_wrap_the_longest_context_and_comment(built_db, monkeypatch):
    at = open_page(built_db, "errors", monkeypatch)
    [frame] = at.get_by_key("error_rows").dataframe
    # st.dataframe wraps a cell's text only in rows taller than 4rem (64 px): four lines of 21 px
    assert frame.proto.row_height > 64 and frame.proto.row_height >= 4 * 21
    [(context, comment)] = sql(
        built_db,
        "SELECT max(length(c.context_before || c.marked || c.context_after) + 4), max(length(m.comment))"
        " FROM mistake_contexts AS c JOIN mistakes AS m USING (mistake_id)",
    )
    # At 7 px a character at most (the dashboard's 14 px sans-serif), four lines of the columns hold them whole.
    config = json.loads(frame.proto.columns)
    assert 4 * (config["in_context"]["width"] - 16) // 7 >= context
    assert 4 * (config["comment"]["width"] - 16) // 7 >= comment


def test_errors_filter_by_the_shared_tasks_generating_systems(built_db, monkeypatch):
    at = open_page(built_db, "errors", monkeypatch)
    systems = labelled(at.multiselect, "Generating systems")
    with (DATA.parent / "nlg_systems.csv").open(newline="", encoding="utf-8") as stream:
        by_system = {}
        for row in csv.DictReader(stream):
            by_system.setdefault(row["SYSTEM"], set()).add(row["TEXT_ID"])
    assert systems.options == sorted(by_system)
    systems.set_value(["wiseman"]).run()
    assert not at.exception, at.exception
    expected = [row for row in outcome_rows(built_db, "train", True) if row["text_id"] in by_system["wiseman"]]
    assert at.subheader[0].value == f"{len(expected)} mistakes"
    assert set(table(at, "error_rows")["text_id"]) <= by_system["wiseman"]
    assert set(table(at, "error_rows")["system"]) == {"wiseman"}
    assert "systems: wiseman" in at.get_by_key("error_filters").markdown[0].value
    assert at.query_params["system"] == "wiseman"


def test_errors_pages_through_the_rows(built_db, monkeypatch):
    at = open_page(built_db, "errors", monkeypatch)
    first = table(at, "error_rows")
    labelled(at.number_input, "Page").set_value(2).run()
    second = table(at, "error_rows")
    assert len(first) == len(second) == 50
    assert first.iloc[0].to_dict() != second.iloc[0].to_dict()


# Document view


def gold_rows(text_id: str) -> set[tuple]:
    """The gold mistakes of a text as gsml.csv lists them: first and last token, category, tokens, correction."""
    with (DATA / "gsml.csv").open(newline="", encoding="utf-8") as stream:
        return {
            (int(row["DOC_TOKEN_START"]), int(row["DOC_TOKEN_END"]), row["TYPE"], row["TOKENS"], row["CORRECTION"])
            for row in csv.DictReader(stream)
            if row["TEXT_ID"] == f"{text_id}.txt"
        }


def text_or_empty(value) -> str:
    """A text cell of a table, with the – that stands for NULL read as the empty cell of a CSV file."""
    return "" if value == "–" else value


def test_document_view_of_s001_shows_its_gold_spans(built_db, monkeypatch):
    at = open_page(built_db, "document", monkeypatch)
    assert at.selectbox(key="text").value == "S001"
    labelled(at.selectbox, "Submission").set_value("submission").run()
    mistakes = table(at, "document_mistakes")
    gold = mistakes[mistakes["label"].str.startswith("G")]
    shown = {
        (row.doc_token_start, row.doc_token_end, row.category, row.tokens, text_or_empty(row.correction))
        for row in gold.itertuples()
    }
    assert shown == gold_rows("S001")
    assert len(shown) == 16

    text = at.get("html")[1].value
    # the first gold mistake, labelled after its last token (and the token's detail panel)
    assert re.search(r'">Wednesday</span><span class="adb-detail"[^>]*>[^<]*</span><sup[^>]*>G1·Na✓</sup>', text)
    assert "Gold mistake G1 · NAME · matched (with S1)\nCorrection: Friday" in text  # its tooltip
    assert all(f">G{n}" in text for n in range(1, 17)) and ">G17" not in text
    assert "text-decoration: underline wavy" in text  # the example submission's false alarms
    summary = at.markdown[0].value
    assert "16 gold mistakes; submission lists 12: 8 gold mistakes matched, 8 missed, 4 false alarms" in summary


class TableRows(HTMLParser):
    """The rows of the HTML tables of a page: {table class: [(row class, [cells])]}."""

    def __init__(self):
        super().__init__()
        self.tables, self.table, self.row = {}, None, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self.table = self.tables.setdefault(attrs.get("class"), [])
        elif tag == "tr" and self.table is not None:
            self.row = (attrs.get("class"), [])
            self.table.append(self.row)
        elif tag in ("td", "th") and self.row is not None:
            self.row[1].append("")

    def handle_data(self, data):
        if self.row is not None and self.row[1]:
            self.row[1][-1] += data


def box_score(at: AppTest) -> tuple[dict, str]:
    """The box score's tables by class, as {table: {row class: cells}}, and its HTML."""
    [element] = at.get_by_key("box_score").get("html")
    parser = TableRows()
    parser.feed(element.value)
    return {name: {row: cells for row, cells in rows if row} for name, rows in parser.tables.items()}, element.value


def test_document_view_shows_the_box_score_of_the_game(built_db, monkeypatch):
    at = open_page(built_db, "document", monkeypatch)
    tables_, _ = box_score(at)
    teams = {cells[0]: cells for cells in tables_["adb-teams"].values()}
    assert (teams["Lakers"][6], teams["Celtics"][6]) == ("107", "113")  # PTS
    assert teams["Celtics"][1:6] == ["32–18", "29", "33", "20", "31"]  # record, Q1–Q4
    players = {cells[0]: cells for cells in tables_["adb-players"].values() if len(cells) > 1}
    assert players["Isaiah Thomas"][3] == "38"  # PTS, after pos and MIN
    assert all(len(cells) == 13 for cells in players.values())  # every stat column
    assert "Los Angeles Lakers at Boston Celtics" in [header.value for header in at.subheader]
    assert "(https://www.basketball-reference.com/boxscores/201702030BOS.html)" in markdown(at)


def test_a_mistake_lights_up_the_rows_it_names_in_the_box_score(built_db, monkeypatch):
    at = open_page(built_db, "document", monkeypatch)
    labelled(at.selectbox, "Submission").set_value("submission").run()
    tables_, markup = box_score(at)
    row_of = {cells[0]: row.split("-")[-1] for table_ in tables_.values() for row, cells in table_.items()}
    rules = dict(re.findall(r"body:has\(\.adb-m-(\w+):hover, \.adb-m-\1:focus\) :is\(([^)]*)\)", markup))
    # G4's comment is "Horford was the 4th highest scorer"; G11's "The Lakers next game is on the road".
    assert rules["G4"] == f".adb-row-{row_of['Al Horford']}"
    assert rules["G11"] == f".adb-row-{row_of['Lakers']}"
    assert "G1" not in rules  # Wednesday names nobody
    text = at.get("html")[1].value
    assert 'class="adb-mark adb-m-G4"' in text  # the tokens the rule points at


def test_document_view_opens_on_the_best_submission_that_is_not_the_gold_list(built_db, monkeypatch):
    """The examples' gsml_* lists are the gold list again (ranked first, 16 of 16 matched): the view opens on the
    best-ranked of the others, and links to this text's mistakes in the Errors browser."""
    monkeypatch.setenv(DB_ENV, str(built_db))
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.switch_page("app_pages/document.py").run()  # opened first, as a link to it does
    assert labelled(at.selectbox, "Submission").value == "submission"
    page, address = same_tab_link(at.get("page_link"))
    assert page == "errors"
    assert {name: address[name] for name in ("split", "text", "submission")} == {
        "split": "train",
        "text": "S001",
        "submission": "submission",
    }


def test_document_view_goes_to_the_next_and_previous_text(built_db, monkeypatch):
    at = open_page(built_db, "document", monkeypatch)
    labelled(at.button, "Next").click().run()
    assert at.selectbox(key="text").value == "S002"
    assert at.markdown[0].value.startswith("**S002**")
    labelled(at.button, "Previous").click().run()
    labelled(at.button, "Previous").click().run()
    assert at.selectbox(key="text").value == "T030"  # before the first text comes the last


def test_document_view_with_gold_mistakes_only(built_db, monkeypatch):
    at = open_page(built_db, "document", monkeypatch)
    labelled(at.selectbox, "Submission").set_value("(gold mistakes only)").run()
    mistakes = table(at, "document_mistakes")
    assert len(mistakes) == 16 and set(mistakes["outcome"]) == {"–"}
    assert "text-decoration" not in at.get("html")[1].value


# Gold explorer


def missed_by_all(db: Path, split: str) -> int:
    """Gold mistakes of a split that no submission's ALL-scope matching gave a submitted mistake, in plain SQL."""
    [(count,)] = sql(
        db,
        f"""
        SELECT count(*) FROM (
            SELECT matches.gold_mistake_id
            FROM mistake_matches AS matches
            JOIN evaluations USING (submission_id)
            WHERE evaluations.split = '{split}' AND matches.scope = 'ALL'
            GROUP BY matches.gold_mistake_id
            HAVING count(matches.submitted_mistake_id) = 0
        )
        """,
    )
    return count


def test_missed_by_every_submission_of_the_test_split(derived_db, monkeypatch):
    at = open_page(derived_db, "gold", monkeypatch)
    assert labelled(at.selectbox, "Split").value == "test"
    missed = table(at, "missed_by_all")
    assert len(missed) == missed_by_all(derived_db, "test") == 622 - 212 - 224
    assert missed["category"].value_counts().to_dict() == {"WORD": 140, "NOT_CHECKABLE": 38, "CONTEXT": 8}
    assert "**186** of the 622 gold mistakes were missed by all 2 submissions of the test split" in markdown(at)


@pytest.mark.parametrize("key", ["missed_by_all", "gold_by_text"])
def test_a_gold_explorer_row_opens_its_text_in_the_document_view(derived_db, monkeypatch, key):
    at = open_page(derived_db, "gold", monkeypatch)
    text_id = table(at, key)["text_id"].iloc[3]
    at = select_rows(at, key, [3])
    assert not at.exception, at.exception
    assert at.selectbox(key="text").value == text_id
    assert labelled(at.selectbox, "Submission").value == "(gold mistakes only)"


def test_missed_by_every_submission_of_the_train_split(built_db, monkeypatch):
    at = open_page(built_db, "gold", monkeypatch)
    labelled(at.selectbox, "Split").set_value("train").run()
    # The examples include the gold list itself, which misses nothing.
    assert len(table(at, "missed_by_all")) == missed_by_all(built_db, "train") == 0


def test_gold_mistakes_by_category_and_text(built_db, monkeypatch):
    at = open_page(built_db, "gold", monkeypatch)
    labelled(at.selectbox, "Split").set_value("test").run()
    by_category = table(at, "gold_by_category")
    assert dict(zip(by_category["category"], by_category["mistakes"])) == {
        "NAME": 212,
        "NUMBER": 224,
        "WORD": 140,
        "CONTEXT": 8,
        "NOT_CHECKABLE": 38,
        "OTHER": 0,
    }
    assert "No submission of the test split is loaded." in [c.value for c in at.caption]
    labelled(at.selectbox, "Split").set_value("train").run()
    by_text = table(at, "gold_by_text")
    assert len(by_text) == 60 and by_text["mistakes"].sum() == 1214
    s001 = by_text[by_text["text_id"] == "S001"].iloc[0]
    assert (s001["NAME"], s001["NUMBER"], s001["WORD"], s001["mistakes"]) == (5, 6, 5, 16)


def test_gold_by_text_keeps_the_saved_querys_order_after_the_split_filter(built_db, monkeypatch):
    """The saved analysis orders its rows by split and text; the page filters them by split and must keep that
    order (a join had hashed it away: T005, T010, T016, …)."""
    from accuracy_db.store.analyses import saved_analysis

    saved = sql(built_db, saved_analysis("mistakes_per_text").sql)  # (split, text_id, …) in the query's order
    at = open_page(built_db, "gold", monkeypatch)
    for split in ("test", "train"):
        labelled(at.selectbox, "Split").set_value(split).run()
        shown = list(table(at, "gold_by_text")["text_id"])
        assert shown == [row[1] for row in saved if row[0] == split]
        assert len(shown) == {"test": 30, "train": 60}[split]


def test_error_rate_per_generating_system(built_db, monkeypatch):
    """The figures of the data's README: 21.6 (Wiseman), 21.9 (Puduppully) and 15.4 (Rebuffel) a text."""
    at = open_page(built_db, "gold", monkeypatch)
    labelled(at.selectbox, "Split").set_value("train").run()
    systems = table(at, "gold_by_system")
    rates = dict(zip(systems["system"], systems["mistakes"].round(1)))
    assert rates == {"(all texts)": 20.2, "puduppully": 21.9, "rebuffel": 15.4, "wiseman": 21.6}
    assert dict(zip(systems["system"], systems["texts"])) == {
        "(all texts)": 60,
        "puduppully": 7,
        "rebuffel": 7,
        "wiseman": 7,
    }


# Refresh status


def test_refresh_status_lists_the_refused_examples_with_their_reasons(built_db, monkeypatch):
    at = open_page(built_db, "refresh", monkeypatch)
    text = markdown(at)
    assert "by `accuracy-db build`" in text
    for name in ("submission_blank", "submission_malformed", "submission_overlapping"):
        assert f"**{literal(name)}**" in text
    rejections = table(at, "rejections")
    assert set(rejections["submission"]) == {"submission_blank", "submission_malformed", "submission_overlapping"}
    overlapping = rejections[rejections["submission"] == "submission_overlapping"]
    assert overlapping["message"].str.contains("overlaps line 79").any()


def test_refresh_status_groups_the_lines_refused_with_the_same_message(built_db, monkeypatch):
    """submission_blank has 571 lines refused for the same reason: one row, its lines as a run."""
    at = open_page(built_db, "refresh", monkeypatch)
    shown = table(at, "rejections")
    refused = sql(
        built_db,
        "SELECT submission, count(*), count(DISTINCT (file, message)), min(line), max(line) FROM rejections "
        "WHERE suffix(file, '.csv') GROUP BY submission",
    )
    for submission, lines, messages, _, _ in refused:
        rows = shown[shown["submission"] == submission]
        assert rows["times"].sum() == lines and len(rows) == messages
    [blank] = shown[shown["submission"] == "submission_blank"].itertuples()
    [(first, last, lines)] = [(r[3], r[4], r[1]) for r in refused if r[0] == "submission_blank"]
    assert (blank.lines, blank.times) == (f"{first}–{last}", lines) and last - first + 1 == lines == 571
    assert "**submission\\_blank** (571 problems)" in markdown(at)


def test_refresh_status_shows_the_hashes_of_the_loaded_lists(built_db, monkeypatch):
    at = open_page(built_db, "refresh", monkeypatch)
    lists = table(at, "lists")
    hashes = {(row.kind, row.name, row.split): row.sha256 for row in lists.itertuples()}
    assert hashes[("gold", "gold", "train")] == hashlib.sha256((DATA / "gsml.csv").read_bytes()).hexdigest()
    assert (
        hashes[("submission", "submission", "train")]
        == hashlib.sha256((EXAMPLES / "submission.csv").read_bytes()).hexdigest()
    )
    figures = {metric.label: metric.value for metric in at.metric}
    assert figures["submissions refused"] == "3"


# Reading the database


def test_a_republished_database_is_shown_at_the_next_rerun(tmp_path, monkeypatch):
    """build renames a new file over the old one; the running dashboard shows the new one, not cached results."""
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    shutil.copy(EXAMPLES / "submission.csv", submissions)
    db = tmp_path / "accuracy.duckdb"
    build(DATA, db, submissions, check=False)  # the folder's submissions alone
    at = open_page(db, "leaderboard", monkeypatch)
    assert list(table(at, "leaderboard")["submission"]) == ["submission"]

    shutil.copy(EXAMPLES / "gsml_doc_based.csv", submissions)
    build(DATA, db, submissions, check=False)
    at.run()
    assert list(table(at, "leaderboard")["submission"]) == ["gsml_doc_based", "submission"]


def test_the_sidebar_names_the_database_file_but_not_where_the_server_keeps_it(built_db, monkeypatch):
    at = open_page(built_db, "leaderboard", monkeypatch)
    shown = [element.value for element in at.sidebar.caption]
    assert f"Database: {literal(built_db.name)}" in shown
    assert not any(str(built_db.parent) in value.replace("\\", "") for value in shown), shown  # unescaped


def test_without_a_database_the_page_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv(DB_ENV, str(tmp_path / "missing.duckdb"))
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    assert not at.exception
    assert "Cannot read the database" in at.error[0].value
    assert "accuracy-db build" in at.error[0].value


def test_the_command_serves_the_installed_app_on_loopback():
    command = streamlit_command("127.0.0.1", 8501)
    assert command[:4] == [sys.executable, "-m", "accuracy_db.dashboard.server", "run"]
    assert Path(command[4]) == APP.with_name("lifespan.py") and APP.is_file()  # the st.App over app.py
    options = dict(zip(command[5::2], command[6::2]))
    assert options["--server.address"] == "127.0.0.1"
    assert options["--server.port"] == "8501"
    assert options["--server.headless"] == "true"
    assert options["--browser.gatherUsageStats"] == "false"
    assert options["--runner.postScriptGC"] == "false"  # a full collection after each page run: 0.13 CPU s a page


def test_the_server_imports_the_libraries_the_pages_share_before_streamlit_starts():
    """Streamlit runs each visitor's page in a thread; a library imported first by one of them is half made in
    sys.modules while altair, polars or narwhals in another thread look it up there ("partially initialized module",
    met by ten browsers on a fresh server). The server module imports them whole before Streamlit's command runs."""
    probe = (
        "import sys, streamlit.web.cli as cli\n"
        "def main(**options):\n"
        "    shared = ('altair', 'numpy', 'pandas', 'polars', 'pyarrow')\n"
        "    half = [name for name in shared if getattr(sys.modules.get(name), '__spec__', None) is None\n"
        "            or getattr(sys.modules[name].__spec__, '_initializing', False)]\n"
        "    print('missing or half made:', half, options)\n"
        "    return 0\n"
        "cli.main = main\n"
        "import runpy\n"
        "runpy.run_module('accuracy_db.dashboard.server', run_name='__main__')\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.stdout == "missing or half made: [] {'prog_name': 'streamlit'}\n", done.stderr


def test_the_command_gives_the_server_its_database_and_the_sql_pages_time_limit(built_db, monkeypatch, capsys):
    served = []
    monkeypatch.setattr("accuracy_db.cli.commands.dashboard.serve", lambda command, env: served.append(env) or 0)
    monkeypatch.setattr("accuracy_db.cli.commands.dashboard.check_can_listen", lambda host, port: None)
    assert run(["dashboard", "--db", str(built_db), "--port", "8599", "--sql-seconds", "2.5"]) == 0
    assert run(["dashboard", "--db", str(built_db), "--port", "8599", "--host", "0.0.0.0", "--no-warm"]) == 0
    assert [(env[DB_ENV], env["ACCURACY_DB_SQL_SECONDS"], env[WARM_ENV]) for env in served] == [
        (str(built_db.resolve()), "2.5", "1"),  # the server computes the pages' first views at start
        (str(built_db.resolve()), "10", "0"),
    ]
    assert run(["dashboard", "--db", str(built_db), "--sql-seconds", "0"]) == 2
    assert "--sql-seconds" in capsys.readouterr().err


def test_the_sql_pages_time_limit_is_read_from_the_servers_environment():
    """What `dashboard --sql-seconds` sets (the browser test sees the page state it, and a query outlast 10 s)."""
    limit = "from accuracy_db.dashboard.sql_limits import SQL_TIMEOUT; print(SQL_TIMEOUT)"
    given = subprocess.run(
        [sys.executable, "-c", limit],
        env={**os.environ, "ACCURACY_DB_SQL_SECONDS": "42"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert given.stdout == "42.0\n"


def test_the_command_refuses_a_missing_database(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "accuracy_db", "dashboard", "--db", str(tmp_path / "none.duckdb")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert f"no database at {tmp_path / 'none.duckdb'}" in result.stderr


# SQL


def test_sql_page_runs_a_reading_query(built_db, monkeypatch):
    at = open_page(built_db, "sql", monkeypatch)
    labelled(at.button, "Run").click().run()
    result = table(at, "sql_result")
    assert list(result.columns) == ["rank", "submission", "split", "recall", "precision", "f1"]
    assert list(result["submission"]) == [
        "gsml_doc_based",
        "gsml_sent_based",
        "submission",
        "submission_doc_based",
        "submission_sent_based",
    ]
    assert "**5** rows" in markdown(at)


def test_sql_page_asks_for_the_parameters_of_a_query(built_db, monkeypatch):
    at = open_page(built_db, "sql", monkeypatch)
    at.text_area(key="sql").set_value("SELECT count(*) AS n FROM submitted_mistakes WHERE submission = $name").run()
    at.text_input(key="param-name").set_value("submission")
    labelled(at.button, "Run").click().run()
    assert list(table(at, "sql_result")["n"]) == [571]


def test_sql_page_refuses_a_query_that_writes(built_db, monkeypatch):
    at = open_page(built_db, "sql", monkeypatch)
    at.text_area(key="sql").set_value("DELETE FROM mistakes")
    labelled(at.button, "Run").click().run()
    assert at.error[0].value.startswith("Refused: " + literal("DELETE refused: it changes data"))
    [(count,)] = sql(built_db, "SELECT count(*) FROM mistakes")
    assert count > 0


def test_sql_page_keeps_the_query_in_the_address_and_runs_it_only_on_run(built_db, monkeypatch):
    at = open_page(built_db, "sql", monkeypatch)
    assert dict(at.query_params) == {}  # the example query is not spelled out
    query = "SELECT text_id FROM texts WHERE text_id LIKE 'T%' ORDER BY text_id LIMIT 3"
    at.text_area(key="sql").set_value(query)
    at.selectbox(key="dialect").set_value("postgres").run()
    assert dict(at.query_params) == {"sql": query, "dialect": "postgres"}

    shared = AppTest.from_file(str(APP), default_timeout=60)
    shared.query_params.update(at.query_params)
    shared.run()
    shared.switch_page("app_pages/sql.py").run()
    assert (shared.text_area(key="sql").value, shared.selectbox(key="dialect").value) == (query, "postgres")
    with pytest.raises(KeyError):  # a link never runs a query by itself: no result
        shared.get_by_key("sql_result")
    labelled(shared.button, "Run").click().run()
    assert list(table(shared, "sql_result")["text_id"]) == ["T001", "T002", "T003"]


def test_sql_page_translates_another_dialect(built_db, monkeypatch):
    at = open_page(built_db, "sql", monkeypatch)
    at.text_area(key="sql").set_value("SELECT text_id FROM texts ORDER BY text_id LIMIT 2")
    at.selectbox(key="dialect").set_value("postgres")
    labelled(at.button, "Run").click().run()
    assert list(table(at, "sql_result")["text_id"]) == ["S001", "S002"]
    assert "FROM texts" in at.code[0].value


def test_sql_page_starts_from_a_saved_analysis(built_db, monkeypatch):
    at = open_page(built_db, "sql", monkeypatch)
    at.selectbox(key="analysis").set_value("missed_by_every_submission").run()
    assert at.text_area(key="sql").value.startswith("-- Which gold mistakes did every submission")
    labelled(at.button, "Run").click().run()
    assert "**0** rows" in markdown(at)  # on the train split, the gold copies miss nothing


def test_a_csv_download_is_cut_after_the_last_whole_row_within_the_bound():
    from accuracy_db.dashboard.data import bounded_csv

    frame = pl.DataFrame({"n": list(range(100)), "text": ['say "x",\nthen y'] * 100})  # quoting makes rows longer
    text, rows = bounded_csv(frame, 1_000)
    assert len(text.encode()) <= 1_000 < len(frame.head(rows + 1).write_csv().encode())
    assert pl.read_csv(text.encode()).equals(frame.head(rows))
    assert bounded_csv(frame, 10**6) == (frame.write_csv(), 100)


# Names shown as text


def markdown_texts(at: AppTest) -> list[str]:
    """Every text of the page that Streamlit renders as Markdown: the Markdown elements, headings, alerts, and
    the labels and help of widgets and metrics."""
    texts = [
        element.value for kind in ("markdown", "caption", "title", "header", "subheader") for element in at.get(kind)
    ]
    texts += [element.proto.body for kind in ("error", "info", "warning", "success") for element in at.get(kind)]
    widgets = ("selectbox", "multiselect", "radio", "text_input", "text_area", "number_input", "button", "metric")
    for kind in widgets:
        for widget in at.get(kind):
            texts += [widget.proto.label, getattr(widget.proto, "help", "")]
    return texts


def assert_no_markup_from_names(at: AppTest) -> None:
    assert not at.exception, at.exception
    for text in markdown_texts(at):
        assert not any(fragment in text for fragment in MARKUP_FRAGMENTS), text


@pytest.mark.parametrize(
    "page", ["leaderboard", "significance", "validity", "metrics", "difficulty", "errors", "gold", "refresh", "sql"]
)
def test_no_page_renders_a_name_as_markup(hostile_db, monkeypatch, page):
    at = open_page(hostile_db, page, monkeypatch)
    assert_no_markup_from_names(at)
    for widget in [*at.selectbox, *at.multiselect]:  # options are shown as plain text, exactly as named
        assert all(name in widget.options for name in HOSTILE_NAMES) or not set(widget.options) & set(HOSTILE_NAMES)


def test_document_view_shows_hostile_names_literally(hostile_db, monkeypatch):
    at = open_page(hostile_db, "document", monkeypatch)
    for name in HOSTILE_NAMES:
        labelled(at.selectbox, "Submission").set_value(name).run()
        assert_no_markup_from_names(at)
        assert f"; {literal(name)} lists 12:" in at.markdown[0].value
        assert at.query_params["submission"] == name


def test_refresh_status_lists_hostile_names_literally(hostile_db, monkeypatch):
    at = open_page(hostile_db, "refresh", monkeypatch)
    assert_no_markup_from_names(at)
    text = markdown(at)
    assert f"1 submission was refused, and nothing of them is loaded: **{literal(REFUSED_NAME)}** (" in text
    assert (
        f"of 1 submission was refused; the submission is still scored, without its metadata: **{literal(TAG_NAME)}**"
        in text
    )
    assert list(table(at, "rejections")["submission"].unique()) == [REFUSED_NAME]
    assert list(table(at, "metadata_rejections")["submission"].unique()) == [TAG_NAME]
    figures = {metric.label: metric.value for metric in at.metric}
    assert (figures["submissions refused"], figures["metadata refused"]) == ("1", "1")
    assert figures["submissions added"] == str(len(HOSTILE_NAMES))  # the one with a refused sidecar is scored


def test_a_submitters_address_is_a_link_only_when_it_is_a_web_address(hostile_db, monkeypatch):
    at = open_page(hostile_db, "leaderboard", monkeypatch)
    metadata = table(at, "metadata")
    row = metadata[metadata["submission"] == IMAGE_NAME].iloc[0]
    assert row["team"] == HOSTILE_TEAM  # a table cell is plain text
    assert pd.isna(row["url"])  # a link column leaves it empty: a – would be a link


def test_a_refusal_quoting_the_query_is_shown_literally(hostile_db, monkeypatch):
    at = open_page(hostile_db, "sql", monkeypatch)
    at.text_area(key="sql").set_value(f"SELEC '{IMAGE_NAME}' <img>")
    labelled(at.button, "Run").click().run()
    assert at.error, "the query should have been refused"
    assert_no_markup_from_names(at)


@settings(max_examples=200, deadline=None)
@given(text=strategies.text())
def test_literal_markdown_renders_as_the_text_itself(text):
    """CommonMark (markdown-it, a renderer of its own) shows literal(text) as the text, element-free; control
    characters as their pictures."""
    rendered = MarkdownIt("commonmark").renderInline(literal(text))
    assert "<" not in rendered  # no element: a < of the text is &lt;
    pictured = "".join("\u2421" if c == "\x7f" else chr(0x2400 + ord(c)) if ord(c) < 0x20 else c for c in text)
    assert html.unescape(rendered) == pictured


# --- the first views computed ahead (issue 36) on supported ground (issue 52): in the server's process, through
# data.py's cached reads, by the lifespan of Streamlit's st.App ---


def test_the_server_runs_the_pages_under_st_app_with_a_lifespan():
    """streamlit run finds the st.App of the file the command hands it (by parsing it, as Streamlit does), whose
    script is the pages' entry point."""
    from streamlit.web.server.app_discovery import discover_asgi_app

    assert app_file().name == "lifespan.py"
    found = discover_asgi_app(app_file())
    assert (found.is_asgi_app, found.import_string) == (True, "lifespan:app")
    assert re.search(r'^app = st\.App\("app\.py", lifespan=lifespan\)$', app_file().read_text(), re.MULTILINE)


def cached_reads_computed(monkeypatch) -> list[str]:
    """The names of data.py's cached reads computed (not found in the cache) from now on, as they are computed:
    each calls data._on_file with a function of the read's own (work, in its closure)."""
    computed = []
    on_file = data._on_file

    def spy(file, work):
        closure = dict(zip(work.__code__.co_freevars, (cell.cell_contents for cell in work.__closure__ or ())))
        computed.append(closure["work"].__name__)
        return on_file(file, work)

    monkeypatch.setattr(data, "_on_file", spy)
    return computed


def test_a_cached_read_given_or_left_its_defaults_is_computed_once(built_db, monkeypatch):
    """data.cached_read keys a read by its arguments with their defaults applied: the page that leaves one out
    finds what first_views computed giving it."""
    monkeypatch.setenv(DB_ENV, str(built_db))
    st.cache_data.clear()
    computed = cached_reads_computed(monkeypatch)
    ways = [
        data.not_scored(data.SHARED_TASK, "test"),
        data.not_scored(data.SHARED_TASK, "test", data.SCHEME),
        data.not_scored(corpus=data.SHARED_TASK, scheme=data.SCHEME, split="test"),
    ]
    assert ways == [ways[0]] * 3 and "test" in ways[0]
    assert computed == ["not_scored"]
    data.not_scored(data.SHARED_TASK, "train")
    assert computed == ["not_scored"] * 2


def app_pages() -> list[str]:
    """The pages dashboard/app.py lists."""
    return re.findall(r'st\.Page\("app_pages/(\w+)\.py"', APP.read_text())


# The pages whose first view first_views computes whole: every cached read found in the cache, SQL batches too.
# The others' statistics are computed ahead; some of their SQL (the errors browser's filtered rows, the document
# view's text, the metrics page's scatter of its first metric) is left to their first visitor.
WHOLE_FIRST_VIEWS = {"leaderboard", "significance", "agreement", "validity", "calibration", "systems", "difficulty"}
WHOLE_FIRST_VIEWS |= {"refresh", "sql"}


@pytest.mark.parametrize("page", app_pages())
def test_each_pages_first_view_finds_its_statistics_computed_ahead(built_db, page, monkeypatch):
    """After first_views' function of a page, the page's first view (as a visitor who gives no choice opens it)
    computes no statistic anew: every cached read other than a batch of plain SQL is found in the cache; for the
    pages of WHOLE_FIRST_VIEWS, every cached read."""
    monkeypatch.setenv(DB_ENV, str(built_db))
    st.cache_data.clear()
    data.latest_publication()
    first_views.PAGES[page](first_views.opening_corpus())
    computed = cached_reads_computed(monkeypatch)
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.switch_page(f"app_pages/{page}.py").run()
    assert not at.exception, at.exception
    assert [name for name in computed if name != "_batch" or page in WHOLE_FIRST_VIEWS] == []
    st.cache_data.clear()  # as a fresh server: nothing computed ahead, the same view computes them
    computed.clear()
    AppTest.from_file(str(APP), default_timeout=60).switch_page(f"app_pages/{page}.py").run()
    assert computed  # the spy sees what a page computes


def test_the_first_views_are_those_of_every_page_and_the_costly_ones_are_computed(built_db, monkeypatch):
    monkeypatch.setenv(DB_ENV, str(built_db))
    st.cache_data.clear()
    computed = cached_reads_computed(monkeypatch)
    pages, failed, _ = first_views.compute()
    assert (list(first_views.PAGES), pages, failed) == (app_pages(), 13, [])
    names = set(computed)
    # the leaderboard's intervals and clusters, the agreement matrix, the metrics table, the significance matrix
    assert {"ranked_with_intervals", "agreement_of", "metric_table", "pairwise", "category_intervals"} <= names


def test_first_views_name_the_pages_left_cold_and_why(tmp_path, monkeypatch):
    monkeypatch.setenv(DB_ENV, str(tmp_path / "gone.duckdb"))
    st.cache_data.clear()
    pages, failed, _ = first_views.compute()
    assert pages == 0 and len(failed) == 1  # the sidebar's read fails first: no page is tried on no database
    assert failed[0].startswith("AccuracyDbError: Cannot read the database ") and "no such file" in failed[0]


def test_no_code_of_the_package_or_its_tests_speaks_streamlits_private_protocol():
    """streamlit.proto (the messages between a browser and the server) is Streamlit's own business: the dashboard
    is warmed by its lifespan and the tests drive pages through AppTest and Chromium (issue 52)."""
    repo = Path(__file__).resolve().parents[1]
    private = re.compile(r"^\s*(from|import)\s+streamlit\.proto\b|\bstreamlit\.proto\.", re.MULTILINE)
    found = [
        str(path.relative_to(repo))
        for folder in ("accuracy_db", "dashboard", "tests")
        for path in sorted((repo / folder).rglob("*.py"))
        if private.search(path.read_text(encoding="utf-8"))
    ]
    assert found == []
    assert private.search("from streamlit" + ".proto.WidgetStates_pb2 import WidgetStates")  # what it finds
