"""The pairwise measures (acc_eq, Kendall's τ-b) of many PERM-BOTH trials or bootstrap resamples at once, from what
the rows share instead of each row's pairs listed and sorted anew (rows: equal, row by row, to its
acc_eq_rows and kendall_rows of the rows written out; tests/test_metric_pair_rows.py checks it).

* A PERM-BOTH trial takes, for each text, the score of metric A or of metric B (A' = where(swaps, zb, za)), so each
  pair of texts has one of four metric differences, candidate k = 2·(first text swapped) + (second text swapped):
  za−za, za−zb, zb−za, zb−zb (swapped_differences). They are computed once, as a trial would.
* A bootstrap resample draws text i w_i times: its pairs are w_i·w_j pairs of texts i < j, at those texts' own
  differences, and w_i(w_i − 1)/2 pairs of a text with itself, tied in both (difference 0).
"""

from __future__ import annotations

import numpy as np

from accuracy_db.metric_validity import measures as mm
from accuracy_db.metric_validity.measures import as_floats

# Rows × pairs of a block: its indices and counts stay in the cache (4 million took twice the time at 60 texts).
CACHED_CELLS = 125_000


def swapped_differences(za: np.ndarray, zb: np.ndarray, y: np.ndarray):
    """The pairs (first < second), each pair's metric difference at each candidate (pairs × 4) and its gold
    difference."""
    first, second = np.triu_indices(len(y), 1)
    sides = np.stack([za, zb])
    dx = (sides[[0, 0, 1, 1]][:, first] - sides[[0, 1, 0, 1]][:, second]).T
    return first, second, dx, y[first] - y[second]


def acc_eq_swapped_rows(za, zb, swaps, y) -> np.ndarray:
    """acc_eq_rows(where(swaps, zb, za), y). The thresholds are the distinct differences of the gold-tied pairs'
    candidates; a gold-tied pair turns right at its own, a concordant one turns wrong at the first threshold at or
    above its difference. A trial counts its pairs' turns at each threshold (one histogram), and the running sum
    is acc_eq_rows' walk over the sorted differences, read where a gold-tied pair turns (no other run's end is
    higher). The best is at least 0: ε = 0 turns only pairs of difference 0, which are never concordant."""
    za, zb, y = as_floats(za, zb, y)
    first, second, dx, dy = swapped_differences(za, zb, y)
    values = np.full(len(swaps), np.nan)
    if not len(first) or not np.ptp(y) > 0:
        return values
    tied = dy == 0
    thresholds = np.unique(np.abs(dx[tied]))
    # a trial's counts: right turns at each threshold, then wrong turns at each, the concordant pairs beyond every
    # threshold, and the pairs that never turn (discordant or tied in the metric)
    wrong, beyond = len(thresholds), 2 * len(thresholds)
    width = beyond + 2
    slots = np.where(
        tied[:, None],
        np.searchsorted(thresholds, np.abs(dx)),
        np.where(np.sign(dx) * np.sign(dy)[:, None] > 0, wrong + np.searchsorted(thresholds, np.abs(dx)), beyond + 1),
    ).ravel()
    pairs = 4 * np.arange(len(first))
    block = max(1, CACHED_CELLS // max(len(first), width))
    for start in range(0, len(swaps), block):
        drawn = swaps[start : start + block].astype(np.uint8)
        chosen = slots[pairs + ((drawn[:, first] << 1) | drawn[:, second])] + width * np.arange(len(drawn))[:, None]
        counts = np.bincount(chosen.ravel(), minlength=len(drawn) * width).reshape(len(drawn), width)
        walk = (counts[:, :wrong] - counts[:, wrong:beyond]).cumsum(axis=1)
        best = np.maximum(walk.max(axis=1, initial=0), 0)
        agreeing = counts[:, wrong : beyond + 1].sum(axis=1)
        varies = np.ptp(np.where(drawn, zb, za), axis=1) > 0
        values[start : start + block] = np.where(varies, (agreeing + best) / len(first), np.nan)
    return values


def kendall_swapped_rows(za, zb, swaps, y) -> np.ndarray:
    """kendall_rows(where(swaps, zb, za), y), by matrix products. Each sum over the pairs that τ-b needs (of
    sign(dx)·sign(dy), and of the pairs untied in the metric) adds a value f_k of each pair's candidate k, and with
    a and b the swaps (0 or 1) of its first and second text, f_k = f0 + a(f2 − f0) + b(f1 − f0) + ab(f3 − f2 − f1
    + f0): a constant, a linear and a quadratic form in the swaps. Integers throughout, exact in floats."""
    za, zb, y = as_floats(za, zb, y)
    first, second, dx, dy = swapped_differences(za, zb, y)
    swaps = np.asarray(swaps, dtype=np.float64)
    n = len(y)

    def summed(f: np.ndarray) -> np.ndarray:
        linear = np.bincount(first, f[:, 2] - f[:, 0], n) + np.bincount(second, f[:, 1] - f[:, 0], n)
        quadratic = np.zeros((n, n))
        quadratic[first, second] = f[:, 3] - f[:, 2] - f[:, 1] + f[:, 0]
        return f[:, 0].sum() + swaps @ linear + ((swaps @ quadratic) * swaps).sum(axis=1)

    sy = np.sign(dy)
    signs, untied_x = summed(np.sign(dx) * sy[:, None]), summed((dx != 0).astype(np.float64))
    untied = untied_x * np.count_nonzero(sy)
    with np.errstate(invalid="ignore", divide="ignore"):
        tau = signs / np.sqrt(untied)
    return np.where(untied > 0, np.clip(tau, -1, 1), np.nan)


def acc_eq_weighted_rows(x, y, weights) -> np.ndarray:
    """acc_eq_rows of the bootstrap resamples whose weights (resamples × texts) say how many times each text is
    drawn: acc_eq_rows(x[draws], y[draws]). The texts' pairs are sorted by difference once; a resample weighs each
    pair's turn (+1 gold-tied, −1 concordant) by w_i·w_j, and the running sum is acc_eq_rows' walk, read at every
    run's end. A text's pairs with itself are right at every threshold, ε = 0 included; the best of the others is
    at least 0, as in acc_eq_swapped_rows."""
    (x, y), weights = as_floats(x, y), np.asarray(weights, dtype=np.float64)
    first, second = np.triu_indices(len(x), 1)
    values = np.full(len(weights), np.nan)
    if not len(first):
        return values
    dx, dy = x[first] - x[second], y[first] - y[second]
    order = np.argsort(np.abs(dx), kind="stable")
    ordered = np.abs(dx)[order]
    read = np.r_[ordered[1:] != ordered[:-1], True]  # where each run of equal differences ends
    first, second = first[order], second[order]
    concordant = (np.sign(dx) * np.sign(dy) > 0)[order]  # dx · dy may overflow or underflow
    turn = (dy == 0)[order] - concordant.astype(np.float64)
    sides = mm.Groups(x), mm.Groups(y)
    block = max(1, CACHED_CELLS // max(len(first), 1))
    for start in range(0, len(weights), block):
        w = weights[start : start + block]
        products = w[:, first] * w[:, second]
        walk = (products * turn).cumsum(axis=1)[:, read]
        best = np.maximum(walk.max(axis=1, initial=0), 0)
        agreeing = products @ concordant
        itself = (w * (w - 1) / 2).sum(axis=1)
        drawn = w.sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            value = (agreeing + itself + best) / (drawn * (drawn - 1) / 2)
        values[start : start + block] = np.where(sides[0].varies(w) & sides[1].varies(w), value, np.nan)
    return values


# PERM-BOTH's trials from the two metrics and the swaps: f(za, zb, swaps, y) = rows(where(swaps, zb, za), y)
SWAPPED_ROWS = {"acc_eq": acc_eq_swapped_rows, "kendall": kendall_swapped_rows}
