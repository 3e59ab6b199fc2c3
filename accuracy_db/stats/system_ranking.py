"""The generating systems of a corpus ranked by their mean score per text (system_text_scores: the MQM score of an
MQM corpus, under the weights asked for; the gold list's mistakes per text otherwise), lower first; with ci, each
mean's bootstrap interval and the significance clusters of the ranking.

The inputs are resampled, as mt-metrics-eval resamples segments: a replicate draws the split's inputs with
replacement (resampling.py), and each system's texts of the drawn inputs, so the systems are resampled together,
paired. The sums of a replicate are (score, texts) per system; the figure, the interval and the paired permutation
tests come from the stats layer's queries (queries/stats/system_replicate_figures.sql, bootstrap_intervals.sql,
paired_tests.sql), the clusters from significance.clusters, as the leaderboard draws them.
"""

from __future__ import annotations

import itertools

import duckdb
import numpy as np

from accuracy_db.errors import AccuracyDbError
from accuracy_db.scoring.mqm_weights import weighted_by
from accuracy_db.scoring.scores import fetch_dicts
from accuracy_db.stats.intervals import SYSTEMS, Resampling, TextStatistics, interval, intervals_of
from accuracy_db.stats.significance import DEFAULT_TRIALS, clusters

TEXT_SCORES = """
SELECT split, system, human, item, score
FROM system_text_scores
WHERE corpus = $corpus AND ($split IS NULL OR split = $split)
ORDER BY split, item, system
"""


def input_statistics(rows: list[dict], systems: list[str]) -> TextStatistics:
    """(score, texts) of each system for each input, inputs in the order of their keys (a system with no text for
    an input has 0 and 0)."""
    inputs = sorted({row["item"] for row in rows})
    at = {item: number for number, item in enumerate(inputs)}
    counts = np.zeros((len(systems), len(inputs), 2))
    of = {system: number for number, system in enumerate(systems)}
    for row in rows:
        counts[of[row["system"]], at[row["item"]]] = (row["score"], 1)
    return TextStatistics([(number, "ALL") for number in range(len(systems))], counts, SYSTEMS)


def ranked_systems(
    con: duckdb.DuckDBPyConnection,
    corpus: str,
    split: str | None = None,
    weights: str = "google",
    ci: Resampling | None = None,
    trials: int = DEFAULT_TRIALS["permutation"],
) -> list[dict]:
    """The systems of a corpus's split (each split of it, one after the other, when split is None): system, split,
    score (mean per text, lower is better), texts, rank (1 the best; tied means share it), human, and with ci the
    score's interval ci ([low, high]; else None) and the cluster (from 1)."""
    with weighted_by(con, weights):
        rows = fetch_dicts(con, TEXT_SCORES, {"corpus": corpus, "split": split})
    if not rows:
        raise AccuracyDbError(
            f"corpus {corpus} has no text whose generating system is known and scored"
            + ("" if split is None else f" in split {split}")
            + " (an MQM file's, or the shared task's nlg_systems)"
        )
    ranked = []
    for split_name, in_split in itertools.groupby(rows, key=lambda row: row["split"]):
        in_split = list(in_split)
        systems = sorted({row["system"] for row in in_split})
        statistics = input_statistics(in_split, systems)
        totals = statistics.counts.sum(axis=1)
        human = {row["system"]: row["human"] for row in in_split}
        found = [
            {
                "system": system,
                "split": split_name,
                "score": float(totals[number, 0] / totals[number, 1]),
                "ci": None,
                "texts": int(totals[number, 1]),
                "human": bool(human[system]),
                "number": number,
            }
            for number, system in enumerate(systems)
        ]
        found.sort(key=lambda row: (row["score"], row["system"]))
        for row in found:
            row["rank"] = 1 + sum(other["score"] < row["score"] for other in found)
        if ci is not None:
            intervals = intervals_of(con, statistics, ci)
            ranking = [{"submission_id": row["number"]} for row in found]
            numbers = clusters(con, statistics, ranking, "ALL", "score", trials, ci, lower_is_better=True)
            for row, cluster in zip(found, numbers, strict=True):
                row["ci"] = interval(intervals.get((row["number"], "ALL", "score")))
                row["cluster"] = cluster
        ranked += found
    return [{key: value for key, value in row.items() if key != "number"} for row in ranked]
