"""The probabilities of a Mu-SHROOM corpus's lists, over the characters of a split (issue 34, item 4): each list's
precision-recall curve and average precision against scikit-learn's precision_recall_curve and
average_precision_score, and its reliability diagram and expected calibration error against a numpy implementation
written here from the definition (ten bins of equal width, the last holding 1; ECE the bins' |observed rate - mean
probability| weighted by their share of the characters). The characters and their labels come from
tests/mushroom_oracle.py and the files themselves, not from the models under test. The dashboard's Calibration page
shows the command's figures: its table, its two charts' points and the AP and ECE in their headings."""

from __future__ import annotations

import json

import mushroom_oracle as oracle
import numpy as np
import pytest
import streamlit as st
from accuracy_db.dashboard.literal import literal
from sklearn.metrics import average_precision_score, precision_recall_curve
from test_dashboard import chart, labelled, table
from test_dashboard_corpora import opened_at
from test_mushroom_statistics import SYSTEMS, imported_mushroom

from accuracy_db.cli.main import run
from accuracy_db.stats import calibration
from accuracy_db.store import database

BINS = 10


@pytest.fixture(scope="module")
def mushroom(built_db, tmp_path_factory):
    db, gold, predictions = imported_mushroom(built_db, tmp_path_factory.mktemp("calibration"))
    con = database.open_existing(db)
    yield db, con, gold, predictions
    con.close()


def characters(gold: list[dict], predicted: list[dict], split: str) -> tuple[np.ndarray, np.ndarray]:
    """Every character of the split's texts in id order: whether the gold's hard labels mark it, and the
    probability the prediction gives it (its soft labels; a prediction of hard labels alone gives them 1, a text
    without a line 0), as the task's rules read a file."""
    by_id = {line["id"]: line for line in predicted}
    marked, scores = [], []
    for line in sorted(gold, key=lambda line: line["id"]):
        if line["lang"] != split:
            continue
        length = len(line["model_output_text"])
        hard = oracle.hard_characters(line["hard_labels"])
        marked += [index in hard for index in range(length)]
        prediction = by_id.get(line["id"], {"soft_labels": []})
        soft = [(s["start"], s["end"], s["prob"]) for s in prediction.get("soft_labels", [])]
        if "soft_labels" not in prediction:
            soft = [(start, end, 1.0) for start, end in prediction["hard_labels"]]
        scores += oracle.soft_vector(soft, length)
    return np.array(marked), np.array(scores)


def reliability(marked: np.ndarray, scores: np.ndarray) -> tuple[dict[int, tuple], float]:
    """bin -> (characters, mean probability, observed rate), and the expected calibration error."""
    bins = np.minimum(np.floor(scores * BINS), BINS - 1).astype(int) + 1
    diagram = {
        int(b): (int((bins == b).sum()), scores[bins == b].mean(), marked[bins == b].mean()) for b in np.unique(bins)
    }
    error = sum(count / len(scores) * abs(rate - mean) for count, mean, rate in diagram.values())
    return diagram, error


@pytest.mark.parametrize("split", ["EN", "ZH"])
@pytest.mark.parametrize("system", SYSTEMS)
def test_the_curve_and_average_precision_are_scikit_learn_s(mushroom, system, split):
    _, con, gold, predictions = mushroom
    marked, scores = characters(gold, predictions[system], split)
    ours = calibration.curve_or_diagram(con, system, "mushroom", split, curve=True)
    assert [row["threshold"] for row in ours] == sorted(set(scores.tolist()), reverse=True)
    precision, recall, thresholds = precision_recall_curve(marked, scores, drop_intermediate=False)
    by_threshold = {row["threshold"]: row for row in ours}
    for p, r, t in zip(precision, recall, thresholds):
        assert (by_threshold[t]["precision"], by_threshold[t]["recall"]) == pytest.approx((p, r), abs=1e-12), t
    [quality] = [row for row in calibration.soft_label_quality(con, "mushroom", split) if row["submission"] == system]
    assert quality["average_precision"] == pytest.approx(average_precision_score(marked, scores), abs=1e-12)
    assert (quality["characters"], quality["gold_characters"]) == (len(scores), int(marked.sum()))


@pytest.mark.parametrize("split", ["EN", "ZH"])
@pytest.mark.parametrize("system", SYSTEMS)
def test_the_reliability_diagram_and_calibration_error_follow_the_definition(mushroom, system, split):
    _, con, gold, predictions = mushroom
    diagram, error = reliability(*characters(gold, predictions[system], split))
    ours = calibration.curve_or_diagram(con, system, "mushroom", split, curve=False)
    assert [row["bin"] for row in ours] == sorted(diagram)
    for row in ours:
        count, mean, rate = diagram[row["bin"]]
        assert (row["low"], row["high"]) == pytest.approx(((row["bin"] - 1) / BINS, row["bin"] / BINS))
        assert row["characters"] == count
        assert (row["mean_probability"], row["observed_rate"], row["gap"]) == pytest.approx(
            (mean, rate, rate - mean), abs=1e-12
        )
    [quality] = [row for row in calibration.soft_label_quality(con, "mushroom", split) if row["submission"] == system]
    assert quality["calibration_error"] == pytest.approx(error, abs=1e-12)


def test_the_command_prints_the_views_and_refuses_what_it_cannot_draw(mushroom, capsys):
    db, con, _, _ = mushroom
    base = ["calibration", "--db", str(db)]
    assert run(base + ["--split", "EN", "--format", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    expected = calibration.soft_label_quality(con, "mushroom", "EN")
    assert (
        [row["submission"] for row in printed]
        == [row["submission"] for row in expected]
        == sorted(SYSTEMS, key=lambda name: -next(r["average_precision"] for r in expected if r["submission"] == name))
    )
    assert run(base + ["--split", "ZH", "--submission", "beta", "--curve", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == calibration.curve_or_diagram(con, "beta", "mushroom", "ZH", True)
    for args, message in [
        (["--curve"], "--curve draws one list's curve: give --submission"),
        (["--corpus", "shared-task"], "corpus shared-task has no list read with character labels"),
        (["--submission", "alpha"], "'alpha' is a submission of the ZH and EN splits: give --split"),
        (["--corpus", "shared-task", "--submission", "submission"], "submission was not read with character labels"),
    ]:
        assert run(base + args) == 1
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err


def printed_json(capsys, args: list[str]) -> list[dict]:
    assert run(args) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(("split", "system"), [("EN", "alpha"), ("ZH", "gamma")])
def test_the_calibration_page_draws_the_command_s_curve_and_diagram(mushroom, monkeypatch, capsys, split, system):
    db, _, _, _ = mushroom
    st.cache_data.clear()  # (results cached by another test's run of the page are for another file)
    at = opened_at(db, monkeypatch, "calibration")
    assert f"No list of corpus {literal('shared-task')} has probabilities" in at.info[0].value  # the task has none
    at = opened_at(db, monkeypatch, "calibration", corpus="mushroom")
    labelled(at.selectbox, "Split").set_value(split).run()
    labelled(at.selectbox, "List").set_value(system).run()
    assert not at.exception, at.exception
    base = ["calibration", "--db", str(db), "--split", split, "--format", "json"]
    quality = printed_json(capsys, base)
    shown = table(at, "soft_label_quality")
    assert list(shown["submission"]) == [row["submission"] for row in quality]
    for column in ("characters", "gold_characters"):
        assert list(shown[column]) == [row[column] for row in quality], column
    for column in ("average_precision", "calibration_error"):  # (a sum's last bit depends on DuckDB's threads)
        assert list(shown[column]) == pytest.approx([row[column] for row in quality], abs=1e-12), column
    [chosen] = [row for row in quality if row["submission"] == system]
    headings = [element.value for element in at.subheader]
    assert f"Precision and recall: AP {chosen['average_precision']:.3f}" in headings
    assert f"Reliability: ECE {chosen['calibration_error']:.3f}" in headings
    curve = printed_json(capsys, [*base, "--submission", system, "--curve"])
    _, points = chart(at, "precision_recall_chart")
    drawn = points.sort_values("threshold", ascending=False).to_dict("records")
    assert drawn == [pytest.approx(row, abs=1e-12) for row in curve] and len(curve) > 2
    diagram = printed_json(capsys, [*base, "--submission", system])
    spec, bins = chart(at, "reliability_chart")
    assert bins.to_dict("records") == [pytest.approx(row, abs=1e-12) for row in diagram]
    assert [layer["mark"]["type"] for layer in spec["layer"]] == ["line", "bar", "circle"]
