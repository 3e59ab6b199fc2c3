"""The stats layer: per-text sufficient statistics whose sums are the scores, and the bootstrap intervals and paired
tests built on them, against the oracle and an independent numpy implementation with its own random generator."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import Span, score

from accuracy_db.stats import resampling
from accuracy_db.stats.intervals import (
    FIGURES,
    Resampling,
    TextStatistics,
    bootstrap_intervals,
    run_stats_query,
    text_statistics,
    trial_sums,
)
from accuracy_db.stats.significance import compare, paired_tests_of
from accuracy_db.store import database

COUNTS = ("matched", "gold", "submitted", "token_matched", "gold_tokens", "submitted_tokens")
SCORE_COUNTS = ("matched", "gold_total", "submitted_total", "token_matched", "gold_tokens", "submitted_tokens")


def test_scores_are_the_sums_of_the_text_statistics(built):
    sums = built.execute(
        f"SELECT submission_id, scope, {', '.join(f'sum({c})::BIGINT' for c in COUNTS)}"
        " FROM text_statistics GROUP BY ALL ORDER BY ALL"
    ).fetchall()
    scores = built.execute(
        f"SELECT submission_id, scope, {', '.join(SCORE_COUNTS)} FROM scores ORDER BY ALL"
    ).fetchall()
    assert len(scores) == (5 + 2) * 7  # the five examples, and the box-score checker's list of each split
    assert sums == scores


def test_every_text_of_the_split_has_a_row_in_every_scope(built):
    rows = built.execute("SELECT split, count(*) FROM text_statistics GROUP BY submission_id, scope, split").fetchall()
    texts = dict(built.execute("SELECT split, count(*) FROM texts GROUP BY split").fetchall())
    assert len(rows) == (5 + 2) * 7  # the five examples, and the box-score checker's list of each split
    assert all(count == texts[split] for split, count in rows)


def test_a_text_without_mistakes_on_either_side_counts_with_zeros(built):
    # The OTHER category has one gold mistake in the train split: every other text has zeros in that scope.
    zeros = built.execute(
        f"SELECT count(*) FROM text_statistics WHERE scope = 'OTHER' AND split = 'train'"
        f" AND {' AND '.join(f'{c} = 0' for c in COUNTS)}"
    ).fetchall()[0][0]
    submissions = built.execute("SELECT count(*) FROM evaluations WHERE split = 'train'").fetchall()[0][0]
    assert zeros >= submissions * 58


# --- Bootstrap intervals and paired tests, against an independent numpy implementation -----------------------------

ORACLE_KEYS = {
    "matched": "matched",
    "gold": "gold_total",
    "submitted": "submitted_total",
    "token_matched": "token_matched",
    "gold_tokens": "gold_tokens",
    "submitted_tokens": "submitted_tokens",
}


def oracle_text_counts(con, submission: str, scope: str) -> np.ndarray:
    """Per-text counts (texts in id order, COUNTS) of a submission, scored text by text by tests/oracle.py from the
    spans the database holds: no SQL of the stats layer or of the matching."""
    split, gold_id, submission_id = con.execute(
        "SELECT split, gold_id, submission_id FROM evaluations WHERE submission = ?", [submission]
    ).fetchone()
    texts = [
        t for (t,) in con.execute("SELECT text_id FROM texts WHERE split = ? ORDER BY text_id", [split]).fetchall()
    ]
    spans = {}
    for key, set_id, text_id, start, end, category in con.execute(
        "SELECT mistake_id, set_id, text_id, doc_token_start, doc_token_end, category FROM mistakes"
        " WHERE set_id IN (?, ?)",
        [gold_id, submission_id],
    ).fetchall():
        spans.setdefault((set_id, text_id), []).append(Span(key, text_id, start, end, category))
    rows = []
    for text in texts:
        report = {
            r["categories"]: r for r in score(spans.get((gold_id, text), []), spans.get((submission_id, text), []))
        }
        rows.append([report[scope][ORACLE_KEYS[c]] for c in COUNTS])
    return np.array(rows, dtype=float)


def figures_of(sums: np.ndarray) -> dict[str, np.ndarray]:
    """The figures of summed counts (last axis COUNTS), NaN where undefined, written from their definitions."""
    matched, gold, submitted, token_matched, gold_tokens, submitted_tokens = np.moveaxis(sums, -1, 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        recall, precision = matched / gold, matched / submitted
        token_recall, token_precision = token_matched / gold_tokens, token_matched / submitted_tokens
        f1 = np.where(recall + precision == 0, 0.0, 2 * recall * precision / (recall + precision))
        token_f1 = np.where(
            token_recall + token_precision == 0,
            0.0,
            2 * token_recall * token_precision / (token_recall + token_precision),
        )
    return dict(zip(FIGURES, (recall, precision, f1, token_recall, token_precision, token_f1)))


def numpy_interval(counts: np.ndarray, resamples: int, confidence: float, seed: int) -> dict[str, tuple]:
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, len(counts), size=(resamples, len(counts)))
    figures = figures_of(counts[draws].sum(axis=1))
    tail = (1 - confidence) / 2 * 100
    return {
        name: tuple(np.percentile(values[~np.isnan(values)], [tail, 100 - tail])) for name, values in figures.items()
    }


@pytest.fixture(scope="module")
def two_metrics(two_metrics_db):
    con = database.open_existing(two_metrics_db)
    yield con
    con.close()


@pytest.mark.parametrize("submission", ["submission", "half_gold"])
@pytest.mark.parametrize("scope", ["ALL", "NAME", "NUMBER"])
def test_intervals_agree_with_an_independent_numpy_bootstrap(two_metrics, submission, scope):
    (submission_id,) = two_metrics.execute(
        "SELECT submission_id FROM evaluations WHERE submission = ?", [submission]
    ).fetchone()
    ours = bootstrap_intervals(two_metrics, [submission_id], [scope], Resampling(10_000, 7, 0.95))
    theirs = numpy_interval(oracle_text_counts(two_metrics, submission, scope), 10_000, 0.95, seed=2021)
    for figure in FIGURES:
        row = ours[(submission_id, scope, figure)]
        assert row["replicates"] + row["excluded"] == 10_000
        assert abs(row["low"] - theirs[figure][0]) <= 0.01, figure
        assert abs(row["high"] - theirs[figure][1]) <= 0.01, figure


def numpy_permutation_p(a: np.ndarray, b: np.ndarray, figure: str, trials: int, seed: int) -> float:
    swaps = np.random.default_rng(seed).integers(0, 2, size=(trials, len(a)))[:, :, None]
    first = (np.where(swaps == 1, b, a)).sum(axis=1)
    second = (np.where(swaps == 1, a, b)).sum(axis=1)
    observed = figures_of(a.sum(axis=0))[figure] - figures_of(b.sum(axis=0))[figure]
    differences = figures_of(first)[figure] - figures_of(second)[figure]
    differences = differences[~np.isnan(differences)]
    return (np.sum(np.abs(differences) >= abs(observed)) + 1) / (len(differences) + 1)


@pytest.mark.parametrize("scope", ["ALL", "NAME", "WORD", "CONTEXT"])
@pytest.mark.parametrize("figure", ["recall", "precision", "token_f1"])
def test_permutation_p_values_agree_with_an_independent_numpy_test(two_metrics, scope, figure):
    ours = compare(two_metrics, "submission", "half_gold", scope, figure, "permutation", 10_000)
    theirs = numpy_permutation_p(
        oracle_text_counts(two_metrics, "submission", scope),
        oracle_text_counts(two_metrics, "half_gold", scope),
        figure,
        10_000,
        seed=99,
    )
    if ours["p_value"] is None:  # the figure is undefined for one of them: no test
        assert np.isnan(theirs) or ours["difference"] is None
    else:
        assert abs(ours["p_value"] - theirs) <= 0.01


def exact_permutation_p(a: np.ndarray, b: np.ndarray, figure: str) -> float:
    """Every one of the 2^n ways to swap texts between a and b (n ≤ 12), the observed one included."""
    observed = figures_of(a.sum(axis=0))[figure] - figures_of(b.sum(axis=0))[figure]
    swaps = np.array(list(itertools.product([0, 1], repeat=len(a))))[:, :, None]
    differences = (
        figures_of(np.where(swaps == 1, b, a).sum(axis=1))[figure]
        - figures_of(np.where(swaps == 1, a, b).sum(axis=1))[figure]
    )
    return float(np.mean(np.abs(differences) >= abs(observed)))


def random_statistics(rng: np.random.Generator, texts: int, lists: int) -> np.ndarray:
    """Per-text counts that make sense: matched ≤ gold and submitted, token counts ≥ mistake counts."""
    gold = rng.integers(0, 6, size=(texts,))
    counts = []
    for _ in range(lists):
        submitted = rng.integers(0, 6, size=texts)
        matched = np.minimum(rng.integers(0, 6, size=texts), np.minimum(gold, submitted))
        gold_tokens, submitted_tokens = gold * 2, submitted * 2
        token_matched = np.minimum(matched * 2, np.minimum(gold_tokens, submitted_tokens))
        counts.append(np.stack([matched, gold, submitted, token_matched, gold_tokens, submitted_tokens], axis=1))
    return np.array(counts, dtype=float)


@pytest.mark.parametrize("figure", ["recall", "precision", "f1"])
def test_the_sampled_permutation_p_value_is_within_three_standard_errors_of_the_exact_one(scratch, figure):
    con = scratch
    rng = np.random.default_rng(5)
    counts = random_statistics(rng, texts=12, lists=2)
    counts[1, :, 0] = np.minimum(counts[1, :, 0] + rng.integers(0, 2, 12), counts[1, :, 1:3].min(axis=1))
    statistics = TextStatistics([(1, "ALL"), (2, "ALL")], counts)
    trials = 10_000
    row = paired_tests_of(con, statistics, [(1, 2)], "ALL", figure, "permutation", trials, Resampling())[(1, 2)]
    exact = exact_permutation_p(counts[0], counts[1], figure)
    standard_error = np.sqrt(exact * (1 - exact) / trials)
    assert abs(row["p_value"] - exact) <= 3 * standard_error + 1 / trials


@pytest.fixture(scope="module")
def scratch():
    """An empty database for the stats queries, shared by the tests that run them on arrays of their own (a fresh
    one per hypothesis example cost 1.5-2 s, most of their time)."""
    con = database.open_new(None)
    yield con
    con.close()


def test_resampling_every_text_once_reproduces_every_score(built):
    ids = [i for (i,) in built.execute("SELECT submission_id FROM evaluations WHERE split = 'train'").fetchall()]
    scopes = [s for (s,) in built.execute("SELECT scope FROM scopes").fetchall()]
    statistics = text_statistics(built, ids, scopes)
    identity = statistics.matrix().sum(axis=0)[None, :]
    rows = run_stats_query(
        built, "bootstrap_intervals", [trial_sums(statistics.keys, "bootstrap", identity)], {"confidence": 0.95}
    )
    found = {(r["submission_id"], r["scope"], r["figure"]): r for r in rows}
    scores = built.execute(
        f"SELECT submission_id, scope, {', '.join(FIGURES)} FROM scores WHERE split = 'train'"
    ).fetchall()
    for submission_id, scope, *values in scores:
        for figure, value in zip(FIGURES, values):
            row = found[(submission_id, scope, figure)]
            assert (row["low"], row["high"]) == (value, value), (submission_id, scope, figure)


statistics_arrays = st.integers(1, 12).flatmap(
    lambda texts: st.integers(0, 2**32 - 1).map(lambda seed: random_statistics(np.random.default_rng(seed), texts, 2))
)


@settings(max_examples=40, deadline=None)
@given(counts=statistics_arrays)
def test_an_identity_replicate_gives_the_point_figures(scratch, counts):
    con = scratch
    statistics = TextStatistics([(1, "ALL"), (2, "ALL")], counts)
    rows = run_stats_query(
        con,
        "bootstrap_intervals",
        [trial_sums(statistics.keys, "bootstrap", statistics.matrix().sum(axis=0)[None, :])],
        {"confidence": 0.9},
    )
    expected = {i + 1: figures_of(counts[i].sum(axis=0)) for i in range(2)}
    for row in rows:
        value = expected[row["submission_id"]][row["figure"]]
        if np.isnan(value):
            assert row["low"] is None and row["excluded"] == 1
        else:
            assert row["low"] == row["high"] == pytest.approx(value, abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(counts=statistics_arrays, test=st.sampled_from(["permutation", "bootstrap"]), figure=st.sampled_from(FIGURES))
def test_a_submission_compared_with_itself_differs_by_zero_with_p_one(scratch, counts, test, figure):
    con = scratch
    statistics = TextStatistics([(1, "ALL")], counts[:1])
    row = paired_tests_of(con, statistics, [(1, 1)], "ALL", figure, test, 200, Resampling(200, 1, 0.95))[(1, 1)]
    if row["value"] is not None:
        assert row["difference"] == 0
        assert row["p_value"] == 1
        assert row["difference_low"] == row["difference_high"] == 0


@settings(max_examples=40, deadline=None)
@given(counts=statistics_arrays, seed=st.integers(0, 2**32 - 1))
def test_permutation_trials_only_move_counts_between_the_two(counts, seed):
    first, second = resampling.permutation_sums(counts[0], counts[1], 50, seed)
    np.testing.assert_array_equal(first + second, np.tile(counts[0].sum(axis=0) + counts[1].sum(axis=0), (50, 1)))


@settings(max_examples=40, deadline=None)
@given(texts=st.integers(1, 500), seed=st.integers(0, 2**32 - 1))
def test_every_bootstrap_replicate_draws_as_many_texts_as_the_split_has(texts, seed):
    weights = resampling.bootstrap_weights(seed, np.arange(1, 21, dtype=np.uint64), texts)
    assert weights.shape == (20, texts)
    assert (weights.sum(axis=1) == texts).all() and (weights >= 0).all()


def lowbias32(x: int) -> int:
    """The hash as Chris Wellons published it, on Python integers (no numpy)."""
    x ^= x >> 16
    x = (x * 0x7FEB352D) & 0xFFFFFFFF
    x ^= x >> 15
    x = (x * 0x846CA68B) & 0xFFFFFFFF
    return x ^ (x >> 16)


@settings(max_examples=40, deadline=None)
@given(texts=st.integers(1, 300), seed=st.integers(0, 2**32 - 1), replicate=st.integers(1, 5000))
def test_the_draws_are_the_documented_hash_on_any_machine(texts, seed, replicate):
    key = lowbias32(lowbias32(seed) ^ replicate)
    expected = np.bincount([(lowbias32(key ^ d) * texts) >> 32 for d in range(texts)], minlength=texts)
    weights = resampling.bootstrap_weights(seed, np.array([replicate], dtype=np.uint64), texts)[0]
    np.testing.assert_array_equal(weights, expected)
    swaps = resampling.permutation_swaps(seed, np.array([replicate], dtype=np.uint64), texts)[0]
    expected_swaps = [(lowbias32(key ^ (i // 32)) >> (i % 32)) & 1 for i in range(texts)]
    np.testing.assert_array_equal(swaps, expected_swaps)
