"""Text-level meta-evaluation of a metric (issue 37): how well one number per text tracks the gold mistake count.

Orientation is the caller's: x is the metric taken as error-like (a higher-is-better metric negated) and y the gold
count of mistakes per text, so a metric that tracks the gold scores +1 on every measure.

Every measure is one definition over weighted texts: weights W (resamples × n) say how many times each resample
draws each text, and the measure of the data itself is the one with unit weights. The bootstrap
(bootstrap.py) thus computes all its resamples at once, with the very code that gives the value:

* pearson: from the weighted sums of x, y, x², y², xy, one matrix product over all resamples, of both vectors
  standardised first (centred and brought to magnitudes of at most 1, as scipy.stats.pearsonr does): a large offset
  loses no precision, and scores of any finite size (1e-300 or 1e300) give products that neither overflow nor
  underflow;
* spearman: Pearson's r of the weighted mid-ranks (scipy's definition): a text's rank is the weight drawn below
  its value plus (the weight drawn at its value + 1) / 2;
* partial_pearson, partial_spearman: r of x and y controlling for z (the text's length),
  (r_xy − r_xz·r_yz) / √((1 − r_xz²)(1 − r_yz²)), of the values or of the mid-ranks;
* detection of the texts with at least one gold mistake (y > 0) from the score x: roc_auc (Mann–Whitney from the
  mid-ranks, equal to scikit-learn's trapezoidal area under the ROC curve with ties), average_precision
  (scikit-learn's: Σ (R_k − R_{k−1}) P_k over the distinct scores, highest first) and best_f1 (the largest F1 of
  "has a mistake" when x ≥ t, over the distinct scores t; among equal F1, the highest t, which flags fewest texts);
* kendall: τ-b from the counts of discordant pairs and ties, in O(n log n) (a merge sort counting inversions,
  vectorised level by level); computed per resample (no weighted form).

A measure that is undefined is a Measure with value None and a reason: fewer than MIN_POINTS texts (4 for a
partial correlation, whose residuals of 3 points always correlate ±1), a constant metric or gold, a missing class.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from accuracy_db.stats.validity import correlation_reason

MIN_PARTIAL_POINTS = 4


@dataclass(frozen=True)
class Measure:
    """A measure's value, or None and why; threshold where the measure chooses one (acc_eq, best_f1); method
    where the value may be approximated (acc_eq: "exact" or how pairs were sampled), for the signature."""

    value: float | None
    reason: str | None = None
    threshold: float | None = None
    method: str | None = None


class Groups:
    """The distinct values of a vector, for ranks and sums by value under weights."""

    def __init__(self, values: np.ndarray):
        self.order = np.argsort(values, kind="stable")
        ordered = values[self.order]
        new = np.r_[True, ordered[1:] != ordered[:-1]] if len(values) else np.zeros(0, bool)
        self.starts = np.flatnonzero(new)
        self.values = ordered[self.starts]
        self.codes = np.empty(len(values), dtype=np.intp)
        self.codes[self.order] = np.cumsum(new) - 1

    def sums(self, weights: np.ndarray) -> np.ndarray:
        """The weight of each distinct value, ascending: (resamples, groups)."""
        return np.add.reduceat(weights[:, self.order], self.starts, axis=1)

    def midranks(self, weights: np.ndarray) -> np.ndarray:
        """Each text's mid-rank in each weighted resample: (resamples, n)."""
        drawn = self.sums(weights)
        return (np.cumsum(drawn, axis=1) - (drawn - 1) / 2)[:, self.codes]

    def varies(self, weights: np.ndarray) -> np.ndarray:
        """Whether each resample draws two distinct values or more."""
        return (self.sums(weights) > 0).sum(axis=1) > 1


def unit_weights(n: int) -> np.ndarray:
    return np.ones((1, n))


def as_floats(*vectors) -> list[np.ndarray]:
    arrays = [np.asarray(v, dtype=np.float64) for v in vectors]
    if len({len(a) for a in arrays}) > 1:
        raise ValueError(f"vectors of different lengths: {[len(a) for a in arrays]}")
    return arrays


def scaled(values: np.ndarray) -> np.ndarray:
    """values (along the last axis) divided by the power of two at or above their largest magnitude: exact (only the
    exponents change), and every magnitude at most 1 after."""
    values = np.asarray(values, dtype=np.float64)
    top = np.max(np.abs(values), axis=-1, keepdims=True, initial=0.0)
    exponent = np.frexp(np.where(np.isfinite(top) & (top > 0), top, 1.0))[1]
    return np.ldexp(values, -exponent)


def standardised(values: np.ndarray, codes: np.ndarray | None = None) -> np.ndarray:
    """values (along the last axis) centred on their mean and brought to magnitudes of at most 1 before any sum of
    products (scipy.stats.pearsonr's way): scaled first, so that the mean cannot overflow, then centred and scaled
    again, so that squares of scores of 1e200 or 1e-200 neither overflow nor underflow. A correlation is the same
    of the standardised vectors. codes: the mean is that of values[codes] (distinct values and the texts' codes)."""
    values = scaled(values)
    mean = (values if codes is None else values[..., codes]).mean(axis=-1, keepdims=True)
    return scaled(values - mean)


def detection_reason(y: np.ndarray) -> str | None:
    """Why detection of the texts with a gold mistake cannot be measured, or None."""
    if not (y > 0).any():
        return "no text has a gold mistake"
    if (y > 0).all():
        return "every text has a gold mistake"
    return None


def measured(values: np.ndarray, reason: str | None = None) -> Measure:
    value = float(values[0])
    return Measure(None, reason or "undefined") if reason or np.isnan(value) else Measure(value)


# Weighted forms: weights (resamples, n), vectors (n,) or (resamples, n); NaN where a resample leaves it undefined.


def weighted_pearson(weights: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a, b = standardised(a), standardised(b)
    if a.ndim == 1 and b.ndim == 1:
        total, sa, sb, saa, sbb, sab = (weights @ np.stack([np.ones_like(a), a, b, a * a, b * b, a * b], axis=1)).T
    else:
        total = weights.sum(axis=1)
        sa, sb = (weights * a).sum(axis=1), (weights * b).sum(axis=1)
        saa, sbb, sab = (weights * a * a).sum(axis=1), (weights * b * b).sum(axis=1), (weights * a * b).sum(axis=1)
    covariance, var_a, var_b = total * sab - sa * sb, total * saa - sa * sa, total * sbb - sb * sb
    with np.errstate(invalid="ignore", divide="ignore"):
        r = covariance / np.sqrt(var_a * var_b)
    return np.clip(np.where((var_a > 0) & (var_b > 0), r, np.nan), -1.0, 1.0)


def weighted_partial(weights: np.ndarray, x: np.ndarray, y: np.ndarray, z: np.ndarray) -> np.ndarray:
    r_xy, r_xz, r_yz = (weighted_pearson(weights, a, b) for a, b in ((x, y), (x, z), (y, z)))
    with np.errstate(invalid="ignore", divide="ignore"):
        r = (r_xy - r_xz * r_yz) / np.sqrt((1 - r_xz**2) * (1 - r_yz**2))
    return np.clip(np.where(np.isfinite(r), r, np.nan), -1.0, 1.0)


def weighted_roc_auc(weights: np.ndarray, x: np.ndarray, y: np.ndarray, ranks: np.ndarray | None = None) -> np.ndarray:
    """ranks: x's mid-ranks under the weights, when already at hand (Spearman's)."""
    positive = y > 0
    ranks = Groups(x).midranks(weights) if ranks is None else ranks
    drawn_positive = weights[:, positive].sum(axis=1)
    drawn_negative = weights[:, ~positive].sum(axis=1)
    u = (weights[:, positive] * ranks[:, positive]).sum(axis=1) - drawn_positive * (drawn_positive + 1) / 2
    with np.errstate(invalid="ignore", divide="ignore"):
        return u / (drawn_positive * drawn_negative)


def detection_curve(weights: np.ndarray, x: np.ndarray, y: np.ndarray, groups: Groups | None = None):
    """True and false positives of "x ≥ t" at each distinct score t, highest first: (groups, tp, fp, positives);
    groups: x's, when already at hand."""
    groups = Groups(x) if groups is None else groups
    positive = (y > 0).astype(np.float64)
    true_positives = np.cumsum(groups.sums(weights * positive)[:, ::-1], axis=1)
    false_positives = np.cumsum(groups.sums(weights * (1 - positive))[:, ::-1], axis=1)
    return groups, true_positives, false_positives, true_positives[:, -1:]


def weighted_average_precision(weights: np.ndarray, x: np.ndarray, y: np.ndarray, curve=None) -> np.ndarray:
    """curve: detection_curve(weights, x, y), when already at hand."""
    _, tp, fp, positives = detection_curve(weights, x, y) if curve is None else curve
    flagged = tp + fp
    precision = np.divide(tp, flagged, out=np.zeros_like(tp), where=flagged > 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        recall_steps = np.diff(tp, axis=1, prepend=0.0) / positives
    return (recall_steps * precision).sum(axis=1)


def weighted_best_f1(weights: np.ndarray, x: np.ndarray, y: np.ndarray, curve=None) -> tuple[np.ndarray, np.ndarray]:
    """The best F1 of each resample and its threshold (the highest among ties); curve as average precision's."""
    groups, tp, fp, positives = detection_curve(weights, x, y) if curve is None else curve
    with np.errstate(invalid="ignore", divide="ignore"):
        f1 = 2 * tp / (tp + fp + positives)
    best = np.argmax(f1, axis=1)  # the first maximum, highest first: the highest threshold
    rows = np.arange(len(f1))
    return f1[rows, best], groups.values[::-1][best]


# The measures of one metric on the texts.


def pearson(x, y, unit: str = "text") -> Measure:
    x, y = as_floats(x, y)
    reason = correlation_reason(x, y, unit=unit)
    return Measure(None, reason) if reason else measured(weighted_pearson(unit_weights(len(x)), x, y))


# groups: x's and y's Groups, when the caller has them (table sorts each metric once for every measure).


def spearman(x, y, unit: str = "text", groups: tuple[Groups, Groups] | None = None) -> Measure:
    x, y = as_floats(x, y)
    reason = correlation_reason(x, y, unit=unit)
    if reason is not None:
        return Measure(None, reason)
    weights = unit_weights(len(x))
    x_groups, y_groups = (Groups(x), Groups(y)) if groups is None else groups
    return measured(weighted_pearson(weights, x_groups.midranks(weights), y_groups.midranks(weights)))


def partial_reason(x, y, z) -> str | None:
    reason = correlation_reason(x, y, MIN_PARTIAL_POINTS)
    if reason is None and z.min() == z.max():
        reason = f"the control is the same ({z[0]:g}) for every text"
    return reason


def partial_pearson(x, y, z) -> Measure:
    """Pearson's r of metric x and gold y controlling for z (the texts' lengths)."""
    x, y, z = as_floats(x, y, z)
    reason = partial_reason(x, y, z)
    if reason is not None:
        return Measure(None, reason)
    return with_collinear_reason(weighted_partial(unit_weights(len(x)), x, y, z))


def partial_spearman(x, y, z) -> Measure:
    """Spearman's ρ of metric x and gold y controlling for z: the partial correlation of their mid-ranks."""
    x, y, z = as_floats(x, y, z)
    reason = partial_reason(x, y, z)
    if reason is not None:
        return Measure(None, reason)
    weights = unit_weights(len(x))
    ranks = [Groups(v).midranks(weights) for v in (x, y, z)]
    return with_collinear_reason(weighted_partial(weights, *ranks))


def with_collinear_reason(values: np.ndarray) -> Measure:
    return measured(values, None if np.isfinite(values[0]) else "the metric or the gold is a function of the control")


def roc_auc(x, y, groups: tuple[Groups, Groups] | None = None) -> Measure:
    """Area under the ROC curve of score x detecting the texts with a gold mistake (y > 0)."""
    x, y = as_floats(x, y)
    reason = detection_reason(y)
    if reason is not None:
        return Measure(None, reason)
    weights = unit_weights(len(x))
    ranks = None if groups is None else groups[0].midranks(weights)
    return measured(weighted_roc_auc(weights, x, y, ranks))


def unit_curve(x: np.ndarray, y: np.ndarray, groups: tuple[Groups, Groups] | None):
    """detection_curve of the texts themselves (unit weights)."""
    return detection_curve(unit_weights(len(x)), x, y, None if groups is None else groups[0])


def average_precision(x, y, groups: tuple[Groups, Groups] | None = None) -> Measure:
    x, y = as_floats(x, y)
    reason = detection_reason(y)
    if reason is not None:
        return Measure(None, reason)
    return measured(weighted_average_precision(unit_weights(len(x)), x, y, unit_curve(x, y, groups)))


def best_f1(x, y, groups: tuple[Groups, Groups] | None = None) -> Measure:
    """The best F1 of flagging the texts with x ≥ threshold as having a gold mistake, and that threshold."""
    x, y = as_floats(x, y)
    reason = detection_reason(y)
    if reason is not None:
        return Measure(None, reason)
    value, threshold = weighted_best_f1(unit_weights(len(x)), x, y, unit_curve(x, y, groups))
    return Measure(float(value[0]), threshold=float(threshold[0]))


# Kendall's tau-b.


def inversions(ranks: np.ndarray) -> int:
    """The pairs i < j with ranks[i] > ranks[j] (non-negative integers), as a radix sort from the highest bit finds
    them: at each bit, within a group of equal higher bits (kept in their original order), every 0 is passed by the
    1s before it; then the group is split stably, 0s first. A few whole-array operations per bit of the largest
    rank, O(n log k) for k distinct ranks (5 bits for gold counts of 0 to 31)."""
    ranks = ranks.astype(np.int64)
    positions = np.arange(len(ranks))
    count = 0
    for bit_number in reversed(range(int(ranks.max(initial=0)).bit_length())):
        prefix = ranks >> (bit_number + 1)
        bit = (ranks >> bit_number) & 1
        first = np.r_[True, prefix[1:] != prefix[:-1]]  # ranks are sorted by prefix, stably
        group = np.cumsum(first) - 1
        group_start = np.flatnonzero(first)
        ones = np.cumsum(bit)
        ones_before = ones - bit - (ones - bit)[group_start][group]
        count += int(ones_before[bit == 0].sum())
        zeros_before = positions - group_start[group] - ones_before
        group_ones = np.add.reduceat(bit, group_start)[group]
        group_zeros = np.diff(np.r_[group_start, len(ranks)])[group] - group_ones
        destination = group_start[group] + np.where(bit == 0, zeros_before, group_zeros + ones_before)
        split = np.empty_like(ranks)
        split[destination] = ranks
        ranks = split
    return count


def tied_pairs(first: np.ndarray) -> int:
    """Pairs within runs of equal values, given where each run starts in sorted values."""
    sizes = np.diff(np.r_[np.flatnonzero(first), len(first)])
    return int((sizes * (sizes - 1) // 2).sum())


def kendall(x, y, unit: str = "text", groups: tuple[Groups, Groups] | None = None) -> Measure:
    """Kendall's τ-b: (concordant − discordant) / √((pairs − ties in x)(pairs − ties in y))."""
    x, y = as_floats(x, y)
    reason = correlation_reason(x, y, unit=unit)
    if reason is not None:
        return Measure(None, reason)
    return Measure(kendall_tau_b(x, y, groups))


def kendall_tau_b(x: np.ndarray, y: np.ndarray, groups: tuple[Groups, Groups] | None = None) -> float:
    """τ-b of two vectors that both vary."""
    if groups is None:
        order = np.lexsort((y, x))
        y_groups = Groups(y)
    else:  # by x, then y, as lexsort: the groups' codes are their values' ranks
        x_groups, y_groups = groups
        order = np.argsort(x_groups.codes * len(y_groups.values) + y_groups.codes, kind="stable")
    y_sizes = np.diff(np.r_[y_groups.starts, len(y)])
    return sorted_tau_b(x[order], y[order], y_groups.codes[order], int((y_sizes * (y_sizes - 1) // 2).sum()))


def sorted_tau_b(x: np.ndarray, y: np.ndarray, y_codes: np.ndarray, y_ties: int) -> float:
    """τ-b of texts sorted by x, then y (so that pairs tied in x are never inversions of y): y_codes number the
    distinct y values in order, y_ties counts the pairs tied in y."""
    n = len(x)
    new_x = np.r_[True, x[1:] != x[:-1]]
    new_pair = new_x | np.r_[True, y[1:] != y[:-1]]
    pairs = n * (n - 1) // 2
    x_ties, both = tied_pairs(new_x), tied_pairs(new_pair)
    concordant_minus_discordant = pairs - x_ties - y_ties + both - 2 * inversions(y_codes)
    return float(np.clip(concordant_minus_discordant / np.sqrt(float(pairs - x_ties) * (pairs - y_ties)), -1, 1))
