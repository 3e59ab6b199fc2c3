"""The mushroom scheme (SemEval-2025 Task 3, Mu-SHROOM) beside the others: `leaderboard --scheme mushroom` (its
figures, ranking, intervals and clusters), `compare --scheme mushroom` and the dashboard's Leaderboard and
Significance pages. The figures are checked against tests/mushroom_oracle.py text by text; the intervals against an
independent numpy bootstrap of the oracle's per-text values (its own random generator), and the paired permutation
test against scipy.stats.permutation_test on the same values, each within the Monte-Carlo error stated in
test_scheme_statistics.py."""

from __future__ import annotations

import json
import math
import random
import shutil
from pathlib import Path

import numpy as np
import pytest
from scipy import stats
from test_dashboard import chart, labelled, table
from test_dashboard_corpora import opened_at
from test_mushroom import expected, write
from test_scheme_statistics import P_DEVIATIONS, quantile_band

from accuracy_db.cli.main import run
from accuracy_db.formatting import p_value_text
from accuracy_db.scoring.schemes import NERVALUATE_SCHEMES, UNIT_SCHEMES
from accuracy_db.stats.intervals import Resampling, bootstrap_intervals
from accuracy_db.stats.significance import compare
from accuracy_db.store import database

# Words of Latin, Chinese, Arabic (right to left), an emoji outside the BMP and a combining accent.
WORDS = ["Paris", "is", "the", "capital", "of", "Italy", "中文", "首都", "العاصمة", "😀", "cafe\u0301", "1889"]
SYSTEMS = ("alpha", "beta", "gamma")
RESAMPLES = 10_000
TRIALS = 10_000


def word_spans(rng: random.Random, text: str, most: int) -> list[tuple[int, int]]:
    """Disjoint spans of whole words, left to right (so that their tokens never overlap within a list)."""
    starts, position = [], 0
    for word in text.split(" "):
        starts.append((position, position + len(word)))
        position += len(word) + 1
    chosen = sorted(rng.sample(range(len(starts)), min(len(starts), rng.randint(0, most))))
    return [starts[i] for i in chosen]


def generated(seed: int = 34) -> tuple[list[dict], dict[str, list[dict]]]:
    """A labelled file of 30 EN and 20 ZH texts, and three systems' predictions (soft labels, hard labels, both;
    a text now and then without a line)."""
    rng = random.Random(seed)
    gold, predictions = [], {system: [] for system in SYSTEMS}
    for number in range(50):
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 12)))
        soft = [{"start": s, "end": e, "prob": rng.randint(1, 10) / 10} for s, e in word_spans(rng, text, 3)]
        gold.append(
            {
                "id": f"val-{number:02}",
                "lang": "EN" if number < 30 else "ZH",
                "model_input": "?",
                "model_output_text": text,
                "soft_labels": soft,
                "hard_labels": [[label["start"], label["end"]] for label in soft if label["prob"] > 0.5],
            }
        )
        for index, system in enumerate(SYSTEMS):
            if rng.random() < 0.1:
                continue
            line = {"id": gold[-1]["id"]}
            if index != 1:
                labels = word_spans(rng, text, 3)
                line["soft_labels"] = [{"start": s, "end": e, "prob": rng.randint(0, 20) / 20} for s, e in labels]
            if index != 0:
                line["hard_labels"] = [list(span) for span in word_spans(rng, text, 2)]
            predictions[system].append(line)
    return gold, predictions


@pytest.fixture(scope="module")
def mushroom_db(built_db, tmp_path_factory) -> tuple[Path, list[dict], dict[str, list[dict]]]:
    return imported_mushroom(built_db, tmp_path_factory.mktemp("mushroom_statistics"))


def imported_mushroom(built_db: Path, folder: Path) -> tuple[Path, list[dict], dict[str, list[dict]]]:
    """The shared-task database with a Mu-SHROOM corpus imported (`import mushroom`): the labelled file, its
    three systems."""
    db = folder / "accuracy.duckdb"
    shutil.copyfile(built_db, db)
    gold, predictions = generated()
    assert run(["import", "mushroom", "--db", str(db), "--as", "gold", str(write(folder / "ref.jsonl", gold))]) == 0
    for system, lines in predictions.items():
        assert run(["import", "mushroom", "--db", str(db), str(write(folder / f"{system}.jsonl", lines))]) == 0
    return db, gold, predictions


def oracle_values(gold: list[dict], predicted: list[dict], split: str) -> np.ndarray:
    """(texts of the split in id order, [iou, cor]) by the oracle: the model under test is not read."""
    figures = expected(gold, predicted)
    return np.array(
        [figures[line["id"]] for line in sorted(gold, key=lambda line: line["id"]) if line["lang"] == split]
    )


def printed(capsys, args: list[str]):
    assert run(args) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def test_leaderboard_ranks_by_iou_with_the_oracle_s_means_per_split(mushroom_db, capsys):
    db, gold, predictions = mushroom_db
    rows = printed(
        capsys, ["leaderboard", "--db", str(db), "--corpus", "mushroom", "--scheme", "mushroom", "--format", "json"]
    )
    for split in ("ZH", "EN"):  # test first, then by name, as every leaderboard orders its splits
        of_split = [row for row in rows if row["split"] == split]
        means = {system: oracle_values(gold, predictions[system], split).mean(axis=0) for system in SYSTEMS}
        order = sorted(SYSTEMS, key=lambda system: (-means[system][0], -means[system][1]))
        assert [row["submission"] for row in of_split] == order
        assert [row["rank"] for row in of_split] == [1, 2, 3]
        for row in of_split:
            assert [row["iou"], row["cor"]] == pytest.approx(list(means[row["submission"]]), abs=1e-12)
            assert row["texts"] == (30 if split == "EN" else 20)
            assert "|scheme:mushroom|" in row["signature"] and "|scope:ALL" in row["signature"]
    assert [row["split"] for row in rows] == ["ZH"] * 3 + ["EN"] * 3  # the annotators read no labels: not here


def test_leaderboard_ci_gives_intervals_around_the_figures_and_clusters_by_iou(mushroom_db, capsys):
    db, _, _ = mushroom_db
    args = ["leaderboard", "--db", str(db), "--corpus", "mushroom", "--scheme", "mushroom", "--split", "EN"]
    rows = printed(capsys, args + ["--ci", "--resamples", "500", "--trials", "500", "--format", "json"])
    assert len(rows) == 3
    for row in rows:
        for figure in ("iou", "cor"):
            low, high = row[f"{figure}_ci"]
            assert low <= row[figure] <= high and low < high
        assert row["excluded_replicates"] == {"iou": 0, "cor": 0}
        assert "|bs:500|seed:12345|ci:95|test:permutation|trials:500" in row["signature"]
    assert [row["cluster"] for row in rows][0] == 1
    assert all(a <= b for a, b in zip([r["cluster"] for r in rows], [r["cluster"] for r in rows][1:]))


def submission_id(db: Path, name: str) -> int:
    con = database.open_existing(db)
    try:
        return con.execute("SELECT set_id FROM annotation_sets WHERE name = ? AND split = 'EN'", [name]).fetchone()[0]
    finally:
        con.close()


@pytest.mark.parametrize("system", SYSTEMS)
def test_intervals_agree_with_an_independent_numpy_bootstrap(mushroom_db, system):
    db, gold, predictions = mushroom_db
    set_id = submission_id(db, system)
    con = database.open_existing(db)
    try:
        ours = bootstrap_intervals(con, [set_id], ["ALL"], Resampling(RESAMPLES, 7, 0.95), "mushroom")
    finally:
        con.close()
    values = oracle_values(gold, predictions[system], "EN")
    draws = np.random.default_rng(2025).integers(0, len(values), size=(RESAMPLES, len(values)))
    means = values[draws].mean(axis=1)
    for index, figure in enumerate(("iou", "cor")):
        row = ours[(set_id, "ALL", figure)]
        assert (row["replicates"], row["excluded"]) == (RESAMPLES, 0)
        for bound, q in ((row["low"], 0.025), (row["high"], 0.975)):
            low, high = quantile_band(means[:, index], q)
            assert low <= bound <= high, (figure, q, bound, low, high)


def test_lists_that_differ_on_one_text_differ_by_it_in_every_permutation_trial(mushroom_db, tmp_path):
    """Every trial's difference is ± that text's, so p = 1: a trial whose difference equals the observed one counts
    whatever order its sums were added in (the trials' by a matrix product, the observed by a sum), as scipy's
    permutation_test counts ties within rounding."""
    db, gold, predictions = mushroom_db
    copy = tmp_path / "accuracy.duckdb"
    shutil.copyfile(db, copy)
    english = {line["id"] for line in gold if line["lang"] == "EN"}
    before = expected(gold, predictions["alpha"])
    for number, line in enumerate(predictions["alpha"]):  # the first English text where no labels change both figures
        lines = (
            predictions["alpha"][:number] + [{"id": line["id"], "soft_labels": []}] + predictions["alpha"][number + 1 :]
        )
        after = expected(gold, lines)
        if line["id"] in english and all(a != b for a, b in zip(before[line["id"]], after[line["id"]])):
            break
    assert run(["import", "mushroom", "--db", str(copy), str(write(tmp_path / "omega.jsonl", lines))]) == 0
    con = database.open_existing(copy)
    try:
        for figure in ("iou", "cor"):
            ours = compare(con, "alpha", "omega", "ALL", figure, "permutation", 2000, corpus="mushroom",
                           scheme="mushroom", split="EN")  # fmt: skip
            assert ours["difference"] != 0 and ours["p_value"] == 1.0, (figure, ours)
    finally:
        con.close()


@pytest.mark.parametrize(("a", "b"), [("alpha", "beta"), ("beta", "gamma"), ("alpha", "gamma")])
@pytest.mark.parametrize("figure", ["iou", "cor"])
def test_permutation_p_values_agree_with_scipy(mushroom_db, a, b, figure):
    db, gold, predictions = mushroom_db
    con = database.open_existing(db)
    try:
        ours = compare(
            con, a, b, "ALL", figure, "permutation", TRIALS, corpus="mushroom", scheme="mushroom", split="EN"
        )
    finally:
        con.close()
    index = ("iou", "cor").index(figure)
    first = oracle_values(gold, predictions[a], "EN")[:, index]
    second = oracle_values(gold, predictions[b], "EN")[:, index]
    assert (ours["a_value"], ours["b_value"]) == pytest.approx((first.mean(), second.mean()), abs=1e-12)
    assert ours["difference"] == pytest.approx(first.mean() - second.mean(), abs=1e-12)
    # scipy's paired ("samples") permutation test swaps each text's two values, as ours does; its two-sided p-value
    # doubles the smaller tail, which for a null distribution symmetric about 0 (a swap of every text flips the
    # sign) is the share of |difference| at least the observed one that ours counts.
    theirs = stats.permutation_test(
        (first, second),
        lambda x, y, axis: np.mean(x, axis=axis) - np.mean(y, axis=axis),
        permutation_type="samples",
        vectorized=True,
        n_resamples=TRIALS,
        random_state=np.random.default_rng(99),
    ).pvalue
    p = max(ours["p_value"], theirs)
    assert abs(ours["p_value"] - theirs) <= P_DEVIATIONS * math.sqrt(2 * p * (1 - p) / TRIALS) + 2 / TRIALS
    assert ours["difference_ci"][0] <= ours["difference"] <= ours["difference_ci"][1]
    assert "|scheme:mushroom|" in ours["signature"]


def test_compare_defaults_to_iou_and_refuses_what_the_scheme_cannot_score(mushroom_db, capsys):
    db, _, _ = mushroom_db
    base = ["compare", "--db", str(db), "--scheme", "mushroom"]
    result = printed(capsys, base + ["alpha", "beta", "--corpus", "mushroom", "--split", "ZH", "--format", "json"])
    assert result["metric"] == "iou" and result["trials"] == 10_000
    assert run(base + ["alpha", "beta"]) == 1
    assert "'alpha' is a submission of the ZH and EN splits: give --split" in capsys.readouterr().err
    for args, message in [
        (
            ["alpha", "beta", "--corpus", "mushroom", "--metric", "recall"],
            "'recall' is not a figure of scheme mushroom: one of iou, cor",
        ),
        (
            ["alpha", "beta", "--corpus", "mushroom", "--scope", "HALLUCINATION"],
            "the mushroom scheme scores every label: its one scope is ALL, not 'HALLUCINATION'",
        ),
        (
            ["submission", "submission"],
            "submission was not read with character labels: the mushroom scheme scores the lists `import mushroom` reads",
        ),
    ]:
        assert run(base + args) == 1
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err
    assert run(["leaderboard", "--db", str(db), "--scheme", "mushroom"]) == 1
    assert "corpus shared-task has no list read with character labels" in capsys.readouterr().err


def test_the_leaderboard_page_opens_on_the_mushroom_scheme_where_the_corpus_has_character_labels(
    mushroom_db, monkeypatch, capsys
):
    """As `accuracy-db leaderboard` ranks such a corpus by default (issue 48, finding 8): the lists read with
    character labels with their intervals and clusters; the match schemes below."""
    db, _, _ = mushroom_db
    at = opened_at(db, monkeypatch, "leaderboard")
    assert "mushroom" not in labelled(at.selectbox, "Match scheme").options  # the shared task has no such labels
    at = opened_at(db, monkeypatch, "leaderboard", corpus="mushroom")
    labelled(at.selectbox, "Split").set_value("EN").run()
    assert not at.exception, at.exception
    shown = table(at, "mushroom_leaderboard")
    args = ["leaderboard", "--db", str(db), "--corpus", "mushroom", "--split", "EN", "--ci", "--format", "json"]
    rows = printed(capsys, args)
    assert rows == printed(capsys, [*args, "--scheme", "mushroom"])  # the corpus's scheme by default
    assert list(shown["submission"]) == [row["submission"] for row in rows]
    for column in ("rank", "cluster", "kind", "texts"):
        assert list(shown[column]) == [row[column] for row in rows]
    for column in ("iou_loo", "cor_loo"):  # an annotator's ceiling against the others; none for another list
        assert [None if value != value else value for value in shown[column]] == [row[column] for row in rows]
    for column in ("iou", "cor"):  # each mean and its interval's bounds, numbers in columns of their own
        assert list(shown[column]) == [row[column] for row in rows]
        assert list(shown[f"{column}_low"]) == [row[f"{column}_ci"][0] for row in rows]
        assert list(shown[f"{column}_high"]) == [row[f"{column}_ci"][1] for row in rows]
    assert list(table(at, "signatures")["signature"]) == [row["signature"] for row in rows]
    assert labelled(at.selectbox, "Match scheme").options == ["shared-task", *NERVALUATE_SCHEMES, *UNIT_SCHEMES]
    labelled(at.selectbox, "Match scheme").set_value("shared-task").run()
    under = table(at, "scheme_leaderboard")
    ranked = printed(capsys, [*args[:-3], "--scheme", "shared-task", "--format", "json"])
    assert list(under["submission"]) == [row["submission"] for row in ranked]


def test_the_significance_page_compares_under_the_mushroom_scheme_as_compare_does(mushroom_db, monkeypatch, capsys):
    db, _, _ = mushroom_db
    at = opened_at(db, monkeypatch, "significance", corpus="mushroom", split="EN", scheme="mushroom")
    assert labelled(at.selectbox, "Scope").options == ["ALL"]  # the scheme reads every label
    labelled(at.selectbox, "Figure").set_value("cor").run()
    assert not at.exception, at.exception
    _, cells = chart(at, "significance_matrix")
    assert sorted(zip(cells["a"], cells["b"])) == sorted((a, b) for a in SYSTEMS for b in SYSTEMS if a != b)
    args = ["compare", "alpha", "gamma", "--db", str(db), "--corpus", "mushroom", "--split", "EN"]
    result = printed(capsys, args + ["--scheme", "mushroom", "--metric", "cor", "--format", "json"])
    cell = cells[(cells["a"] == "alpha") & (cells["b"] == "gamma")].iloc[0]
    assert cell["difference"] == pytest.approx(result["difference"], abs=1e-12)
    assert list(cell["difference_ci"]) == pytest.approx(result["difference_ci"], abs=1e-12)
    assert cell["p"] == p_value_text(result["p_value"], result["trials"])
