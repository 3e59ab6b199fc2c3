"""System-level meta-evaluation of a metric: do the metric's and the gold's means per system order the systems alike?

* pearson, spearman, kendall of the systems' mean scores (measures, unit "system");
* pairwise_accuracy (Kocmi et al. 2021; mt-metrics-eval's stats.Agreement): the share of system pairs whose
  metric difference and gold difference have the same sign. A pair tied on both sides agrees; tied on one side
  only, it disagrees;
* spa, soft pairwise accuracy (Thompson et al. 2024; mt-metrics-eval's pce.py): for every pair of systems i < j,
  the p-value of a paired permutation test that i's total exceeds j's (the share of trials whose permuted
  difference is ≥ the observed one, no +1), from the metric's scores and from the gold's, on the inputs every
  system has a text for; spa = 1 − the mean |p_metric − p_gold| over the pairs. Both sides use the same swaps
  (resampling.permutation_swaps), as pce.py uses one seed for both. It needs the systems to share their inputs:
  every system one text for every input, none for another.
"""

from __future__ import annotations

import numpy as np

from accuracy_db.metric_validity.measures import Measure, as_floats
from accuracy_db.stats import resampling
from accuracy_db.stats.validity import correlation_reason

MIN_SYSTEMS = 2  # one pair


def system_means(values, systems) -> tuple[np.ndarray, np.ndarray]:
    """The systems (sorted) and the mean of the values of each system's texts."""
    names, codes = np.unique(np.asarray(systems), return_inverse=True)
    values = np.asarray(values, dtype=np.float64)
    return names, np.bincount(codes, weights=values, minlength=len(names)) / np.bincount(codes, minlength=len(names))


def pairwise_accuracy(x_means, y_means) -> Measure:
    """The share of system pairs ordered the same way by the metric's and the gold's means."""
    x, y = as_floats(x_means, y_means)
    reason = correlation_reason(x, y, minimum=MIN_SYSTEMS, unit="system")
    if reason is not None:
        return Measure(None, reason)
    i, j = np.triu_indices(len(x), 1)
    return Measure(float(np.mean(np.sign(x[i] - x[j]) == np.sign(y[i] - y[j]))))


def input_matrices(x, y, systems, inputs) -> tuple[np.ndarray, np.ndarray] | str:
    """The metric's and the gold's scores as (systems × inputs) matrices, systems and inputs sorted; or why the
    systems do not share their inputs."""
    x, y = as_floats(x, y)
    system_names, system_codes = np.unique(np.asarray(systems), return_inverse=True)
    input_names, input_codes = np.unique(np.asarray(inputs), return_inverse=True)
    cells = np.bincount(system_codes * len(input_names) + input_codes, minlength=len(system_names) * len(input_names))
    if len(system_names) < MIN_SYSTEMS:
        return f"fewer than {MIN_SYSTEMS} systems ({len(system_names)})"
    if (cells > 1).any():
        return "a system has two texts for the same input"
    if (cells == 0).any():
        return (
            f"the systems do not share their inputs ({int((cells == 0).sum())} of {cells.size} system × input missing)"
        )
    matrices = [np.empty((len(system_names), len(input_names))) for _ in (x, y)]
    for matrix, values in zip(matrices, (x, y)):
        matrix[system_codes, input_codes] = values
    return matrices[0], matrices[1]


def pairwise_p_values(scores: np.ndarray, swaps: np.ndarray) -> np.ndarray:
    """p[i, j] for i < j: the share of trials whose permuted total difference of systems i and j is ≥ the observed
    one. scores: (systems × inputs); swaps: (trials × inputs) of 0 and 1."""
    signs = 1 - 2 * swaps  # a swapped input counts the other system's score: the difference changes sign
    permuted = signs @ scores.T  # (trials, systems): Σ ± score, the permuted share of each system
    observed = scores.sum(axis=1)
    i, j = np.triu_indices(len(scores), 1)
    # The product adds in another order than the sum: a trial equal to the observed difference (its swapped inputs
    # scored alike by both systems) can fall short of it in the last bits. Within 1e-12 of the totals' size, it
    # counts (as queries/stats/paired_tests.sql).
    size = np.abs(scores).sum(axis=1)
    at_least = (permuted[:, i] - permuted[:, j]) >= (observed[i] - observed[j]) - 1e-12 * (size[i] + size[j])
    return at_least.mean(axis=0)


def spa(x, y, systems, inputs, trials: int = 1000, seed: int = 12345) -> Measure:
    """Soft pairwise accuracy of metric x against gold y, texts labelled by system and input."""
    matrices = input_matrices(x, y, systems, inputs)
    if isinstance(matrices, str):
        return Measure(None, matrices)
    metric, gold = matrices
    swaps = resampling.permutation_swaps(seed, np.arange(1, trials + 1, dtype=np.uint64), metric.shape[1])
    return Measure(float(1 - np.abs(pairwise_p_values(metric, swaps) - pairwise_p_values(gold, swaps)).mean()))
