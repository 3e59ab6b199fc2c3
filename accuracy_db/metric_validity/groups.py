"""Segment-level correlations averaged over groups of texts, as mt-metrics-eval's AverageCorrelation (stats.py)
averages them (`metrics --average-by`):

* item: the systems' texts of each segment correlated, the correlations averaged over the segments (WMT23's
  segment-level grouping, average_by="item");
* sys: each system's texts correlated across its segments, averaged over the systems (average_by="sys").

A group of fewer than 2 texts, or in which the metric or the gold is constant, has no correlation and is left out of
the mean (scipy gives NaN there, which AverageCorrelation drops); when no group has one the mean is undefined (where
mt-metrics-eval returns 0). Pearson is scipy's pearsonr, Spearman pearsonr of the midranks within the group, Kendall
τ-b (metric_measures.kendall_tau_b).

Intervals: the groups drawn with replacement (the project's hashed draws, resampling.bootstrap_draws), the mean of
the drawn groups' correlations. Clusters: PERM-BOTH for Pearson, as PermutationSigDiff with average_by (each text's
two z-scored scores swapped, the grouped mean recomputed in every trial: pearson_rows does every trial of a block at
once); the paired bootstrap on the groups' resamples for Spearman and Kendall.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats

from accuracy_db.metric_validity.measures import Measure, kendall_tau_b
from accuracy_db.stats import resampling

AVERAGE_BY = ("none", "item", "sys")
GROUPED_MEASURES = ("pearson", "spearman", "kendall")
MIN_GROUP = 2  # AverageCorrelation skips a group of one


@dataclass(frozen=True)
class Grouping:
    """Texts grouped by a label (their segment, or their system): the texts in group order, where each group
    starts in that order, and each group's size."""

    order: np.ndarray
    starts: np.ndarray
    sizes: np.ndarray

    @classmethod
    def of(cls, labels) -> Grouping:
        _, codes, sizes = np.unique(np.asarray(labels), return_inverse=True, return_counts=True)
        return cls(np.argsort(codes, kind="stable"), np.cumsum(sizes) - sizes, sizes)

    def sums(self, ordered: np.ndarray) -> np.ndarray:
        return np.add.reduceat(ordered, self.starts, axis=-1)

    def constant(self, ordered: np.ndarray) -> np.ndarray:
        return np.maximum.reduceat(ordered, self.starts, axis=-1) == np.minimum.reduceat(ordered, self.starts, axis=-1)

    def scaled(self, ordered: np.ndarray) -> np.ndarray:
        """Each group's values divided by the power of two at or above their largest magnitude (exact)."""
        top = np.maximum.reduceat(np.abs(ordered), self.starts, axis=-1)
        exponent = np.frexp(np.where(np.isfinite(top) & (top > 0), top, 1.0))[1]
        return np.ldexp(ordered, -np.repeat(exponent, self.sizes, axis=-1))

    def standardised(self, ordered: np.ndarray) -> np.ndarray:
        """Each group's values centred on the group's mean, scaled before and after (as
        metric_measures.standardised does for one vector): a group's scores of 1e-200 beside another's of 1 keep
        their digits, and no square overflows."""
        values = self.scaled(ordered)
        return self.scaled(values - np.repeat(self.sums(values) / self.sizes, self.sizes, axis=-1))


def group_labels(average_by: str, systems: np.ndarray, inputs: np.ndarray) -> np.ndarray:
    """What the texts are grouped by: their segment (item) or their system (sys)."""
    return inputs if average_by == "item" else systems


def pearson_rows(matrix: np.ndarray, y: np.ndarray, grouping: Grouping) -> np.ndarray:
    """Pearson's r of each row of matrix (rows × texts) with y within every group: (rows × groups), NaN where a
    group has fewer than 2 texts or a constant side. Each group's vectors are standardised within the group
    (Grouping.standardised: scores of any finite size)."""
    x = np.asarray(np.atleast_2d(matrix), dtype=np.float64)[:, grouping.order]
    gold = np.asarray(y, dtype=np.float64)[grouping.order]
    x_centred, y_centred = grouping.standardised(x), grouping.standardised(gold)
    products = [grouping.sums(a * b) for a, b in ((x_centred, y_centred), (x_centred, x_centred))]
    y_squares = grouping.sums(y_centred * y_centred)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = products[0] / np.sqrt(products[1] * y_squares)
    undefined = grouping.constant(x) | grouping.constant(gold) | (grouping.sizes < MIN_GROUP)
    return np.clip(np.where(undefined, np.nan, r), -1.0, 1.0)


def midranks_within(values: np.ndarray, grouping: Grouping) -> np.ndarray:
    """Each text's midrank among the texts of its group, in the texts' own order."""
    ordered = values[grouping.order]
    ranks = np.concatenate(
        [stats.rankdata(ordered[start : start + size]) for start, size in zip(grouping.starts, grouping.sizes)]
    )
    found = np.empty_like(ranks)
    found[grouping.order] = ranks
    return found


def kendall_by_group(x: np.ndarray, y: np.ndarray, grouping: Grouping) -> np.ndarray:
    """τ-b within each group, NaN where it has fewer than 2 texts or a constant side."""
    xs, ys = x[grouping.order], y[grouping.order]
    undefined = grouping.constant(xs) | grouping.constant(ys) | (grouping.sizes < MIN_GROUP)
    return np.array(
        [
            np.nan if skip else kendall_tau_b(xs[start : start + size], ys[start : start + size])
            for start, size, skip in zip(grouping.starts, grouping.sizes, undefined)
        ]
    )


def by_group(measure: str, x: np.ndarray, y: np.ndarray, grouping: Grouping) -> np.ndarray:
    """The measure within each group (NaN where undefined)."""
    if measure == "pearson":
        return pearson_rows(x, y, grouping)[0]
    if measure == "spearman":
        return pearson_rows(midranks_within(x, grouping), midranks_within(y, grouping), grouping)[0]
    return kendall_by_group(x, y, grouping)


def averaged(values: np.ndarray) -> np.ndarray:
    """The mean of the defined groups' values along the last axis; NaN where none is defined."""
    defined = ~np.isnan(values)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(defined, values, 0.0).sum(axis=-1) / defined.sum(axis=-1)


def mean_of_groups(values: np.ndarray, average_by: str) -> Measure:
    value = float(averaged(values))
    if np.isnan(value):
        return Measure(None, f"no {'segment' if average_by == 'item' else 'system'} has two texts that both vary")
    return Measure(value)


def grouped_pearson(grouping: Grouping):
    """Pearson averaged over the groups, as a measure of (x, y) and as rows (every row of a matrix at once, NaN
    where undefined), the two forms metric_tests.perm_both takes."""

    def measure(x, y) -> Measure:
        value = float(averaged(pearson_rows(x, y, grouping))[0])
        return Measure(None, "undefined") if np.isnan(value) else Measure(value)

    def rows(matrix, y) -> np.ndarray:
        return averaged(pearson_rows(matrix, y, grouping))

    return measure, rows


def resampled_means(values: np.ndarray, resamples: int, seed: int) -> np.ndarray:
    """The mean of the groups' values in each resample of the groups (drawn with replacement)."""
    found = []
    for block in resampling.chunks(resamples, len(values)):
        found.append(averaged(values[resampling.bootstrap_draws(seed, block, [len(values)])]))
    return np.concatenate(found) if found else np.zeros(0)
