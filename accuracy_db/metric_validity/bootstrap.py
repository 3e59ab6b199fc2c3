"""Bootstrap intervals of the metric measures: the texts resampled with the draws of every statistic of the project
(resampling.py: the same seed gives the same resamples), the interval the percentile interval of the resamples'
values (validity.percentile_interval: numpy's linear interpolation). A resample in which a measure is undefined
(a constant side, a missing class) is left out of its interval and counted.

A resample is a vector of counts (how many times it draws each text: the same draws as resampling.bootstrap_draws,
counted), and every metric and scope of a split on as many texts is resampled together (resampled_measures), each
side's work done once: a metric's (the same in every scope for an imported or built-in metric) and a gold's (the same
for every metric of a scope). The blocks of BLOCK_CELLS counts are independent, and WORKERS threads compute them side
by side. Costs for n texts and R resamples:
* pearson: one matrix product of the counts (R × n) with the columns x, x² of every metric, y, y² of every gold and
  xy of every pair;
* spearman, roc_auc, average_precision, best_f1 of a metric of many scores (MetricSide): one sort of x, the counts
  in score order summed cumulatively (its weighted mid-ranks), then per gold one sparse product (the ranks summed by
  gold value: Spearman's cross term and ROC AUC's rank sum) and a cumulative sum over the texts of the smaller class
  only (average precision, best F1);
* every measure but acc_eq of a metric of few scores (FewScores: a submission's counts, a rating, a flag): per gold
  one sparse pass over the texts counting each (score, gold value), the rest on those few cells;
* kendall of a metric of many scores: from its counts in score order, per gold value but the highest, a cumulative
  count of the texts of higher gold values (the discordant pairs), and the ties by score, gold value and both;
* partial_pearson, partial_spearman: the weighted partial correlation of the vectors or of their mid-ranks;
* acc_eq: per resample, every pair's signs as rows of one matrix (up to rows.PAIRWISE_TEXTS texts, the
  dearest by far), the threshold searched anew.
At the system level the texts are drawn within each system (every system stays), the systems' means recomputed,
and the measures computed per resample over the few systems.
"""

from __future__ import annotations

import functools
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
from scipy import sparse

from accuracy_db.metric_validity import measures as mm
from accuracy_db.metric_validity.pair_rows import acc_eq_weighted_rows
from accuracy_db.metric_validity.rows import PAIRWISE_TEXTS, ROW_MEASURES
from accuracy_db.metric_validity.ties import acc_eq, sampled_pair_texts
from accuracy_db.stats import resampling
from accuracy_db.stats.validity import percentile_interval

TEXT_MEASURES = ("pearson", "spearman", "kendall", "acc_eq", "roc_auc", "average_precision", "best_f1")
PARTIAL_MEASURES = ("partial_pearson", "partial_spearman")  # with per_token: length taken out
SYSTEM_MEASURES = ("pearson", "spearman", "kendall", "pairwise_accuracy")
# Threads of in_threads: the blocks of resamples of resampled_measures, the metrics' values. At most 4, as each block
# in flight holds its arrays (some tens of MB at 60,000 texts).
WORKERS = min(4, os.cpu_count() or 1)


class MadeOnce:
    """Values made once by key, whichever thread asks first; a thread asking meanwhile waits for it."""

    def __init__(self):
        self.values: dict = {}
        self.lock = threading.Lock()

    def get(self, key, make):
        with self.lock:
            if key not in self.values:
                self.values[key] = make()
            return self.values[key]


@dataclass(frozen=True)
class Interval:
    """A percentile interval ([low, high], None when no resample defines the measure) and how many resamples were
    left out of it."""

    ci: list[float] | None
    undefined: int


def interval(values: np.ndarray, confidence: float) -> Interval:
    defined = values[~np.isnan(values)]
    return Interval(percentile_interval(defined, confidence), int(len(values) - len(defined)))


class Resamples:
    """The resamples and permutation trials of one metrics table, drawn once for all its metrics and scopes and
    dropped with it: metric_table makes one and passes it down. Per number of texts: the texts each resample draws
    (for the measures over pairs, up to PAIRWISE_TEXTS texts), the swaps of the permutation trials (T × n bytes) and
    acc_eq's sample of pairs. The counts of each text in each resample (resampling.bootstrap_counts) are drawn a
    block at a time by resampled_measures, which runs once for all the metrics and scopes of a split: held whole,
    they were R × n bytes (6 GB at 60,000 texts and 100,000 resamples)."""

    def __init__(self, resamples: int, seed: int, trials: int = 0):
        self.resamples, self.seed, self.trials = resamples, seed, trials
        self.drawn = MadeOnce()  # the blocks of resampled_measures ask from their threads

    def remembered(self, kind: str, n: int, make) -> np.ndarray | tuple:
        return self.drawn.get((kind, n), make)

    def draws(self, n: int) -> np.ndarray:
        return self.remembered("draws", n, lambda: self.blocks(resampling.text_draws, self.resamples, n))

    def swaps(self, n: int) -> np.ndarray:
        make = functools.partial(self.blocks, resampling.permutation_swaps, self.trials, n, np.uint8)
        return self.remembered("swaps", n, make)

    def pair_sample(self, n: int, pairs: int) -> tuple[np.ndarray, np.ndarray]:
        return self.remembered(f"pairs:{pairs}", n, lambda: sampled_pair_texts(n, pairs, self.seed))

    def blocks(self, function, count: int, n: int, dtype=None) -> np.ndarray:
        """function's draws of trials 1 … count, made in blocks by in_threads (at scale 1000 drawing them took
        seconds in one thread)."""
        parts = in_threads(lambda block: function(self.seed, block, n), list(resampling.chunks(count, n)))
        parts = [part.astype(dtype or part.dtype, copy=False) for part in parts]
        return np.concatenate(parts) if parts else np.zeros((0, n), dtype=dtype or np.uint8)


@dataclass(frozen=True)
class Pair:
    """A metric's error-like scores x and the gold y on the same texts (z: the control), and the measures to
    resample."""

    x: np.ndarray
    y: np.ndarray
    z: np.ndarray | None
    measures: tuple[str, ...]


class Distinct:
    """The distinct vectors among many (a metric's scores, the same in every scope; a scope's gold, the same for
    every metric), so that the work of one side is done once: index(v) numbers v among them; groups(i) sorts the
    i-th once."""

    def __init__(self):
        self.vectors: list[np.ndarray] = []
        self.numbers: dict[bytes, int] = {}
        self.sorted: dict[int, mm.Groups] = {}

    def index(self, vector: np.ndarray) -> int:
        key = vector.tobytes()
        if key not in self.numbers:
            self.numbers[key] = len(self.vectors)
            self.vectors.append(vector)
        return self.numbers[key]

    def groups(self, number: int) -> mm.Groups:
        if number not in self.sorted:
            self.sorted[number] = mm.Groups(self.vectors[number])
        return self.sorted[number]


def resampled_measures(
    pairs: list[Pair], resamples: Resamples, few_scores: int | None = None
) -> list[dict[str, np.ndarray]]:
    """Each measure of each pair in each resample (NaN where undefined), for pairs on the same number of texts,
    which share the resamples. The work is shared where the vectors are: Pearson's sums of every pair are one matrix
    product of the counts with the columns x, x², y, y², xy; a metric's mid-ranks and detection curve come from one
    sort of its scores, whatever the gold; a gold's groups are counted once for all the metrics. few_scores: see
    FEW_SCORES (the tests set it to take either way)."""
    if not pairs:
        return []
    n = len(pairs[0].x)
    xs, ys = Distinct(), Distinct()
    x_of, y_of = [xs.index(p.x) for p in pairs], [ys.index(p.y) for p in pairs]
    for distinct in (xs, ys):  # sorted once, before the threads share them
        for number in range(len(distinct.vectors)):
            distinct.groups(number)
    few = FEW_SCORES if few_scores is None else few_scores
    shared = MadeOnce()  # what is the same in every block: Block.kept

    def block_measures(block: np.ndarray) -> list[dict[str, np.ndarray]]:
        drawn = resampling.bootstrap_counts(resamples.seed, block, n)  # this block's alone: bounded memory
        weights = drawn.astype(np.float64)
        found = Block(weights, drawn, xs, ys, few, shared).measures(pairs, x_of, y_of)
        for number, pair in enumerate(pairs):
            for measure in pair.measures:
                if measure not in found[number]:
                    found[number][measure] = pair_measure(pair, measure, weights, resamples, block)
        return found

    width = block_width(n, xs, ys, x_of, y_of, few)
    found = in_threads(block_measures, list(resampling.chunks(resamples.resamples, width, BLOCK_CELLS)))
    return [
        {measure: np.concatenate([values[number][measure] for values in found]) for measure in pair.measures}
        for number, pair in enumerate(pairs)
    ]


def block_width(n: int, xs: Distinct, ys: Distinct, x_of: list[int], y_of: list[int], few: int) -> int:
    """The cells a resample takes in a block's largest arrays: its n texts, or a metric of few scores' counts by
    (score, gold value) against each gold it is paired with (FewScores.joints, up to FEW_SCORES × n a gold), so that
    a block of BLOCK_CELLS cells is bounded whatever the number of resamples (100,000 resamples of 90 texts in one
    block took 9 GB)."""
    joints: dict[int, dict[int, int]] = {}
    for i, j in zip(x_of, y_of):
        scores = len(xs.groups(i).values)
        if scores <= few:
            joints.setdefault(i, {})[j] = scores * len(ys.groups(j).values)
    return max([n, *(sum(widths.values()) for widths in joints.values())])


def in_threads(function, items: list) -> list:
    """[function(item) for item in items], by WORKERS threads side by side when there are several items: numpy
    releases the GIL in its array loops, so whole-array work on independent items runs on every core."""
    if min(WORKERS, len(items)) <= 1:
        return [function(item) for item in items]
    with ThreadPoolExecutor(min(WORKERS, len(items))) as pool:
        return list(pool.map(function, items))


SHARED_MEASURES = ("pearson", "spearman", "roc_auc", "average_precision", "best_f1")
# Resamples × texts of a block: about 66 resamples at 60,000 texts. Smaller blocks keep their arrays in the cache,
# but each block pays its sparse products and numpy calls anew: the intervals of a table at scale 1000 (161 pairs,
# 266 resamples, one thread) took 26 s of CPU in blocks of 4 million, 31 s of 8 million and 38 s of 1 million.
BLOCK_CELLS = 4_000_000
# A metric of at most this many distinct scores (a submission's mistake counts, a rating, a flag) is counted by score
# and gold value in one sparse pass over the texts (FewScores), not sorted and ranked text by text (MetricSide).
FEW_SCORES = 64


class Block:
    """One block of resamples (weights: resamples × texts) over the distinct metrics and golds, each side worked
    out once when first asked for."""

    def __init__(
        self,
        weights: np.ndarray,
        counts: np.ndarray,
        xs: Distinct,
        ys: Distinct,
        few_scores: int = 0,
        shared: MadeOnce | None = None,
    ):
        self.weights, self.counts, self.xs, self.ys, self.few_scores = weights, counts, xs, ys, few_scores
        self.shared = MadeOnce() if shared is None else shared  # what every block of resamples uses: Block.kept
        self.metric_varies: dict[int, np.ndarray] = {}
        self.gold_sides: dict[int, GoldSide] = {}
        self.transposed: np.ndarray | None = None

    def metric(self, number: int, golds: dict[int, GoldSide]) -> MetricSide | FewScores:
        """The metric's side against the golds it is paired with, made anew (it is large: the caller drops it when
        done); whether it varies is kept."""
        groups = self.xs.groups(number)
        few = len(groups.values) <= self.few_scores
        side = FewScores(number, groups, self, golds) if few else MetricSide(number, groups, self)
        self.metric_varies[number] = side.varies
        return side

    def by_text(self) -> np.ndarray:
        """The block's counts text by text (texts × resamples, contiguous), for sparse products over the texts; in
        float32 while every sum of counts (at most n) is exact in it: half the memory traffic."""
        if self.transposed is None:
            exact = self.weights.shape[1] < 2**24
            self.transposed = np.ascontiguousarray(self.counts.T, dtype=np.float32 if exact else np.float64)
        return self.transposed

    def kept(self, key: tuple, make):
        """make(), which depends on no resample: made once for every block (by whichever thread first needs it) and
        kept under key."""
        return self.shared.get(key, make)

    def membership(self, key: tuple, make, dtype) -> sparse.csr_array:
        """A sparse matrix summing texts into columns (kept): make() gives (columns, texts, width), text texts[k]
        adding to column columns[k]."""

        def matrix() -> sparse.csr_array:
            columns, texts, width = make()
            ones = np.ones(len(texts), dtype=dtype)
            return sparse.csr_array((ones, (columns, texts)), shape=(width, self.weights.shape[1]))

        return self.kept(key, matrix)

    def summed(self, key: tuple, make) -> np.ndarray:
        """The counts summed into columns as membership(key, make) says (resamples × width, float64); one pass over
        the texts."""
        by_text = self.by_text()
        return (self.membership(key, make, by_text.dtype) @ by_text).T.astype(np.float64)

    def gold(self, number: int) -> GoldSide:
        if number not in self.gold_sides:
            self.gold_sides[number] = GoldSide(self.ys.groups(number), self.counts)
        return self.gold_sides[number]

    def x_varies(self, number: int) -> np.ndarray:
        """Whether each resample draws two distinct scores or more (from the metric's side when it was made)."""
        if number not in self.metric_varies:
            self.metric_varies[number] = self.xs.groups(number).varies(self.weights)
        return self.metric_varies[number]

    def measures(self, pairs: list[Pair], x_of: list[int], y_of: list[int]) -> list[dict[str, np.ndarray]]:
        """Pearson's r, Spearman's ρ, Kendall's τ-b, ROC AUC, average precision and best F1 of every pair that asks
        for them."""
        found: list[dict] = [{} for _ in pairs]
        by_metric: dict[int, list[int]] = {}
        for p, pair in enumerate(pairs):
            if set(pair.measures) & {*SHARED_MEASURES[1:], "kendall"}:
                by_metric.setdefault(x_of[p], []).append(p)
        for x_number, paired in by_metric.items():
            side = self.metric(x_number, {y_of[p]: self.gold(y_of[p]) for p in paired})
            ranked = {y_of[p] for p in paired if {"spearman", "roc_auc"} & set(pairs[p].measures)}
            rank_sums = side.rank_sums_by_gold({number: self.gold(number) for number in sorted(ranked)})
            for p in paired:
                found[p] |= self.sorted_measures(side, y_of[p], rank_sums.get(y_of[p]), pairs[p])
                if "kendall" in pairs[p].measures:
                    found[p]["kendall"] = side.kendall(y_of[p], self.gold(y_of[p]))
                if isinstance(side, FewScores) and "pearson" in pairs[p].measures:  # from the counts by value
                    found[p]["pearson"] = side.pearson(y_of[p], self.gold(y_of[p]))
        wanted = [p for p, pair in enumerate(pairs) if "pearson" in pair.measures and "pearson" not in found[p]]
        for p, r in zip(wanted, self.pearson([(x_of[p], y_of[p]) for p in wanted])):
            found[p]["pearson"] = r
        return found

    def sorted_measures(self, side, gold_number: int, rank_sums, pair: Pair) -> dict[str, np.ndarray]:
        """The measures from the metric's side: rank_sums, its centred ranks summed by gold value."""
        n, gold = self.weights.shape[1], self.gold(gold_number)
        found = {}
        if "spearman" in pair.measures:
            with np.errstate(invalid="ignore", divide="ignore"):
                rho = (rank_sums * gold.centred_ranks).sum(axis=1) / np.sqrt(side.rank_squares * gold.rank_squares)
            found["spearman"] = np.where(side.varies & gold.varies, np.clip(rho, -1, 1), np.nan)
        if "roc_auc" in pair.measures:
            positive_ranks = rank_sums[:, gold.values > 0].sum(axis=1) + gold.positives * (n + 1) / 2
            u = positive_ranks - gold.positives * (gold.positives + 1) / 2
            with np.errstate(invalid="ignore", divide="ignore"):
                found["roc_auc"] = np.where(gold.both_classes, u / (gold.positives * gold.negatives), np.nan)
        if {"average_precision", "best_f1"} & set(pair.measures):
            precision_steps, f1 = side.detection(pair.y > 0, gold_number)
            if "average_precision" in pair.measures:
                found["average_precision"] = np.where(gold.both_classes, precision_steps, np.nan)
            if "best_f1" in pair.measures:
                found["best_f1"] = np.where(gold.both_classes, f1, np.nan)
        return found

    def pearson(self, pairs: list[tuple[int, int]]) -> list[np.ndarray]:
        """Pearson's r of each (metric, gold) pair in each resample: one matrix product of the counts with the
        columns x, x² of each of their metrics, y, y² of each of their golds and xy of every pair (each vector
        standardised first, mm.standardised: no precision lost to an offset, no product overflowing)."""
        if not pairs:
            return []
        metrics, golds = sorted({i for i, _ in pairs}), sorted({j for _, j in pairs})

        def columns() -> np.ndarray:
            centred_x = {i: mm.standardised(self.xs.vectors[i]) for i in metrics}
            centred_y = {j: mm.standardised(self.ys.vectors[j]) for j in golds}
            found = [*centred_x.values(), *(x * x for x in centred_x.values())]
            found += [*centred_y.values(), *(y * y for y in centred_y.values())]
            found += [centred_x[i] * centred_y[j] for i, j in pairs]
            return np.stack(found, axis=1)

        sums = resampling.matrix_product(self.weights, self.kept(("pearson", *pairs), columns))
        nx, ny = len(metrics), len(golds)
        total = self.weights.shape[1]  # every resample draws n texts
        found = []
        for number, (i, j) in enumerate(pairs):
            x, y = metrics.index(i), golds.index(j)
            sx, sxx, sy, syy = sums[:, x], sums[:, nx + x], sums[:, 2 * nx + y], sums[:, 2 * nx + ny + y]
            sxy = sums[:, 2 * nx + 2 * ny + number]
            covariance, var_x, var_y = total * sxy - sx * sy, total * sxx - sx * sx, total * syy - sy * sy
            with np.errstate(invalid="ignore", divide="ignore"):
                r = np.clip(covariance / np.sqrt(var_x * var_y), -1.0, 1.0)
            varies = self.x_varies(i) & self.gold(j).varies & (var_x > 0) & (var_y > 0)
            found.append(np.where(varies, r, np.nan))
        return found


class GoldSide:
    """A gold vector under a block of resamples: the weight drawn at each distinct value, its centred mid-ranks
    (mid-rank − (n + 1)/2, exact half-integers), whether it varies, the texts with a mistake drawn."""

    def __init__(self, groups: mm.Groups, counts: np.ndarray):
        n = counts.shape[1]
        self.groups, self.values = groups, groups.values
        # a bincount a resample: a third of the time of gathering the float64 weights in sorted order (Groups.sums)
        self.drawn = drawn = np.stack([np.bincount(groups.codes, row, len(groups.values)) for row in counts])
        self.centred_ranks = np.cumsum(drawn, axis=1) - (drawn - 1) / 2 - (n + 1) / 2
        self.rank_squares = (drawn * self.centred_ranks**2).sum(axis=1)
        self.varies = (drawn > 0).sum(axis=1) > 1
        self.positives = drawn[:, self.values > 0].sum(axis=1)
        self.negatives = n - self.positives
        self.both_classes = (self.positives > 0) & (self.negatives > 0)


class MetricSide:
    """A metric's scores under a block of resamples, from its one sort: the counts in score order, the weight drawn
    at each distinct score and below it, the centred mid-ranks (exact half-integers). The counts stay small
    integers (a byte each, their sums int32) until a division: half the memory traffic of float64."""

    def __init__(self, number: int, groups: mm.Groups, block: Block):
        counts = block.counts
        n = counts.shape[1]
        self.number, self.groups, self.block = number, groups, block
        self.ordered = counts[:, groups.order]  # the counts in score order
        self.tied = len(groups.starts) < n
        below_and_at = cumulative(self.ordered, np.int32)
        if self.tied:
            below_and_at = below_and_at[:, np.r_[groups.starts[1:], n] - 1]
            self.drawn = np.diff(below_and_at, axis=1, prepend=0)
        else:
            self.drawn = self.ordered
        self.centred_ranks = below_and_at - (self.drawn / 2 + n / 2)  # mid-rank − (n + 1)/2, per distinct score
        self.rank_squares = (self.drawn * self.centred_ranks**2).sum(axis=1)
        self.varies = (self.drawn > 0).sum(axis=1) > 1
        self.flagged = n - (below_and_at - self.drawn)  # the texts drawn at each distinct score or above
        self.cumulative_precision: np.ndarray | None = None

    def rank_sums_by_gold(self, golds: dict[int, GoldSide]) -> dict[int, np.ndarray]:
        """For each gold: the drawn texts' centred ranks summed at each of its distinct values (resamples × values),
        one sparse product for all the golds."""
        if not golds:
            return {}
        numbers, golds = list(golds), list(golds.values())
        n = self.ordered.shape[1]
        ranks = self.centred_ranks[:, self.groups.codes[self.groups.order]] if self.tied else self.centred_ranks
        offsets = np.cumsum([0, *(len(gold.values) for gold in golds)])

        def by_gold_value():
            columns = np.concatenate([g.groups.codes[self.groups.order] + o for g, o in zip(golds, offsets)])
            return columns, np.tile(np.arange(n), len(golds)), int(offsets[-1])

        membership = self.block.membership(("ranks", self.number, *numbers), by_gold_value, np.float64)
        sums = (membership @ (self.ordered * ranks).T).T
        return {number: sums[:, offsets[g] : offsets[g + 1]] for g, number in enumerate(numbers)}

    def kendall(self, gold_number: int, gold: GoldSide) -> np.ndarray:  # noqa: ARG002
        """Kendall's τ-b in each resample. The discordant pairs: for each gold value v, the drawn texts of value v
        times those scoring strictly lower with a higher gold value (a cumulative count in score order, one per gold
        value but the highest); the ties from the weights drawn per score, per gold value and per (score, gold
        value). (concordant − discordant) = pairs − ties in x − ties in y + ties in both − 2 · discordant."""
        n = self.ordered.shape[1]
        gold_codes = gold.groups.codes[self.groups.order]  # each text's gold value, in score order
        score_codes = self.groups.codes[self.groups.order]
        before = self.groups.starts[score_codes] - 1  # the last text scoring lower (−1: none)
        discordant = np.zeros(len(self.ordered))
        for value in range(len(gold.values) - 1):
            higher = np.cumsum(self.ordered * (gold_codes > value), axis=1, dtype=np.int32)
            texts = np.flatnonzero(gold_codes == value)
            lower_and_higher = np.where(before[texts] >= 0, higher[:, np.maximum(before[texts], 0)], 0)
            discordant += np.einsum("rt,rt->r", self.ordered[:, texts], lower_and_higher, dtype=np.float64)
        cells = np.lexsort((gold_codes, score_codes))  # texts by (score, gold value), both ascending
        keys = score_codes[cells] * len(gold.values) + gold_codes[cells]
        starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
        in_cell = np.add.reduceat(self.ordered[:, cells], starts, axis=1, dtype=np.int32)
        pairs = n * (n - 1) / 2
        tied_x, tied_y, tied_both = ((c * (c - 1.0) / 2).sum(axis=1) for c in (self.drawn, gold.drawn, in_cell))
        with np.errstate(invalid="ignore", divide="ignore"):
            tau = (pairs - tied_x - tied_y + tied_both - 2 * discordant) / np.sqrt((pairs - tied_x) * (pairs - tied_y))
        return np.where(self.varies & gold.varies, np.clip(tau, -1, 1), np.nan)

    def detection(self, positive: np.ndarray, gold_number: int) -> tuple[np.ndarray, np.ndarray]:  # noqa: ARG002
        """Average precision and best F1 of "x ≥ t" finding the positive texts, in each resample. Only the distinct
        scores of a positive text matter, highest first: there the true positives TP grow, by the positives drawn at
        that score; AP = Σ (their number / P) · TP / flagged, and F1 = 2 TP / (flagged + P) is highest at one of them
        (between two, the flagged grow and TP does not). Flagged (texts scoring at least t) = n − the drawn below t,
        the metric's side; so the work is on the positive texts' columns only, or on the negative texts' when they
        are fewer (by_negatives)."""
        in_order = positive[self.groups.order]
        if not in_order.any() or in_order.all():
            return np.full(len(self.ordered), np.nan), np.full(len(self.ordered), np.nan)  # no class to find
        if 2 * np.count_nonzero(in_order) > len(in_order):
            return self.by_negatives(np.flatnonzero(~in_order))
        drawn_positive, scores = self.by_score(np.flatnonzero(in_order)[::-1])  # highest score first
        return precision_and_f1(drawn_positive, self.flagged[:, scores])

    def by_score(self, columns: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The counts of some texts (columns in score order, ascending or descending) summed by distinct score, and
        those distinct scores' numbers, in the same order."""
        codes = self.groups.codes[self.groups.order][columns]
        starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])
        drawn = self.ordered[:, columns]
        if len(starts) < len(columns):
            drawn = np.add.reduceat(drawn, starts, axis=1, dtype=np.int32)
        return drawn, codes[starts]

    def by_negatives(self, columns: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """detection's measures from the negative texts' columns (in score order): with, at the distinct score g,
        c_g texts drawn, F_g flagged, neg_g negatives drawn and N_g at g or above, TP_g = F_g − N_g and the positives
        drawn there c_g − neg_g, so AP · P = Σ_g (c_g − neg_g)(F_g − N_g) / F_g = P − Σ_g c_g N_g / F_g + Σ_g neg_g
        N_g / F_g, and the first sum is Σ_h neg_h · Q_h over the scores h of a negative, Q the cumulative sum of
        c / F from the lowest score (the metric's side, precision_sums). F1 = 2 TP / (F + P) grows with F while N
        stays, so its best is where the next score down has a negative, or at the lowest score (everything flagged):
        the scores just above each of the negatives' (F_h − c_h flagged, N_h − neg_h negatives)."""
        drawn_negative, scores = self.by_score(columns)  # at the distinct scores of a negative text, ascending
        below_and_at = cumulative(drawn_negative, np.int32)
        negatives = below_and_at[:, -1:]
        at_and_above = negatives - below_and_at + drawn_negative  # N_h
        flagged = self.flagged[:, scores]  # F_h
        n = self.ordered.shape[1]
        positives = n - negatives[:, 0]
        with np.errstate(invalid="ignore", divide="ignore"):
            precision_lost = self.precision_sums()[:, scores] - at_and_above / np.maximum(flagged, 1)
            lost = np.einsum("rh,rh->r", drawn_negative, precision_lost)
            average_precision = (positives - lost) / positives
            above = flagged - self.drawn[:, scores]  # the texts flagged at the next score up
            true_positives = above - (at_and_above - drawn_negative)
            best = np.maximum((true_positives / (above + positives[:, None])).max(axis=1), positives / (n + positives))
        return average_precision, np.where(positives > 0, 2 * best, np.nan)

    def precision_sums(self) -> np.ndarray:
        """Σ c_g / F_g over the distinct scores g up to each (F_g ≥ c_g, 1 where nothing is drawn), from the lowest:
        by_negatives' Q, the same for every gold."""
        if self.cumulative_precision is None:
            self.cumulative_precision = cumulative(self.drawn / np.maximum(self.flagged, 1))
        return self.cumulative_precision


class FewScores:
    """A metric of few distinct scores under a block of resamples, against the golds it is paired with: per gold,
    the weight drawn at each (score, gold value), one sparse pass over the texts; from it, without another pass,
    the weight drawn at each score, the centred mid-ranks, their sums by gold value, the detection curve and
    Pearson's sums. The same attributes and methods as MetricSide, and kendall and pearson."""

    def __init__(self, number: int, groups: mm.Groups, block: Block, golds: dict[int, GoldSide]):
        self.groups, self.golds = groups, golds
        n, scores = len(groups.codes), len(groups.values)

        def by_score_and_gold(gold: GoldSide):
            return groups.codes * len(gold.values) + gold.groups.codes, np.arange(n), scores * len(gold.values)

        self.joints = {
            gold_number: block.summed(
                ("joints", number, gold_number), functools.partial(by_score_and_gold, gold)
            ).reshape(-1, scores, len(gold.values))
            for gold_number, gold in golds.items()
        }
        self.drawn = next(iter(self.joints.values())).sum(axis=2)
        below_and_at = np.cumsum(self.drawn, axis=1)
        self.below = below_and_at - self.drawn
        self.centred_ranks = below_and_at - (self.drawn - 1) / 2 - (n + 1) / 2
        self.rank_squares = (self.drawn * self.centred_ranks**2).sum(axis=1)
        self.varies = (self.drawn > 0).sum(axis=1) > 1

    def rank_sums_by_gold(self, golds: dict[int, GoldSide]) -> dict[int, np.ndarray]:
        """As MetricSide's: Σ over the scores of the centred rank × the weight drawn at (score, gold value)."""
        return {number: np.einsum("rs,rsv->rv", self.centred_ranks, self.joints[number]) for number in golds}

    def detection(self, positive: np.ndarray, gold_number: int) -> tuple[np.ndarray, np.ndarray]:  # noqa: ARG002
        """As MetricSide's, over the distinct scores (a score where no positive is drawn adds nothing to AP, and
        there F1 is not higher than at the next score above with one); the positives are the gold values > 0."""
        joint = self.joints[gold_number]
        with_mistakes = self.golds[gold_number].values > 0
        if not with_mistakes.any():
            return np.full(len(self.drawn), np.nan), np.full(len(self.drawn), np.nan)
        flagged = len(self.groups.codes) - self.below
        return precision_and_f1(joint[:, ::-1, with_mistakes].sum(axis=2), flagged[:, ::-1])

    def kendall(self, gold_number: int, gold: GoldSide) -> np.ndarray:
        """Kendall's τ-b in each resample from the weights drawn at each (score, gold value): a pair is concordant
        when one text is above the other in both, discordant when above in score and below in gold."""
        joint = self.joints[gold_number]
        n = len(self.groups.codes)
        higher_scores = np.cumsum(joint[:, ::-1], axis=1)[:, ::-1] - joint  # drawn at a higher score, per gold value
        below = np.cumsum(higher_scores, axis=2) - higher_scores  # … and a lower gold value
        above = np.cumsum(higher_scores[:, :, ::-1], axis=2)[:, :, ::-1] - higher_scores  # … and a higher one
        concordant, discordant = (np.einsum("rsv,rsv->r", joint, other) for other in (above, below))
        pairs = n * (n - 1) / 2
        untied_x = pairs - (self.drawn * (self.drawn - 1) / 2).sum(axis=1)
        untied_y = pairs - (gold.drawn * (gold.drawn - 1) / 2).sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            tau = (concordant - discordant) / np.sqrt(untied_x * untied_y)
        return np.where(self.varies & gold.varies, np.clip(tau, -1, 1), np.nan)

    def pearson(self, gold_number: int, gold: GoldSide) -> np.ndarray:
        """Pearson's r in each resample from the weights drawn at each (score, gold value), the values
        standardised (mm.standardised)."""
        x = mm.standardised(self.groups.values, self.groups.codes)
        y = mm.standardised(gold.values, gold.groups.codes)
        total = len(self.groups.codes)
        sx, sxx = self.drawn @ x, self.drawn @ (x * x)
        sy, syy = gold.drawn @ y, gold.drawn @ (y * y)
        sxy = np.einsum("rsv,s,v->r", self.joints[gold_number], x, y)
        covariance, var_x, var_y = total * sxy - sx * sy, total * sxx - sx * sx, total * syy - sy * sy
        with np.errstate(invalid="ignore", divide="ignore"):
            r = np.clip(covariance / np.sqrt(var_x * var_y), -1.0, 1.0)
        return np.where(self.varies & gold.varies & (var_x > 0) & (var_y > 0), r, np.nan)


def precision_and_f1(drawn_positive: np.ndarray, flagged: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Average precision and best F1 from the positives drawn at each distinct score, highest first, and the texts
    flagged there (drawn at that score or above; where none is, no positive is either, and 1 stands for 0 so that
    0 / 1 counts nothing). In place where it can be: these are the largest arrays of the bootstrap."""
    true_positives = cumulative(drawn_positive, np.result_type(drawn_positive, np.int32))
    positives = true_positives[:, -1:]
    np.maximum(flagged, 1, out=flagged)
    with np.errstate(invalid="ignore", divide="ignore"):
        average_precision = np.einsum("rs,rs->r", drawn_positive, true_positives / flagged) / positives[:, 0]
        flagged += positives
        f1 = 2 * (true_positives / flagged).max(axis=1)
    return average_precision, np.where(positives[:, 0] > 0, f1, np.nan)


def cumulative(rows: np.ndarray, dtype=None) -> np.ndarray:
    """np.cumsum(rows, axis=1, dtype=dtype), a row at a time: numpy's accumulation along the rows of a matrix took
    1.7 times as long (66 resamples × 60,000 counts: 41 ms against 24 ms). The same sums, in the same order."""
    found = np.empty(rows.shape, dtype=np.cumsum(rows[:, :1], axis=1, dtype=dtype).dtype)
    for row, out in zip(rows, found):
        np.cumsum(row, dtype=dtype, out=out)
    return found


def pair_measure(pair: Pair, measure: str, weights: np.ndarray, resamples: Resamples, block: np.ndarray) -> np.ndarray:
    """The measures with no shared form: the partial correlations (with per_token) and acc_eq."""
    x, y, z = pair.x, pair.y, pair.z
    if measure in PARTIAL_MEASURES:
        defined = mm.Groups(x).varies(weights) & mm.Groups(y).varies(weights) & mm.Groups(z).varies(weights)
        vectors = (x, y, z)
        if measure == "partial_spearman":
            vectors = tuple(mm.Groups(v).midranks(weights) for v in vectors)
        return np.where(defined, mm.weighted_partial(weights, *vectors), np.nan)
    if measure == "acc_eq" and len(x) <= PAIRWISE_TEXTS:  # every pair's turn, weighed in all resamples at once
        return acc_eq_weighted_rows(x, y, weights)  # NaN where a side is constant
    if measure == "acc_eq":
        draws = resamples.draws(len(x))[block.astype(np.int64) - 1]
        return np.array([none_to_nan(acc_eq(x[d], y[d], resamples.seed).value) for d in draws])
    raise ValueError(f"unknown measure {measure!r}")


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
