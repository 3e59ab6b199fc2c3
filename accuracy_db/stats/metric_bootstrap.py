"""Bootstrap intervals of the metric measures: the texts resampled with the draws of every statistic of the project
(resampling.py: the same seed gives the same resamples), the interval the percentile interval of the resamples'
values (validity.percentile_interval: numpy's linear interpolation). A resample in which a measure is undefined
(a constant side, a missing class) is left out of its interval and counted.

Costs, per metric and scope, for n texts and R resamples (chunks of resampling.CHUNK_CELLS weights at a time):
* pearson, partial_pearson: one matrix product of the weights (R × n) with the sums' columns, O(R·n);
* spearman, partial_spearman, roc_auc, average_precision, best_f1: the weighted mid-ranks or cumulative counts
  by distinct value, a few whole-array operations on (R × n), O(R·n);
* kendall: per resample, the drawn texts in the order of the data's sort (a repeat, no sort) and a radix
  inversion count, O(n log k) each for k distinct gold counts;
* acc_eq: per resample, the threshold searched anew (metric_ties.acc_eq): O(n²) each up to 10,000 texts, the
  sampled pairs beyond; the dearest by far.
At the system level the texts are drawn within each system (every system stays), the systems' means recomputed,
and the measures computed per resample over the few systems.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from accuracy_db.stats import metric_measures as mm
from accuracy_db.stats import resampling
from accuracy_db.stats.metric_rows import PAIRWISE_TEXTS, ROW_MEASURES
from accuracy_db.stats.metric_ties import acc_eq
from accuracy_db.stats.validity import percentile_interval

TEXT_MEASURES = ("pearson", "spearman", "kendall", "acc_eq", "roc_auc", "average_precision", "best_f1")
PARTIAL_MEASURES = ("partial_pearson", "partial_spearman")
SYSTEM_MEASURES = ("pearson", "spearman", "kendall", "pairwise_accuracy")


@dataclass(frozen=True)
class Interval:
    """A percentile interval ([low, high], None when no resample defines the measure) and how many resamples were
    left out of it."""

    ci: list[float] | None
    undefined: int


def interval(values: np.ndarray, confidence: float) -> Interval:
    defined = values[~np.isnan(values)]
    return Interval(percentile_interval(defined, confidence), int(len(values) - len(defined)))


def text_intervals(
    x,
    y,
    z=None,
    measures: tuple[str, ...] = TEXT_MEASURES,
    resamples: int = 1000,
    seed: int = 12345,
    confidence: float = 0.95,
) -> dict[str, Interval]:
    """The interval of each text-level measure of metric x against gold y (z: the control of the partial
    correlations)."""
    x, y = mm.as_floats(x, y)
    z = None if z is None else mm.as_floats(x, z)[1]
    values = {measure: [] for measure in measures}
    for block in resampling.chunks(resamples, len(x)):
        for measure, block_values in resampled_text_measures(x, y, z, measures, block, seed).items():
            values[measure].append(block_values)
    return {measure: interval(np.concatenate(parts), confidence) for measure, parts in values.items()}


def resampled_text_measures(x, y, z, measures, replicates: np.ndarray, seed: int) -> dict[str, np.ndarray]:
    """Each measure in each replicate (NaN where undefined)."""
    weights = resampling.shared_bootstrap_weights(seed, replicates, len(x))
    groups = {name: mm.Groups(v) for name, v in (("x", x), ("y", y), ("z", z)) if v is not None}
    varies = groups["x"].varies(weights) & groups["y"].varies(weights)
    positive = y > 0
    both_classes = (weights[:, positive].sum(axis=1) > 0) & (weights[:, ~positive].sum(axis=1) > 0)
    ranks, curves = {}, []

    def midranks(name):
        if name not in ranks:
            ranks[name] = groups[name].midranks(weights)
        return ranks[name]

    def curve():  # average precision's and best F1's
        if not curves:
            curves.append(mm.detection_curve(weights, x, y))
        return curves[0]

    def compute(measure: str) -> np.ndarray:
        if measure == "pearson":
            return np.where(varies, mm.weighted_pearson(weights, x, y), np.nan)
        if measure == "spearman":
            return np.where(varies, mm.weighted_pearson(weights, midranks("x"), midranks("y")), np.nan)
        if measure in PARTIAL_MEASURES:
            defined = varies & groups["z"].varies(weights)
            vectors = (x, y, z) if measure == "partial_pearson" else tuple(midranks(v) for v in ("x", "y", "z"))
            return np.where(defined, mm.weighted_partial(weights, *vectors), np.nan)
        if measure == "roc_auc":
            return np.where(both_classes, mm.weighted_roc_auc(weights, x, y, midranks("x")), np.nan)
        if measure == "average_precision":
            return np.where(both_classes, mm.weighted_average_precision(weights, x, y, curve()), np.nan)
        if measure == "best_f1":
            return np.where(both_classes, mm.weighted_best_f1(weights, x, y, curve())[0], np.nan)
        if measure in ("kendall", "acc_eq") and len(x) <= PAIRWISE_TEXTS:  # every pair's signs, all resamples at once
            draws = resampling.shared_text_draws(seed, replicates, len(x))
            return np.where(varies, ROW_MEASURES[measure](x[draws], y[draws]), np.nan)
        if measure == "kendall":
            return np.where(varies, resampled_kendall(x, y, weights), np.nan)
        if measure == "acc_eq":
            draws = resampling.shared_text_draws(seed, replicates, len(x))
            return np.array([none_to_nan(acc_eq(x[d], y[d], seed).value) for d in draws])
        raise ValueError(f"unknown measure {measure!r}")

    return {measure: compute(measure) for measure in measures}


def resampled_kendall(x: np.ndarray, y: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """τ-b in each resample (NaN where a side is constant): the data sorted once, each resample's texts repeated
    in that order as many times as drawn."""
    order = np.lexsort((y, x))
    y_groups = mm.Groups(y)
    x_sorted, y_sorted, codes_sorted = x[order], y[order], y_groups.codes[order]
    y_drawn = y_groups.sums(weights)
    y_ties = (y_drawn * (y_drawn - 1) // 2).sum(axis=1).astype(np.int64)
    values = np.full(len(weights), np.nan)
    for row, counts in enumerate(weights[:, order].astype(np.int64)):
        repeated = [np.repeat(v, counts) for v in (x_sorted, y_sorted, codes_sorted)]
        if np.ptp(repeated[0]) > 0 and np.ptp(repeated[1]) > 0:
            values[row] = mm.sorted_tau_b(*repeated, int(y_ties[row]))
    return values


def none_to_nan(value: float | None) -> float:
    return np.nan if value is None else value


def system_intervals(
    x,
    y,
    systems,
    measures: tuple[str, ...] = SYSTEM_MEASURES,
    resamples: int = 1000,
    seed: int = 12345,
    confidence: float = 0.95,
) -> dict[str, Interval]:
    """The interval of each system-level measure: the texts drawn within each system (systems sorted, texts in
    their given order within a system), the means per system recomputed."""
    x, y = mm.as_floats(x, y)
    order = np.argsort(np.asarray(systems), kind="stable")
    _, sizes = np.unique(np.asarray(systems), return_counts=True)
    starts = np.cumsum(sizes) - sizes
    values = {measure: [] for measure in measures}
    for block in resampling.chunks(resamples, len(x)):
        draws = order[resampling.bootstrap_draws(seed, block, sizes.tolist())]
        x_means, y_means = (np.add.reduceat(v[draws], starts, axis=1) / sizes for v in (x, y))
        for measure in measures:
            values[measure].append(ROW_MEASURES[measure](x_means, y_means))
    return {measure: interval(np.concatenate(parts), confidence) for measure, parts in values.items()}
