"""The validity of a list of spans (issue 11, item 5): how well a submission's mistake counts track the gold list's.

The span lists' counterpart of accuracy_db.metric_validity, which measures a metric's scores per text against the
gold list (`accuracy-db metrics`); this module is `accuracy-db validity`'s, and what both share is here, below them
(correlation_reason, percentile_interval).

The counts come from SQL (the saved analyses validity_counts and validity_by_system, over text_statistics; the
category agreement from the view category_agreement); this module hands them to scipy.stats and resamples them.

* Level text: per text, the submission's mistakes against the gold list's; Pearson r, Spearman rho and Kendall
  tau-b with their p-values.
* Level system: per generating system that nlg_systems knows, the mistakes per text of either list.
* Level category: of the matched pairs, how many agree on the category, and Cohen's kappa (computed in SQL).

Each correlation gets a percentile bootstrap interval: the texts are drawn with replacement (within each system at
the system level, so that every system stays), the same draws for every submission of a split.
"""

from __future__ import annotations

import duckdb
import numpy as np
from scipy import stats

from accuracy_db.scoring.scores import check_scopes, fetch_dicts, find_submission
from accuracy_db.scoring.signature import signature
from accuracy_db.stats.intervals import Resampling
from accuracy_db.stats.resampling import bootstrap_draws
from accuracy_db.store.analyses import saved_analysis

MEASURES = ("pearson", "spearman", "kendall")
LEVELS = ("text", "system", "category")
MIN_POINTS = 3  # a correlation of two points is always ±1


def correlation_reason(
    x: np.ndarray,
    y: np.ndarray,
    minimum: int = MIN_POINTS,
    unit: str = "text",
    names: tuple[str, str] = ("the metric's score", "the gold count"),
) -> str | None:
    """Why no correlation of x and y can be computed, or None: too few points, or a series that does not vary
    (named by names, y's first: 'the gold count is the same (2) for every text')."""
    if len(x) < minimum:
        return f"fewer than {minimum} {unit}s ({len(x)})"
    for series, name in ((y, names[1]), (x, names[0])):
        if series.min() == series.max():
            return f"{name} is the same ({series[0]:g}) for every {unit}"
    return None


def correlation(measure: str, gold: np.ndarray, submitted: np.ndarray) -> tuple[float, float]:
    """The coefficient and its two-sided p-value, from scipy.stats."""
    if measure == "pearson":
        result = stats.pearsonr(gold, submitted)
    elif measure == "spearman":
        result = stats.spearmanr(gold, submitted)
    else:
        result = stats.kendalltau(gold, submitted, variant="b")
    return float(result.statistic), float(result.pvalue)


def replicate_correlations(measure: str, gold: np.ndarray, submitted: np.ndarray) -> np.ndarray:
    """The coefficient of each row pair of two (resamples x points) matrices whose rows all vary. Pearson's is
    vectorized; Spearman's rho is Pearson's r of the average ranks, as scipy defines it; Kendall's tau-b is
    computed row by row."""
    if measure == "pearson":
        return stats.pearsonr(gold, submitted, axis=1).statistic
    if measure == "spearman":
        return stats.pearsonr(stats.rankdata(gold, axis=1), stats.rankdata(submitted, axis=1), axis=1).statistic
    return np.array([stats.kendalltau(g, s, variant="b").statistic for g, s in zip(gold, submitted)])


def percentile_interval(values: np.ndarray, confidence: float) -> list[float] | None:
    """The percentile interval (numpy's default, linear interpolation) of the defined replicates."""
    if len(values) == 0:
        return None
    low, high = np.quantile(values, [(1 - confidence) / 2, (1 + confidence) / 2])
    return [float(low), float(high)]


def correlate(gold, submitted, replicates, unit: str, settings: Resampling) -> list[dict]:
    """The three measures of two series, with their intervals: replicates() gives the (gold, submitted)
    matrices of the resampled series (resamples x points). A replicate whose series does not vary has no
    coefficient and is left out of the interval; undefined_resamples says how many were."""
    gold, submitted = np.asarray(gold, dtype=float), np.asarray(submitted, dtype=float)
    reason = correlation_reason(submitted, gold, unit=unit, names=("the submission's count", "the gold count"))
    if reason is not None:
        return [
            {"measure": m, "value": None, "p_value": None, "ci": None, "n": len(gold), "reason": reason}
            for m in MEASURES
        ]
    gold_replicates, submitted_replicates = replicates()
    varies = (np.ptp(gold_replicates, axis=1) > 0) & (np.ptp(submitted_replicates, axis=1) > 0)
    results = []
    for measure in MEASURES:
        value, p_value = correlation(measure, gold, submitted)
        values = replicate_correlations(measure, gold_replicates[varies], submitted_replicates[varies])
        results.append(
            {
                "measure": measure,
                "value": value,
                "p_value": p_value,
                "ci": percentile_interval(values, settings.confidence),
                "n": len(gold),
                "undefined_resamples": int((~varies).sum()),
            }
        )
    return results


def run_saved(con: duckdb.DuckDBPyConnection, name: str, submission: dict, scope: str, order: str) -> list[dict]:
    """The rows of a saved analysis for one submission and scope."""
    return fetch_dicts(
        con,
        f"SELECT * FROM ({saved_analysis(name).sql}) WHERE submission = $submission AND split = $split"
        f" AND scope = $scope ORDER BY {order}",
        {"submission": submission["submission"], "split": submission["split"], "scope": scope},
    )


def text_level(con, submission: dict, scope: str, settings: Resampling) -> list[dict]:
    rows = run_saved(con, "validity_counts", submission, scope, "text_id")
    gold = np.array([row["gold"] for row in rows], dtype=float)
    submitted = np.array([row["submitted"] for row in rows], dtype=float)

    def replicates():
        draws = bootstrap_draws(settings.seed, np.arange(1, settings.resamples + 1, dtype=np.uint64), [len(rows)])
        return gold[draws], submitted[draws]

    return correlate(gold, submitted, replicates, "text", settings)


def system_level(con, submission: dict, scope: str, settings: Resampling) -> list[dict]:
    systems = run_saved(con, "validity_by_system", submission, scope, "system")
    texts = [row for row in run_saved(con, "validity_counts", submission, scope, "system, text_id") if row["system"]]
    sizes = [system["texts"] for system in systems]
    gold = np.array([row["gold"] for row in texts], dtype=float)
    submitted = np.array([row["submitted"] for row in texts], dtype=float)

    def replicates():  # mistakes per text of each system, in each resample
        draws = bootstrap_draws(settings.seed, np.arange(1, settings.resamples + 1, dtype=np.uint64), sizes)
        starts = np.cumsum(sizes) - sizes
        return tuple(np.add.reduceat(counts[draws], starts, axis=1) / sizes for counts in (gold, submitted))

    results = correlate(
        [system["gold"] for system in systems],
        [system["submitted"] for system in systems],
        replicates,
        "system",
        settings,
    )
    means_shown = [{key: system[key] for key in ("system", "texts", "gold", "submitted")} for system in systems]
    return [{**result, "systems": means_shown} for result in results]


def category_level(con, submission: dict, scope: str) -> list[dict]:
    (row,) = fetch_dicts(
        con,
        "SELECT pairs, category_pairs, agreement, kappa FROM category_agreement"
        " WHERE submission_id = $id AND scope = $scope",
        {"id": submission["submission_id"], "scope": scope},
    )
    no_pairs = "no matched pair" + ("" if scope == "ALL" else f" has the gold category {scope}")
    one_label = "every matched pair has one label on both sides: nothing to tell apart"
    return [
        {
            "measure": "agreement",
            "value": row["agreement"],
            "p_value": None,
            "ci": None,
            "n": row["category_pairs"],
            **({"reason": no_pairs} if row["agreement"] is None else {}),
        },
        {
            "measure": "kappa",
            "value": row["kappa"],
            "p_value": None,
            "ci": None,
            "n": row["pairs"],
            **({"reason": "no matched pair" if not row["pairs"] else one_label} if row["kappa"] is None else {}),
        },
    ]


def validity(
    con: duckdb.DuckDBPyConnection,
    submission: str,
    scopes: list[str] | None = None,
    levels: list[str] | None = None,
    split: str | None = None,
    settings: Resampling | None = None,
    corpus: str | None = None,
) -> list[dict]:
    """One object per (scope, level, measure): scope, level, measure, value, p_value, ci ([low, high]), n (texts,
    systems or matched pairs), undefined_resamples (replicates left out of the interval), reason (why value
    is None, when it is), signature; at the system level also systems (each system's texts and mistakes per text,
    gold and submitted). Every scope and level unless told which."""
    settings = settings or Resampling()
    found = find_submission(con, submission, split, corpus)
    results = []
    for scope in check_scopes(con, found["corpus"], scopes or []):
        stamp = signature(found["gold_sha256"], found["submission_sha256"], scope, **settings.signed())
        for level in levels or LEVELS:
            if level == "text":
                measures = text_level(con, found, scope, settings)
            elif level == "system":
                measures = system_level(con, found, scope, settings)
            else:
                measures = category_level(con, found, scope)
            for measure in measures:
                results.append(
                    {
                        "scope": scope,
                        "level": level,
                        "measure": measure.pop("measure"),
                        "value": measure.pop("value"),
                        "p_value": measure.pop("p_value"),
                        "ci": measure.pop("ci"),
                        "n": measure.pop("n"),
                        "undefined_resamples": measure.pop("undefined_resamples", None),
                        "reason": measure.pop("reason", None),
                        "signature": stamp,
                        **measure,
                    }
                )
    return results
