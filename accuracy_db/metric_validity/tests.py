"""Is one metric better than another on the same texts? PERM-BOTH, Williams' test and significance clusters, as
mt-metrics-eval defines them (stats.PermutationSigDiff, stats.WilliamsTest, data.AssignRanks).

* perm_both: both metrics' scores are z-scored (population standard deviation, scipy.stats.zscore's default); each
  trial swaps each text's pair of scores with probability 1/2 (resampling.permutation_swaps, the swaps of every
  permutation test of the project); p = the share of trials in which measure(A') − measure(B') ≥ the observed
  measure(A) − measure(B) (within TIE_TOLERANCE). One-sided (A is better). As mt-metrics-eval: no +1 in
  numerator or denominator (p can be 0), a measure undefined in a trial counts as 0; unlike it, no early stopping:
  every trial is run.
* williams: Williams (1959) as Steiger (1980, eq. 11) writes it, for Pearson's r only: r12 and r13 the two
  metrics' correlations with the gold, r23 theirs with each other, t with n − 3 degrees of freedom. One-sided, A
  (r12) is better: p = P(T ≥ t). mt-metrics-eval takes |t|, which equals this when A's r is the higher.
* assign_ranks: the metrics sorted by value (best first, then by name); walking down, a metric starts a new
  cluster when some metric from the current cluster's first down to it is significantly better (p ≤ alpha,
  mt-metrics-eval's ≤).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy import stats

from accuracy_db.metric_validity.measures import Measure, as_floats, standardised
from accuracy_db.stats import resampling

SIGNIFICANCE_LEVEL = 0.05
# Two measures (within [-1, 1]) closer than this are equal: a trial that swaps nothing but scores two metrics rank
# alike (one the other times 1e200) gives the observed difference up to the last bits of the z-scores, and counts.
TIE_TOLERANCE = 1e-12
# The z-scores of two metrics that rank alike (one the other times 1e200, or plus a constant) differ in their last
# bits; a trial mixing them would break the ties of equal scores at random (Spearman's p of 0.6 for identical
# rankings). Rounded, they are the same numbers: a Pearson's r moves by less than 1e-9.
Z_DECIMALS = 10


def zscore(v: np.ndarray) -> np.ndarray:
    """v's z-scores, to Z_DECIMALS; a constant v (which some measures, ROC AUC among them, still measure) as zeros.
    From v standardised first (measures.standardised), so that the spread of scores of 1e200 does not
    overflow."""
    v = standardised(v)
    spread = v.std()
    return np.round(v / spread, Z_DECIMALS) if spread > 0 else np.zeros_like(v)


def perm_both(
    a,
    b,
    y,
    measure: Callable[[np.ndarray, np.ndarray], Measure],
    trials: int = 1000,
    seed: int = 12345,
    rows: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None,
    swaps: np.ndarray | None = None,
    swapped_rows: Callable[..., np.ndarray] | None = None,
) -> dict:
    """PERM-BOTH of metric a against metric b (error-like, on the same texts) against gold y: a_value, b_value and
    difference (of the z-scored scores, which no measure here distinguishes from the raw ones), p_value, trials;
    p_value None with a reason when the measure of either metric is undefined. rows, when given, computes the
    measure of every row of a matrix at once (rows): every trial of a block in one go. swaps: the trials'
    swaps (trials × n, 0 and 1) when the caller has drawn them (resampling.permutation_swaps of this seed).
    swapped_rows, as rows, from the two metrics and the swaps (pair_rows.SWAPPED_ROWS)."""
    a, b, y = as_floats(a, b, y)
    first, second = measure(a, y), measure(b, y)
    result = {"a_value": first.value, "b_value": second.value, "trials": trials}
    undefined = first.reason or second.reason
    if undefined is not None:
        return result | {"difference": None, "p_value": None, "reason": undefined}
    za, zb = zscore(a), zscore(b)
    if rows is not None:
        observed_a, observed_b = np.nan_to_num(rows(np.stack([za, zb]), y))  # undefined counts as 0, as below
        observed = observed_a - observed_b
    else:
        observed = value_or_zero(measure(za, y)) - value_or_zero(measure(zb, y))

    def in_trials(one: np.ndarray, other: np.ndarray, drawn: np.ndarray) -> np.ndarray:
        """The measure of where(drawn, other, one) in each trial of the block, undefined as 0."""
        if swapped_rows is not None:
            return np.nan_to_num(swapped_rows(one, other, drawn, y))
        swapped = np.where(drawn, other, one)
        if rows is not None:
            return np.nan_to_num(rows(swapped, y))
        return np.array([value_or_zero(measure(vector, y)) for vector in swapped])

    exceed = 0
    for block in resampling.chunks(trials, len(a)):
        drawn = resampling.permutation_swaps(seed, block, len(a)) if swaps is None else swaps[block.astype(int) - 1]
        drawn = drawn.astype(bool)
        exceed += int((in_trials(za, zb, drawn) - in_trials(zb, za, drawn) >= observed - TIE_TOLERANCE).sum())
    return result | {"difference": first.value - second.value, "p_value": exceed / trials, "reason": None}


class PearsonPermBoth:
    """PERM-BOTH of Pearson's r for many metrics on the same texts and gold, by matrix products: a trial's swapped
    metric A' takes B's z-score where the swap s is 1, so Σ A' = Σ zA + s·(zB − zA), and as s(1 − s) = 0, Σ A'² =
    Σ zA² + s·(zB² − zA²) and Σ A'y = Σ zA·y + s·(zB·y − zA·y). One product of the swaps (trials × n) with the
    columns z, z², z·y of every metric gives every trial's r of every pair, each p_value then in O(trials). Equal
    to perm_both(a, b, y, pearson) (tests/test_metric_measures.py checks it against the loop)."""

    def __init__(self, metrics: dict[str, np.ndarray], y: np.ndarray, swaps: np.ndarray | None):
        """swaps None: moved is left for many() to fill."""
        self.names = list(metrics)
        self.y = standardised(y)  # r is the same, and y·y cannot overflow (a gold weighted by 1e200)
        z = np.stack([zscore(np.asarray(metrics[name], dtype=np.float64)) for name in self.names], axis=1)
        self.columns = np.concatenate([z, z * z, z * self.y[:, None]], axis=1)
        self.totals = self.columns.sum(axis=0)
        self.n, self.m = len(self.y), len(self.names)
        if swaps is not None:
            self.moved = swapped_sums(swaps, self.columns)

    @classmethod
    def many(cls, groups: list[tuple[dict[str, np.ndarray], np.ndarray]], swaps: np.ndarray) -> list[PearsonPermBoth]:
        """A PearsonPermBoth of each (metrics, y) on the same texts, by one product of the swaps with the distinct
        columns of them all (a metric whose scores are the same in every scope has the same z and z² in each)."""
        found = [cls(metrics, y, None) for metrics, y in groups]
        distinct: dict[bytes, int] = {}
        chosen = [[distinct.setdefault(column.tobytes(), len(distinct)) for column in one.columns.T] for one in found]
        columns = np.empty((found[0].n if found else 0, len(distinct)))
        for one, numbers in zip(found, chosen):
            columns[:, numbers] = one.columns
            del one.columns  # n × 3 metrics floats each: the product's columns hold them
        moved = swapped_sums(swaps, columns)
        for one, numbers in zip(found, chosen):
            one.moved = moved[:, numbers]
        return found

    def sums(self, name: str, moved: np.ndarray) -> tuple[np.ndarray, ...]:
        """Σ z, Σ z², Σ z·y of the metric, plus what the trials move (moved: trials × those 3; 0 for the data)."""
        i = self.names.index(name)
        return tuple(self.totals[i + k * self.m] + moved[:, k] for k in range(3))

    def correlation(self, sums: tuple[np.ndarray, ...]) -> np.ndarray:
        sx, sxx, sxy = sums
        sy, syy = self.y.sum(), (self.y * self.y).sum()
        covariance, var_x, var_y = self.n * sxy - sx * sy, self.n * sxx - sx * sx, self.n * syy - sy * sy
        with np.errstate(invalid="ignore", divide="ignore"):
            r = np.clip(covariance / np.sqrt(var_x * var_y), -1.0, 1.0)
        return np.where((var_x > 1e-9 * self.n * self.n) & (var_y > 0), r, 0.0)  # undefined counts as 0

    def p_value(self, better: str, worse: str) -> float:
        i, j = self.names.index(better), self.names.index(worse)
        moved = np.stack([self.moved[:, j + k * self.m] - self.moved[:, i + k * self.m] for k in range(3)], axis=1)
        none = np.zeros((1, 3))
        a, b = (self.sums(better, none), self.sums(worse, none))
        observed = (self.correlation(a) - self.correlation(b))[0]
        swapped_a = self.sums(better, moved)
        swapped_b = self.sums(worse, -moved)
        differences = self.correlation(swapped_a) - self.correlation(swapped_b)
        return float((differences >= observed - TIE_TOLERANCE).mean()) if len(differences) else 0.0


def swapped_sums(swaps: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """swaps (trials × n, 0 and 1) @ columns, the swaps turned into floats a block of rows at a time."""
    n = len(columns)
    return np.concatenate(
        [
            resampling.matrix_product(swaps[start : start + block].astype(np.float64), columns)
            for start, block in row_blocks(len(swaps), n)
        ]
        or [np.zeros((0, columns.shape[1]))]
    )


def row_blocks(rows: int, n: int):
    """(start, size) of blocks of rows of a matrix of n columns, resampling.CHUNK_CELLS cells at a time."""
    size = max(1, resampling.CHUNK_CELLS // max(n, 1))
    return [(start, size) for start in range(0, rows, size)]


def paired_bootstrap(a: np.ndarray, b: np.ndarray) -> float:
    """The paired bootstrap test (Koehn 2004) that metric A beats metric B, on the measure's values in the same
    resamples: p = the share of resamples in which A − B ≤ 0 (a resample where a measure is undefined counting it
    as 0, as PERM-BOTH's trials do)."""
    return float((np.nan_to_num(a) - np.nan_to_num(b) <= TIE_TOLERANCE).mean())


def value_or_zero(result: Measure) -> float:
    return 0.0 if result.value is None else result.value


def williams(r12: float, r13: float, r23: float, n: int) -> Measure:
    """One-sided p-value of Williams' test that r12 (metric A with the gold) exceeds r13 (metric B with the gold),
    given r23 (A with B) on n texts."""
    if n <= 3:
        return Measure(None, f"Williams' test needs more than 3 texts ({n})")
    determinant = 1 - r12**2 - r13**2 - r23**2 + 2 * r12 * r13 * r23
    mean = (r12 + r13) / 2
    denominator = 2 * (n - 1) / (n - 3) * determinant + mean**2 * (1 - r23) ** 3
    if not denominator > 0:
        return Measure(None, "the three correlations are degenerate (a correlation of ±1)")
    t = (r12 - r13) * np.sqrt((n - 1) * (1 + r23)) / np.sqrt(denominator)
    return Measure(float(stats.t.sf(t, n - 3)))


def assign_ranks(
    values: dict[str, float | None], p_value: Callable[[str, str], float], alpha: float = SIGNIFICANCE_LEVEL
) -> dict[str, int | None]:
    """The significance cluster of each metric (1 the best), given each metric's value and p_value(better, worse),
    the one-sided p-value that `better` beats `worse`. A metric without a value has no rank."""
    ranked = sorted((name for name, value in values.items() if value is not None), key=lambda m: (-values[m], m))
    ranks: dict[str, int | None] = dict.fromkeys(values)
    rank, cluster_start = 1, 0
    for i, name in enumerate(ranked):
        if any(p_value(better, name) <= alpha for better in ranked[cluster_start:i]):
            rank, cluster_start = rank + 1, i
        ranks[name] = rank
    return ranks
