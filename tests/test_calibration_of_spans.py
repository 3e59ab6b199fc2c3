"""The calibration of any list with probabilities, not only a Mu-SHROOM file's soft labels (issue 34, item 4): a
list whose spans carry probabilities (a shared-task submission CSV with a PROBABILITY column, a corpus folder's
list) gets its precision-recall curve, average precision, reliability diagram and expected calibration error over
the characters of its split. The reference is written here from the definition, reading the files, not the
models: a text's characters are its whitespace tokens laid end to end (without the spaces, as the character schemes
count them), a character's probability the highest of the list's spans covering it (a span without one: 1; none:
0), and the gold marks it when a gold span does (of a gold list with probabilities, the spans of p >= 0.5, as the
schemes score it). Average precision and the curve are scikit-learn's; the reliability diagram and ECE are
tests/test_calibration.py's numpy definition. Property tests run the models over random span lists (overlapping,
with and without probabilities, a gold list with some) and the three figure models over random characters, against
the same references."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import duckdb
import numpy as np
import pytest
import streamlit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shared_data import DATA, EXAMPLES
from sklearn.metrics import average_precision_score, precision_recall_curve
from test_calibration import BINS, reliability
from test_dashboard import chart, table
from test_dashboard_corpora import opened_at
from test_thresholds import import_corpus, with_probabilities

from accuracy_db import sql_parse
from accuracy_db.cli.main import run
from accuracy_db.stats import calibration
from accuracy_db.store import database

Span = tuple[str, int, int, float | None]  # text id, first and last token (from 1, inclusive), probability or None
LIST = "with_probabilities"


def reference_characters(texts: dict[str, str], gold: list[Span], predicted: list[Span]) -> tuple:
    """Every character of the texts: whether a gold span covers it, and the highest probability of the predicted
    spans covering it."""
    marked, scores = [], []
    for text_id, text in texts.items():
        starts = np.concatenate([[0], np.cumsum([len(token) for token in text.split()])])
        gold_marks, text_scores = np.zeros(starts[-1], dtype=bool), np.zeros(starts[-1])
        for span_text, first, last, _ in gold:
            if span_text == text_id:
                gold_marks[starts[first - 1] : starts[last]] = True
        for span_text, first, last, probability in predicted:
            if span_text == text_id:
                covered = slice(starts[first - 1], starts[last])
                text_scores[covered] = np.maximum(text_scores[covered], 1.0 if probability is None else probability)
        marked.append(gold_marks)
        scores.append(text_scores)
    return np.concatenate(marked), np.concatenate(scores)


def assert_figures(con, corpus: str, submission: str, split: str, marked: np.ndarray, scores: np.ndarray) -> dict:
    """The list's row, curve and diagram equal the references; its row."""
    [row] = [r for r in calibration.soft_label_quality(con, corpus, split) if r["submission"] == submission]
    assert (row["read_with"], row["characters"], row["gold_characters"]) == ("spans", len(scores), marked.sum())
    assert row["average_precision"] == pytest.approx(average_precision_score(marked, scores), abs=1e-12)
    diagram, error = reliability(marked, scores)
    assert row["calibration_error"] == pytest.approx(error, abs=1e-12)
    curve = calibration.curve_or_diagram(con, submission, corpus, split, curve=True)
    assert [point["threshold"] for point in curve] == sorted(set(scores.tolist()), reverse=True)
    precision, recall, thresholds = precision_recall_curve(marked, scores, drop_intermediate=False)
    by_threshold = {point["threshold"]: point for point in curve}
    for p, r, t in zip(precision, recall, thresholds):
        assert (by_threshold[t]["precision"], by_threshold[t]["recall"]) == pytest.approx((p, r), abs=1e-12), t
    bins = calibration.curve_or_diagram(con, submission, corpus, split, curve=False)
    assert {b["bin"]: (b["characters"], b["mean_probability"], b["observed_rate"]) for b in bins} == {
        b: pytest.approx(figures, abs=1e-12) for b, figures in diagram.items()
    }
    return row


def csv_spans(path: Path, probabilities: list[str] | None = None) -> list[Span]:
    with path.open(encoding="utf-8", newline="") as file:
        rows = list(csv.DictReader(file))
    cells = probabilities or [""] * len(rows)
    return [
        (
            row["TEXT_ID"].removesuffix(".txt"),
            int(row["DOC_TOKEN_START"]),
            int(row["DOC_TOKEN_END"]),
            float(p) if p else None,
        )
        for row, p in zip(rows, cells)
    ]


@pytest.fixture(scope="module")
def shared_task(built_db, tmp_path_factory):
    """The shared-task database with the example submission also loaded with a PROBABILITY column."""
    folder = tmp_path_factory.mktemp("calibration_of_spans")
    db = folder / "accuracy.duckdb"
    shutil.copyfile(built_db, db)
    inbox = shutil.copytree(EXAMPLES, folder / "inbox")
    path, _, probabilities = with_probabilities(folder)
    shutil.copy(path, inbox / path.name)
    assert run(["refresh", "--db", str(db), "--submissions", str(inbox)]) == 0
    con = database.open_existing(db)
    yield db, con, path, probabilities
    con.close()


def test_a_submission_csv_with_probabilities_is_weighed_over_its_token_characters(shared_task):
    _, con, path, probabilities = shared_task
    texts = {f.stem: f.read_text(encoding="utf-8") for f in sorted((DATA / "texts").glob("S*.txt"))}
    marked, scores = reference_characters(texts, csv_spans(DATA / "gsml.csv"), csv_spans(path, probabilities))
    assert set(scores.tolist()) == {0.0, 0.2, 0.5, 0.8, 1.0}  # every probability of the file, and the hard rows' 1
    assert_figures(con, "shared-task", LIST, "train", marked, scores)
    # the lists without probabilities are not weighed: the example submission is scored, but has none
    assert [row["submission"] for row in calibration.soft_label_quality(con, "shared-task")] == [LIST]


def test_the_command_weighs_the_only_corpus_with_probabilities_and_names_what_it_cannot(shared_task, capsys):
    db, con, _, _ = shared_task
    base = ["calibration", "--db", str(db), "--format", "json"]
    assert run(base) == 0  # without --corpus: the shared task, the only corpus with probabilities
    printed = json.loads(capsys.readouterr().out)  # (a sum's last bit depends on DuckDB's threads)
    assert printed == [pytest.approx(row, abs=1e-12) for row in calibration.soft_label_quality(con, "shared-task")]
    assert run([*base, "--submission", LIST, "--curve"]) == 0
    curve = calibration.curve_or_diagram(con, LIST, None, None, True)
    assert json.loads(capsys.readouterr().out) == [pytest.approx(point, abs=1e-12) for point in curve]
    for args, message in [
        (["--submission", "submission"], "submission was not read with character labels and has no span with a"),
        (["--corpus", "nowhere"], "no corpus named 'nowhere' (the corpora: shared-task)"),  # as every command says
    ]:
        assert run([*base, *args]) == 1
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err


def test_the_calibration_page_draws_a_submission_csv_s_figures(shared_task, monkeypatch):
    db, con, _, _ = shared_task
    streamlit.cache_data.clear()  # (results cached by another test's run of the page are for another file)
    at = opened_at(db, monkeypatch, "calibration")  # the shared task, the database's first corpus
    assert not at.exception and not at.info, (at.exception, at.info)
    [row] = calibration.soft_label_quality(con, "shared-task")
    shown = table(at, "soft_label_quality")
    assert list(shown["submission"]) == [LIST] and list(shown["read_with"]) == ["spans"]
    assert list(shown["average_precision"]) == pytest.approx([row["average_precision"]], abs=1e-12)
    headings = [element.value for element in at.subheader]
    assert f"Precision and recall: AP {row['average_precision']:.3f}" in headings
    assert f"Reliability: ECE {row['calibration_error']:.3f}" in headings
    _, points = chart(at, "precision_recall_chart")
    curve = calibration.curve_or_diagram(con, LIST, "shared-task", "train", True)
    drawn = points.sort_values("threshold", ascending=False).to_dict("records")
    assert drawn == [pytest.approx(point, abs=1e-12) for point in curve]


@pytest.fixture(scope="module")
def corpus_db(built_db, tmp_path_factory):
    """The shared-task database with two corpus folders of lists with probabilities (test_thresholds' corpora):
    hardgold (a gold list without any) and softgold (a gold list with some)."""
    folder = tmp_path_factory.mktemp("calibration_of_corpora")
    db = folder / "accuracy.duckdb"
    shutil.copyfile(built_db, db)
    lists = {name: import_corpus(db, folder, name, name == "softgold") for name in ("hardgold", "softgold")}
    texts = {
        name: {text["id"]: text["text"] for text in map(json.loads, (folder / name / "texts.jsonl").open())}
        for name in lists
    }
    con = database.open_existing(db)
    yield db, con, lists, texts
    con.close()


def folder_spans(spans: list[dict]) -> list[Span]:
    return [(s["text_id"], s["token_start"], s["token_end"], s.get("probability")) for s in spans]


@pytest.mark.parametrize("corpus", ["hardgold", "softgold"])
def test_a_corpus_folder_list_with_probabilities_is_weighed(corpus_db, corpus, capsys):
    db, con, lists, texts = corpus_db
    gold = [span for span in folder_spans(lists[corpus]["gold"]) if span[3] is None or span[3] >= 0.5]
    weighed = {row["submission"] for row in calibration.soft_label_quality(con, corpus)}
    assert weighed == {"soft"}  # hard and the cuts are written without probabilities
    marked, scores = reference_characters(texts[corpus], gold, folder_spans(lists[corpus]["soft"]))
    row = assert_figures(con, corpus, "soft", "dev", marked, scores)
    assert run(["calibration", "--db", str(db), "--format", "json"]) == 1  # two corpora: which one?
    assert "lists with probabilities are in corpora hardgold, softgold: give --corpus" in capsys.readouterr().err
    assert run(["calibration", "--db", str(db), "--corpus", corpus, "--format", "json"]) == 0
    [printed] = [r for r in json.loads(capsys.readouterr().out) if r["submission"] == "soft"]
    assert printed == pytest.approx(row, abs=1e-12)


def test_no_two_rows_of_the_calibration_models_share_a_key(corpus_db):
    _, con, _, _ = corpus_db
    keys = {
        "probability_characters": "submission_id, text_id, position",
        "probability_precision_recall": "submission_id, threshold",
        "probability_calibration": "submission_id, bin",
        "probability_quality": "submission_id",
    }
    for model, key in keys.items():
        assert con.execute(f"SELECT count(*) FROM {model}").fetchone()[0] > 0, model
        shared = con.execute(f"SELECT {key} FROM {model} GROUP BY {key} HAVING count(*) > 1").fetchall()
        assert shared == [], model


FIGURE_MODELS = ("probability_precision_recall", "probability_calibration", "probability_quality")


@pytest.fixture(scope="module")
def figure_models():
    """An empty connection with the figure macros and the three figure models as views over a table of characters
    that stands in for probability_characters (one list, id 1), and probability_evaluations."""
    con = duckdb.connect()
    con.execute(sql_parse.figure_macros())
    con.execute("CREATE TABLE probability_characters (submission_id INTEGER, gold_marked BOOLEAN, probability DOUBLE)")
    con.execute(
        "CREATE TABLE probability_evaluations AS SELECT 1 AS submission_id, 'list' AS submission, 'c' AS corpus,"
        " 's' AS split, 'spans' AS read_with"
    )
    definitions = database.view_definitions()
    for name in FIGURE_MODELS:
        con.execute(f"CREATE VIEW {name} AS {definitions[name]}")
    yield con
    con.close()


# probabilities on a grid of twentieths, so that ties and the bins' edges (0.1, 0.9, 1) come up often
characters = st.lists(
    st.tuples(st.booleans(), st.integers(0, 20).map(lambda twentieths: twentieths / 20)), min_size=1, max_size=60
).filter(lambda drawn: any(marked for marked, _ in drawn))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(drawn=characters)
def test_the_figures_of_random_characters_are_the_references(figure_models, drawn):
    con = figure_models
    con.execute("DELETE FROM probability_characters")
    con.executemany("INSERT INTO probability_characters VALUES (1, ?, ?)", drawn)
    marked, scores = np.array([m for m, _ in drawn]), np.array([p for _, p in drawn])
    average_precision, error = con.execute(
        "SELECT average_precision, calibration_error FROM probability_quality"
    ).fetchone()
    assert average_precision == pytest.approx(average_precision_score(marked, scores), abs=1e-12)
    diagram, reference_error = reliability(marked, scores)
    assert error == pytest.approx(reference_error, abs=1e-12)
    bins = con.execute(
        "SELECT bin, characters, mean_probability, observed_rate FROM probability_calibration"
    ).fetchall()
    assert {b: tuple(figures) for b, *figures in bins} == {
        b: pytest.approx(figures, abs=1e-12) for b, figures in diagram.items()
    }
    assert all(1 <= b <= BINS for b, *_ in bins)


@pytest.fixture(scope="module")
def span_db():
    """An empty database in memory with every table and the views the calibration models need."""
    con = duckdb.connect()
    database.create_database(con, ["probability_quality"])
    yield con
    con.close()


def fill(con, texts: dict[str, list[int]], gold: list[Span], predicted: list[Span]) -> None:
    """Texts of tokens of these lengths, and the two lists of one split: the gold (set 1) and a submission (set 2)."""
    for filled in ("texts", "tokens", "annotation_sets", "mistakes"):
        con.execute(f"DELETE FROM {filled}")
    for text_id, lengths in texts.items():
        con.execute("INSERT INTO texts VALUES (?, 's', NULL, NULL, ?, 1, 'c', NULL)", [text_id, len(lengths)])
        con.executemany(
            "INSERT INTO tokens VALUES (?, ?, 1, ?, ?, NULL, NULL)",
            [(text_id, number, number, "x" * length) for number, length in enumerate(lengths, 1)],
        )
    for set_id, kind, spans in ((1, "gold", gold), (2, "submission", predicted)):
        con.execute(
            "INSERT INTO annotation_sets (set_id, kind, name, split, source_file, sha256, row_count, corpus)"
            " VALUES (?, ?, ?, 's', 'f', 'h', 0, 'c')",
            [set_id, kind, kind],
        )
        for line, (text, first, last, p) in enumerate(spans, 2):
            con.execute(
                "INSERT INTO mistakes (set_id, line_number, text_id, sentence_id, sent_token_start, sent_token_end,"
                " doc_token_start, doc_token_end, category, probability) VALUES (?, ?, ?, 1, ?, ?, ?, ?, 'C', ?)",
                [set_id, line, text, first, last, first, last, p],
            )


probabilities = st.one_of(st.none(), st.integers(0, 20).map(lambda twentieths: twentieths / 20))


@st.composite
def span_lists(draw) -> tuple[dict[str, list[int]], list[Span], list[Span]]:
    """One to three texts of one to eight tokens, and two lists of spans over them that may overlap."""
    texts = {f"t{n}": draw(st.lists(st.integers(1, 6), min_size=1, max_size=8)) for n in range(draw(st.integers(1, 3)))}

    def spans(size: int) -> list[Span]:
        found = []
        for _ in range(draw(st.integers(0, size))):
            text_id = draw(st.sampled_from(sorted(texts)))
            first = draw(st.integers(1, len(texts[text_id])))
            found.append((text_id, first, draw(st.integers(first, len(texts[text_id]))), draw(probabilities)))
        return found

    return texts, spans(4), spans(6)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(drawn=span_lists())
def test_random_span_lists_are_weighed_as_the_reference_weighs_them(span_db, drawn):
    texts, gold, predicted = drawn
    fill(span_db, texts, gold, predicted)
    scored_gold = [span for span in gold if span[3] is None or span[3] >= 0.5]
    marked, scores = reference_characters(
        {t: " ".join("x" * n for n in lengths) for t, lengths in texts.items()}, scored_gold, predicted
    )
    rows = span_db.execute(
        "SELECT characters, gold_characters, average_precision, calibration_error FROM probability_quality"
    ).fetchall()
    if all(span[3] is None for span in predicted):  # no probability: not weighed
        assert rows == []
        return
    [(characters, gold_characters, average_precision, error)] = rows
    assert (characters, gold_characters) == (len(scores), marked.sum())
    assert error == pytest.approx(reliability(marked, scores)[1], abs=1e-12)
    if marked.any():
        assert average_precision == pytest.approx(average_precision_score(marked, scores), abs=1e-12)
    else:
        assert average_precision is None
