"""Metric validity (accuracy_db/stats/validity.py, accuracy-db validity): the correlations equal scipy.stats on counts
read here from the data files, the intervals equal an independent numpy bootstrap within Monte-Carlo error, kappa
equals scikit-learn's and a worked example, and bad options are refused in one line."""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
import warnings
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from shared_data import DATA, EXAMPLES, SHARED
from sklearn.metrics import cohen_kappa_score
from test_cli_tables import printed_signatures
from test_saved_analyses import read_list, spans, taken

from accuracy_db import __version__
from accuracy_db.formatting import p_value_text
from accuracy_db.ingest.build import build
from accuracy_db.scoring.signature import signature
from accuracy_db.stats.intervals import Resampling
from accuracy_db.stats.resampling import bootstrap_draws
from accuracy_db.stats.validity import correlate, validity
from accuracy_db.store import database

CATEGORIES = ("NAME", "NUMBER", "WORD", "CONTEXT", "NOT_CHECKABLE", "OTHER")
SCOPES = ("ALL", *CATEGORIES)
LOADED = ("gsml_doc_based", "gsml_sent_based", "submission", "submission_doc_based", "submission_sent_based")
TRAIN_TEXTS = sorted(path.stem for path in (DATA / "texts").glob("*.txt"))
MEASURES3 = ("pearson", "spearman", "kendall")
FEW = Resampling(resamples=20)  # where only the point figures are checked


def counts_per_text(path) -> dict[str, list[int]]:
    """Scope -> the list's mistakes in each text of the train split (in text order, zeros included), counted
    from the CSV file by TEXT_ID and TYPE."""
    with path.open(encoding="utf-8-sig", newline="") as stream:
        rows = Counter((row["TEXT_ID"].removesuffix(".txt"), row["TYPE"]) for row in csv.DictReader(stream))
    return {
        scope: [
            sum(n for (text, category), n in rows.items() if text == text_id and scope in ("ALL", category))
            for text_id in TRAIN_TEXTS
        ]
        for scope in SCOPES
    }


def scipy_figures(gold, submitted) -> dict[str, tuple[float, float] | None]:
    """scipy's coefficient and p-value of each measure; None where an input is constant."""
    if len(set(gold)) == 1 or len(set(submitted)) == 1:
        return dict.fromkeys(("pearson", "spearman", "kendall"))
    return {
        "pearson": tuple(stats.pearsonr(gold, submitted)),
        "spearman": tuple(stats.spearmanr(gold, submitted)),
        "kendall": tuple(stats.kendalltau(gold, submitted, variant="b")),
    }


def figures(results, level) -> dict:
    return {(r["scope"], r["measure"]): r for r in results if r["level"] == level}


# --- the correlations equal scipy's on counts read from the files ---


def test_the_loaded_submissions_are_the_valid_examples(built):
    # and the box-score checker's list, of both splits, which build adds (tests/test_checker.py)
    loaded = sorted(name for (name,) in built.execute("SELECT submission FROM evaluations").fetchall())
    assert loaded == sorted([*LOADED, "boxscore", "boxscore"])
    assert len(TRAIN_TEXTS) == 60


def test_text_level_correlations_of_the_checker_equal_scipy_on_its_findings(built):
    """The box-score checker's list is valid like a file's: its counts a text are its findings' (the view read in
    the test), the gold's are the file's."""
    gold = counts_per_text(DATA / "gsml.csv")
    rows = Counter(
        built.execute(
            "SELECT text_id, category FROM boxscore_findings WHERE corpus = 'shared-task' AND split = 'train'"
        ).fetchall()
    )
    submitted = {
        scope: [
            sum(n for (text, category), n in rows.items() if text == text_id and scope in ("ALL", category))
            for text_id in TRAIN_TEXTS
        ]
        for scope in SCOPES
    }
    results = figures(validity(built, "boxscore", split="train", levels=["text"], settings=FEW), "text")
    assert len(results) == 7 * 3
    for scope in SCOPES:
        for measure, expected in scipy_figures(gold[scope], submitted[scope]).items():
            result = results[scope, measure]
            if expected is None:
                assert result["value"] is None
            else:
                assert result["value"] == pytest.approx(expected[0], abs=1e-9)
                assert result["p_value"] == pytest.approx(expected[1], abs=1e-9)


@pytest.mark.parametrize("name", LOADED)
def test_text_level_correlations_equal_scipy_on_the_counts_of_the_files(built, name):
    gold, submitted = counts_per_text(DATA / "gsml.csv"), counts_per_text(EXAMPLES / f"{name}.csv")
    results = figures(validity(built, name, levels=["text"], settings=FEW), "text")
    assert len(results) == 7 * 3
    for scope in SCOPES:
        for measure, expected in scipy_figures(gold[scope], submitted[scope]).items():
            result = results[scope, measure]
            assert result["n"] == 60
            if expected is None:
                assert (result["value"], result["p_value"], result["ci"]) == (None, None, None)
                assert "is the same" in result["reason"]
            else:
                assert result["value"] == pytest.approx(expected[0], abs=1e-9)
                assert result["p_value"] == pytest.approx(expected[1], abs=1e-9)
                assert result["reason"] is None


def test_every_undefined_case_of_the_examples_is_a_constant_input(built):
    # The example submission marks no WORD, CONTEXT, NOT_CHECKABLE or OTHER mistake; the gold lists do.
    results = figures(validity(built, "submission", levels=["text"], settings=FEW), "text")
    undefined = sorted({scope for (scope, _), r in results.items() if r["value"] is None})
    assert undefined == ["CONTEXT", "NOT_CHECKABLE", "OTHER", "WORD"]
    assert results["WORD", "kendall"]["reason"] == "the submission's count is the same (0) for every text"


def test_the_gold_list_against_itself_correlates_perfectly(built):
    results = figures(validity(built, "gsml_doc_based", scopes=["ALL"], levels=["text"], settings=FEW), "text")
    for measure in ("pearson", "spearman", "kendall"):
        assert results["ALL", measure]["value"] == pytest.approx(1.0, abs=1e-12)
        assert results["ALL", measure]["ci"] == pytest.approx([1.0, 1.0], abs=1e-12)


@pytest.mark.parametrize("name", ["submission", "submission_sent_based"])
def test_system_level_means_and_correlations_equal_the_files(built, name):
    with (SHARED / "nlg_systems.csv").open(newline="") as stream:
        system_of = {row["TEXT_ID"]: row["SYSTEM"] for row in csv.DictReader(stream)}
    gold, submitted = counts_per_text(DATA / "gsml.csv"), counts_per_text(EXAMPLES / f"{name}.csv")
    results = figures(validity(built, name, levels=["system"], settings=FEW), "system")
    names = sorted(set(system_of.values()))

    def means(counts):
        return [np.mean([c for text, c in zip(TRAIN_TEXTS, counts) if system_of.get(text) == s]) for s in names]

    for scope in SCOPES:
        gold_means, submitted_means = means(gold[scope]), means(submitted[scope])
        shown = results[scope, "pearson"]["systems"]
        assert [s["system"] for s in shown] == names and [s["texts"] for s in shown] == [7, 7, 7]
        assert [s["gold"] for s in shown] == pytest.approx(gold_means, abs=1e-12)
        assert [s["submitted"] for s in shown] == pytest.approx(submitted_means, abs=1e-12)
        for measure, expected in scipy_figures(gold_means, submitted_means).items():
            result = results[scope, measure]
            assert result["n"] == 3
            if expected is None:
                assert result["value"] is None and "every system" in result["reason"]
            else:
                assert result["value"] == pytest.approx(expected[0], abs=1e-9)
                assert result["p_value"] == pytest.approx(expected[1], abs=1e-9)


# --- the bootstrap ---


def average_ranks(rows: np.ndarray) -> np.ndarray:
    """Each row's values replaced by their ranks (1-based), ties given the mean of their ranks: the values below
    it, plus the middle of the run of values equal to it."""
    below = (rows[:, None, :] < rows[:, :, None]).sum(axis=2)
    equal = (rows[:, None, :] == rows[:, :, None]).sum(axis=2)
    return below + (equal + 1) / 2


def row_pearson(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    x = x - x.mean(axis=1, keepdims=True)
    y = y - y.mean(axis=1, keepdims=True)
    return (x * y).sum(axis=1) / np.sqrt((x * x).sum(axis=1) * (y * y).sum(axis=1))


def row_kendall_tau_b(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """tau-b over every pair of points, by its definition: (concordant - discordant) / sqrt((pairs - ties in x)
    x (pairs - ties in y))."""
    i, j = np.triu_indices(x.shape[1], k=1)
    dx, dy = np.sign(x[:, i] - x[:, j]), np.sign(y[:, i] - y[:, j])
    pairs = len(i)
    return (dx * dy).sum(axis=1) / np.sqrt((pairs - (dx == 0).sum(axis=1)) * (pairs - (dy == 0).sum(axis=1)))


def numpy_bootstrap(gold, submitted, resamples, confidence, seed) -> dict[str, list[float]]:
    """An independent percentile bootstrap: numpy's Generator draws the texts, numpy computes the coefficients."""
    gold, submitted = np.asarray(gold, dtype=float), np.asarray(submitted, dtype=float)
    draws = np.random.default_rng(seed).integers(0, len(gold), size=(resamples, len(gold)))
    x, y = gold[draws], submitted[draws]
    varies = (x.max(axis=1) > x.min(axis=1)) & (y.max(axis=1) > y.min(axis=1))
    x, y = x[varies], y[varies]
    chunks = [slice(k, k + 2000) for k in range(0, len(x), 2000)]  # a few hundred MB at a time

    def in_chunks(coefficient, ranked=False):
        prepare = average_ranks if ranked else np.asarray
        return np.concatenate([coefficient(prepare(x[chunk]), prepare(y[chunk])) for chunk in chunks])

    coefficients = {
        "pearson": row_pearson(x, y),
        "spearman": in_chunks(row_pearson, ranked=True),
        "kendall": in_chunks(row_kendall_tau_b),
    }
    tail = (1 - confidence) / 2
    return {m: [np.quantile(c, tail), np.quantile(c, 1 - tail)] for m, c in coefficients.items()}


def test_the_independent_coefficients_equal_scipy():
    rng = np.random.default_rng(7)
    x, y = rng.integers(0, 6, size=(5, 30)).astype(float), rng.integers(0, 6, size=(5, 30)).astype(float)
    for a, b, pearson, spearman, kendall in zip(
        x, y, row_pearson(x, y), row_pearson(average_ranks(x), average_ranks(y)), row_kendall_tau_b(x, y)
    ):
        assert pearson == pytest.approx(stats.pearsonr(a, b).statistic, abs=1e-12)
        assert spearman == pytest.approx(stats.spearmanr(a, b).statistic, abs=1e-12)
        assert kendall == pytest.approx(stats.kendalltau(a, b).statistic, abs=1e-12)


def test_intervals_equal_an_independent_numpy_bootstrap_within_monte_carlo_error(built):
    """Monte-Carlo error: here the bootstrap distributions have a standard deviation of about 0.11 (Pearson; less
    for the others), so an end (the 2.5 % or 97.5 % quantile of B draws) has a standard error of about
    sqrt(0.025 x 0.975 / B) / density = 0.0016 / (0.058 / 0.11) = 0.003 at B = 10,000, and 0.0015 for the
    reference's 40,000 draws: two ends differ with a standard deviation of about 0.0033, and 0.01 is 3 of them.
    Both generators are seeded, so the test gives the same answer on every run."""
    gold, submitted = counts_per_text(DATA / "gsml.csv")["ALL"], counts_per_text(EXAMPLES / "submission.csv")["ALL"]
    results = figures(validity(built, "submission", ["ALL"], ["text"], settings=Resampling(resamples=10_000)), "text")
    reference = numpy_bootstrap(gold, submitted, 40_000, 0.95, seed=2021)
    for measure, (low, high) in reference.items():
        ci = results["ALL", measure]["ci"]
        assert abs(ci[0] - low) <= 0.01 and abs(ci[1] - high) <= 0.01, (measure, ci, (low, high))
        assert ci[0] < results["ALL", measure]["value"] < ci[1]


def test_replicates_left_out_are_the_resamples_whose_counts_do_not_vary(built):
    # In OTHER the gold list has one mistake: a resample without its text has the same gold count everywhere.
    gold = np.array(counts_per_text(DATA / "gsml.csv")["OTHER"], dtype=float)
    (text,) = np.flatnonzero(gold)
    draws = bootstrap_draws(12345, np.arange(1, 1001, dtype=np.uint64), [60])
    constant = int((~(draws == text).any(axis=1)).sum())
    results = figures(validity(built, "gsml_doc_based", ["OTHER"], ["text"]), "text")
    for measure in ("pearson", "spearman", "kendall"):
        assert results["OTHER", measure]["undefined_resamples"] == constant
    assert 300 < constant < 420  # (59/60)**60 of 1000 is 365


def test_the_same_seed_gives_the_same_intervals_and_another_seed_others(built):
    def intervals(seed):
        results = validity(built, "submission", ["NAME"], ["text"], settings=Resampling(resamples=200, seed=seed))
        return [r["ci"] for r in results]

    assert intervals(5) == intervals(5)
    assert intervals(5) != intervals(6)


def test_stratified_draws_stay_within_each_stratum():
    draws = bootstrap_draws(99, np.arange(1, 501, dtype=np.uint64), [7, 3, 5])
    assert draws.shape == (500, 15)
    assert (
        (draws[:, :7] < 7).all()
        and ((draws[:, 7:10] >= 7) & (draws[:, 7:10] < 10)).all()
        and (draws[:, 10:] >= 10).all()
    )
    assert set(np.unique(draws[:, 10:])) == set(range(10, 15))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30)), min_size=3, max_size=40), st.randoms())
def test_resampling_every_text_exactly_once_reproduces_the_point_figure(pairs, random):
    gold, submitted = (np.array(series, dtype=float) for series in zip(*pairs))
    order = list(range(len(pairs)))
    random.shuffle(order)

    def every_text_once():
        return gold[None, order], submitted[None, order]

    for result in correlate(gold, submitted, every_text_once, "text", Resampling(resamples=1)):
        if result["value"] is None:
            assert "is the same" in result["reason"]
        else:
            assert result["ci"] == pytest.approx([result["value"]] * 2, abs=1e-12)


def test_an_undefined_correlation_is_null_with_a_reason_and_no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        two = correlate([1, 2], [3, 4], None, "text", Resampling())
        constant = correlate([2, 2, 2, 2], [1, 5, 2, 0], None, "system", Resampling())
    assert {(r["value"], r["p_value"], r["ci"], r["reason"]) for r in two} == {
        (None, None, None, "fewer than 3 texts (2)")
    }
    assert {r["reason"] for r in constant} == {"the gold count is the same (2) for every system"}


# --- category agreement and kappa ---


@pytest.mark.parametrize("name", ["submission", "submission_doc_based", "gsml_doc_based"])
def test_kappa_and_agreement_equal_scikit_learn_on_the_oracles_matched_pairs(built, name):
    gold, submitted = spans(read_list(DATA / "gsml.csv")), spans(read_list(EXAMPLES / f"{name}.csv"))
    gold_category = {span.key: span.category for span in gold}
    submitted_category = {span.key: span.category for span in submitted}
    pairs = [(gold_category[g], submitted_category[s]) for g, s in taken(gold, submitted).items() if s is not None]
    labels_gold, labels_submitted = zip(*pairs)
    results = figures(validity(built, name, levels=["category"]), "category")

    assert results["ALL", "kappa"]["n"] == len(pairs)
    assert results["ALL", "kappa"]["value"] == pytest.approx(
        cohen_kappa_score(labels_gold, labels_submitted), abs=1e-12
    )
    assert results["ALL", "agreement"]["value"] == pytest.approx(np.mean([g == s for g, s in pairs]), abs=1e-12)
    for category in CATEGORIES:
        is_gold = [g == category for g in labels_gold]
        is_submitted = [s == category for s in labels_submitted]
        kappa, agreement = results[category, "kappa"], results[category, "agreement"]
        if len(set(is_gold) | set(is_submitted)) == 1:
            assert kappa["value"] is None and "one label" in kappa["reason"]
        else:
            assert kappa["value"] == pytest.approx(cohen_kappa_score(is_gold, is_submitted), abs=1e-12)
        in_category = [s for g, s in pairs if g == category]
        assert agreement["n"] == len(in_category)
        if in_category:
            assert agreement["value"] == pytest.approx(in_category.count(category) / len(in_category), abs=1e-12)
        else:
            assert agreement["value"] is None


# The first ten gold mistakes of S001, submitted with the same spans and these categories (gold's on the left).
WORKED_CATEGORIES = [
    ("NAME", "NAME"),
    ("NUMBER", "NUMBER"),
    ("NUMBER", "NUMBER"),
    ("WORD", "NUMBER"),
    ("NUMBER", "NUMBER"),
    ("WORD", "WORD"),
    ("NUMBER", "NAME"),
    ("WORD", "WORD"),
    ("NUMBER", "NUMBER"),
    ("NUMBER", "WORD"),
]


@pytest.fixture(scope="module")
def worked_example(tmp_path_factory):
    folder = tmp_path_factory.mktemp("worked")
    (folder / "submissions").mkdir()
    with (DATA / "gsml.csv").open(encoding="utf-8", newline="") as stream:
        reader = csv.DictReader(stream)
        rows = [next(reader) for _ in WORKED_CATEGORIES]
        fields = reader.fieldnames
    assert [(row["TEXT_ID"], row["TYPE"]) for row in rows] == [("S001.txt", g) for g, _ in WORKED_CATEGORIES]
    with (folder / "submissions" / "worked.csv").open("w", encoding="utf-8", newline="") as stream:
        writer = csv.DictWriter(stream, fields)
        writer.writeheader()
        writer.writerows({**row, "TYPE": submitted} for row, (_, submitted) in zip(rows, WORKED_CATEGORIES))
    build(DATA, folder / "accuracy.duckdb", folder / "submissions")
    con = database.open_existing(folder / "accuracy.duckdb")
    yield figures(validity(con, "worked", levels=["category"]), "category")
    con.close()


def test_kappa_of_a_worked_example(worked_example):
    # 10 pairs, 7 agree. Gold: NAME 1, NUMBER 6, WORD 3; submitted: NAME 2, NUMBER 5, WORD 3.
    # Expected agreement (1x2 + 6x5 + 3x3) / 100 = 0.41; kappa = (0.7 - 0.41) / (1 - 0.41) = 29/59.
    assert worked_example["ALL", "agreement"]["value"] == pytest.approx(0.7)
    assert worked_example["ALL", "kappa"]["value"] == pytest.approx(29 / 59)
    # NUMBER against the rest: 4 pairs both say NUMBER, 3 both say another: observed 0.7; expected
    # 0.6 x 0.5 + 0.4 x 0.5 = 0.5; kappa 0.4. Of the 6 gold NUMBER pairs, 4 agree.
    assert worked_example["NUMBER", "kappa"]["value"] == pytest.approx(0.4)
    assert worked_example["NUMBER", "agreement"]["value"] == pytest.approx(4 / 6)
    # NAME: observed 9/10, expected 0.1 x 0.2 + 0.9 x 0.8 = 0.74, kappa 0.16 / 0.26 = 8/13; the one gold NAME agrees.
    assert worked_example["NAME", "kappa"]["value"] == pytest.approx(8 / 13)
    assert worked_example["NAME", "agreement"]["value"] == 1.0
    # WORD: observed 8/10, expected 0.3 x 0.3 + 0.7 x 0.7 = 0.58, kappa 0.22 / 0.42 = 11/21; 2 of 3 agree.
    assert worked_example["WORD", "kappa"]["value"] == pytest.approx(11 / 21)
    assert worked_example["WORD", "agreement"]["value"] == pytest.approx(2 / 3)
    # CONTEXT: no pair has it on either side: nothing to tell apart, and no gold CONTEXT pair.
    assert worked_example["CONTEXT", "kappa"]["value"] is None
    assert worked_example["CONTEXT", "agreement"]["value"] is None
    assert worked_example["CONTEXT", "agreement"]["reason"] == "no matched pair has the gold category CONTEXT"


# --- settings and the signature ---


def test_the_signature_names_the_version_the_files_the_scope_and_the_settings():
    gold, submission = "a" * 12 + "b" * 52, "0123456789ab" + "c" * 52
    assert signature(gold, submission, "NAME", **Resampling(1000, 12345, 0.95).signed()) == (
        f"accuracy-db:{__version__}|scheme:shared-task|gold:aaaaaaaaaaaa|sub:0123456789ab|scope:NAME"
        "|bs:1000|seed:12345|ci:95"
    )
    assert signature(gold, submission, "ALL", **Resampling(10, 1, 0.975).signed()).endswith("|bs:10|seed:1|ci:97.5")
    assert signature(gold, [gold, submission], "ALL").endswith("|sub:aaaaaaaaaaaa+0123456789ab|scope:ALL")
    assert (
        signature(gold, submission, "ALL")
        == f"accuracy-db:{__version__}|scheme:shared-task|gold:aaaaaaaaaaaa|sub:0123456789ab|scope:ALL"
    )


# --- the command ---


def accuracy_db(*args) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "accuracy_db", "validity", *map(str, args)], capture_output=True, text=True, timeout=120
    )


def test_json_has_one_object_per_scope_level_and_measure_with_its_signature(built_db, built):
    result = accuracy_db(
        "submission", "--db", built_db, "--scope", "ALL", "--scope", "NAME", "--format", "json", "--resamples", "50"
    )
    assert result.returncode == 0, result.stderr
    objects = json.loads(result.stdout)
    keys = [(o["scope"], o["level"], o["measure"]) for o in objects]
    assert keys == [
        (scope, level, measure)
        for scope in ("ALL", "NAME")
        for level, measures in [("text", MEASURES3), ("system", MEASURES3), ("category", ("agreement", "kappa"))]
        for measure in measures
    ]
    gold_sha, submission_sha = built.execute(
        "SELECT gold_sha256, submission_sha256 FROM evaluations WHERE submission = 'submission'"
    ).fetchone()
    for o in objects:
        assert {"measure", "value", "p_value", "ci", "n", "scope", "level", "signature"} <= o.keys()
        assert o["signature"] == (
            f"accuracy-db:{__version__}|scheme:shared-task|gold:{gold_sha[:12]}|sub:{submission_sha[:12]}"
            f"|scope:{o['scope']}|bs:50|seed:12345|ci:95"
        )
    text_pearson = objects[0]
    assert text_pearson["n"] == 60 and len(text_pearson["ci"]) == 2 and 0 < text_pearson["p_value"] < 1e-3


def test_the_table_shows_intervals_compactly_and_the_signature_beside_its_scope(built_db):
    args = ("submission", "--db", built_db, "--scope", "ALL", "--level", "text", "--resamples", "50")
    result = accuracy_db(*args)
    assert result.returncode == 0, result.stderr
    objects = json.loads(accuracy_db(*args, "--format", "json").stdout)
    lines = result.stdout.splitlines()
    (row,) = [line for line in lines if line.startswith("│ ALL ")]
    assert re.findall(r"(-?\d\.\d{3}) \[(-?\d\.\d\d), (-?\d\.\d\d)\]", row) == [
        (f"{o['value']:.3f}", f"{o['ci'][0]:.2f}", f"{o['ci'][1]:.2f}") for o in objects
    ]  # a column per measure: pearson, spearman, kendall
    p_values = lines[lines.index(row) + 1]
    assert re.findall(r"p (< \S+|\S+)", p_values) == [p_value_text(o["p_value"]) for o in objects]
    assert printed_signatures(result.stdout) == {"scope ALL": objects[0]["signature"]}
    assert objects[0]["signature"].endswith("|scope:ALL|bs:50|seed:12345|ci:95")


def test_csv_gives_the_interval_in_two_columns(built_db):
    result = accuracy_db(
        "submission", "--db", built_db, "--scope", "NAME", "--level", "text", "--format", "csv", "--resamples", "50"
    )
    rows = list(csv.DictReader(result.stdout.splitlines()))
    assert [row["measure"] for row in rows] == list(MEASURES3)
    assert all(float(row["ci_low"]) < float(row["value"]) < float(row["ci_high"]) for row in rows)


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ("submision",),
            "error: no submission named 'submision': did you mean submission? `accuracy-db leaderboard` lists them",
        ),
        (("submission", "--resamples", "0"), "error: resamples is 0: a whole number of at least 1"),
        (("submission", "--resamples", "1000000000"), "error: resamples is 1,000,000,000: at most 100,000"),
        (("submission", "--seed", "-1"), "error: seed is -1: a whole number from 0 to 4294967295"),
        (
            ("submission", "--seed", "twelve"),
            "error: Invalid value for '--seed': 'twelve' is not a valid integer. (see accuracy-db validity --help)",
        ),
        (("submission", "--confidence", "1.5"), "error: confidence is 1.5: a level between 0 and 1, such as 0.95"),
        (
            ("submission", "--split", "test"),
            "error: no submission named 'submission' in the test split: it is in the train split",
        ),
    ],
)
def test_bad_input_is_refused_in_one_line(built_db, args, message):
    result = accuracy_db(*args, "--db", built_db)
    assert result.returncode in (1, 2)  # 2: a value click itself refused
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert result.stderr.splitlines() == [message]
