"""The dashboard on machine translation rated with MQM (issue 49, item 6), run by Streamlit's AppTest: the Systems
page against the README of Google's TED zh→en file and the shared task's published means per neural system, the
Document view's errors by severity against the file as tests/mqm_oracle.py reads it, and the Errors browser's
severity and system filters against counts made by hand on a small corpus written here."""

from __future__ import annotations

import re
import shutil
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest
from mqm_oracle import TED_ZHEN, clean, marked
from mqm_oracle import rows as file_rows
from test_dashboard import (  # noqa: F401  (fresh_caches: autouse)
    examples_without_checker,
    fresh_caches,
    labelled,
    markdown,
    open_page,
    select_rows,
    sql,
    table,
)
from test_dashboard_corpora import opened_at
from test_mqm import PUBLISHED

from accuracy_db.cli.main import run
from accuracy_db.stats.intervals import Resampling
from accuracy_db.stats.system_ranking import ranked_systems
from accuracy_db.store import database

TED = "ted-zhen"
SMALL = "small-mt"
HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity"
# Two systems, two segments, one rater; no two spans of a list overlap, so the match schemes score the metric.
SMALL_GOLD = [
    "A\td\t1\t1\tr1\t源一\tThe <v>cat</v> sat on the mat\tAccuracy/Mistranslation\tMajor",
    "A\td\t1\t1\tr1\t源一\tThe cat sat on <v>the mat</v>\tFluency/Grammar\tMinor",
    "B\td\t1\t1\tr1\t源一\tA <v>dog</v> sat there\tAccuracy/Mistranslation\tMinor",
    "A\td\t1\t2\tr1\t源二\tIt <v>rained</v> all day\tAccuracy/Mistranslation\tMajor",
    "B\td\t1\t2\tr1\t源二\tIt was sunny\tNo-error\tNo-error",
]
# The metric: A's cat (a match), B's "sat" and A's "day" (false alarms: no gold span there).
SMALL_METRIC = [
    "A\td\t1\t1\tm\t源一\tThe <v>cat</v> sat on the mat\tAccuracy/Mistranslation\tMajor",
    "B\td\t1\t1\tm\t源一\tA dog <v>sat</v> there\tAccuracy/Mistranslation\tMinor",
    "A\td\t1\t2\tm\t源二\tIt rained all <v>day</v>\tAccuracy/Mistranslation\tMinor",
    "B\td\t1\t2\tm\t源二\tIt was sunny\tNo-error\tNo-error",
]
GRAVITY = ["Critical", "Major", "Minor", "Neutral"]


@pytest.fixture(scope="module")
def mt_db(tmp_path_factory) -> Path:
    """The shared task's examples, the TED zh→en file, and the small corpus with its metric."""
    built = examples_without_checker(tmp_path_factory)
    folder = tmp_path_factory.mktemp("mt")
    path = folder / "accuracy.duckdb"
    shutil.copyfile(built, path)
    assert run(["import", "mqm", "--db", str(path), "--corpus", TED, str(TED_ZHEN)]) == 0
    for name, lines, more in (("gold", SMALL_GOLD, []), ("metric", SMALL_METRIC, ["--as", "submission"])):
        (folder / f"{name}.tsv").write_text("\n".join([HEADER, *lines]) + "\n", encoding="utf-8")
        assert run(["import", "mqm", "--db", str(path), "--corpus", SMALL, *more, str(folder / f"{name}.tsv")]) == 0
    return path


# The Systems page


def number(cell: str) -> float:
    return float(cell.split()[0])


def test_the_systems_page_ranks_the_ted_systems_as_the_readme_and_the_command(mt_db, monkeypatch):
    at = opened_at(mt_db, monkeypatch, "systems", corpus=TED)
    assert labelled(at.selectbox, "Split").value == "test"
    shown = table(at, "systems")
    assert list(shown["system"]) == sorted(PUBLISHED, key=PUBLISHED.get)
    for system, cell in zip(shown["system"], shown["score"], strict=True):
        assert number(cell) == pytest.approx(PUBLISHED[system], abs=0.01)  # the README's table
    assert {s for s, human in zip(shown["system"], shown["human"], strict=True) if human == "human reference"} == {
        "ref",
        "refB",
    }
    assert set(shown["texts"]) == {529}
    con = database.open_existing(mt_db)
    try:
        expected = ranked_systems(con, TED, "test", "google", Resampling(), 10_000)
        counted = ranked_systems(con, TED, "test", "count", None)
    finally:
        con.close()
    # Each mean with its interval, as the command's table writes them, and the clusters of `systems --ci`.
    assert list(shown["score"]) == [f"{r['score']:.3f} [{r['ci'][0]:.2f}, {r['ci'][1]:.2f}]" for r in expected]
    assert list(shown["cluster"]) == [r["cluster"] for r in expected]
    assert len(set(shown["cluster"])) > 1
    labelled(at.selectbox, "Weights").set_value("count").run()
    recounted = table(at, "systems")
    assert list(recounted["system"]) == [r["system"] for r in counted]
    assert [number(cell) for cell in recounted["score"]] == [round(r["score"], 3) for r in counted]


def test_the_systems_page_of_the_shared_task_gives_the_published_means(mt_db, monkeypatch):
    at = opened_at(mt_db, monkeypatch, "systems", corpus="shared-task")
    assert labelled(at.selectbox, "Split").options == ["train"]  # the 21 texts nlg_systems.csv names are of train
    shown = table(at, "systems")
    # ../shared/data/README.md: 21.6 (Wiseman), 21.9 (Puduppully) and 15.4 (Rebuffel) mistakes per text, 7 texts each
    assert list(shown["system"]) == ["rebuffel", "wiseman", "puduppully"]
    assert [round(number(cell), 1) for cell in shown["score"]] == [15.4, 21.6, 21.9]
    assert set(shown["texts"]) == {7}


# The Document view


class Marks(HTMLParser):
    """A marked text's characters as the page draws them, each with the severity it is drawn in (None: unmarked);
    the labels (sup) and the panels a click opens are not characters of the text."""

    def __init__(self):
        super().__init__()
        self.chars: list[tuple[str, str | None]] = []
        self.labels: list[tuple[str, str]] = []
        self.stack: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        severity = next((c.removeprefix("adb-severity-") for c in classes if c.startswith("adb-severity-")), None)
        kind = "label" if tag == "sup" else "detail" if "adb-detail" in classes else "style" if tag == "style" else ""
        self.stack.append((kind, severity))
        if tag == "sup":
            self.labels.append((attrs.get("style", ""), ""))

    def handle_endtag(self, tag):
        self.stack.pop()

    def handle_data(self, data):
        kinds = {kind for kind, _ in self.stack}
        if "label" in kinds:
            self.labels[-1] = (self.labels[-1][0], self.labels[-1][1] + data)
        elif not kinds & {"detail", "style"} and any(kind == "" for kind, _ in self.stack):
            severity = next((s for _, s in reversed(self.stack) if s is not None), None)
            self.chars += [(char, severity) for char in data]


def drawn(html: str) -> Marks:
    marks = Marks()
    marks.feed(html)
    return marks


def an_item_with_every_kind_of_error() -> tuple[tuple[str, str, str], list[dict]]:
    """The first item of the TED file with a Major and a Minor error in its target and one in its source."""
    items: dict[tuple, list[dict]] = {}
    for row in file_rows():
        items.setdefault((row["system"], row["doc"], row["seg_id"]), []).append(row)
    for item, found in items.items():
        target = {r["severity"] for r in found if marked(r["target"])}
        if {"Major", "Minor"} <= target and any(marked(r["source"]) for r in found):
            return item, found
    raise AssertionError("no such item")


def test_document_view_marks_an_mqm_items_errors_by_severity_with_category_and_rater(mt_db, monkeypatch):
    (system, doc, seg_id), found = an_item_with_every_kind_of_error()
    [(text_id,)] = sql(
        mt_db, f"SELECT text_id FROM text_systems WHERE system = '{system}' AND doc = '{doc}' AND seg_id = '{seg_id}'"
    )
    at = opened_at(mt_db, monkeypatch, "document", text=text_id)
    target, source = clean(found[0]["target"]), clean(found[0]["source"])
    expected = Counter()
    gravest = {"target": [None] * len(target), "source": [None] * len(source)}
    for row in found:
        for side, text in (("target", row["target"]), ("source", row["source"])):
            if span := marked(text):
                whole = target if side == "target" else source
                expected[(side, row["severity"], row["category"], row["rater"], whole[span[0] : span[1]])] += 1
                for at_char in range(*span):
                    now = gravest[side][at_char]
                    if now is None or GRAVITY.index(row["severity"]) < GRAVITY.index(now):
                        gravest[side][at_char] = row["severity"]
    errors = table(at, "document_rated")
    assert (
        Counter(
            zip(errors["side"], errors["severity"], errors["category"], errors["rater"], errors["marked"], strict=True)
        )
        == expected
    )
    for side, key, text in (("target", "rated_target", target), ("source", "rated_source", source)):
        [html] = at.get_by_key(key).get("html")
        marks = drawn(html.proto.body)
        assert "".join(char for char, _ in marks.chars) == text
        assert [severity for _, severity in marks.chars] == gravest[side]  # each character as its gravest error
        # every error labelled E<n>·<its severity's initials>, in its severity's colour
        labels = {label for _, label in marks.labels}
        side_errors = errors[errors["side"] == side]
        assert labels == {
            f"{name}·{s[:2]}" for name, s in zip(side_errors["label"], side_errors["severity"], strict=True)
        }
    # The legend tells the severities apart without colour: each its own line style, and the labels' initials.
    [legend] = [h.proto.body for h in at.get("html") if 'class="adb-legend"' in h.proto.body]
    shown = re.findall(r"underline (\w+) (#\w+);[^>]*>(\w+)</span> <b>E1·(\w+)</b>", legend)
    assert [severity for *_, severity, _ in shown] == ["Major", "Minor"]  # the severities of the text, gravest first
    assert len({line for line, *_ in shown}) == len({initials for *_, initials in shown}) == len(shown)


# The Errors browser


def test_errors_browser_filters_an_mqm_corpus_by_severity_and_generating_system(mt_db, monkeypatch):
    at = opened_at(mt_db, monkeypatch, "errors", corpus=SMALL, submission="metric")
    labelled(at.multiselect, "Submissions").set_value(["metric"]).run()
    assert labelled(at.multiselect, "Generating systems").options == ["A", "B"]
    assert labelled(at.multiselect, "Severities").options == ["Major", "Minor"]
    # Gold: A1 cat (Major, matched), A1 the mat (Minor), B1 dog (Minor), A2 rained (Major) missed; false alarms:
    # B1 sat (Minor), A2 day (Minor).
    assert at.subheader[0].value == "6 mistakes"
    expected = [(["Major"], [], 2), (["Minor"], [], 4), ([], ["A"], 4), ([], ["B"], 2), (["Major"], ["B"], 0)]
    for severities, systems, count in expected:
        labelled(at.multiselect, "Severities").set_value(severities)
        labelled(at.multiselect, "Generating systems").set_value(systems).run()
        assert not at.exception, at.exception
        assert at.subheader[0].value == f"{count} mistakes", (severities, systems)
        if count:
            rows = table(at, "error_rows")
            assert len(rows) == count
    assert dict(at.query_params)["severity"] == "Major" and dict(at.query_params)["system"] == "B"
    labelled(at.multiselect, "Severities").set_value(["Minor"])
    labelled(at.multiselect, "Generating systems").set_value(["A"]).run()
    rows = table(at, "error_rows")
    assert sorted(rows["marked"]) == ["day", "the mat"]
    at = select_rows(at, "error_rows", [list(rows["marked"]).index("day")])
    [first, *_] = [element.value for element in at.get_by_key("error_detail").markdown]
    assert "false alarm" in first and "system A" in first and "severity Minor" in first


def test_a_corpus_without_severities_has_no_severity_filter(mt_db, monkeypatch):
    at = opened_at(mt_db, monkeypatch, "errors", corpus="shared-task")
    assert "Severities" not in [widget.label for widget in at.multiselect]
    assert "Generating systems" in [widget.label for widget in at.multiselect]  # nlg_systems.csv's
    assert "severity" not in markdown(at)


def test_an_mqm_text_without_errors_shows_its_target_and_source_plainly(mt_db, monkeypatch):
    rated = {(r["system"], r["doc"], r["seg_id"]) for r in file_rows() if marked(r["target"]) or marked(r["source"])}
    row = next(r for r in file_rows() if (r["system"], r["doc"], r["seg_id"]) not in rated)
    [(text_id,)] = sql(
        mt_db,
        f"SELECT text_id FROM text_systems WHERE system = '{row['system']}' AND doc = '{row['doc']}'"
        f" AND seg_id = '{row['seg_id']}'",
    )
    at = opened_at(mt_db, monkeypatch, "document", text=text_id)
    for key, text in (("rated_target", clean(row["target"])), ("rated_source", clean(row["source"]))):
        [html] = at.get_by_key(key).get("html")
        marks = drawn(html.proto.body)
        assert ("".join(char for char, _ in marks.chars), marks.labels) == (text, [])
    assert table(at, "document_rated").empty
