"""acc_eq: pairwise accuracy with an optimised tie threshold (Deutsch et al. 2023, "Ties Matter"), as mt-metrics-eval's
KendallWithTiesOpt with variant acc23 defines it.

Every pair of texts is concordant (metric and gold differ in the same direction), discordant, tied in the gold
only, tied in the metric only or tied in both. With a threshold ε, a pair whose metric scores differ by at most ε
counts as tied in the metric, and

    acc_eq(ε) = (concordant + tied in both) / pairs,

maximised over ε ∈ {0} ∪ {|x_i − x_j|}; among equal accuracies the smallest ε (tau_optimization's first maximum).
As ε grows, a concordant pair turning into a metric tie lowers the accuracy and a gold-tied pair raises it, so the
maximum is at 0 or at the metric difference of a gold-tied pair; only the concordant and the gold-tied pairs are
kept, their differences sorted, and every candidate counted by binary search.

A metric of at most FEW_SCORES distinct scores has its pairs counted by (score, gold value), exactly, at any number
of texts (counted_pairs). Otherwise, up to EXACT_TEXTS texts (50 million pairs) every pair is enumerated, in blocks
of rows. Beyond, as mt-metrics-eval's
sample_rate does, the threshold and the accuracy are those of a sample of SAMPLED_PAIRS pairs, drawn with
replacement by the project's counter-based hash (resampling.bootstrap_draws of replicates numbered from
PAIR_REPLICATES, far from any bootstrap's, so the sample is independent of the intervals' resamples); the result's
method says which ("exact" or "sample:<pairs>:seed:<seed>"). Memory: 8 bytes per kept pair (up to 400 MB at the
exact limit, 8 MB for the sample); time: the sort of the kept pairs' differences, some seconds at the exact limit.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from accuracy_db.metric_validity.measures import Groups, Measure, as_floats
from accuracy_db.stats.resampling import bootstrap_draws
from accuracy_db.stats.validity import correlation_reason

EXACT_TEXTS = 10_000
# One million pairs: a standard error of at most 0.0005 on the accuracy, in 0.04–0.1 s of CPU per metric at 60,000
# texts (50 million, as many as the exact limit's, took 6 s each: 17 minutes for a table at scale 1000).
SAMPLED_PAIRS = 1_000_000
PAIR_REPLICATES = 2**31  # the pair sample's draws: replicates PAIR_REPLICATES + 1, + 2, …
BLOCK_PAIRS = 4_000_000
FEW_SCORES = 64  # a metric of at most this many distinct scores: its pairs counted by value (counted_pairs)


def acc_eq(
    x,
    y,
    seed: int = 12345,
    exact_texts: int = EXACT_TEXTS,
    sampled_pairs: int = SAMPLED_PAIRS,
    sample: tuple[np.ndarray, np.ndarray] | None = None,
    few_scores: int = FEW_SCORES,
    x_groups: Groups | None = None,
    sampled: Callable[[np.ndarray], np.ndarray] | None = None,
) -> Measure:
    """acc_eq of metric x against gold y, with its threshold and method. None when fewer than 2 texts or either
    side is constant (then every pair is tied in it, and the accuracy measures nothing of the other). sample: the
    pairs sampled_pair_texts draws, when the caller already has them (every metric and scope of a table draws the
    same). A metric of at most few_scores distinct scores is counted exactly by value (counted_pairs), at any
    number of texts. x_groups: x's Groups when the caller has them (its distinct scores and each text's);
    sampled: a vector's differences over the sample's pairs (v[first] − v[second]), when the caller keeps them (a
    metric's are the same in every scope, a gold's for every metric)."""
    x, y = as_floats(x, y)
    reason = correlation_reason(x, y, minimum=2)
    if reason is not None:
        return Measure(None, reason)
    scores, codes = np.unique(x, return_inverse=True) if x_groups is None else (x_groups.values, x_groups.codes)
    if len(scores) <= few_scores:
        value, threshold = best_threshold(*counted_pairs(scores, codes, y), len(x) * (len(x) - 1) // 2)
        return Measure(value, threshold=threshold, method="exact")
    if len(x) <= exact_texts:
        gold_tied, concordant, pairs = all_pairs(x, y)
        method = "exact"
    else:
        first, second = sample or sampled_pair_texts(len(x), sampled_pairs, seed)
        sampled = sampled or (lambda v: v[first] - v[second])
        gold_tied, concordant = kept_differences(sampled(x), sampled(y))
        pairs, method = len(first), f"sample:{len(first)}:seed:{seed}"
    value, threshold = best_threshold(np.sort(gold_tied), np.sort(concordant), pairs)
    return Measure(value, threshold=threshold, method=method)


def counted_pairs(scores: np.ndarray, codes: np.ndarray, y: np.ndarray):
    """The pairs of a metric of few distinct scores, counted by value instead of listed: with N[s, v] the texts of
    score s and gold value v, the pairs of scores s < t number Σ_v N[s, v]·N[t, v] tied in the gold and
    Σ_(v < w) N[s, v]·N[t, w] concordant, at metric difference |x_t − x_s|; pairs of one score are at difference 0
    and never concordant. Returns best_threshold's arguments: the distinct differences and their counts."""
    values, gold_codes = np.unique(y, return_inverse=True)
    counts = np.bincount(codes * len(values) + gold_codes, minlength=len(scores) * len(values))
    counts = counts.reshape(len(scores), len(values)).astype(np.int64)
    first, second = np.triu_indices(len(scores), 1)
    tied = (counts @ counts.T)[first, second]
    concordant = (counts @ np.triu(np.ones((len(values), len(values)), dtype=np.int64), 1) @ counts.T)[first, second]
    differences = scores[second] - scores[first]
    within = int((counts * (counts - 1) // 2).sum())  # gold-tied pairs of one score
    tied_at = np.r_[0.0, differences[tied > 0]], np.r_[within, tied[tied > 0]]
    concordant_at = differences[concordant > 0], concordant[concordant > 0]
    return (*(grouped(*found) for found in (tied_at, concordant_at)),)


def grouped(differences: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct differences, ascending, with their counts summed."""
    distinct, where = np.unique(differences, return_inverse=True)
    return distinct, np.bincount(where, weights=counts, minlength=len(distinct)).astype(np.int64)


def kept_differences(dx: np.ndarray, dy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The metric differences |dx| of the gold-tied pairs and of the concordant pairs."""
    return np.abs(dx[dy == 0]), np.abs(dx[np.sign(dx) * np.sign(dy) > 0])  # dx · dy may underflow


def all_pairs(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    n = len(x)
    rows = max(1, BLOCK_PAIRS // n)
    gold_tied, concordant = [], []
    for start in range(0, n - 1, rows):
        i = np.arange(start, min(start + rows, n - 1))[:, None]
        j = np.arange(n)[None, :]
        later = j > i
        dx, dy = (x[None, :] - x[i])[later], (y[None, :] - y[i])[later]
        tied, agreeing = kept_differences(dx, dy)
        gold_tied.append(tied)
        concordant.append(agreeing)
    return np.concatenate(gold_tied or [np.empty(0)]), np.concatenate(concordant or [np.empty(0)]), n * (n - 1) // 2


def sampled_pair_texts(n: int, pairs: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A sample of pairs of distinct texts, uniform with replacement: the first and second text of each. Replicate
    after replicate of draws, cut in halves, until enough pairs of two distinct texts."""
    firsts, seconds, found, number = [], [], 0, PAIR_REPLICATES + 1
    while found < pairs:
        count = -(-2 * (pairs - found) // n) + 1
        draws = bootstrap_draws(seed, np.arange(number, number + count, dtype=np.uint64), [n]).ravel()
        half = len(draws) // 2
        distinct = draws[:half] != draws[half : 2 * half]
        firsts.append(draws[:half][distinct])
        seconds.append(draws[half : 2 * half][distinct])
        found, number = found + int(distinct.sum()), number + count
    return np.concatenate(firsts)[:pairs].astype(np.int32), np.concatenate(seconds)[:pairs].astype(np.int32)


def best_threshold(gold_tied, concordant, pairs: int) -> tuple[float, float]:
    """The best accuracy over the candidate thresholds and the smallest threshold that reaches it, given the metric
    differences of the gold-tied and of the concordant pairs, each a sorted array of one difference a pair or
    (distinct differences ascending, their counts). The candidates are 0 and the gold-tied pairs' differences."""
    tied_values, tied_counts = counted(gold_tied)
    kept = tied_counts > 0
    tied_values, turned_ties = tied_values[kept], np.cumsum(tied_counts[kept])
    if not (len(tied_values) and tied_values[0] == 0):
        tied_values, turned_ties = np.r_[0.0, tied_values], np.r_[0, turned_ties]
    if isinstance(concordant, tuple):
        values, counts = concordant
        lost = np.r_[0, np.cumsum(counts)][np.searchsorted(values, tied_values, side="right")]
        correct = int(counts.sum()) - lost + turned_ties
    else:
        correct = len(concordant) - np.searchsorted(concordant, tied_values, side="right") + turned_ties
    best = int(np.argmax(correct))
    return float(correct[best] / pairs), float(tied_values[best])


def counted(differences) -> tuple[np.ndarray, np.ndarray]:
    """(distinct differences ascending, their counts), from a sorted array of one difference a pair or as given."""
    if isinstance(differences, tuple):
        return differences
    if not len(differences):
        return differences, np.zeros(0, dtype=np.int64)
    ends = np.flatnonzero(np.r_[differences[1:] != differences[:-1], True])  # the last pair of each run
    return differences[ends], np.diff(np.r_[-1, ends])
