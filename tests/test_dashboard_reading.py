"""The dashboard read at a glance (issue 51): one way of writing a p-value on every page and in every command,
figures that sort as numbers with each table sorted by its figure, a significance matrix that says who wins, one
state across pages with the same defaults everywhere, and the Metrics and Validity charts (a forest plot of the
metrics with their intervals, a real metric first, whole-number ticks on counts, points sized by their texts)."""

from __future__ import annotations

import csv
import json
import re
import shutil
from pathlib import Path

import pandas as pd
import pytest
from accuracy_db.dashboard import DB_ENV
from shared_data import DATA, EXAMPLES
from streamlit.testing.v1 import AppTest
from test_dashboard import (  # noqa: F401
    APP,
    chart,
    click_chart,
    examples_without_checker,
    fresh_caches,
    labelled,
    open_page,
    table,
)

from accuracy_db.cli.main import cli, run
from accuracy_db.ingest.build import build

PAGES = [
    "leaderboard",
    "significance",
    "agreement",
    "validity",
    "calibration",
    "metrics",
    "difficulty",
    "errors",
    "document",
    "gold",
    "refresh",
    "sql",
]


@pytest.fixture(scope="module")
def built_db(tmp_path_factory) -> Path:
    """The pages' database: the example submissions alone, on the train split (test_dashboard.py's)."""
    return examples_without_checker(tmp_path_factory)


@pytest.fixture(scope="module")
def two_splits_db(tmp_path_factory) -> Path:
    """The shared-task data with submissions on both splits: the example submission (train), and the test gold
    list's NAME rows (test)."""
    folder = tmp_path_factory.mktemp("two_splits")
    submissions = folder / "submissions"
    submissions.mkdir()
    shutil.copyfile(EXAMPLES / "submission.csv", submissions / "submission.csv")
    with (DATA / "test_set" / "gsml.csv").open(newline="", encoding="utf-8") as stream:
        reader = csv.DictReader(stream)
        names = [row for row in reader if row["TYPE"] == "NAME"]
    with (submissions / "names_only.csv").open("w", newline="", encoding="utf-8") as stream:
        writer = csv.DictWriter(stream, fieldnames=reader.fieldnames, quoting=csv.QUOTE_ALL)
        writer.writeheader()
        writer.writerows(names)
    path = folder / "accuracy.duckdb"
    build(DATA, path, submissions, check=False)  # these two alone (no box-score checker's list)
    return path


# One p format


def written_as_p(text: str) -> bool:
    """Whether text is a p-value as the leaderboard writes it, judged here on its own: "< 0.0001" (or the bound of
    fewer trials, "< 0.001"), or a number of at least 0.0001 with three significant digits and no exponent
    (0.000123, 0.0312, 0.550, 1.00); undefined where there is none."""
    if text == "undefined":
        return True
    bound = re.fullmatch(r"< (0\.\d+)", text)
    if bound:
        return float(bound[1]) >= 0.0001
    if not re.fullmatch(r"[01]\.\d+", text):
        return False
    digits = text.replace(".", "").lstrip("0")
    return float(text) >= 0.0001 and len(digits) == 3


def test_the_judge_of_a_written_p_value():
    assert all(map(written_as_p, ["< 0.0001", "< 0.001", "0.000123", "0.0312", "0.550", "1.00", "undefined"]))
    assert not any(map(written_as_p, ["4.04e-06", "0.00", "0.0", "< 1e-05", "0.55", "0.5500", "2.54e-07"]))


P_COLUMNS = ("p", "p-value", "p (A better)")


def page_p_values(at: AppTest) -> list[str]:
    """Every p-value a page shows in its tables (columns named p) and its charts' data (a field p)."""
    found = [str(value) for frame in at.dataframe for c in P_COLUMNS if c in frame.value for value in frame.value[c]]
    for element in at.get("vega_lite_chart"):
        for dataset in element.proto.datasets:
            import pyarrow as pa

            rows = pa.ipc.open_stream(dataset.data.data).read_pandas()
            found += [str(value) for value in rows.get("p", []) if value != "the best"]  # the best: not a test
    return found


def test_every_page_writes_its_p_values_as_the_leaderboard(built_db, monkeypatch):
    """Agreement and Validity wrote 4.04e-06 and 0.00 where Leaderboard and Significance wrote < 0.0001."""
    seen = []
    for page in PAGES:
        at = open_page(built_db, page, monkeypatch)
        seen += page_p_values(at)
    assert seen and "< 0.0001" in seen
    assert [p for p in seen if not written_as_p(p)] == []


# The commands' text output, and the p-values it holds.
COMMANDS = [
    ["leaderboard", "--ci", "--split", "train"],
    ["compare", "submission", "gsml_doc_based", "--metric", "precision"],
    ["validity", "submission", "--scope", "ALL", "--scope", "WORD"],
    ["agreement", "gold", "submission", "--scope", "ALL", "--scope", "WORD"],
    ["metrics", "--split", "train"],
    ["metrics", "compare", "length", "bleu", "--measure", "pearson", "--split", "train", "--trials", "200"],
    ["difficulty"],
    ["calibration"],
]
# The other commands write no p-value: what they print instead.
WITHOUT_P = {
    "adjudicate": "a majority list",
    "build": "what was loaded",
    "check": "what the box-score checker found",
    "dashboard": "the server's address",
    "demo": "what the demo database holds",
    "evaluate": "the official scorer's report, in its JSON",
    "export": "files",
    "fetch-data": "what was fetched",
    "import": "what was loaded",
    "query": "the query's own columns",
    "refresh": "what was loaded",
    "rejections": "the refused lines",
    "schema": "the tables' descriptions",
    "systems": "MQM systems' scores, ranked without a test",
}
# Where a table for people writes a p-value: after "p " (validity), in the compare table's p-value row, in the
# cells of a p column (agreement, metrics compare).
P_IN_TEXT = re.compile(r"(?:\bp |p-value \([^)]*\) +│ +)(< [0-9.]+|[0-9.e+-]+|undefined)")


def test_every_command_writes_its_p_values_as_the_leaderboard(built_db, capsys):
    seen = []
    for command in COMMANDS:
        run([*command, "--db", str(built_db)])
        text = capsys.readouterr().out
        assert not re.search(r"\d\.?\d*e-\d\d", text), (command, text)  # no p-value (nor figure) as 4.04e-06
        seen += P_IN_TEXT.findall(text)
        header = next((line for line in text.splitlines() if "p_value" in line or "p (A better)" in line), None)
        if header:  # a table with a p column: each of its cells
            cells = [line.split("│") for line in text.splitlines() if line.startswith("│")]
            heads = [cell.strip() for cell in header.split("┃")]
            column = next(i for i, head in enumerate(heads) if head in ("p_value", "p (A better)"))
            seen += [row[column].strip() for row in cells if len(row) == len(heads) and row[column].strip()]
    assert "< 0.0001" in seen  # validity's and agreement's analytic p-values of 4.04e-06 and less
    assert [p for p in seen if not written_as_p(p)] == []


def test_the_walk_covers_every_command():
    """A new command is walked above, or said here to write no p-value."""
    commands = set(cli.list_commands(None))
    assert commands == {command[0] for command in COMMANDS} | set(WITHOUT_P)
    for name in WITHOUT_P:  # none of them formats a p-value
        assert "p_value_text" not in Path(cli.get_command(None, name).callback.__code__.co_filename).read_text()


# Numbers sort as numbers, every table sorted by its figure


def numbers(frame: pd.DataFrame, columns: list[str]) -> None:
    for column in columns:
        assert pd.api.types.is_float_dtype(frame[column]), (column, frame[column].dtype)


def descending(values) -> bool:
    defined = [value for value in values if not pd.isna(value)]
    return defined == sorted(defined, reverse=True) and list(values)[: len(defined)] == defined  # undefined last


def test_figures_and_their_intervals_are_numbers_and_tables_open_sorted_by_them(built_db, monkeypatch):
    at = open_page(built_db, "leaderboard", monkeypatch)
    board = table(at, "leaderboard")
    numbers(board, ["recall", "recall_low", "recall_high", "precision", "precision_low", "precision_high"])
    assert descending(board["recall"])  # ranked by recall
    assert (board["recall_low"] <= board["recall"]).all() and (board["recall"] <= board["recall_high"]).all()

    at = open_page(built_db, "significance", monkeypatch)
    pairs = table(at, "pairwise")
    numbers(pairs, ["difference", "difference_low", "difference_high"])
    assert descending(pairs["difference"])

    at = open_page(built_db, "validity", monkeypatch)
    numbers(table(at, "validity_figures"), ["value", "value_low", "value_high"])

    at = open_page(built_db, "agreement", monkeypatch)
    numbers(table(at, "agreement_correlations"), ["value"])

    at = open_page(built_db, "metrics", monkeypatch)
    for level in ("text", "system"):  # the system level was sorted by the metrics' names
        shown = table(at, f"metrics_{level}")
        numbers(shown, ["value", "value_low", "value_high"])
        for _, of_measure in shown.groupby("measure", sort=False):
            assert descending(of_measure["value"]), (level, of_measure)


# Significance: who wins


def test_significance_colours_who_is_higher_and_how_surely(built_db, monkeypatch):
    at = open_page(built_db, "significance", monkeypatch)
    spec, cells = chart(at, "significance_matrix")
    colour = spec["layer"][0]["encoding"]["color"]
    assert colour["field"] == "verdict"
    legend = colour["scale"]["domain"]
    assert legend == [
        "A higher, p < 0.01",
        "A higher, p < 0.05",
        "not significant (p ≥ 0.05)",
        "B higher, p < 0.05",
        "B higher, p < 0.01",
    ]
    hues = colour["scale"]["range"]
    assert len(set(hues)) == 5 and hues[0] != hues[-1]  # a diverging scale: A's side and B's side apart
    for cell in cells.itertuples():  # each cell's band from its own difference and p, worked out here
        if cell.p_value >= 0.05 or cell.difference == 0:
            assert cell.verdict == legend[2]
        else:
            side = "A" if cell.difference > 0 else "B"
            assert cell.verdict == f"{side} higher, p < {0.01 if cell.p_value < 0.01 else 0.05}"
    # +d for A against B is −d for B against A: the two cells of a pair are on opposite sides
    verdicts = {(c.a, c.b): c.verdict for c in cells.itertuples()}
    assert any(v.startswith("A") for v in verdicts.values()) and any(v.startswith("B") for v in verdicts.values())
    assert all(
        verdicts[(b, a)] == v.replace("A", "?").replace("B", "A").replace("?", "B") for (a, b), v in verdicts.items()
    )
    caption = next(c.value for c in at.caption if "Each cell tests" in c.value)
    assert "p < 0.01" in caption and "p < 0.05" in caption and "p < 0.05)" not in caption.split("dark")[0][-5:]
    assert "a dark cell (p < 0.05)" not in caption  # the legend's dark is p < 0.01: the caption says the same
    assert {spec["layer"][0]["encoding"][axis]["title"] for axis in ("x", "y")} == {
        "A: the row's submission",
        "B: the column's submission",
    }
    at = click_chart(at, "significance_matrix", {"pair": [{"a": "submission", "b": "gsml_sent_based"}]})
    [command] = at.get_by_key("significance_pair").get("code")
    assert command.proto.wrap_lines  # whole, wrapped, not cut at the panel's edge


# One state across pages


def test_the_pages_open_on_the_same_split(built_db, monkeypatch):
    """Metrics and Gold opened on test, Leaderboard (whose only split with submissions is train) on train."""
    opened = {page: labelled(open_page(built_db, page, monkeypatch).selectbox, "Split").value for page in PAGES[:2]}
    opened |= {page: labelled(open_page(built_db, page, monkeypatch).selectbox, "Split").value for page in ["gold"]}
    opened |= {"metrics": labelled(open_page(built_db, "metrics", monkeypatch).selectbox, "Split").value}
    assert opened == {"leaderboard": "train", "significance": "train", "gold": "train", "metrics": "train"}


def switch(at: AppTest, page: str) -> AppTest:
    """Open another page as the sidebar does: the address holds none of the first page's choices."""
    at.query_params.clear()
    at.switch_page(f"app_pages/{page}.py").run()
    assert not at.exception, at.exception
    return at


def notices(at: AppTest, name: str = "split") -> list[str]:
    """What a page says of a shared choice (of this name) it cannot honour."""
    return [c.value for c in at.caption if f"This page has no {name} " in c.value]


def test_a_split_chosen_on_gold_holds_on_the_leaderboard(two_splits_db, monkeypatch):
    at = open_page(two_splits_db, "gold", monkeypatch)
    assert labelled(at.selectbox, "Split").value == "test"  # the default everywhere: the first split with submissions
    labelled(at.selectbox, "Split").set_value("train").run()
    at = switch(at, "leaderboard")
    assert labelled(at.selectbox, "Split").value == "train"
    assert list(table(at, "leaderboard")["submission"]) == ["submission"]
    labelled(at.selectbox, "Split").set_value("test").run()
    for page in ("gold", "metrics", "significance", "leaderboard"):
        at = switch(at, page)
        assert labelled(at.selectbox, "Split").value == "test", page
        assert notices(at) == []


def test_a_split_a_page_cannot_show_is_said_there_and_kept_for_the_others(built_db, monkeypatch):
    """The Leaderboard has no test split here (no submission of it): it says so, where it silently showed train."""
    at = open_page(built_db, "gold", monkeypatch)
    labelled(at.selectbox, "Split").set_value("test").run()
    for page in ("leaderboard", "significance", "validity"):
        at = switch(at, page)
        assert notices(at) == [
            ":material/info: This page has no split test (chosen earlier) to show: it shows the split "
            "train. The other pages keep test."
        ], page
    at = switch(at, "gold")
    assert labelled(at.selectbox, "Split").value == "test"
    at = switch(at, "metrics")
    assert labelled(at.selectbox, "Split").value == "test"


# Metrics and Validity charts


def test_metrics_forest_plot_has_each_metric_with_its_interval_and_the_baseline(built_db, monkeypatch, capsys):
    at = open_page(built_db, "metrics", monkeypatch)
    assert at.radio(key="forest_measure-shared-task-train").value == "pearson"
    spec, points = chart(at, "metric_forest")
    assert run(["metrics", "--db", str(built_db), "--split", "train", "--scope", "ALL", "--format", "json"]) == 0
    expected = [
        row
        for row in json.loads(capsys.readouterr().out)
        if row["level"] == "text" and row["measure"] == "pearson" and row["value"] is not None
    ]
    expected.sort(key=lambda row: -row["value"])
    assert list(points["metric"]) == [row["metric"] for row in expected]  # the highest on top
    assert list(points["value"]) == [row["value"] for row in expected]
    assert list(points["low"]) == [row["ci"][0] for row in expected]
    assert list(points["high"]) == [row["ci"][1] for row in expected]
    assert list(points["cluster"]) == [f"cluster {row['rank']}" for row in expected]
    baseline, whiskers, dots, _ = spec["layer"]  # (and "undefined", for a figure without a value: none here)
    assert baseline["mark"]["strokeDash"] and baseline["transform"] == [{"filter": "datum.baseline"}]
    assert list(points[points["baseline"]]["metric"]) == ["length"]
    assert whiskers["encoding"]["x"]["field"] == "low" and whiskers["encoding"]["x2"]["field"] == "high"
    assert dots["encoding"]["color"]["field"] == "cluster"


def test_the_text_by_text_chart_opens_on_a_real_metric(built_db, monkeypatch):
    """The gold copies (gsml_doc_based, every measure 1) rank first: the chart opened on a trivial diagonal."""
    at = open_page(built_db, "metrics", monkeypatch)
    metric = labelled(at.selectbox, "Metric")
    assert metric.options[:2] == ["gsml_doc_based", "gsml_sent_based"]
    assert metric.value == "length"
    spec, points = chart(at, "metric_scatter")
    assert spec["encoding"]["x"]["axis"] == {"format": "d", "tickMinStep": 1}  # a count: whole-number ticks
    assert spec["encoding"]["size"]["field"] == "texts_here"
    assert spec["transform"] == [
        {"joinaggregate": [{"op": "count", "as": "texts_here"}], "groupby": ["gold", "score", "system"]}
    ]


def test_the_gold_explorer_counts_on_whole_numbers_and_lists_its_categories_by_count(built_db, monkeypatch):
    at = open_page(built_db, "gold", monkeypatch)
    by_category = table(at, "gold_by_category")
    assert descending(by_category["mistakes"]) and by_category["mistakes"].nunique() > 1
    axes = []
    for element in at.get("vega_lite_chart"):
        encoding = json.loads(element.proto.spec)["encoding"]
        axes += [encoding[axis]["axis"] for axis in ("x", "y") if encoding[axis]["field"] in ("mistakes", "count")]
    assert axes == [{"format": "d", "tickMinStep": 1}] * 2  # the bars by category, and by text


def test_validity_points_are_sized_by_the_texts_they_stand_for(built_db, monkeypatch):
    monkeypatch.setenv(DB_ENV, str(built_db))
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.switch_page("app_pages/validity.py").run()
    spec, points = chart(at, "validity_scatter")
    dots = spec["concat"][0]["layer"][1]
    assert dots["encoding"]["size"]["field"] == "texts_here"
    assert dots["encoding"]["x"]["axis"]["tickMinStep"] == dots["encoding"]["y"]["axis"]["tickMinStep"] == 1
    of_all = points[points["scope"] == "ALL"]
    assert of_all.groupby(["submission", "gold", "submitted"]).size().max() > 1  # overlapping texts exist
