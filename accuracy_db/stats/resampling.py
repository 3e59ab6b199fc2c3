"""Resampling texts: the bootstrap's resamples and the permutation test's swaps, as sums of per-text statistics.

Every statistic of the stats layer starts from text_statistics (queries/stats/): per text, the counts that a
score sums. A bootstrap replicate draws the split's n texts with replacement and sums their counts; a permutation
trial swaps each text's counts between two submissions with probability 1/2. Either way a trial is a weighted sum
of the per-text counts, so all the trials of every submission and scope are one matrix product (numpy), which
SQL engines do some fifty times slower (a join of 60 million draws with the statistics at scale 1000). The figures,
intervals and p-values are then computed in SQL from these sums (queries/stats/).

The random draws are a counter-based hash, not a random generator's stream, so that the same seed gives the same
resamples on any machine and with any version of numpy: a draw is lowbias32 (a 32-bit integer hash by
Chris Wellons) of (the trial's key xor the draw's number), and a trial's key is lowbias32(lowbias32(seed) xor the
trial's number). Texts are numbered 0 … n-1 in the order of their ids.
  * bootstrap replicate r (1 … R): draw d (0 … n-1) takes text floor(hash(key(r) xor d) · n / 2^32) (within a
    stratum, when the texts are drawn stratum by stratum: see bootstrap_draws);
  * permutation trial t (1 … T): text i is swapped when bit (i mod 32) of hash(key(t) xor floor(i / 32)) is 1.
The same replicates serve every submission of a split, so intervals are paired.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

MAX_SEED = 2**32 - 1
_MASK = np.uint64(0xFFFFFFFF)
CHUNK_CELLS = 8_000_000  # trials × texts per matrix product: 64 MB of float64 weights at a time


def matrix_product(rows: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """rows @ columns, taken as (columns.T @ rows.T).T when rows has fewer rows than columns has columns: OpenBLAS
    shares a product among its threads by the rows of the result, and with few of them it took 10-30 times the CPU
    of the other orientation (benchmarks/results/code-timings.md)."""
    if len(rows) < columns.shape[1]:
        return (columns.T @ rows.T).T
    return rows @ columns


def lowbias32(x: np.ndarray) -> np.ndarray:
    """A 32-bit integer hash, elementwise on uint64 arrays holding 32-bit values."""
    x = x ^ (x >> np.uint64(16))
    x = (x * np.uint64(0x7FEB352D)) & _MASK
    x = x ^ (x >> np.uint64(15))
    x = (x * np.uint64(0x846CA68B)) & _MASK
    return x ^ (x >> np.uint64(16))


def trial_keys(seed: int, trials: np.ndarray) -> np.ndarray:
    """The key of each trial (numbered from 1)."""
    seed_key = lowbias32(np.array([seed], dtype=np.uint64))
    return lowbias32(seed_key ^ trials.astype(np.uint64))


def chunks(count: int, n: int, cells: int = CHUNK_CELLS) -> Iterator[np.ndarray]:
    """The trial numbers 1 … count, in blocks of at most cells trials × texts (or one trial), by default small
    enough for one matrix product over n texts."""
    size = max(1, cells // max(n, 1))
    for start in range(1, count + 1, size):
        yield np.arange(start, min(start + size, count + 1), dtype=np.uint64)


def bootstrap_draws(seed: int, replicates: np.ndarray, strata: list[int]) -> np.ndarray:
    """The texts each replicate draws: an array (replicates, n) of text numbers. The n texts are numbered in
    strata of the given sizes (one stratum: the whole split), and draw d, which falls in a stratum of size m starting
    at text o, takes text o + floor(hash(key(r) xor d) · m / 2^32): each stratum is resampled within itself."""
    sizes = np.asarray(strata, dtype=np.uint64)
    starts = np.repeat(np.cumsum(sizes) - sizes, strata)
    draws = np.arange(int(sizes.sum()), dtype=np.uint64)
    hashes = lowbias32(trial_keys(seed, replicates)[:, None] ^ draws[None, :])
    return (starts + ((hashes * np.repeat(sizes, strata)) >> np.uint64(32))).astype(np.int64)


def bootstrap_counts(seed: int, replicates: np.ndarray, n: int) -> np.ndarray:
    """How many times each replicate draws each text: an array (replicates, n) of counts that sum to n by row, in the
    smallest unsigned integers that hold them (a byte each at 60,000 texts)."""
    texts = bootstrap_draws(seed, replicates, [n])
    flat = np.repeat(np.arange(len(replicates), dtype=np.int64), n) * n + texts.ravel()
    counts = np.bincount(flat, minlength=len(replicates) * n).reshape(len(replicates), n)
    return counts.astype(np.min_scalar_type(int(counts.max(initial=0))))


def bootstrap_weights(seed: int, replicates: np.ndarray, n: int) -> np.ndarray:
    """bootstrap_counts as float64, ready for a matrix product."""
    return bootstrap_counts(seed, replicates, n).astype(np.float64)


def permutation_swaps(seed: int, trials: np.ndarray, n: int) -> np.ndarray:
    """Which texts each trial swaps: an array (trials, n) of 0.0 and 1.0."""
    blocks = np.arange((n + 31) // 32, dtype=np.uint64)
    words = lowbias32(trial_keys(seed, trials)[:, None] ^ blocks[None, :]).astype("<u4")
    bits = np.unpackbits(words.view(np.uint8), axis=1, bitorder="little")  # bit i of word b is text 32·b + i
    return bits[:, :n].astype(np.float64)


def bootstrap_sums(statistics: np.ndarray, resamples: int, seed: int) -> np.ndarray:
    """The sums of the per-text statistics (an array (n, k)) in each bootstrap replicate: (resamples, k)."""
    n = statistics.shape[0]
    return np.concatenate(
        [bootstrap_weights(seed, block, n) @ statistics for block in chunks(resamples, n)]
        or [np.empty((0, statistics.shape[1]))]
    )


def permutation_sums(a: np.ndarray, b: np.ndarray, trials: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The sums of two submissions' per-text statistics (arrays (n, k), text by text) in each permutation trial,
    where a swapped text's statistics change sides: two arrays (trials, k)."""
    n = a.shape[0]
    difference = b - a
    moved = np.concatenate(
        [permutation_swaps(seed, block, n) @ difference for block in chunks(trials, n)] or [np.empty((0, a.shape[1]))]
    )
    return a.sum(axis=0) + moved, b.sum(axis=0) - moved


def text_draws(seed: int, replicates: np.ndarray, n: int) -> np.ndarray:
    """The texts each replicate draws from one stratum of n texts (bootstrap_draws)."""
    return bootstrap_draws(seed, replicates, [n])
