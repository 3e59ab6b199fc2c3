"""The leaderboard as the command prints it: ranked scores, each with its signature, and with --ci the bootstrap
interval of every figure and the significance clusters of the ranking."""

from __future__ import annotations

import itertools

import duckdb

from . import scores
from .intervals import FIGURES, Resampling, interval, intervals_of, text_statistics
from .signature import signature
from .significance import DEFAULT_TRIALS, clusters

RANKING_FIGURE = "recall"  # the leaderboard ranks by recall (then precision), as the shared task's table did
INTERNAL = ("submission_id", "gold_sha256", "submission_sha256")


def leaderboard(
    con: duckdb.DuckDBPyConnection,
    split: str | None = None,
    scope: str = "ALL",
    ci: Resampling | None = None,
    trials: int = DEFAULT_TRIALS["permutation"],
    corpus: str = "shared-task",
) -> list[dict]:
    """Every scored submission of a corpus's split (or of all its splits) ranked in one scope; with ci, each figure's
    interval (<figure>_ci: [low, high]), the replicates left out of each (excluded_replicates) and the cluster."""
    rows = scores.leaderboard(con, split, scope, corpus)
    for _, ranked in itertools.groupby(rows, key=lambda row: row["split"]):
        ranked = list(ranked)
        if ci is not None:
            statistics = text_statistics(con, [row["submission_id"] for row in ranked], [scope])  # read once for both
            found = intervals_of(con, statistics, ci)
            for row in ranked:
                for figure in FIGURES:
                    row[f"{figure}_ci"] = interval(found.get((row["submission_id"], scope, figure)))
                row["excluded_replicates"] = {
                    figure: found[(row["submission_id"], scope, figure)]["excluded"] for figure in FIGURES
                }
            for row, cluster in zip(ranked, clusters(con, statistics, ranked, scope, RANKING_FIGURE, trials, ci)):
                row["cluster"] = cluster
        settings = ci.signed() | {"test": "permutation", "trials": trials} if ci is not None else {}
        for row in ranked:
            row["signature"] = signature(row["gold_sha256"], row["submission_sha256"], scope, **settings)
    return [{key: value for key, value in row.items() if key not in INTERNAL} for row in rows]
