"""The mushroom scheme on the files the Mu-SHROOM task published (issue 47, item 6): its ten validation files and
eleven labelled test files, read in place from ../shared/data/mushroom, each imported as the gold of a corpus of
its own, with three predictions made from it (benchmarks/mushroom_predictions.py): one annotator's spans (empty ones
included), noisy soft labels (soft alone, soft and hard, hard alone), and empty ones. Every text's iou and cor
(mushroom_text_scores), the means (mushroom_scores) and the drop-in `evaluate --scheme mushroom` must equal
tests/mushroom_oracle.py, written from the task's scorer.py, to 1e-9; the oracle's rho is checked against
scipy.stats.spearmanr, which the task's scorer calls, and its reading of the task's rules on cases worked by hand."""

from __future__ import annotations

import json
import math

import mushroom_oracle as oracle
import numpy as np
import pytest
import shared_data
from accuracy_db.etl import mushroom_files
from scipy import stats

from accuracy_db.cli.main import run
from accuracy_db.store import database
from benchmarks.mushroom_predictions import KINDS, predictions, read_lines, real_files, write_lines

FILES = real_files(shared_data.SHARED / "mushroom")  # (shared_data by name: conftest sees the module reads the data)
TOLERANCE = 1e-9


def corpus_of(path) -> str:
    """mushroom.en-val.v2.extra.jsonl -> en-val"""
    return path.name.split(".")[1]


@pytest.fixture(scope="module")
def real(tmp_path_factory) -> tuple[dict, dict, dict]:
    """One database holding every real file as the gold of its corpus and its three predictions as submissions:
    {corpus: (gold lines, {kind: (prediction path, lines)})}, and what the database says of the predictions,
    each view read once (each read computes it for every list, the annotators' too): {(corpus, kind): {text_id:
    (iou, cor)}} from mushroom_text_scores, {(corpus, kind): (texts, iou, cor)} from mushroom_scores."""
    folder = tmp_path_factory.mktemp("mushroom-real")
    con = database.open_new(folder / "real.duckdb", models=["mushroom_scores"], threads=1)
    corpora = {}
    for number, path in enumerate(FILES):
        corpus, gold = corpus_of(path), read_lines(path)
        mushroom_files.load_gold(con, path, corpus)
        made = {}
        for kind, lines in predictions(gold, number).items():
            predicted = write_lines(folder / f"{corpus}-{kind}.jsonl", lines)
            mushroom_files.load_prediction(con, predicted, corpus, kind)
            made[kind] = (predicted, lines)
        corpora[corpus] = (gold, made)
    ours = "JOIN annotation_sets ON set_id = submission_id WHERE kind = 'submission' AND name IN ?"
    text_scores = {}
    for corpus, kind, text_id, iou, cor in con.execute(
        f"SELECT corpus, name, text_id, iou, cor FROM mushroom_text_scores {ours}", [KINDS]
    ).fetchall():
        text_scores.setdefault((corpus, kind), {})[text_id] = (iou, cor)
    means = {
        (corpus, kind): figures
        for corpus, kind, *figures in con.execute(
            f"SELECT mushroom_scores.corpus, submission, texts, iou, cor FROM mushroom_scores {ours}", [KINDS]
        ).fetchall()
    }
    con.close()
    return corpora, text_scores, means


def close(ours: tuple, theirs: tuple) -> bool:
    return all(math.isclose(a, b, rel_tol=0, abs_tol=TOLERANCE) for a, b in zip(ours, theirs, strict=True))


def test_the_task_published_21_labelled_files():
    assert [corpus_of(path) for path in FILES] == [
        *(f"{lang}-val" for lang in ("ar", "de", "en", "es", "fi", "fr", "hi", "it", "sv", "zh")),
        *(f"{lang}-tst" for lang in ("ca", "cs", "de", "es", "eu", "fa", "fi", "fr", "hi", "it", "sv")),
    ]


@pytest.mark.parametrize("path", FILES, ids=corpus_of)
def test_every_text_and_the_means_equal_the_oracle(real, path):
    corpora, text_scores, means = real
    corpus = corpus_of(path)
    gold, made = corpora[corpus]
    for kind, (_, lines) in made.items():
        expected, ours = oracle.scores(gold, lines), text_scores[corpus, kind]
        assert sorted(ours) == sorted(expected), kind
        differing = [(text_id, ours[text_id], figures) for text_id, figures in expected.items()]
        differing = [row for row in differing if not close(row[1], row[2])]
        assert differing == [], f"{kind}: {len(differing)} text(s) differ, first {differing[:3]}"
        iou, cor = np.mean(list(expected.values()), axis=0)  # as scorer.py averages a file's texts
        assert means[corpus, kind] == [
            len(gold),
            pytest.approx(iou, abs=TOLERANCE),
            pytest.approx(cor, abs=TOLERANCE),
        ], kind


@pytest.mark.parametrize("path", FILES, ids=corpus_of)
def test_the_drop_in_evaluate_gives_the_oracle_s_means(real, path, capsys):
    """One prediction a file through `evaluate --scheme mushroom --format json`, the kinds in turn."""
    gold, made = real[0][corpus_of(path)]
    kind = KINDS[FILES.index(path) % len(KINDS)]
    predicted, lines = made[kind]
    command = ["evaluate", "--scheme", "mushroom", "--gsml", str(path), "--submitted", str(predicted)]
    assert run([*command, "--format", "json"]) == 0
    means = np.mean(list(oracle.scores(gold, lines).values()), axis=0)
    (report,) = json.loads(capsys.readouterr().out)
    assert report == {
        "texts": len(gold),
        "iou": pytest.approx(means[0], abs=TOLERANCE),
        "cor": pytest.approx(means[1], abs=TOLERANCE),
    }, kind


def test_the_predictions_are_of_every_kind_the_task_s_rules_cover(real):
    """So that the comparisons above test what they say: empty spans, derived labels, varying and constant
    vectors, overlapping labels in shuffled order, and vectors constant only once rounded."""
    lines = {kind: [line for _, made in real[0].values() for line in made[kind][1]] for kind in KINDS}
    assert any(span[0] == span[1] for line in lines["annotator"] for span in line["hard_labels"])
    assert any(line["hard_labels"] == [] for line in lines["annotator"])  # texts the annotator did not label
    noisy = lines["noisy"]
    forms = {tuple(sorted(set(line) - {"id"})) for line in noisy}
    assert forms == {("soft_labels",), ("hard_labels", "soft_labels"), ("hard_labels",)}
    soft = [line["soft_labels"] for line in noisy if "soft_labels" in line]
    assert any(label["start"] == label["end"] for labels in soft for label in labels)
    assert any(
        a["start"] < b["end"] and b["start"] < a["end"] and a["start"] > b["start"]
        for labels in soft
        for i, a in enumerate(labels)
        for b in labels[i + 1 :]
    )  # a later label overlapping an earlier one that starts after it: the order given decides
    assert any(labels and all(0 < label["prob"] < 5e-9 for label in labels) for labels in soft)
    assert {len(line) for line in lines["empty"]} == {2}


@pytest.mark.parametrize("path", FILES[:3] + FILES[-3:], ids=corpus_of)
def test_the_oracle_s_rho_is_scipy_s(real, path):
    """The oracle's Spearman's rho on the real texts' vectors where neither is constant is scipy.stats.spearmanr's,
    the function the task's scorer calls."""
    gold, made = real[0][corpus_of(path)]
    compared = 0
    for kind in ("annotator", "noisy"):
        by_id = {line["id"]: line for line in made[kind][1]}
        for line in gold:
            length = len(line["model_output_text"])
            _, soft = oracle.completed(by_id[line["id"]])
            ours = oracle.soft_vector([(s["start"], s["end"], s["prob"]) for s in line["soft_labels"]], length)
            theirs = oracle.soft_vector(soft, length)
            if not (oracle.constant(ours) or oracle.constant(theirs)):
                compared += 1
                assert oracle.spearman(ours, theirs) == pytest.approx(
                    stats.spearmanr(ours, theirs).statistic, abs=1e-12
                )
    assert compared > len(gold) // 2


def test_the_oracle_reads_the_task_s_rules_as_worked_by_hand():
    # hard from soft: p > 0.5 in order of (start, end), a span starting where the last ended joined to it
    assert oracle.completed({"soft_labels": [{"start": s, "end": e, "prob": p} for s, e, p in (
        (5, 8, 0.9), (0, 2, 0.6), (2, 5, 0.51), (8, 9, 0.5), (10, 12, 1.0))]})[0] == [(0, 8), (10, 12)]  # fmt: skip
    # soft from hard: each span at p = 1, empty ones included (they mark nothing)
    assert oracle.completed({"hard_labels": [[1, 3], [4, 4]]}) == ([(1, 3), (4, 4)], [(1, 3, 1.0), (4, 4, 1.0)])
    # a later soft label overrides an earlier one where they overlap
    assert list(oracle.soft_vector([(0, 4, 0.2), (2, 6, 0.9), (3, 4, 0.0)], 7)) == [0.2, 0.2, 0.9, 0.0, 0.9, 0.9, 0]
    # constant once rounded to 8 decimals by Python's round(): 2.5e-8 is 2.4999…e-8, which rounds to 2e-8
    assert oracle.constant(np.array([2e-8, 2.5e-8])) and oracle.constant(np.array([0, 4.9e-9]))
    assert not oracle.constant(np.array([0, 5.1e-9]))
    assert oracle.cor([(0, 3, 3e-9)], [], 5) == 1.0  # both constant
    assert oracle.cor([(0, 3, 0.5)], [], 5) == 0.0  # the prediction alone constant
    # rho of the vectors: (0.5, 0.5, 0, 0) against (1, 0, 0, 0)
    assert oracle.cor([(0, 2, 0.5)], [(0, 1, 1.0)], 4) == pytest.approx(stats.spearmanr([1, 1, 0, 0], [1, 0, 0, 0])[0])
    # iou of characters: 1-3 and 2-5 share 1 of 4; none on either side is 1
    assert oracle.iou([(1, 3)], [(2, 5), (4, 4)]) == 0.25 and oracle.iou([], [(3, 3)]) == 1.0
    # an empty text: empty vectors are not constant, and scipy's rho of them (the scorer's) is NaN
    assert math.isnan(oracle.cor([], [], 0)) and math.isnan(stats.spearmanr([], []).statistic)
