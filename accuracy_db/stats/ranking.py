"""The leaderboard as the command prints it: ranked scores under a match scheme, each with its signature, and with
--ci the bootstrap interval of every figure and the significance clusters of the ranking."""

from __future__ import annotations

import itertools

import duckdb

from accuracy_db.scoring import schemes
from accuracy_db.scoring.signature import SCHEME, signature
from accuracy_db.stats.intervals import Resampling, figures, interval, intervals_of, text_statistics
from accuracy_db.stats.significance import DEFAULT_TRIALS, clusters

INTERNAL = ("submission_id", "gold_sha256", "submission_sha256")


def leaderboard(
    con: duckdb.DuckDBPyConnection,
    split: str | None = None,
    scope: str = "ALL",
    ci: Resampling | None = None,
    trials: int = DEFAULT_TRIALS["permutation"],
    corpus: str = "shared-task",
    scheme: str = SCHEME,
) -> list[dict]:
    """Every scored submission of a corpus's split (or of all its splits) ranked in one scope under a match scheme;
    with ci, each figure's interval (<figure>_ci: [low, high]), the replicates left out of each
    (excluded_replicates) and the cluster, drawn on the figure the scheme ranks by first (recall, as the shared
    task's table did; iou under the mushroom scheme, as Mu-SHROOM ranked)."""
    rows = schemes.ranked(con, split, scope, scheme, corpus)
    for _, ranked in itertools.groupby(rows, key=lambda row: row["split"]):
        ranked = list(ranked)
        if ci is not None:
            ids = [row["submission_id"] for row in ranked]
            statistics = text_statistics(con, ids, [scope], scheme)  # read once for both
            found = intervals_of(con, statistics, ci)
            for row in ranked:
                for figure in figures(scheme):
                    row[f"{figure}_ci"] = interval(found.get((row["submission_id"], scope, figure)))
                row["excluded_replicates"] = {
                    figure: found[(row["submission_id"], scope, figure)]["excluded"] for figure in figures(scheme)
                }
            for row, cluster in zip(ranked, clusters(con, statistics, ranked, scope, figures(scheme)[0], trials, ci)):
                row["cluster"] = cluster
        settings = ci.signed() | {"test": "permutation", "trials": trials} if ci is not None else {}
        for row in ranked:
            row["signature"] = signature(row["gold_sha256"], row["submission_sha256"], scope, scheme, **settings)
    return [{key: value for key, value in row.items() if key not in INTERNAL} for row in rows]
