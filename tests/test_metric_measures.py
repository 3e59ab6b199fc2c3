"""Metric meta-evaluation (accuracy_db/metric_validity/, issue 37): every measure equals an independent reference —
scipy.stats, scikit-learn, numpy.linalg.lstsq, or a brute force over pairs written here from the definitions —
on random vectors with many ties and on the edge cases; the bootstrap intervals equal the same references computed
on the same resamples."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from sklearn.metrics import average_precision_score, precision_recall_curve, roc_auc_score

from accuracy_db.metric_validity import bootstrap as metric_bootstrap
from accuracy_db.metric_validity import measures as mm
from accuracy_db.metric_validity.bootstrap import Pair, Resamples, interval, resampled_measures, system_intervals
from accuracy_db.metric_validity.rows import ROW_MEASURES
from accuracy_db.metric_validity.systems import pairwise_accuracy, pairwise_p_values, spa, system_means
from accuracy_db.metric_validity.table import (
    PERMUTED_TEXTS,
    RANK_MEASURES,
    Scored,
    Settings,
    ranks_of,
    settings_resamples,
    text_rows_of,
)
from accuracy_db.metric_validity.tests import PearsonPermBoth, assign_ranks, perm_both, williams
from accuracy_db.metric_validity.ties import acc_eq, sampled_pair_texts
from accuracy_db.stats import resampling
from accuracy_db.stats.intervals import Resampling
from accuracy_db.stats.resampling import bootstrap_draws, permutation_swaps

tied = st.lists(st.integers(0, 3), min_size=0, max_size=25)
pairs_of = st.integers(0, 25).flatmap(
    lambda n: st.tuples(*(st.lists(st.integers(0, 3), min_size=n, max_size=n) for _ in range(3)))
)


def constant(v) -> bool:
    return len(set(v)) < 2


# Text-level correlations.


@settings(max_examples=300, deadline=None)
@given(pairs_of)
def test_correlations_equal_scipy_or_say_why_not(vectors):
    """Each also given the vectors' groups (sorted once for every measure), as the table does."""
    x, y, _ = (np.array(v, dtype=float) for v in vectors)
    groups = {"groups": (mm.Groups(x), mm.Groups(y))}
    for function, reference, sorted_once in (
        (mm.pearson, lambda: stats.pearsonr(x, y).statistic, {}),
        (mm.spearman, lambda: stats.spearmanr(x, y).statistic, groups),
        (mm.kendall, lambda: stats.kendalltau(x, y, variant="b").statistic, groups),
    ):
        for result in (function(x, y), function(x, y, **sorted_once)):
            if len(x) < 3 or constant(x) or constant(y):
                assert result.value is None and result.reason
            else:
                assert result.reason is None
                assert result.value == pytest.approx(reference(), abs=1e-12)


def test_reasons_name_what_is_missing():
    assert mm.pearson([], []).reason == "fewer than 3 texts (0)"
    assert mm.spearman([1, 2], [1, 2]).reason == "fewer than 3 texts (2)"
    assert mm.kendall([1, 2, 3], [2, 2, 2]).reason == "the gold count is the same (2) for every text"
    assert mm.pearson([4, 4, 4], [1, 2, 3]).reason == "the metric's score is the same (4) for every text"
    assert mm.pearson([1, 2, 3], [1, 2, 4], unit="system").value is not None
    with pytest.raises(ValueError, match="different lengths"):
        mm.pearson([1, 2, 3], [1, 2])


def test_kendall_of_many_texts_equals_scipy():
    rng = np.random.default_rng(7)
    x = np.round(rng.normal(size=20_000), 2)  # ties in the metric too
    y = rng.poisson(3, size=20_000).astype(float)
    assert mm.kendall(x, y).value == pytest.approx(stats.kendalltau(x, y).statistic, abs=1e-12)
    assert mm.kendall(y, x).value == pytest.approx(stats.kendalltau(y, x).statistic, abs=1e-12)


def test_inversions_equal_a_count_over_pairs():
    rng = np.random.default_rng(3)
    for n in range(0, 40):
        ranks = rng.integers(0, 9, n)
        brute = sum(ranks[i] > ranks[j] for i, j in itertools.combinations(range(n), 2))
        assert mm.inversions(ranks) == brute


def residual_correlation(x, y, z, rank: bool) -> float:
    """The correlation of x's and y's residuals after a least-squares line on z."""
    if rank:
        x, y, z = (stats.rankdata(v) for v in (x, y, z))
    design = np.stack([np.ones_like(z), z], axis=1)
    residuals = [v - design @ np.linalg.lstsq(design, v, rcond=None)[0] for v in (x, y)]
    return stats.pearsonr(*residuals).statistic


@settings(max_examples=200, deadline=None)
@given(pairs_of)
def test_partial_correlations_equal_residual_regression(vectors):
    x, y, z = (np.array(v, dtype=float) for v in vectors)
    for function, rank in ((mm.partial_pearson, False), (mm.partial_spearman, True)):
        result = function(x, y, z)
        if len(x) < 4 or constant(x) or constant(y) or constant(z):
            assert result.value is None and result.reason
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            design = np.stack([np.ones_like(z), stats.rankdata(z) if rank else z], axis=1)
            fitted = [
                v - design @ np.linalg.lstsq(design, v, rcond=None)[0]
                for v in ((stats.rankdata(x), stats.rankdata(y)) if rank else (x, y))
            ]
        if min(np.ptp(r) for r in fitted) < 1e-9:  # a side is a line of the control: no residual to correlate
            assert result.value is None or abs(result.value) <= 1
            continue
        assert result.value == pytest.approx(residual_correlation(x, y, z, rank), abs=1e-9)


# Detection of the texts with a gold mistake.


@settings(max_examples=120, deadline=None)
@given(pairs_of)
def test_detection_equals_scikit_learn(vectors):
    """Each also given the vectors' groups (sorted once for every measure), as the table does: the same result."""
    x, y, _ = (np.array(v, dtype=float) for v in vectors)
    has_mistake = y > 0
    results = [mm.roc_auc(x, y), mm.average_precision(x, y), mm.best_f1(x, y)]
    groups = (mm.Groups(x), mm.Groups(y))
    assert [f(x, y, groups=groups) for f in (mm.roc_auc, mm.average_precision, mm.best_f1)] == results
    if not has_mistake.any() or has_mistake.all():
        assert all(r.value is None for r in results)
        assert results[0].reason == (
            "no text has a gold mistake" if not has_mistake.any() else "every text has a gold mistake"
        )
        return
    auc, ap, f1 = results
    assert auc.value == pytest.approx(roc_auc_score(has_mistake, x), abs=1e-12)
    assert ap.value == pytest.approx(average_precision_score(has_mistake, x), abs=1e-12)
    precision, recall, thresholds = precision_recall_curve(has_mistake, x, drop_intermediate=False)
    with np.errstate(invalid="ignore", divide="ignore"):
        scores = np.nan_to_num(2 * precision * recall / (precision + recall))[:-1]
    assert f1.value == pytest.approx(scores.max(), abs=1e-12)
    assert f1.threshold == thresholds[np.isclose(scores, scores.max(), rtol=0, atol=1e-12)].max()


# acc_eq against tau optimisation as the paper describes it: every pair, every threshold.


def brute_acc_eq(x, y, pairs):
    """The accuracy at each candidate threshold over the given pairs, and the smallest best threshold."""
    candidates = sorted({0.0} | {abs(x[i] - x[j]) for i, j in pairs})
    best = None
    for epsilon in candidates:
        correct = 0
        for i, j in pairs:
            metric_tie = abs(x[i] - x[j]) <= epsilon
            if y[i] == y[j]:
                correct += metric_tie
            else:
                correct += not metric_tie and (x[i] - x[j]) * (y[i] - y[j]) > 0
        if best is None or correct > best[0]:
            best = (correct, epsilon)
    return best[0] / len(pairs), best[1]


@settings(max_examples=200, deadline=None)
@given(pairs_of)
def test_acc_eq_equals_the_brute_force(vectors):
    """Counted by value (few scores) and listed pair by pair (few_scores=0), the same as every pair tried."""
    x, y, _ = (np.array(v, dtype=float) / 2 for v in vectors)
    counted, listed = acc_eq(x, y), acc_eq(x, y, few_scores=0)
    if len(x) < 2 or constant(x) or constant(y):
        assert counted.value is None and counted.reason and listed == counted
        return
    value, threshold = brute_acc_eq(x, y, list(itertools.combinations(range(len(x)), 2)))
    for result in (counted, listed):
        assert (result.value, result.threshold, result.method) == (pytest.approx(value), threshold, "exact")


def test_acc_eq_beyond_the_exact_limit_samples_pairs_unless_few_scores_count_them_all():
    rng = np.random.default_rng(11)
    x, y = rng.integers(0, 6, 40).astype(float), rng.integers(0, 3, 40).astype(float)
    result = acc_eq(x, y, seed=5, exact_texts=30, sampled_pairs=300, few_scores=0)
    first, second = sampled_pair_texts(40, 300, 5)
    assert len(first) == 300 and (first != second).all()
    value, threshold = brute_acc_eq(x, y, list(zip(first, second)))
    assert (result.value, result.threshold) == (pytest.approx(value), threshold)
    assert result.method == "sample:300:seed:5"
    assert acc_eq(x, y, seed=5, exact_texts=30, sampled_pairs=300, few_scores=0) == result  # the same sample
    differences = {}  # as the table keeps them, by vector

    def sampled(v):
        return differences.setdefault(v.tobytes(), v[first] - v[second])

    given = {"sample": (first, second), "x_groups": mm.Groups(x), "sampled": sampled}
    assert acc_eq(x, y, seed=5, exact_texts=30, sampled_pairs=300, few_scores=0, **given) == result
    assert len(differences) == 2
    counted = acc_eq(x, y, seed=5, exact_texts=30, sampled_pairs=300)  # 6 scores: every pair, counted by value
    value, threshold = brute_acc_eq(x, y, list(itertools.combinations(range(40), 2)))
    assert (counted.value, counted.threshold, counted.method) == (pytest.approx(value), threshold, "exact")
    assert acc_eq(x, y, seed=5, exact_texts=30, sampled_pairs=300, x_groups=mm.Groups(x)) == counted


# System level.


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), max_size=8))
def test_pairwise_accuracy_equals_a_count_over_pairs(points):
    x, y = (np.array([p[k] for p in points], dtype=float) for k in (0, 1))
    result = pairwise_accuracy(x, y)
    if len(x) < 2 or constant(x) or constant(y):
        assert result.value is None
        return
    agree = [np.sign(x[i] - x[j]) == np.sign(y[i] - y[j]) for i, j in itertools.combinations(range(len(x)), 2)]
    assert result.value == pytest.approx(sum(agree) / len(agree))


def test_system_means():
    names, means = system_means([1, 2, 3, 5], ["b", "a", "b", "a"])
    assert names.tolist() == ["a", "b"] and means.tolist() == [3.5, 2.0]


def test_spa_equals_permutation_tests_written_out():
    rng = np.random.default_rng(2)
    systems, inputs = np.repeat(["s1", "s2", "s3", "s4"], 12), np.tile(np.arange(12), 4)
    gold = rng.integers(0, 4, 48).astype(float) + (systems == "s1")
    metric = gold + rng.normal(scale=1.5, size=48)
    swaps = permutation_swaps(9, np.arange(1, 201, dtype=np.uint64), 12)

    def p_value(scores, a, b):
        """Share of trials in which a's total minus b's, each swapped input exchanged, is ≥ the observed."""
        sa, sb = scores[systems == a], scores[systems == b]
        observed = sa.sum() - sb.sum()
        count = 0
        for swap in swaps:
            count += np.where(swap == 1, sb, sa).sum() - np.where(swap == 1, sa, sb).sum() >= observed
        return count / len(swaps)

    names = ["s1", "s2", "s3", "s4"]
    errors = [abs(p_value(metric, a, b) - p_value(gold, a, b)) for a, b in itertools.combinations(names, 2)]
    assert spa(metric, gold, systems, inputs, trials=200, seed=9).value == pytest.approx(1 - np.mean(errors))


def test_spa_counts_the_trials_equal_to_the_observed_difference():
    """Two systems scored alike but on one input: every trial's difference is ± that input's, so the share of trials
    at least the observed (the lower) is 1, whatever order the totals were added in."""
    rng = np.random.default_rng(5)
    for _ in range(50):
        inputs = int(rng.integers(5, 60))
        scores = np.tile(rng.random(inputs).round(3) * rng.choice([1, 0.1, 7.3]), (2, 1))
        scores[1, rng.integers(0, inputs)] += rng.choice([0.1, 0.3, 1 / 3])
        swaps = permutation_swaps(9, np.arange(1, 201, dtype=np.uint64), inputs)
        assert pairwise_p_values(scores, swaps)[0] == 1.0


def test_spa_needs_shared_inputs():
    one_text_each = spa([1, 2, 3], [0, 1, 2], ["a", "b", "c"], ["g1", "g2", "g3"])
    assert one_text_each.value is None and "do not share their inputs" in one_text_each.reason
    assert spa([1, 2], [0, 1], ["a", "a"], ["g1", "g1"]).reason == "fewer than 2 systems (1)"
    assert (
        "two texts for the same input"
        in spa([1, 2, 3, 4], [0, 1, 0, 1], ["a", "a", "b", "b"], ["g", "g", "g", "h"]).reason
    )


# Tests between two metrics.


def brute_perm_both(a, b, y, correlation, trials, seed):
    za, zb = stats.zscore(a), stats.zscore(b)
    observed = correlation(za, y) - correlation(zb, y)
    swaps = permutation_swaps(seed, np.arange(1, trials + 1, dtype=np.uint64), len(a))
    exceed = 0
    for swap in swaps:
        first = [zb[i] if swap[i] else za[i] for i in range(len(a))]
        second = [za[i] if swap[i] else zb[i] for i in range(len(a))]
        exceed += correlation(first, y) - correlation(second, y) >= observed
    return exceed / trials


@pytest.mark.parametrize("batched", [False, True], ids=["one trial at a time", "trials as rows"])
@pytest.mark.parametrize(
    "measure, reference",
    [
        (mm.pearson, lambda x, y: stats.pearsonr(x, y).statistic),
        (mm.spearman, lambda x, y: stats.spearmanr(x, y).statistic),
        (mm.kendall, lambda x, y: stats.kendalltau(x, y).statistic),
    ],
)
def test_perm_both_equals_the_brute_force(measure, reference, batched):
    rng = np.random.default_rng(4)
    y = rng.integers(0, 4, 30).astype(float)
    a, b = y + rng.normal(size=30), y + rng.normal(scale=3, size=30)
    rows = ROW_MEASURES[measure.__name__] if batched else None
    result = perm_both(a, b, y, measure, trials=300, seed=21, rows=rows)
    assert result["p_value"] == brute_perm_both(a, b, y, reference, 300, 21)
    assert result["difference"] == pytest.approx(reference(a, y) - reference(b, y))
    assert 0 <= result["p_value"] < 0.5  # a tracks the gold far better than b
    reverse = perm_both(b, a, y, measure, trials=300, seed=21, rows=rows)
    assert reverse["p_value"] > 0.5


def test_perm_both_of_an_undefined_measure_says_why():
    result = perm_both([1, 1, 1, 1], [1, 2, 3, 4], [0, 1, 2, 3], mm.pearson, trials=10)
    assert result["p_value"] is None and "is the same" in result["reason"]


def steiger_williams(r12, r13, r23, n):
    """Williams' t as Steiger (1980, eq. 11) writes it, |R| the determinant of the correlation matrix; p one-sided."""
    determinant = np.linalg.det(np.array([[1, r12, r13], [r12, 1, r23], [r13, r23, 1]]))
    mean = (r12 + r13) / 2
    t = (r12 - r13) * np.sqrt((n - 1) * (1 + r23) / (2 * (n - 1) / (n - 3) * determinant + mean**2 * (1 - r23) ** 3))
    return stats.t.cdf(-t, n - 3)


@settings(max_examples=100, deadline=None)
@given(st.floats(-0.95, 0.95), st.floats(-0.95, 0.95), st.floats(-0.95, 0.95), st.integers(4, 500))
def test_williams_equals_steiger(r12, r13, r23, n):
    if np.linalg.det(np.array([[1, r12, r13], [r12, 1, r23], [r13, r23, 1]])) <= 1e-6:
        return  # not a possible correlation matrix
    assert williams(r12, r13, r23, n).value == pytest.approx(steiger_williams(r12, r13, r23, n), rel=1e-9, abs=1e-12)


def test_williams_needs_four_texts():
    assert williams(0.5, 0.3, 0.2, 3).value is None


def test_assign_ranks_walks_down_the_ranking():
    values = {"a": 0.9, "b": 0.8, "c": 0.7, "d": 0.6, "e": None}
    significant = {("a", "c"), ("a", "d"), ("b", "d")}  # better, worse pairs with p ≤ 0.05
    ranks = assign_ranks(values, lambda better, worse: 0.01 if (better, worse) in significant else 0.5)
    # c is beaten by a, of the first cluster: a new cluster from c; d is beaten by none from c on: it stays.
    assert ranks == {"a": 1, "b": 1, "c": 2, "d": 2, "e": None}
    assert assign_ranks({"x": 0.5, "w": 0.5}, lambda b, w: 0.05) == {"x": 2, "w": 1}  # p ≤ alpha; names break ties


# Bootstrap intervals: the same resamples, the references of the tests above.


def text_intervals(x, y, z=None, measures=(), resamples=1000, seed=12345, confidence=0.95) -> dict:
    """The interval of each text-level measure of one metric x against the gold y (z: the control), as the table
    computes them for every metric of a split at once."""
    (values,) = resampled_measures([Pair(x, y, z, measures)], Resamples(resamples, seed))
    return {measure: interval(found, confidence) for measure, found in values.items()}


def test_text_intervals_equal_the_references_on_the_same_resamples():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 4, 25).astype(float)
    x = y + rng.integers(0, 3, 25)
    z = rng.integers(5, 9, 25).astype(float)
    draws = bootstrap_draws(77, np.arange(1, 151, dtype=np.uint64), [25])
    references = {
        "pearson": lambda xs, ys, zs: stats.pearsonr(xs, ys).statistic,
        "spearman": lambda xs, ys, zs: stats.spearmanr(xs, ys).statistic,
        "kendall": lambda xs, ys, zs: stats.kendalltau(xs, ys).statistic,
        "acc_eq": lambda xs, ys, zs: brute_acc_eq(xs, ys, list(itertools.combinations(range(25), 2)))[0],
        "roc_auc": lambda xs, ys, zs: roc_auc_score(ys > 0, xs),
        "average_precision": lambda xs, ys, zs: average_precision_score(ys > 0, xs),
        "partial_pearson": lambda xs, ys, zs: residual_correlation(xs, ys, zs, False),
        "partial_spearman": lambda xs, ys, zs: residual_correlation(xs, ys, zs, True),
    }
    intervals = text_intervals(x, y, z, tuple(references), resamples=150, seed=77, confidence=0.9)
    for measure, reference in references.items():
        values = []
        for d in draws:
            xs, ys, zs = x[d], y[d], z[d]
            if constant(xs) or constant(ys) or constant(zs) or ((ys > 0).all() or not (ys > 0).any()):
                values.append(np.nan)
            else:
                values.append(reference(xs, ys, zs))
        values = np.array(values)
        expected = np.quantile(values[~np.isnan(values)], [0.05, 0.95])
        assert intervals[measure].ci == pytest.approx(expected, abs=1e-9), measure
        assert intervals[measure].undefined == np.isnan(values).sum()


def test_best_f1_interval_and_undefined_resamples():
    y = np.array([0, 0, 0, 1, 0, 0, 0, 0, 0, 0], dtype=float)  # one erroneous text: many resamples miss it
    x = np.arange(10, dtype=float)
    result = text_intervals(x, y, measures=("best_f1", "pearson"), resamples=200, seed=3)
    draws = bootstrap_draws(3, np.arange(1, 201, dtype=np.uint64), [10])
    missing = sum(not (y[d] > 0).any() for d in draws)
    assert result["best_f1"].undefined == missing > 0
    assert result["pearson"].undefined == missing
    f1s = []
    for d in draws:
        if (y[d] > 0).any():
            precision, recall, _ = precision_recall_curve(y[d] > 0, x[d])
            with np.errstate(invalid="ignore", divide="ignore"):
                f1s.append(np.nan_to_num(2 * precision * recall / (precision + recall)).max())
    assert result["best_f1"].ci == pytest.approx(np.quantile(f1s, [0.025, 0.975]))


def test_system_intervals_draw_within_systems():
    rng = np.random.default_rng(8)
    systems = np.array(["c", "a", "b", "d"] * 6)
    y = rng.integers(0, 5, 24).astype(float)
    x = y + rng.normal(size=24)
    result = system_intervals(x, y, systems, resamples=100, seed=4)
    order = np.argsort(systems, kind="stable")
    draws = order[bootstrap_draws(4, np.arange(1, 101, dtype=np.uint64), [6, 6, 6, 6])]
    values = {"pearson": [], "pairwise_accuracy": []}
    for d in draws:
        xm = [x[d][systems[d] == s].mean() for s in "abcd"]
        ym = [y[d][systems[d] == s].mean() for s in "abcd"]
        values["pearson"].append(stats.pearsonr(xm, ym).statistic)
        pairs = list(itertools.combinations(range(4), 2))
        values["pairwise_accuracy"].append(
            np.mean([np.sign(xm[i] - xm[j]) == np.sign(ym[i] - ym[j]) for i, j in pairs])
        )
    for measure, computed in values.items():
        assert result[measure].ci == pytest.approx(np.quantile(computed, [0.025, 0.975]), abs=1e-9)


DETECTION = ("roc_auc", "average_precision", "best_f1")

# Many vectors at once (metric_rows): each row as the one-vector measures, which scipy checks above.


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 12).flatmap(
        lambda n: st.tuples(
            st.lists(st.lists(st.integers(0, 3), min_size=n, max_size=n), min_size=1, max_size=6),
            st.lists(st.integers(0, 3), min_size=n, max_size=n),
        )
    )
)
def test_each_row_is_measured_as_the_vector_alone(case):
    """Where the measure of the vector alone is defined, the row's is the same; a constant side is NaN (a row of
    fewer texts than a correlation needs has a value the callers do not ask for)."""
    rows, gold = np.array(case[0], dtype=float), np.array(case[1], dtype=float)
    for name, function in ROW_MEASURES.items():
        alone = {"pairwise_accuracy": pairwise_accuracy, "acc_eq": acc_eq}.get(name) or getattr(mm, name)
        for row, value in zip(rows, function(rows, gold)):
            reference = alone(row, gold).value
            if reference is not None:
                assert value == pytest.approx(reference, abs=1e-12), name
            elif np.ptp(row) == 0 or np.ptp(gold) == 0 or name in DETECTION:  # constant, or a class missing
                assert np.isnan(value), name


# Many metrics and golds resampled together (resampled_measures): each pair as an independent loop over the same
# resamples computes it, with many ties.


def loop_measure(measure: str, xs: np.ndarray, ys: np.ndarray) -> float:
    """One resample's measure as scipy and scikit-learn compute it, NaN where the table leaves it undefined."""
    if measure in ("pearson", "spearman", "kendall"):
        if constant(xs) or constant(ys):
            return np.nan
        return {"pearson": stats.pearsonr, "spearman": stats.spearmanr, "kendall": stats.kendalltau}[measure](
            xs, ys
        ).statistic
    if (ys > 0).all() or not (ys > 0).any():
        return np.nan
    if measure == "roc_auc":
        return roc_auc_score(ys > 0, xs)
    if measure == "average_precision":
        return average_precision_score(ys > 0, xs)
    precision, recall, _ = precision_recall_curve(ys > 0, xs)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.nan_to_num(2 * precision * recall / (precision + recall)).max()


SHARED = ("pearson", "spearman", "kendall", "roc_auc", "average_precision", "best_f1")


@settings(max_examples=20, deadline=None)
@given(
    st.integers(2, 14).flatmap(
        lambda n: st.tuples(
            st.lists(st.lists(st.integers(0, 3), min_size=n, max_size=n), min_size=1, max_size=2),
            st.lists(st.lists(st.integers(0, 2), min_size=n, max_size=n), min_size=1, max_size=2),
            st.integers(0, 2**32 - 1),
        )
    )
)
def test_resampled_measures_of_many_pairs_equal_a_loop_over_the_same_resamples(case):
    """Every metric against every gold (so that sides are shared), few values (ties everywhere): each measure in each
    resample equals scipy's or scikit-learn's on the texts that resample draws, whether the metrics are counted by
    score (FewScores) or sorted text by text (few_scores=0: MetricSide)."""
    metrics, golds = [np.array(v, dtype=float) for v in case[0]], [np.array(v, dtype=float) for v in case[1]]
    seed = case[2]
    pairs = [Pair(x, y, None, SHARED) for x in metrics for y in golds]
    by_score, by_text = (resampled_measures(pairs, Resamples(8, seed), few) for few in (None, 0))
    draws = bootstrap_draws(seed, np.arange(1, 9, dtype=np.uint64), [len(metrics[0])])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for pair, counted, sorted_ in zip(pairs, by_score, by_text):
            for measure in SHARED:
                expected = [loop_measure(measure, pair.x[d], pair.y[d]) for d in draws]
                np.testing.assert_allclose(counted[measure], expected, atol=1e-12, err_msg=measure)
                np.testing.assert_allclose(sorted_[measure], expected, atol=1e-12, err_msg=measure)


def test_detection_by_either_class_and_blocks_in_threads_equal_the_loop(monkeypatch):
    """A metric of many scores (ties among them) against a gold whose texts are mostly positive (its detection
    worked out from the negative texts) and one mostly negative (from the positive texts), the resamples cut into
    blocks of 3 computed by 2 threads: each resample's measures equal scikit-learn's and scipy's on its draws."""
    rng = np.random.default_rng(11)
    n, resamples = 90, 20
    mostly_positive = rng.integers(1, 4, n) * (rng.random(n) > 0.15)
    mostly_negative = rng.integers(1, 4, n) * (rng.random(n) > 0.85)
    x = np.round(mostly_positive + rng.normal(size=n), 1)  # 1 decimal: ties
    monkeypatch.setattr(resampling, "CHUNK_CELLS", 3 * n)
    monkeypatch.setattr(metric_bootstrap, "WORKERS", 2)
    pairs = [Pair(x, y.astype(float), None, SHARED) for y in (mostly_positive, mostly_negative)]
    found = resampled_measures(pairs, Resamples(resamples, 4), few_scores=0)
    draws = bootstrap_draws(4, np.arange(1, resamples + 1, dtype=np.uint64), [n])
    for pair, measured in zip(pairs, found):
        for measure in SHARED:
            expected = [loop_measure(measure, pair.x[d], pair.y[d]) for d in draws]
            np.testing.assert_allclose(measured[measure], expected, atol=1e-12, err_msg=measure)


def test_matrix_product_in_either_orientation_is_the_product():
    rng = np.random.default_rng(2)
    for rows, inner, columns in ((3, 50, 7), (9, 50, 4)):  # fewer rows than columns, then more
        a, b = rng.normal(size=(rows, inner)), rng.normal(size=(inner, columns))
        expected = [[sum(a[i, k] * b[k, j] for k in range(inner)) for j in range(columns)] for i in range(rows)]
        np.testing.assert_allclose(resampling.matrix_product(a, b), expected, rtol=1e-12, atol=1e-12)


def test_counts_are_the_draws_counted():
    draws = bootstrap_draws(3, np.arange(1, 51, dtype=np.uint64), [40])
    counts = resampling.bootstrap_counts(3, np.arange(1, 51, dtype=np.uint64), 40)
    assert counts.dtype == np.uint8
    assert (counts == np.array([np.bincount(d, minlength=40) for d in draws])).all()


def test_pearson_perm_both_by_matrix_products_equals_the_loop():
    rng = np.random.default_rng(6)
    y = rng.integers(0, 4, 40).astype(float)
    metrics = {"a": y + rng.normal(size=40), "b": y + rng.normal(scale=2, size=40), "flag": (y > 1).astype(float)}
    swaps = permutation_swaps(13, np.arange(1, 121, dtype=np.uint64), 40)
    other_scope = {"a": metrics["a"], "c": y + rng.normal(scale=3, size=40)}  # "a" the same in both scopes
    other_y = np.maximum(y - rng.integers(0, 2, 40), 0)
    alone = PearsonPermBoth(metrics, y, swaps)
    together = PearsonPermBoth.many([(metrics, y), (other_scope, other_y)], swaps)  # one product for both
    pearson = lambda x, g: stats.pearsonr(x, g).statistic  # noqa: E731
    for permutations, named, gold in ((alone, metrics, y), *zip(together, (metrics, other_scope), (y, other_y))):
        for better, worse in itertools.permutations(named, 2):
            expected = brute_perm_both(named[better], named[worse], gold, pearson, 120, 13)
            assert permutations.p_value(better, worse) == expected, (better, worse)


def brute_paired_bootstrap(a, b, y, correlation, draws) -> float:
    """The share of resamples in which metric a's correlation does not exceed b's (Koehn 2004)."""
    return np.mean([correlation(a[d], y[d]) - correlation(b[d], y[d]) <= 0 for d in draws])


def test_above_the_permutation_limit_clusters_come_from_the_paired_bootstrap():
    """Three metrics on PERMUTED_TEXTS + 20 texts: their Spearman clusters, walked down as assign_ranks does with the
    paired bootstrap's p-values computed here by scipy on the same resamples; Pearson's by PERM-BOTH still."""
    n = PERMUTED_TEXTS + 20
    rng = np.random.default_rng(9)
    y = rng.integers(0, 4, n).astype(float)
    xs = {"close": y + rng.normal(scale=0.5, size=n), "near": y + rng.normal(scale=0.6, size=n)}
    xs["far"] = y + rng.normal(scale=4, size=n)
    metrics = {
        ("train", "ALL", name): Scored(name, "import", False, x, y, y, np.full(n, None), np.full(n, None), name)
        for name, x in xs.items()
    }
    settings_ = Settings(Resampling(200, 5), trials=200)
    resamples = settings_resamples(settings_)
    rows, resampled, found = [], {}, text_rows_of(list(metrics.values()), settings_, resamples)
    for scored, measured, values in zip(metrics.values(), *found):
        for row in measured:
            rows.append(
                row | {"metric": scored.metric, "split": "train", "scope": "ALL", "level": "text", "rank": None}
            )
        for measure, in_resamples in values.items():
            resampled["train", "ALL", scored.metric, measure] = in_resamples
    ranks_of(rows, metrics, resampled, resamples)
    draws = bootstrap_draws(5, np.arange(1, 201, dtype=np.uint64), [n])
    spearman = lambda x, g: stats.spearmanr(x, g).statistic  # noqa: E731
    values = {name: stats.spearmanr(x, y).statistic for name, x in xs.items()}
    expected = assign_ranks(values, lambda a, b: brute_paired_bootstrap(xs[a], xs[b], y, spearman, draws))
    ranks = {r["metric"]: r["rank"] for r in rows if r["measure"] == "spearman"}
    assert ranks == expected and ranks["close"] == 1 and ranks["far"] > ranks["close"]
    assert {r["clusters"] for r in rows if r["measure"] in RANK_MEASURES and r["value"] is not None} == {
        "paired-bootstrap"
    }
    pearson = {r["metric"]: r for r in rows if r["measure"] == "pearson"}
    assert {r["clusters"] for r in pearson.values()} == {"perm-both"}
    p_value = brute_perm_both(xs["near"], xs["far"], y, lambda x, g: stats.pearsonr(x, g).statistic, 200, 5)
    assert (pearson["far"]["rank"] > pearson["near"]["rank"]) == (p_value <= 0.05)


# Scores at the edge of the doubles (issue 48): any finite scores give scipy's figures, whatever their size.

SCALES = [1e-300, 1e-200, 1e-150, 1.0, 1e150, 1e200, 1e300]


def scaled_pair(scale: float, n: int = 40, seed: int = 8) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A metric that tracks the gold (many distinct scores), one of few scores (FewScores), both times scale, and
    the gold."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 6, n).astype(float)
    return (y + rng.normal(scale=2, size=n)) * scale, rng.integers(0, 4, n) * scale, y


@pytest.mark.parametrize("scale", SCALES)
def test_scores_of_any_size_give_scipy_s_figures(scale):
    """The metric, and the gold too (a category weighed 1e200 makes gold counts that large), times 1e-300 … 1e300:
    each correlation equals scipy's on the same vectors, and no numpy warning is raised."""
    many, few, y = scaled_pair(scale)
    unscaled, _, _ = scaled_pair(1.0)
    z = np.random.default_rng(3).normal(size=len(y))  # a control: the text's length
    references = {"pearson": stats.pearsonr, "spearman": stats.spearmanr, "kendall": stats.kendalltau}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for x, gold in ((many, y), (few, y), (many, y * scale)):
            for name, reference in references.items():
                assert getattr(mm, name)(x, gold).value == pytest.approx(reference(x, gold).statistic, abs=1e-12)
        # the partial correlations, against scipy's r of the residuals of the vectors unscaled (the same r)
        for rank, partial in ((False, mm.partial_pearson), (True, mm.partial_spearman)):
            expected = residual_correlation(unscaled, y, z, rank)
            assert partial(many, y * scale, z * scale).value == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("scale", [1e-300, 1e200, 1e300])
def test_resamples_of_scores_of_any_size_give_scipy_s_figures(scale):
    """Each resample's Pearson, Spearman and Kendall of metrics times scale (one of many scores, one of few; the
    gold times scale too) equal scipy's on the texts the resample draws, with no numpy warning."""
    many, few, y = scaled_pair(scale, n=30)
    pairs = [Pair(x, gold, None, SHARED[:3]) for x in (many, few) for gold in (y, y * scale)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        by_score, by_text = (resampled_measures(pairs, Resamples(20, 5), few) for few in (None, 0))
    draws = bootstrap_draws(5, np.arange(1, 21, dtype=np.uint64), [30])
    for pair, counted, sorted_ in zip(pairs, by_score, by_text):
        for measure in SHARED[:3]:
            expected = [loop_measure(measure, pair.x[d], pair.y[d]) for d in draws]
            np.testing.assert_allclose(counted[measure], expected, atol=1e-12, err_msg=measure)
            np.testing.assert_allclose(sorted_[measure], expected, atol=1e-12, err_msg=measure)


@pytest.mark.parametrize("scale", [1e-200, 1e200, 1e300])
def test_perm_both_of_a_metric_and_itself_times_a_constant_is_one(scale):
    """A metric and the same metric times 1e200 (or 1e-200) rank every text alike: PERM-BOTH finds neither better
    (p = 1 both ways) on every measure, by the loop, by rows and by matrix products; and its p-values against a
    third metric are those of the metric itself."""
    rng = np.random.default_rng(9)
    y = rng.integers(0, 5, 30).astype(float)
    x = np.round(y + rng.normal(size=30))  # ties among the scores
    other = y + rng.normal(scale=3, size=30)
    swaps = permutation_swaps(3, np.arange(1, 201, dtype=np.uint64), 30)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for measure in (mm.pearson, mm.spearman, mm.kendall):
            rows = ROW_MEASURES[measure.__name__]
            for a, b in ((x * scale, x), (x, x * scale)):
                assert perm_both(a, b, y, measure, trials=200, seed=3)["p_value"] == 1.0
                assert perm_both(a, b, y, measure, trials=200, seed=3, rows=rows)["p_value"] == 1.0
            against = perm_both(x * scale, other, y, measure, trials=200, seed=3, rows=rows)["p_value"]
            assert against == perm_both(x, other, y, measure, trials=200, seed=3, rows=rows)["p_value"]
        permutations = PearsonPermBoth({"x": x, "scaled": x * scale, "other": other}, y * scale, swaps)
        assert permutations.p_value("x", "scaled") == permutations.p_value("scaled", "x") == 1.0
        assert permutations.p_value("scaled", "other") == permutations.p_value("x", "other")


def test_blocks_give_the_figures_of_one_block(monkeypatch):
    """The resamples cut into blocks (as many as 100,000 resamples are, to bound the memory) give each resample's
    figures exactly as one block does: metrics of many scores and of few, against two golds."""
    many, few, y = scaled_pair(1.0, n=30)
    pairs = [Pair(x, gold, None, metric_bootstrap.TEXT_MEASURES) for x in (many, few) for gold in (y, np.sqrt(y))]
    whole = resampled_measures(pairs, Resamples(50, 7))
    for cells in (30, 7 * 30, 3000):  # a resample a block, 7, and blocks cut by the joint counts' width
        monkeypatch.setattr(metric_bootstrap, "BLOCK_CELLS", cells)
        for one, blocked in zip(whole, resampled_measures(pairs, Resamples(50, 7))):
            for measure, values in one.items():  # the same sums, added by other matrix products
                np.testing.assert_allclose(blocked[measure], values, rtol=0, atol=1e-12, err_msg=measure)


def test_a_block_is_bounded_by_the_joint_counts_of_a_metric_of_few_scores():
    """A metric of 4 scores against two golds of 6 and 3 values counts 4 × 6 + 4 × 3 cells a resample; one of many
    scores, its texts (30), unless it counts as few too (30 scores against a gold of 6 values)."""
    many, few, y = scaled_pair(1.0, n=30)
    xs, ys = metric_bootstrap.Distinct(), metric_bootstrap.Distinct()
    x_of = [xs.index(x) for x in (many, few, few)]
    y_of = [ys.index(gold) for gold in (y, y, np.minimum(y, 2))]
    assert len(np.unique(few)) == 4 and len(np.unique(y)) == 6
    assert metric_bootstrap.block_width(30, xs, ys, x_of, y_of, 4) == 4 * 6 + 4 * 3
    assert metric_bootstrap.block_width(30, xs, ys, x_of, y_of, 0) == 30
    assert metric_bootstrap.block_width(30, xs, ys, x_of, y_of, metric_bootstrap.FEW_SCORES) == 30 * 6
