"""The per-text counts of every match scheme but the shared task's (text_scheme_statistics), and the intervals and
paired tests that resample them: the counts of each text against nervaluate and the unit oracle run on that text
alone, their sums against scheme_scores, and the resampling against an independent numpy implementation with its
own random generator, on counts read from those references (not from the model under test)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from oracle import CATEGORIES, SCOPES, Span
from test_matching_properties import load
from test_schemes import by_nervaluate, evaluations, load_tokens
from unit_oracle import unit_scores

from accuracy_db.scoring import scores
from accuracy_db.scoring.schemes import NERVALUATE_SCHEMES, SCHEMES, UNIT_SCHEMES
from accuracy_db.stats.intervals import Resampling, bootstrap_intervals
from accuracy_db.stats.significance import compare
from accuracy_db.store import database

OTHER_SCHEMES = SCHEMES[1:]
TEXT_COUNTS = ("matched", "gold_total", "submitted_total", "correct", "incorrect", "partial", "missed", "spurious")


def reference_text_counts(
    gold: list[Span], submitted: list[Span], text_id: str, weights: dict, categories: tuple[str, ...] = CATEGORIES
) -> dict[tuple[str, str], tuple]:
    """(scheme, scope) -> TEXT_COUNTS of one text, from nervaluate and the unit oracle given that text's spans alone
    (matched: COR + 0.5 PAR, as nervaluate's partial and ent_type compute precision and recall)."""
    gold = [span for span in gold if span.text_id == text_id]
    submitted = [span for span in submitted if span.text_id == text_id]
    found = {}
    for (scheme, scope), counts in by_nervaluate(gold, submitted, categories).items():
        found[scheme, scope] = (
            counts["correct"] + 0.5 * counts["partial"],
            counts["possible"],
            counts["actual"],
            *(counts[key] for key in ("correct", "incorrect", "partial", "missed", "spurious")),
        )
    for scheme in UNIT_SCHEMES:
        unit, agreement = scheme.split("-")
        for scope in ("ALL", *categories):
            counts = unit_scores(gold, submitted, scope, agreement == "hard", weights if unit == "char" else None)
            found[scheme, scope] = (counts["matched"], counts["gold_total"], counts["submitted_total"], *[None] * 5)
    return found


def model_rows(con) -> dict[tuple[int, str, str, str], tuple]:
    """(submission_id, scheme, scope, text_id) -> TEXT_COUNTS, the rows of text_scheme_statistics."""
    rows = con.execute(
        f"SELECT submission_id, scheme, scope, text_id, {', '.join(TEXT_COUNTS)} FROM text_scheme_statistics"
    ).fetchall()
    return {tuple(row[:4]): tuple(row[4:]) for row in rows}


def assert_texts_count_like_the_references(con, lists: dict[int, tuple[list[Span], list[Span]]], weights) -> None:
    """Every submission: each text's counts under every scheme and scope equal the references' on that text alone;
    a text has a row exactly when either list has a mistake of the scope in it; and the sums over the texts are
    the counts of scheme_scores."""
    rows = model_rows(con)
    every_score = {
        (row["submission_id"], row["scheme"], row["scope"]): row
        for row in scores.fetch_dicts(con, "SELECT * FROM scheme_scores WHERE scheme <> 'shared-task'")
    }
    for submission_id, (gold, submitted) in lists.items():
        texts = sorted({span.text_id for span in gold + submitted})
        references = {text_id: reference_text_counts(gold, submitted, text_id, weights) for text_id in texts}
        for scheme in OTHER_SCHEMES:
            for scope in SCOPES:
                sums = [0] * 3 + [0 if scheme in NERVALUATE_SCHEMES else None] * 5
                for text_id in texts:
                    expected = references[text_id][scheme, scope]
                    marked = any(
                        span.text_id == text_id and scope in ("ALL", span.category) for span in gold + submitted
                    )
                    got = rows.get((submission_id, scheme, scope, text_id))
                    assert (got is not None) == marked, (scheme, scope, text_id)
                    assert (got or tuple(0 if value is not None else None for value in expected)) == expected
                    sums = [None if value is None else total + value for total, value in zip(sums, expected)]
                score = every_score[submission_id, scheme, scope]
                assert sums == [score[key] for key in TEXT_COUNTS], (scheme, scope)
        assert {key[3] for key in rows if key[0] == submission_id} <= set(texts)
    assert {key[:3] for key in rows} <= set(every_score)


@pytest.fixture(scope="module")
def con():
    con = database.open_new(None)
    yield con
    con.close()


@settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(evaluations())
def test_every_text_counts_like_the_references_on_generated_lists(con, case):
    gold, submissions, tokens = case
    load_tokens(con, tokens)
    submission_ids = load(con, gold, submissions)
    weights = {unit: len(token) for unit, token in tokens.items()}
    assert_texts_count_like_the_references(con, dict(zip(submission_ids, ((gold, s) for s in submissions))), weights)


def spans_of(con, set_id: int) -> list[Span]:
    rows = con.execute(
        "SELECT mistake_id, text_id, doc_token_start, doc_token_end, category FROM mistakes WHERE set_id = ?", [set_id]
    ).fetchall()
    return [Span(*row) for row in rows]


def token_weights(con) -> dict[tuple[str, int], int]:
    rows = con.execute("SELECT text_id, doc_token, token FROM tokens").fetchall()
    return {(text_id, doc_token): len(token or "") for text_id, doc_token, token in rows}


def test_every_text_counts_like_the_references_on_the_shared_task_data(built):
    lists = {
        submission_id: (spans_of(built, gold_id), spans_of(built, submission_id))
        for submission_id, gold_id in built.execute("SELECT submission_id, gold_id FROM evaluations").fetchall()
    }
    assert len(lists) == 5 + 2  # the five examples, and the box-score checker's list of each split
    assert_texts_count_like_the_references(built, lists, token_weights(built))


# --- Intervals and paired tests under another scheme, against an independent numpy implementation ------------------

RESAMPLES = 10_000
TRIALS = 10_000
# Monte-Carlo error: both sides estimate the same quantity from 10,000 draws of their own. The rank of a sample's
# q-quantile among the replicates is within 4 standard deviations (sqrt(N q (1 - q))) of q·N but for a chance of
# about 1e-4; so two estimates of it lie within the values of numpy's replicates 8 standard deviations of rank
# either side (a distribution-free band). A p-value estimated from N trials has a standard error at most
# sqrt(p (1 - p) / N); the difference of two estimates, sqrt(2) times that: allowed 4 of them.
RANK_DEVIATIONS = 8
P_DEVIATIONS = 4


def reference_counts(con, submission: str, scheme: str, scope: str) -> np.ndarray:
    """(texts of the split in id order, [matched, gold_total, submitted_total]) of a submission under a scheme,
    from nervaluate and the unit oracle text by text: the model under test is not read."""
    split, gold_id, submission_id = con.execute(
        "SELECT split, gold_id, submission_id FROM evaluations WHERE submission = ?", [submission]
    ).fetchone()
    gold, submitted, weights = spans_of(con, gold_id), spans_of(con, submission_id), token_weights(con)
    texts = [
        t for (t,) in con.execute("SELECT text_id FROM texts WHERE split = ? ORDER BY text_id", [split]).fetchall()
    ]
    return np.array(
        [reference_text_counts(gold, submitted, text_id, weights)[scheme, scope][:3] for text_id in texts], dtype=float
    )


def figures_of(sums: np.ndarray) -> dict[str, np.ndarray]:
    """recall, precision, F1 of summed counts (last axis matched, gold, submitted), NaN where undefined."""
    matched, gold, submitted = np.moveaxis(sums, -1, 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        recall, precision = matched / gold, matched / submitted
        f1 = np.where(recall + precision == 0, 0.0, 2 * recall * precision / (recall + precision))
    return {"recall": recall, "precision": precision, "f1": f1}


def quantile_band(values: np.ndarray, q: float) -> tuple[float, float]:
    values = np.sort(values[~np.isnan(values)])
    n = len(values)
    spread = RANK_DEVIATIONS * math.sqrt(n * q * (1 - q))
    return values[max(0, math.floor(q * n - spread))], values[min(n - 1, math.ceil(q * n + spread))]


@pytest.fixture(scope="module")
def two_metrics(two_metrics_db):
    con = database.open_existing(two_metrics_db)
    yield con
    con.close()


@pytest.mark.parametrize("scheme", ["partial", "char-soft"])
@pytest.mark.parametrize("submission", ["submission", "half_gold"])
@pytest.mark.parametrize("scope", ["ALL", "NAME"])
def test_intervals_agree_with_an_independent_numpy_bootstrap(two_metrics, scheme, submission, scope):
    (submission_id,) = two_metrics.execute(
        "SELECT submission_id FROM evaluations WHERE submission = ?", [submission]
    ).fetchone()
    ours = bootstrap_intervals(two_metrics, [submission_id], [scope], Resampling(RESAMPLES, 7, 0.95), scheme)
    counts = reference_counts(two_metrics, submission, scheme, scope)
    draws = np.random.default_rng(2021).integers(0, len(counts), size=(RESAMPLES, len(counts)))
    theirs = figures_of(counts[draws].sum(axis=1))
    for figure, values in theirs.items():
        row = ours[(submission_id, scope, figure)]
        assert row["replicates"] == np.count_nonzero(~np.isnan(values)) or row["excluded"] > 0
        for bound, q in ((row["low"], 0.025), (row["high"], 0.975)):
            low, high = quantile_band(values, q)
            assert low <= bound <= high, (figure, q, bound, low, high)


def numpy_permutation_p(a: np.ndarray, b: np.ndarray, figure: str, seed: int) -> float:
    swaps = np.random.default_rng(seed).integers(0, 2, size=(TRIALS, len(a)))[:, :, None]
    first = np.where(swaps == 1, b, a).sum(axis=1)
    second = np.where(swaps == 1, a, b).sum(axis=1)
    observed = figures_of(a.sum(axis=0))[figure] - figures_of(b.sum(axis=0))[figure]
    differences = figures_of(first)[figure] - figures_of(second)[figure]
    differences = differences[~np.isnan(differences)]
    return (np.sum(np.abs(differences) >= abs(observed)) + 1) / (len(differences) + 1)


@pytest.mark.parametrize("scheme", ["partial", "char-soft"])
@pytest.mark.parametrize("scope", ["ALL", "NAME", "WORD"])
@pytest.mark.parametrize("figure", ["recall", "precision", "f1"])
def test_permutation_p_values_agree_with_an_independent_numpy_test(two_metrics, scheme, scope, figure):
    ours = compare(two_metrics, "submission", "half_gold", scope, figure, "permutation", TRIALS, scheme=scheme)
    a = reference_counts(two_metrics, "submission", scheme, scope)
    b = reference_counts(two_metrics, "half_gold", scheme, scope)
    expected = scores.fetch_dicts(
        two_metrics,
        f"SELECT submission, {figure} FROM scheme_scores WHERE scheme = $scheme AND scope = $scope",
        {"scheme": scheme, "scope": scope},
    )
    values = {row["submission"]: row[figure] for row in expected}
    assert (ours["a_value"], ours["b_value"]) == (values["submission"], values["half_gold"])
    reference = figures_of(a.sum(axis=0))[figure]
    assert np.isnan(reference) if ours["a_value"] is None else ours["a_value"] == pytest.approx(reference)
    if ours["difference"] is None:  # the figure is undefined for one of them: no test
        assert ours["p_value"] is None
    else:
        theirs = numpy_permutation_p(a, b, figure, seed=99)
        p = max(ours["p_value"], theirs)
        assert abs(ours["p_value"] - theirs) <= P_DEVIATIONS * math.sqrt(2 * p * (1 - p) / TRIALS) + 1 / TRIALS
    assert f"|scheme:{scheme}|" in ours["signature"]


def test_a_half_counted_partial_pair_survives_the_resampling(two_metrics):
    """partial's matched is COR + 0.5 PAR: the resampled sums keep the halves, so the observed figure is exact."""
    observed = compare(two_metrics, "submission", "half_gold", "ALL", "recall", "permutation", 1, scheme="partial")
    (matched, recall) = two_metrics.execute(
        "SELECT matched, recall FROM scheme_scores WHERE scheme = 'partial' AND submission = 'submission'"
        " AND scope = 'ALL'"
    ).fetchone()
    assert not float(matched).is_integer()
    assert observed["a_value"] == recall
