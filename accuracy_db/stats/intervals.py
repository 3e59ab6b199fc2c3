"""Bootstrap confidence intervals of the scores: the texts of a split resampled, the figures computed in SQL.

The per-text counts come from text_statistics (the shared task's scheme), text_scheme_statistics (every other
match scheme) or mushroom_text_scores (the mushroom scheme: each text's iou and cor, and 1 for the text), their sums
over each replicate from resampling.py, and the figures and intervals from the stats layer's queries
(queries/stats/replicate_figures.sql, or mushroom_replicate_figures.sql for means over texts; bootstrap_intervals.sql).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import duckdb
import numpy as np
import pyarrow as pa

from accuracy_db.errors import AccuracyDbError
from accuracy_db.scoring.schemes import ESA, MUSHROOM, RANKING_SCHEMES
from accuracy_db.scoring.scores import fetch_dicts
from accuracy_db.scoring.signature import SCHEME
from accuracy_db.stats import resampling
from accuracy_db.store import database

MAX_RESAMPLES = 100_000  # a typo of a few zeros fails at once, not after an hour or out of memory
COUNTS = ("matched", "gold", "submitted", "token_matched", "gold_tokens", "submitted_tokens")
FIGURES = ("recall", "precision", "f1", "token_recall", "token_precision", "token_f1")
# The mushroom scheme's figures are means over texts: per text its iou and cor, and the text itself (the divisor).
MUSHROOM_COUNTS = ("iou", "cor", "texts")
MUSHROOM_FIGURES = ("iou", "cor")
# The esa scheme's figures are computed from summed characters (queries/stats/esa_replicate_figures.sql), F1 first.
ESA_COUNTS = ("matched", "gold", "submitted")
ESA_FIGURES = ("f1", "precision", "recall")
# The ranking of generating systems (system_ranking.py) resamples inputs: per input and system, the text's score and
# the text itself (the divisor of the system's mean); its one figure is the mean score per text.
SYSTEMS = "systems"
SYSTEM_COUNTS = ("score", "texts")
SYSTEM_FIGURES = ("score",)

# The per-text counts of a split's texts, in the order of COUNTS, texts in the order of their ids. Another scheme
# than the shared task's has no token level: its token counts are 0 and its token figures undefined (not reported).
SHARED_TASK_COUNTS = f"""
SELECT submission_id, scope, split, {", ".join(COUNTS)}
FROM text_statistics
WHERE submission_id = ANY($ids) AND scope = ANY($scopes)
ORDER BY submission_id, scope, text_id
"""
SCHEME_COUNTS = """
SELECT
    evaluations.submission_id,
    scopes.scope,
    evaluations.split,
    coalesce(counts.matched, 0) AS matched,
    coalesce(counts.gold_total, 0) AS gold,
    coalesce(counts.submitted_total, 0) AS submitted,
    0 AS token_matched,
    0 AS gold_tokens,
    0 AS submitted_tokens
FROM evaluations
JOIN scopes USING (corpus)
JOIN texts ON texts.corpus = evaluations.corpus AND texts.split = evaluations.split
LEFT JOIN (
    SELECT * FROM text_scheme_statistics WHERE scheme = $scheme AND submission_id = ANY($ids) AND scope = ANY($scopes)
) AS counts
    ON counts.submission_id = evaluations.submission_id AND counts.scope = scopes.scope
    AND counts.text_id = texts.text_id
WHERE evaluations.submission_id = ANY($ids) AND scopes.scope = ANY($scopes)
ORDER BY evaluations.submission_id, scopes.scope, texts.text_id
"""
# Every text of the split, a text the list does not cover (an annotator's list) adding nothing: 0 to every sum.
MUSHROOM_TEXT_VALUES = """
SELECT
    evaluations.submission_id,
    'ALL' AS scope,
    evaluations.split,
    coalesce(scores.iou, 0) AS iou,
    coalesce(scores.cor, 0) AS cor,
    CASE WHEN scores.text_id IS NULL THEN 0 ELSE 1 END AS texts
FROM mushroom_evaluations AS evaluations
JOIN texts ON texts.corpus = evaluations.corpus AND texts.split = evaluations.split
LEFT JOIN mushroom_text_scores AS scores
    ON scores.submission_id = evaluations.submission_id AND scores.text_id = texts.text_id
WHERE evaluations.submission_id = ANY($ids) AND 'ALL' = ANY($scopes)
ORDER BY evaluations.submission_id, texts.text_id
"""

# The esa scheme's per-text counts over every text of the split (a text neither list marks counts 0).
ESA_TEXT_COUNTS = """
SELECT
    pairs.submission_id,
    'ALL' AS scope,
    pairs.split,
    coalesce(counts.matched, 0) AS matched,
    coalesce(counts.gold_total, 0) AS gold,
    coalesce(counts.submitted_total, 0) AS submitted
FROM esa_evaluations AS pairs
JOIN texts ON texts.corpus = pairs.corpus AND texts.split = pairs.split
LEFT JOIN esa_text_statistics AS counts ON counts.submission_id = pairs.submission_id AND counts.text_id = texts.text_id
WHERE pairs.submission_id = ANY($ids) AND 'ALL' = ANY($scopes)
ORDER BY pairs.submission_id, texts.text_id
"""


def figures(scheme: str) -> tuple[str, ...]:
    """The figures a scheme's intervals and paired tests give, the one it ranks by first: the shared task's mistake-
    and token-level ones; the mushroom scheme's iou and cor; another scheme's recall, precision and F1."""
    if scheme == MUSHROOM:
        return MUSHROOM_FIGURES
    if scheme == SYSTEMS:
        return SYSTEM_FIGURES
    if scheme == ESA:
        return ESA_FIGURES
    return FIGURES if scheme == SCHEME else FIGURES[:3]


def counts(scheme: str) -> tuple[str, ...]:
    """The per-text statistics a scheme's figures are computed from, summed over the texts of a trial."""
    return {MUSHROOM: MUSHROOM_COUNTS, SYSTEMS: SYSTEM_COUNTS, ESA: ESA_COUNTS}.get(scheme, COUNTS)


def figures_model(scheme: str) -> str:
    """The stats query that computes a scheme's figures from the sums of a trial (the run's replicate_figures)."""
    models = {MUSHROOM: "mushroom_replicate_figures", SYSTEMS: "system_replicate_figures", ESA: "esa_replicate_figures"}
    return models.get(scheme, "replicate_figures")


def check_figure(figure: str, scheme: str) -> None:
    if figure not in figures(scheme):
        raise AccuracyDbError(f"{figure!r} is not a figure of scheme {scheme}: one of {', '.join(figures(scheme))}")


@dataclass(frozen=True)
class Resampling:
    """How the texts are resampled: the same settings give the same figures on any machine."""

    resamples: int = 1000
    seed: int = 12345
    confidence: float = 0.95

    def __post_init__(self):
        check_count("resamples", self.resamples, MAX_RESAMPLES)
        check_seed(self.seed)
        if not isinstance(self.confidence, (int, float)) or not 0 < self.confidence < 1:
            raise AccuracyDbError(f"confidence is {self.confidence!r}: a level between 0 and 1, such as 0.95")

    def signed(self) -> dict:
        """The settings as the signature names them."""
        return {"bs": self.resamples, "seed": self.seed, "ci": f"{self.confidence * 100:.10g}"}


def check_count(name: str, value, most: int | None = None) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise AccuracyDbError(f"{name} is {value!r}: a whole number of at least 1")
    if most is not None and value > most:
        raise AccuracyDbError(f"{name} is {value:,}: at most {most:,}")


def check_seed(seed) -> None:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= resampling.MAX_SEED:
        raise AccuracyDbError(f"seed is {seed!r}: a whole number from 0 to {resampling.MAX_SEED}")


@dataclass
class TextStatistics:
    """The per-text counts of some lists in some scopes over the texts of one split under a scheme:
    counts[list, text, count], the counts being those of counts(scheme)."""

    keys: list[tuple[int, str]]  # (submission_id, scope) of each list
    counts: np.ndarray  # (lists, texts, counts(scheme))
    scheme: str = SCHEME

    def matrix(self) -> np.ndarray:
        """The counts as one matrix (texts, lists × counts), the layout the resampling sums."""
        lists, texts, counts = self.counts.shape
        return self.counts.transpose(1, 0, 2).reshape(texts, lists * counts)


def text_statistics(
    con: duckdb.DuckDBPyConnection, submission_ids: list[int], scopes: list[str], scheme: str = SCHEME
) -> TextStatistics:
    """The per-text counts of submissions of one split under a scheme, texts in the order of their ids."""
    if scheme not in RANKING_SCHEMES:
        raise AccuracyDbError(f"unknown scheme {scheme!r}: one of {', '.join(RANKING_SCHEMES)}")
    params = {"ids": submission_ids, "scopes": scopes}
    if scheme == SCHEME:
        query = SHARED_TASK_COUNTS
    elif scheme == MUSHROOM:
        query = MUSHROOM_TEXT_VALUES
    elif scheme == ESA:
        query = ESA_TEXT_COUNTS
    else:
        query, params = SCHEME_COUNTS, params | {"scheme": scheme}
    columns = con.execute(query, params).fetchnumpy()
    if len(set(columns["split"].tolist())) > 1:
        raise AccuracyDbError("the submissions are of different splits: resample one split at a time")
    ids, scope_names = columns["submission_id"], columns["scope"]
    keys = list(dict.fromkeys(zip(ids.tolist(), scope_names.tolist())))
    texts = len(ids) // max(len(keys), 1)
    names = counts(scheme)
    values = np.stack([np.asarray(columns[c], dtype=np.float64) for c in names], axis=1)
    return TextStatistics(keys, values.reshape(len(keys), texts, len(names)), scheme)


def trial_sums(
    keys: list[tuple[int, str]],
    kind: str,
    sums: np.ndarray,
    partners: list[int | None] | None = None,
    names: tuple[str, ...] = COUNTS,
) -> pa.Table:
    """Sums of trials as the rows of trial_sums: sums is (trials, lists × names), names the counts of a scheme,
    trials numbered from 1 (0 for the observed sums). The sums are kept as they are (DOUBLE): partial's matched
    counts a partial pair as 0.5, and sums of halves are exact in floating point."""
    trials, lists = sums.shape[0], len(keys)
    by_list = sums.reshape(trials, lists, len(names))
    first = 0 if kind == "observed" else 1
    scopes = sorted({scope for _, scope in keys})
    scope_codes = np.array([scopes.index(scope) for _, scope in keys], dtype=np.int32)
    partner_ids = np.array([-1 if p is None else p for p in (partners or [None] * lists)], dtype=np.int64)
    return pa.table(
        {
            "submission_id": np.tile(np.array([key[0] for key in keys], dtype=np.int64), trials),
            "partner_id": pa.array(np.tile(partner_ids, trials), mask=np.tile(partner_ids < 0, trials)),
            "scope": pa.DictionaryArray.from_arrays(np.tile(scope_codes, trials), scopes).cast(pa.string()),
            "kind": pa.DictionaryArray.from_arrays(np.zeros(trials * lists, dtype=np.int32), [kind]).cast(pa.string()),
            "trial": np.repeat(np.arange(first, first + trials, dtype=np.int64), lists),
        }
        | {count: by_list[:, :, i].ravel() for i, count in enumerate(names)}
    )


def run_stats_query(
    con: duckdb.DuckDBPyConnection, name: str, sums: list[pa.Table], params: dict, scheme: str = SCHEME
) -> list[dict]:
    """Run a query of the stats layer over the sums of the run's trials, their figures those of a scheme."""
    con.register("trial_sums", pa.concat_tables(sums))
    try:
        figures_sql = database.stats_query(figures_model(scheme))
        con.execute(f"CREATE OR REPLACE TEMP VIEW replicate_figures AS\n{figures_sql}")
        return fetch_dicts(con, database.stats_query(name), params)
    finally:
        con.execute("DROP VIEW IF EXISTS replicate_figures")
        con.unregister("trial_sums")


def bootstrap_intervals(
    con: duckdb.DuckDBPyConnection,
    submission_ids: list[int],
    scopes: list[str],
    settings: Resampling,
    scheme: str = SCHEME,
) -> dict[tuple[int, str, str], dict]:
    """The interval of every figure of some submissions (of one split) in some scopes under a scheme, by
    (submission_id, scope, figure): low, high, replicates (that define the figure) and excluded (that do not)."""
    if not submission_ids:
        return {}
    return intervals_of(con, text_statistics(con, submission_ids, scopes, scheme), settings)


def intervals_of(
    con: duckdb.DuckDBPyConnection, statistics: TextStatistics, settings: Resampling
) -> dict[tuple[int, str, str], dict]:
    """bootstrap_intervals over given per-text statistics."""
    sums = resampling.bootstrap_sums(statistics.matrix(), settings.resamples, settings.seed)
    rows = run_stats_query(
        con,
        "bootstrap_intervals",
        [trial_sums(statistics.keys, "bootstrap", sums, names=counts(statistics.scheme))],
        {"confidence": settings.confidence},
        statistics.scheme,
    )
    return {(row["submission_id"], row["scope"], row["figure"]): row for row in rows}


def interval(row: dict | None) -> list[float | None]:
    """[low, high] of an interval, None where no replicate defines the figure."""
    if row is None:
        return [None, None]
    return [None if value is None or math.isnan(value) else value for value in (row["low"], row["high"])]
