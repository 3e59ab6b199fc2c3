"""Paired significance: is one submission's figure really higher than another's on the same texts?

The trials (bootstrap replicates and permutation swaps) come from resampling.py; the differences, intervals and
p-values from the stats layer's query queries/stats/paired_tests.sql, which defines them.
"""

from __future__ import annotations

import duckdb
import numpy as np

from accuracy_db.errors import AccuracyDbError
from accuracy_db.scoring import schemes
from accuracy_db.scoring.schemes import find_scored
from accuracy_db.scoring.scores import check_scopes
from accuracy_db.scoring.signature import SCHEME, partial_credit_setting, signature, threshold_setting
from accuracy_db.stats import resampling
from accuracy_db.stats.intervals import (
    Resampling,
    TextStatistics,
    check_count,
    check_figure,
    counts,
    figures,
    run_stats_query,
    text_statistics,
    trial_sums,
)
from accuracy_db.stats.intervals import interval as bounds
from accuracy_db.store import database

TESTS = ("permutation", "bootstrap")
DEFAULT_TRIALS = {"permutation": 10_000, "bootstrap": 1000}
MAX_TRIALS = 1_000_000
SIGNIFICANCE_LEVEL = 0.05  # of the leaderboard's clusters


def paired_tests(
    con: duckdb.DuckDBPyConnection,
    pairs: list[tuple[int, int]],
    scope: str,
    figure: str,
    test: str,
    trials: int,
    settings: Resampling,
    interval: bool = True,
    scheme: str = SCHEME,
) -> dict[tuple[int, int], dict]:
    """Paired tests of pairs of submissions of one split under a match scheme, in both directions, by
    (submission_id, partner_id).

    The interval of the difference comes from settings.resamples bootstrap replicates (not drawn when interval is
    False and the test is a permutation test); the p-value from trials permutation trials, or, for the bootstrap
    test, from the same replicates (then trials of them)."""
    check_figure(figure, scheme)
    if test not in TESTS:
        raise AccuracyDbError(f"unknown test {test!r}: permutation or bootstrap")
    check_count("trials", trials, MAX_TRIALS)
    if test == "bootstrap":
        settings = Resampling(trials, settings.seed, settings.confidence)
    statistics = text_statistics(con, sorted({i for pair in pairs for i in pair}), [scope], scheme)
    return paired_tests_of(con, statistics, pairs, scope, figure, test, trials, settings, interval)


def paired_tests_of(
    con: duckdb.DuckDBPyConnection,
    statistics: TextStatistics,
    pairs: list[tuple[int, int]],
    scope: str,
    figure: str,
    test: str,
    trials: int,
    settings: Resampling,
    interval: bool = True,
) -> dict[tuple[int, int], dict]:
    """paired_tests over given per-text statistics."""
    row_of = {submission_id: row for row, (submission_id, _) in enumerate(statistics.keys)}

    def columns(ids: list[int]) -> np.ndarray:
        """The per-text counts of these submissions side by side: (texts, len(ids) × COUNTS)."""
        return np.concatenate([statistics.counts[row_of[i]] for i in ids], axis=1)

    # Each pair is tested from both sides; a submission compared with itself is one list, paired with itself.
    crossed = [index for index, (x, y) in enumerate(pairs) if x != y]
    sides = pairs + [(pairs[index][1], pairs[index][0]) for index in crossed]
    keys, partners = [(x, scope) for x, _ in sides], [y for _, y in sides]
    firsts, seconds = columns([x for x, _ in pairs]), columns([y for _, y in pairs])
    texts = len(firsts)
    sides_counts = np.concatenate(
        [firsts, seconds.reshape(texts, len(pairs), -1)[:, crossed].reshape(texts, -1)], axis=1
    )
    names = counts(statistics.scheme)
    sums = [trial_sums(keys, "observed", sides_counts.sum(axis=0)[None, :], partners, names)]
    if interval or test == "bootstrap":
        bootstrap = resampling.bootstrap_sums(sides_counts, settings.resamples, settings.seed)
        sums.append(trial_sums(keys, "bootstrap", bootstrap, partners, names))
    if test == "permutation":
        first, second = resampling.permutation_sums(firsts, seconds, trials, settings.seed)
        second = second.reshape(trials, len(pairs), -1)[:, crossed].reshape(trials, -1)
        sums.append(trial_sums(keys, "permutation", np.concatenate([first, second], axis=1), partners, names))
    rows = run_stats_query(
        con,
        "paired_tests",
        sums,
        {"figure": figure, "test": test, "confidence": settings.confidence},
        statistics.scheme,
    )
    return {(row["submission_id"], row["partner_id"]): row for row in rows}


def compare(
    con: duckdb.DuckDBPyConnection,
    a: str,
    b: str,
    scope: str = "ALL",
    metric: str | None = None,
    test: str = "permutation",
    trials: int | None = None,
    settings: Resampling | None = None,
    corpus: str | None = None,
    scheme: str = SCHEME,
    split: str | None = None,
    threshold: float | None = None,
    partial_credit: float | None = None,
) -> dict:
    """Submission a against submission b (of a split, when their names are in several) on the same texts and gold
    list under a match scheme: both figures, the difference, its bootstrap interval and the p-value of a paired
    test. metric: by default the figure the scheme ranks by (recall; iou under the mushroom scheme). threshold:
    score the spans with a probability at this one, not the database's (not under the mushroom scheme).
    partial_credit: the esa scheme's credit for a wrong severity, not the database's."""
    settings = settings or Resampling()
    metric = figures(scheme)[0] if metric is None else metric
    first, second = (find_scored(con, name, split, corpus, scope, scheme) for name in (a, b))
    check_scopes(con, first["corpus"], [scope])
    if first["gold_id"] != second["gold_id"]:
        raise AccuracyDbError(
            f"{a} ({first['split']} split) and {b} ({second['split']} split) are scored against different gold "
            "lists: only submissions of the same split can be compared"
        )
    trials = DEFAULT_TRIALS.get(test, 0) if trials is None else trials
    pair = (first["submission_id"], second["submission_id"])
    schemes.check_threshold_scheme(threshold, scheme)
    schemes.check_partial_credit_scheme(partial_credit, scheme)
    with database.scored_at(con, threshold, list(pair)), database.credited(con, partial_credit):
        row = paired_tests(con, [pair], scope, metric, test, trials, settings, scheme=scheme)[pair]
    resamples = trials if test == "bootstrap" else settings.resamples
    return {
        "a": a,
        "b": b,
        "metric": metric,
        "scope": scope,
        "a_value": row["value"],
        "b_value": row["partner_value"],
        "difference": row["difference"],
        "difference_ci": interval_of_difference(row),
        "p_value": row["p_value"],
        "test": test,
        "trials": trials,
        "excluded_trials": row["excluded"],
        "signature": signature(
            first["gold_sha256"],
            [first["submission_sha256"], second["submission_sha256"]],
            scope,
            scheme,
            **(
                Resampling(resamples, settings.seed, settings.confidence).signed()
                | {"test": test, "trials": trials}
                | threshold_setting(threshold, database.DEFAULT_THRESHOLD)
                | partial_credit_setting(partial_credit, database.DEFAULT_PARTIAL_CREDIT)
            ),
        ),
    }


def clusters(
    con: duckdb.DuckDBPyConnection,
    statistics: TextStatistics,
    ranked: list[dict],
    scope: str,
    figure: str,
    trials: int,
    settings: Resampling,
    lower_is_better: bool = False,
) -> list[int]:
    """Significance clusters of submissions ranked by a figure (best first, one split), as the WMT metrics task
    draws them: walking down the ranking, a new cluster starts at a submission that is significantly worse
    (paired permutation test, p < 0.05) than any submission of the current cluster. The cluster of each, from 1.
    statistics: the per-text counts of the ranked submissions in the scope; lower_is_better: for a figure such as
    an error rate."""
    numbers, members, number = [], [], 1
    for row in ranked:
        if members:
            pairs = [(member["submission_id"], row["submission_id"]) for member in members]
            tests = paired_tests_of(con, statistics, pairs, scope, figure, "permutation", trials, settings, False)
            if any(significantly_better(tests[pair], lower_is_better) for pair in pairs):
                number, members = number + 1, []
        members.append(row)
        numbers.append(number)
    return numbers


def significantly_better(test: dict, lower_is_better: bool = False) -> bool:
    """Whether a paired test finds the first submission significantly better (its figure higher, or lower when
    lower_is_better); never when the figure is undefined for either (no difference, no p-value)."""
    if test["p_value"] is None or test["p_value"] >= SIGNIFICANCE_LEVEL:
        return False
    return test["difference"] < 0 if lower_is_better else test["difference"] > 0


def pairwise(
    con: duckdb.DuckDBPyConnection,
    names: list[str],
    scope: str,
    figure: str,
    trials: int,
    settings: Resampling,
    split: str | None = None,
    corpus: str | None = None,
    scheme: str = SCHEME,
    interval: bool = False,
) -> list[dict]:
    """The paired permutation test of every two of some submissions of one split under a match scheme: one row per
    ordered pair (a, b, a_value, b_value, difference, p_value, trials: those in which the figure is defined for
    both), for a matrix of p-values; with interval, the difference's bootstrap interval too (difference_ci: [low,
    high]), as compare gives it for one pair."""
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    return paired_rows(con, names, pairs, scope, figure, trials, settings, split, corpus, scheme, interval)


def against_best(
    con: duckdb.DuckDBPyConnection,
    names: list[str],
    scope: str,
    figure: str,
    trials: int,
    settings: Resampling,
    split: str | None = None,
    corpus: str | None = None,
    scheme: str = SCHEME,
) -> list[dict]:
    """Each of some submissions of one split (the first being the best) against the first, as compare tests a
    pair: one row per submission after the first (a: it, b: the best), with the difference a − b, its bootstrap
    interval (difference_ci) and the permutation test's p-value."""
    best = names[0]
    pairs = [(name, best) for name in names[1:]]
    rows = paired_rows(con, names, pairs, scope, figure, trials, settings, split, corpus, scheme, True)
    return [row for row in rows if row["b"] == best]


def paired_rows(
    con: duckdb.DuckDBPyConnection,
    names: list[str],
    named_pairs: list[tuple[str, str]],
    scope: str,
    figure: str,
    trials: int,
    settings: Resampling,
    split: str | None,
    corpus: str | None,
    scheme: str,
    interval: bool,
) -> list[dict]:
    """The paired tests of pairs of named submissions (of names, one split) under a scheme: the rows of pairwise,
    every pair both ways (a, b and b, a), in the order of names."""
    found = {name: find_scored(con, name, split, corpus, scope, scheme)["submission_id"] for name in names}
    pairs = [(found[a], found[b]) for a, b in named_pairs]
    tests = (
        paired_tests(con, pairs, scope, figure, "permutation", trials, settings, interval=interval, scheme=scheme)
        if pairs
        else {}
    )
    return [
        {
            "a": a,
            "b": b,
            "a_value": row["value"],
            "b_value": row["partner_value"],
            "difference": row["difference"],
            **({"difference_ci": interval_of_difference(row)} if interval else {}),
            "p_value": row["p_value"],
            "trials": row["trials"],
        }
        for a in names
        for b in names
        if (row := tests.get((found[a], found[b])))
    ]


def interval_of_difference(row: dict) -> list[float | None]:
    """[low, high] of a paired test's difference, None where no replicate defines it."""
    return bounds({"low": row["difference_low"], "high": row["difference_high"]})
