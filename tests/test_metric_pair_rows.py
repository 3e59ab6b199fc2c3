"""PERM-BOTH's trials and the bootstrap's resamples of acc_eq and Kendall's τ-b, from what the rows share
(metric_pair_rows): each row equal to the measure of that row's vector alone — metric_ties.acc_eq (which
test_metric_measures checks against every pair tried) and scipy's kendalltau — with many ties and small n."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from accuracy_db.metric_validity import measures as mm
from accuracy_db.metric_validity.pair_rows import (
    SWAPPED_ROWS,
    acc_eq_swapped_rows,
    acc_eq_weighted_rows,
    kendall_swapped_rows,
)
from accuracy_db.metric_validity.rows import ROW_MEASURES
from accuracy_db.metric_validity.tests import perm_both
from accuracy_db.metric_validity.ties import acc_eq


def alone(measure, x, y) -> float:
    """The measure of one vector, NaN where either side is constant."""
    if np.ptp(x) == 0 or np.ptp(y) == 0:
        return np.nan
    if measure == "kendall":
        return stats.kendalltau(x, y).statistic
    return acc_eq(x, y, few_scores=0).value


def values(n: int, top: int):
    return st.lists(st.integers(0, top), min_size=n, max_size=n).map(lambda v: np.array(v, dtype=float) / 2)


trials_of = st.integers(2, 14).flatmap(
    lambda n: st.tuples(
        values(n, 4),
        values(n, 4) | values(n, 1),
        values(n, 3),
        st.lists(st.lists(st.integers(0, 1), min_size=n, max_size=n), min_size=1, max_size=12),
    )
)


@settings(max_examples=150, deadline=None)
@given(trials_of)
def test_each_trial_is_measured_as_its_vector_alone(case):
    """A trial's A' takes B's score where it swaps: the trial's acc_eq and τ-b are those of that vector."""
    za, zb, y, swaps = case
    swaps = np.array(swaps, dtype=np.uint8)
    for measure, swapped in (("acc_eq", acc_eq_swapped_rows), ("kendall", kendall_swapped_rows)):
        for trial, value in zip(swaps, swapped(za, zb, swaps, y)):
            reference = alone(measure, np.where(trial, zb, za), y)
            assert value == pytest.approx(reference, abs=1e-12, nan_ok=True), (measure, trial)


def test_the_same_metric_on_both_sides_gives_every_trial_its_value():
    y = np.array([0, 1, 1, 2, 3, 3, 0, 5], dtype=float)
    x = np.array([0.1, 1, 2, 2, 4, 3, 0.1, 6])
    swaps = np.random.default_rng(3).integers(0, 2, (20, len(y))).astype(np.uint8)
    assert (acc_eq_swapped_rows(x, x, swaps, y) == acc_eq(x, y).value).all()
    assert np.allclose(kendall_swapped_rows(x, x, swaps, y), stats.kendalltau(x, y).statistic, rtol=0, atol=1e-15)


resamples_of = st.integers(1, 14).flatmap(
    lambda n: st.tuples(
        values(n, 4),
        values(n, 3),
        st.lists(st.lists(st.integers(0, n - 1), min_size=n, max_size=n), min_size=1, max_size=12),
    )
)


@settings(max_examples=150, deadline=None)
@given(resamples_of)
def test_each_resample_is_measured_as_its_draws_alone(case):
    """A resample drawing text i w_i times: its acc_eq is that of the drawn texts written out, pairs of a text
    with itself included."""
    x, y, draws = case
    draws = np.array(draws)
    weights = np.stack([np.bincount(drawn, minlength=len(x)) for drawn in draws])
    for drawn, value in zip(draws, acc_eq_weighted_rows(x, y, weights)):
        reference = alone("acc_eq", x[drawn], y[drawn]) if len(drawn) > 1 else np.nan
        assert value == pytest.approx(reference, abs=1e-12, nan_ok=True), drawn


@pytest.mark.parametrize("measure", [acc_eq, mm.kendall], ids=["acc_eq", "kendall"])
def test_perm_both_from_the_swaps_equals_one_trial_at_a_time(measure):
    rng = np.random.default_rng(4)
    y = rng.integers(0, 4, 30).astype(float)
    a, b = (y + rng.normal(size=30)).round(1), (y + rng.normal(scale=3, size=30)).round(1)
    name = measure.__name__
    swapped = perm_both(a, b, y, measure, 300, 21, ROW_MEASURES[name], swapped_rows=SWAPPED_ROWS[name])
    assert swapped == perm_both(a, b, y, measure, 300, 21)
    assert 0 <= swapped["p_value"] < 0.5  # a tracks the gold far better than b
