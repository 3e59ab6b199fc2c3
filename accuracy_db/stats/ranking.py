"""The leaderboard as the command prints it: ranked scores under a match scheme, each with its signature, and with
--ci the bootstrap interval of every figure and the significance clusters of the ranking."""

from __future__ import annotations

import itertools

import duckdb

from accuracy_db.scoring import schemes
from accuracy_db.scoring.signature import SCHEME, partial_credit_setting, signature, threshold_setting
from accuracy_db.stats.intervals import Resampling, figures, interval, intervals_of, text_statistics
from accuracy_db.stats.significance import DEFAULT_TRIALS, clusters
from accuracy_db.store import database

INTERNAL = ("submission_id", "gold_sha256", "submission_sha256", "covers_split")


def leaderboard(
    con: duckdb.DuckDBPyConnection,
    split: str | None = None,
    scope: str = "ALL",
    ci: Resampling | None = None,
    trials: int = DEFAULT_TRIALS["permutation"],
    corpus: str = "shared-task",
    scheme: str = SCHEME,
    threshold: float | None = None,
    partial_credit: float | None = None,
) -> list[dict]:
    """Every scored submission of a corpus's split (or of all its splits) ranked in one scope under a match scheme;
    with ci, each figure's interval (<figure>_ci: [low, high]), the replicates left out of each
    (excluded_replicates) and the cluster, drawn on the figure the scheme ranks by first (recall, as the shared
    task's table did; iou under the mushroom scheme, as Mu-SHROOM ranked). threshold: score the spans with a
    probability at this one, not the database's (database.scored_at; not for the mushroom scheme, which reads the
    probabilities themselves). partial_credit: the esa scheme's credit for a wrong severity, not the database's
    (database.credited)."""
    schemes.check_threshold_scheme(threshold, scheme)
    schemes.check_partial_credit_scheme(partial_credit, scheme)
    ids = [i for (i,) in con.execute("SELECT submission_id FROM evaluations WHERE corpus = ?", [corpus]).fetchall()]
    with database.scored_at(con, threshold, ids), database.credited(con, partial_credit):
        return ranked_rows(con, split, scope, ci, trials, corpus, scheme, threshold, partial_credit)


def ranked_rows(
    con: duckdb.DuckDBPyConnection,
    split: str | None,
    scope: str,
    ci: Resampling | None,
    trials: int,
    corpus: str,
    scheme: str,
    threshold: float | None,
    partial_credit: float | None = None,
) -> list[dict]:
    """leaderboard, at the threshold and partial credit the connection now scores at (threshold, partial_credit:
    those the signatures name)."""
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
            # the clusters pair the lists text by text: those covering the split; one covering only some of its
            # texts (an annotator's) is compared with none, and has none
            paired = [row for row in ranked if row["covers_split"]]
            for row, cluster in zip(paired, clusters(con, statistics, paired, scope, figures(scheme)[0], trials, ci)):
                row["cluster"] = cluster
            for row in ranked:
                row.setdefault("cluster", None)
        settings = ci.signed() | {"test": "permutation", "trials": trials} if ci is not None else {}
        settings |= threshold_setting(threshold, database.DEFAULT_THRESHOLD)
        settings |= partial_credit_setting(partial_credit, database.DEFAULT_PARTIAL_CREDIT)
        for row in ranked:
            row["signature"] = signature(row["gold_sha256"], row["submission_sha256"], scope, scheme, **settings)
    return [{key: value for key, value in row.items() if key not in INTERNAL} for row in rows]
