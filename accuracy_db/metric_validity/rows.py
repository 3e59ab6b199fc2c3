"""Correlations of many vectors at once: each row of a matrix (resamples, permutation trials, systems' means per
resample) against a gold row or vector, NaN where a row is constant. The permutation tests and the bootstrap run
thousands of small vectors (30 texts, a few systems), where a call per vector costs more in numpy's overhead than
in arithmetic; these do one whole-array computation per block of rows.

Kendall's τ-b here counts every pair's signs (O(n²) a row), which beats the O(n log n) sort of measures for
small n only: it is used up to PAIRWISE_TEXTS texts.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from accuracy_db.metric_validity.measures import standardised

PAIRWISE_TEXTS = 1_000  # up to this many texts, τ-b from every pair's signs
BLOCK_CELLS = 4_000_000  # rows × pairs (or texts) computed at a time


def rows_of(values, rows: int) -> np.ndarray:
    values = np.asarray(values, dtype=np.float64)
    return np.broadcast_to(values, (rows, values.shape[-1])) if values.ndim == 1 else values


def pearson_rows(x, y) -> np.ndarray:
    """Pearson's r of each row of x with the row of y (or with y, a vector)."""
    x = np.asarray(x, dtype=np.float64)
    y = rows_of(y, len(x))
    dx, dy = standardised(x), standardised(y)  # no product of scores of 1e200 overflows
    sxx, syy = (dx * dx).sum(axis=1), (dy * dy).sum(axis=1)
    varies = (np.ptp(x, axis=1) > 0) & (np.ptp(y, axis=1) > 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = (dx * dy).sum(axis=1) / np.sqrt(sxx * syy)
    return np.where(varies, np.clip(r, -1, 1), np.nan)


def spearman_rows(x, y) -> np.ndarray:
    """Spearman's ρ of each row: Pearson's r of the rows' average ranks (scipy's definition)."""
    x = np.asarray(x, dtype=np.float64)
    return pearson_rows(stats.rankdata(x, axis=1), stats.rankdata(rows_of(y, len(x)), axis=1))


def kendall_rows(x, y) -> np.ndarray:
    """Kendall's τ-b of each row, from the signs of every pair: Σ sign(dx)·sign(dy) / √(untied in x · untied in y)."""
    x = np.asarray(x, dtype=np.float64)
    y = rows_of(y, len(x))
    first, second = np.triu_indices(x.shape[1], 1)
    values = np.empty(len(x))
    block = max(1, BLOCK_CELLS // max(len(first), 1))
    for start in range(0, len(x), block):
        xs, ys = x[start : start + block], y[start : start + block]
        sx, sy = np.sign(xs[:, first] - xs[:, second]), np.sign(ys[:, first] - ys[:, second])
        untied = np.count_nonzero(sx, axis=1) * np.count_nonzero(sy, axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            tau = (sx * sy).sum(axis=1) / np.sqrt(untied.astype(np.float64))
        values[start : start + block] = np.where(untied > 0, np.clip(tau, -1, 1), np.nan)
    return values


def pairwise_accuracy_rows(x, y) -> np.ndarray:
    """The share of pairs ordered alike (a pair tied on both sides agrees) in each row; NaN where a side of the row
    is constant, as systems.pairwise_accuracy."""
    x = np.asarray(x, dtype=np.float64)
    y = rows_of(y, len(x))
    first, second = np.triu_indices(x.shape[1], 1)
    agree = np.sign(x[:, first] - x[:, second]) == np.sign(y[:, first] - y[:, second])
    varies = (np.ptp(x, axis=1) > 0) & (np.ptp(y, axis=1) > 0)
    return np.where(varies & (x.shape[1] >= 2), agree.mean(axis=1) if len(first) else np.nan, np.nan)


def acc_eq_rows(x, y) -> np.ndarray:
    """acc_eq of each row (ties.acc_eq, exact), without its threshold: a pair is counted right when the gold
    ties it and the metric's difference is within the threshold ε, or when both order it alike and the metric's
    difference exceeds ε; the best ε is found by walking each row's sorted differences, where the gold-tied pairs
    turn right and the concordant ones wrong (ε = 0 when no difference is 0). NaN where a side is constant."""
    x = np.asarray(x, dtype=np.float64)
    y = rows_of(y, len(x))
    first, second = np.triu_indices(x.shape[1], 1)
    values = np.full(len(x), np.nan)
    if not len(first):
        return values
    block = max(1, BLOCK_CELLS // len(first))
    for start in range(0, len(x), block):
        xs, ys = x[start : start + block], y[start : start + block]
        dx, dy = xs[:, first] - xs[:, second], ys[:, first] - ys[:, second]
        concordant = np.sign(dx) * np.sign(dy) > 0  # dx · dy may overflow or underflow
        differences = np.abs(dx)
        # any order within a run of equal differences will do (only the runs' ends are read): quicksort, 2.4x
        # faster than a stable sort, and each pair's turn (+1, 0 or -1) gathered as one byte
        order = np.argsort(differences, axis=1)
        ordered = np.take_along_axis(differences, order, axis=1)
        turn = (dy == 0).astype(np.int8) - concordant.astype(np.int8)
        turns = np.take_along_axis(turn, order, axis=1).cumsum(axis=1, dtype=np.int64)
        run_ends = np.ones_like(ordered, dtype=bool)
        run_ends[:, :-1] = ordered[:, 1:] != ordered[:, :-1]
        best = np.where(run_ends, turns, np.iinfo(np.int64).min).max(axis=1)
        best = np.where(ordered[:, 0] > 0, np.maximum(best, 0), best)  # ε = 0 turns nothing when no difference is 0
        varies = (np.ptp(xs, axis=1) > 0) & (np.ptp(ys, axis=1) > 0)
        values[start : start + block] = np.where(varies, (concordant.sum(axis=1) + best) / len(first), np.nan)
    return values


def runs_by_score(x, y):
    """Each row's texts by decreasing score: true positives and texts flagged when every text scoring at least a
    position's score is flagged, where runs of equal scores end, and the positives (texts with y > 0)."""
    x = np.asarray(x, dtype=np.float64)
    positive = np.asarray(y) > 0
    order = np.argsort(-x, axis=1)  # only the runs' ends are read: any order within a run of equal scores will do
    scores = np.take_along_axis(x, order, axis=1)
    true_positives = np.cumsum(positive[order], axis=1, dtype=np.float64)
    run_ends = np.ones_like(scores, dtype=bool)
    run_ends[:, :-1] = scores[:, 1:] != scores[:, :-1]
    flagged = np.arange(1, x.shape[1] + 1, dtype=np.float64)
    return true_positives, flagged, run_ends, float(positive.sum()), float((~positive).sum())


def roc_auc_rows(x, y) -> np.ndarray:
    """ROC AUC of each row against the texts with y > 0: the Mann-Whitney U of the rows' average ranks (ties count
    half, as scikit-learn's trapezoids do). NaN when a class is missing."""
    x = np.asarray(x, dtype=np.float64)
    positive = np.asarray(y) > 0
    positives, negatives = positive.sum(), (~positive).sum()
    if not positives or not negatives:
        return np.full(len(x), np.nan)
    ranks = stats.rankdata(x, axis=1)
    return (ranks[:, positive].sum(axis=1) - positives * (positives + 1) / 2) / (positives * negatives)


def average_precision_rows(x, y) -> np.ndarray:
    """Average precision of each row (scikit-learn's: Σ (recall step) × precision over the distinct scores,
    highest first). NaN when a class is missing."""
    true_positives, flagged, run_ends, positives, negatives = runs_by_score(x, y)
    if not positives or not negatives:
        return np.full(len(true_positives), np.nan)
    at_ends = np.where(run_ends, true_positives, 0.0)
    before = np.maximum.accumulate(np.pad(at_ends[:, :-1], ((0, 0), (1, 0))), axis=1)  # at the previous run's end
    steps = np.where(run_ends, (true_positives - before) / positives * true_positives / flagged, 0.0)
    return steps.sum(axis=1)


def best_f1_rows(x, y) -> np.ndarray:
    """The best F1 of each row over the thresholds "score ≥ t" (without the threshold). NaN when a class is
    missing."""
    true_positives, flagged, run_ends, positives, negatives = runs_by_score(x, y)
    if not positives or not negatives:
        return np.full(len(true_positives), np.nan)
    return np.where(run_ends, 2 * true_positives / (flagged + positives), -np.inf).max(axis=1)


ROW_MEASURES = {
    "roc_auc": roc_auc_rows,
    "average_precision": average_precision_rows,
    "best_f1": best_f1_rows,
    "acc_eq": acc_eq_rows,
    "pearson": pearson_rows,
    "spearman": spearman_rows,
    "kendall": kendall_rows,
    "pairwise_accuracy": pairwise_accuracy_rows,
}
