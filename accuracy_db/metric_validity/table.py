"""Is my metric valid? (issue 37) Every metric's scores per text set against the gold list's mistakes per text.

The scores come from SQL (queries/stats/scoped_metric_scores.sql: imported and built-in metrics, and every
submission as the number of its mistakes of the scope), the targets too (queries/stats/metric_targets.sql: the gold
list's mistakes of the scope per text, the text's length, system and input); this module orients and weighs them
and hands them to the measures (measures, ties, systems, bootstrap, tests).

Orientation: a metric is taken as error-like (a higher-is-better metric negated) and set against the gold count, so
that a metric that tracks the gold scores +1 whatever its direction; a threshold is given in the metric's own scale.

A corpus whose gold was read from an MQM file (issue 49) is measured against the MQM score of each text instead
(queries/stats/mqm_metric_targets.sql: positive, lower is better, as error-like as the gold count), in scope ALL; its
segment-level correlations may be averaged by segment or by system (groups), and chrF and BLEU score its texts
against one of its human references (queries/stats/segment_references.sql), that reference's texts left out.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from accuracy_db.defaults import VERSION
from accuracy_db.errors import AccuracyDbError
from accuracy_db.ingest.builtin_metrics import corpus_scores, scored_pairs
from accuracy_db.metric_validity import measures as mm
from accuracy_db.metric_validity.bootstrap import (
    PARTIAL_MEASURES,
    SYSTEM_MEASURES,
    TEXT_MEASURES,
    MadeOnce,
    Pair,
    Resamples,
    in_threads,
    interval,
    resampled_measures,
    system_intervals,
)
from accuracy_db.metric_validity.groups import (
    GROUPED_MEASURES,
    Grouping,
    by_group,
    group_labels,
    grouped_pearson,
    mean_of_groups,
    resampled_means,
)
from accuracy_db.metric_validity.pair_rows import SWAPPED_ROWS
from accuracy_db.metric_validity.rows import PAIRWISE_TEXTS, ROW_MEASURES
from accuracy_db.metric_validity.systems import pairwise_accuracy, spa, system_means
from accuracy_db.metric_validity.tests import PearsonPermBoth, assign_ranks, paired_bootstrap, perm_both, williams
from accuracy_db.metric_validity.ties import EXACT_TEXTS, SAMPLED_PAIRS, acc_eq
from accuracy_db.scoring.scores import check_corpus_choice, check_scopes, resolve_split
from accuracy_db.stats.intervals import Resampling

LEVELS = ("text", "system")
TESTS = ("perm-both", "williams")
PER_TOKENS = 100  # per_token: mistakes per this many tokens of the text
# Texts up to which a measure is resampled (intervals, and the clusters of the paired bootstrap): acc_eq searches its
# threshold anew in each resample, over every pair (the pairs weighed in all resamples at once: pair_rows), and
# Kendall's τ of a metric of many scores takes a cumulative count per gold value, passes over every resample.
INTERVAL_TEXTS = {"acc_eq": PAIRWISE_TEXTS, "kendall": 10 * PAIRWISE_TEXTS}
# Above this many texts the clusters of the rank-based measures come from the paired bootstrap on the intervals'
# resamples, not from PERM-BOTH, whose every trial sorts the texts anew (or, for acc_eq, counts every pair:
# pair_rows). Measured, 1000 trials, the six measures' p-values of one pair of metrics: 0.05 s of CPU at 30
# texts, 0.2 s at 60, 0.4 s at 120, 2.2 s at 250, 5.6 s at 500 (acc_eq's O(n²) trials most of it); a table makes
# about 22 such comparisons per scope and split. The shared task's splits (30 and 60 texts) stay on PERM-BOTH.
# Pearson's is matrix products at every size (PearsonPermBoth), and so is Kendall's (pair_rows).
PERMUTED_TEXTS = 100
RANK_MEASURES = ("spearman", "kendall", "roc_auc", "average_precision", "best_f1", "acc_eq")
SORTED_MEASURES = RANK_MEASURES[:-1]  # their functions take the metric's and the gold's Groups


@dataclass(frozen=True)
class Settings:
    """How the metrics are measured: resampling, the gold's weights by category, per-token targets, the trials of
    the permutation tests that make the clusters."""

    resampling: Resampling = field(default_factory=Resampling)
    weights: dict[str, float] = field(default_factory=dict)
    per_token: bool = False
    trials: int = 1000
    average_by: str = "none"  # an MQM corpus's segment level: none, item or sys (groups)
    reference: str | None = None  # an MQM corpus's human reference that chrF and BLEU score against

    def signed(self) -> dict:
        signed = {**self.resampling.signed(), "trials": self.trials}
        if self.reference is not None:
            signed["reference"] = self.reference
        if self.weights:
            signed["weights"] = ",".join(f"{category}={weight:g}" for category, weight in sorted(self.weights.items()))
        if self.per_token:
            signed["per-token"] = PER_TOKENS
        return signed


@dataclass
class Scored:
    """One metric in one (split, scope): its error-like scores and the targets of the same texts."""

    metric: str
    kind: str
    higher_is_better: bool
    x: np.ndarray  # error-like scores
    y: np.ndarray  # gold counts (weighted, per token as asked)
    length: np.ndarray
    systems: np.ndarray
    inputs: np.ndarray
    stamp: str  # the metric's part of the signature
    # an MQM corpus's chrF and BLEU: each system's corpus-level score (error-like), its score at the system level
    system_scores: dict[str, float] | None = None

    def on_texts_scored(self) -> Scored:
        """The same on the texts the metric scores (a built-in scores only texts with a reference); itself when it
        scores every text, so that the metrics of a scope share its targets' vectors (161 copies of them took 300 MB
        at scale 1000)."""
        kept = ~np.isnan(self.x)
        if kept.all():
            return self
        return Scored(
            self.metric,
            self.kind,
            self.higher_is_better,
            *(vector[kept] for vector in (self.x, self.y, self.length, self.systems, self.inputs)),
            self.stamp,
            self.system_scores,
        )


MEASURE_FUNCTIONS = {
    "pearson": mm.pearson,
    "spearman": mm.spearman,
    "kendall": mm.kendall,
    "acc_eq": acc_eq,
    "roc_auc": mm.roc_auc,
    "average_precision": mm.average_precision,
    "best_f1": mm.best_f1,
}


def gold_lists(con: duckdb.DuckDBPyConnection) -> dict[str, list[str]]:
    """The corpora with a gold list and the splits it covers (test before train): one query, as each query of the
    view computes every list's counts anew (1.6 s of CPU at scale 1000)."""
    query = "SELECT corpus, split FROM metric_targets GROUP BY corpus, split ORDER BY corpus, split DESC"
    found: dict[str, list[str]] = {}
    for corpus, split in con.execute(query).fetchall():
        found.setdefault(corpus, []).append(split)
    return found


def choose_corpus(lists: dict[str, list[str]], corpus: str | None) -> str:
    """The corpus asked for, or the only one with a gold list (the shared task's when it has one); lists:
    gold_lists."""
    with_gold = list(lists)
    if corpus is not None:
        if corpus not in with_gold:
            raise AccuracyDbError(f"corpus {corpus!r} has no gold list to measure metrics against")
        return corpus
    if not with_gold:
        raise AccuracyDbError("no corpus has a gold list to measure metrics against")
    if len(with_gold) == 1 or "shared-task" in with_gold:
        return with_gold[0] if len(with_gold) == 1 else "shared-task"
    raise AccuracyDbError(f"give --corpus: more than one corpus has a gold list ({', '.join(with_gold)})")


MAX_WEIGHT = 1e300  # a weighted count of up to 10⁸ mistakes stays below the largest double (1.8e308)


def check_weights(con: duckdb.DuckDBPyConnection, corpus: str, weights: dict[str, float]) -> None:
    categories = [c for (c,) in con.execute("SELECT category FROM categories WHERE corpus = ?", [corpus]).fetchall()]
    for category, weight in weights.items():
        if category not in categories:
            raise AccuracyDbError(f"--weights: {category!r} is not a category of corpus {corpus}")
        if not (np.isfinite(weight) and 0 <= weight <= MAX_WEIGHT):
            raise AccuracyDbError(
                f"--weights: the weight of {category} is {weight!r}: a number from 0 to {MAX_WEIGHT:g} (so that a"
                " weighted count stays finite)"
            )


def weight_parameters(settings: Settings) -> dict:
    """The parameters $categories and $weights: the --weights of the settings, as the queries below join them (a
    category not named weighs 1)."""
    return {"categories": list(settings.weights), "weights": [float(w) for w in settings.weights.values()]}


def checked_split(con, corpus: str, split: str, splits: list[str]) -> str:
    """The split asked for (dev: the shared task's train), which must be one of the splits with a gold list."""
    split = resolve_split(con, split, corpus)
    if split not in splits:
        raise AccuracyDbError(f"split {split!r} of corpus {corpus} has no gold list ({', '.join(splits)})")
    return split


def targets(con, corpus: str, split: str, scopes: list[str], settings: Settings) -> dict[str, tuple]:
    """Per scope: the texts of the split in text order (an Arrow array), with the gold count of the scope (weighted
    by category when asked: in ALL the weighted sum of the categories), length, system and input. One query for every
    scope, the view computed once (MATERIALIZED): each computation counts every list's mistakes anew (1.6 s of CPU
    at scale 1000)."""
    rows = con.sql(
        """
        WITH split_targets AS MATERIALIZED (
            SELECT * FROM metric_targets WHERE corpus = $corpus AND split = $split
        )
        SELECT targets.scope, targets.text_id,
               sum(categories.gold_count * coalesce(weights.weight, 1))::DOUBLE AS gold,
               any_value(targets.token_count)::DOUBLE AS token_count,
               any_value(targets.system) AS system, any_value(targets.input_id) AS input_id
        FROM split_targets AS targets
        JOIN split_targets AS categories
            ON categories.text_id = targets.text_id
            AND categories.scope <> 'ALL' AND targets.scope IN ('ALL', categories.scope)
        LEFT JOIN (SELECT unnest($categories) AS category, unnest($weights) AS weight) AS weights
            ON weights.category = categories.scope
        WHERE list_contains($scopes, targets.scope)
        GROUP BY targets.scope, targets.text_id
        ORDER BY targets.scope, targets.text_id
        """,
        params={"corpus": corpus, "split": split, "scopes": scopes, **weight_parameters(settings)},
    ).to_arrow_table()
    found = {}
    for scope in scopes:
        scoped = rows.filter(pc.equal(rows["scope"], scope))
        found[scope] = (
            scoped["text_id"].combine_chunks(),
            *(scoped[name].to_numpy() for name in ("gold", "token_count")),
            *(scoped[name].to_numpy(zero_copy_only=False) for name in ("system", "input_id")),
        )
    return found


def scored_metrics(con, corpus: str, split: str, scope: str, settings: Settings, names: list[str] | None = None):
    """Every metric of the split (or those named) with its error-like scores, on the targets' texts of the scope."""
    return scored_by_scope(con, corpus, split, [scope], settings, names)[scope]


def scored_by_scope(
    con, corpus: str, split: str, scopes: list[str], settings: Settings, names: list[str] | None = None
) -> dict[str, list[Scored]]:
    """scored_metrics of each scope: the targets of them all read by one query (see targets), the scores by another
    (split_scores)."""
    found_targets = targets(con, corpus, split, scopes, settings)
    stamps = metric_stamps(con, corpus, split)
    scores = split_scores(con, corpus, split, scopes, settings, names)
    return {
        scope: scope_metrics(scores, f"score_{i}", found_targets[scope], settings, stamps)
        for i, scope in enumerate(scopes)
    }


def is_mqm(con, corpus: str) -> bool:
    """Whether the corpus's gold was read from an MQM file: its metrics are set against the MQM scores."""
    query = "SELECT EXISTS (SELECT 1 FROM mqm_metric_targets WHERE corpus = ?)"
    return bool(con.execute(query, [corpus]).fetchall()[0][0])


def checked_scopes(con, corpus: str, mqm: bool, scopes: list[str], settings: Settings) -> list[str]:
    """The scopes measured: ALL alone for an MQM corpus, whose score is the whole text's; the options of one kind
    of corpus refused on the other, and the reference checked to be a human reference of the corpus."""
    if not mqm:
        if settings.average_by != "none" or settings.reference is not None:
            raise AccuracyDbError(
                f"--average-by and --reference are for a corpus with an MQM gold (import mqm); corpus {corpus} has none"
            )
        return check_scopes(con, corpus, scopes)
    if settings.weights or settings.per_token:
        raise AccuracyDbError(
            f"--weights and --per-token weigh a gold list's mistakes; corpus {corpus} is measured against its MQM"
            " scores (mqm_segments)"
        )
    if any(scope != "ALL" for scope in scopes):
        raise AccuracyDbError(f"corpus {corpus} is measured against its MQM scores, of whole texts: its scope is ALL")
    if settings.reference is not None:
        humans = [
            system
            for (system,) in con.execute(
                "SELECT DISTINCT system FROM mqm_metric_targets WHERE corpus = ? AND human ORDER BY system", [corpus]
            ).fetchall()
        ]
        if settings.reference not in humans:
            raise AccuracyDbError(
                f"--reference {settings.reference!r} is not a human reference of corpus {corpus}"
                f" ({', '.join(humans) or 'it has none'})"
            )
    return ["ALL"]


def mqm_scored(con, corpus: str, split: str, settings: Settings, names: list[str] | None = None) -> list[Scored]:
    """The metrics of an MQM corpus's split (or those named) against each text's MQM score, the reference's texts
    left out; chrF and BLEU against the reference when one is given."""
    rows = con.sql(
        "SELECT text_id, mqm_score, token_count::DOUBLE AS token_count, system, input_id FROM mqm_metric_targets"
        " WHERE corpus = $corpus AND split = $split AND system IS DISTINCT FROM $reference ORDER BY text_id",
        params={"corpus": corpus, "split": split, "reference": settings.reference},
    ).to_arrow_table()
    found_targets = (
        rows["text_id"].combine_chunks(),
        *(rows[name].to_numpy() for name in ("mqm_score", "token_count")),
        *(rows[name].to_numpy(zero_copy_only=False) for name in ("system", "input_id")),
    )
    scores = split_scores(con, corpus, split, ["ALL"], settings, names)
    raters = {  # each rater's own list (rater/NAME) is a part of the gold, not a metric of it
        name
        for (name,) in con.execute(
            "SELECT name FROM annotation_sets WHERE corpus = ? AND split = ? AND kind = 'submission'"
            " AND annotator IS NOT NULL",
            [corpus, split],
        ).fetchall()
    }
    found = scope_metrics(scores, "score_0", found_targets, settings, metric_stamps(con, corpus, split))
    scored = [metric for metric in found if metric.metric not in raters]
    if settings.reference is not None:
        wanted = reference_metrics(con, corpus, split, settings.reference, found_targets)
        scored += [metric for metric in wanted if names is None or metric.metric in names]
    return scored


def reference_metrics(con, corpus: str, split: str, reference: str, found_targets: tuple) -> list[Scored]:
    """bleu and chrf of the targets' texts against the reference's text of their segment (segment_references):
    sacrebleu's sentence scores per text, its corpus scores per system (the system level)."""
    import sacrebleu

    text_ids, gold, length, systems, inputs = found_targets
    pairs = con.execute(
        "SELECT text_id, system, hypothesis, reference FROM segment_references"
        " WHERE corpus = ? AND split = ? AND reference_system = ? ORDER BY text_id",
        [corpus, split, reference],
    ).fetchall()
    at = pc.index_in(pa.array([pair[0] for pair in pairs], pa.string()), value_set=text_ids).fill_null(-1)
    kept = [(i, pair) for i, pair in zip(at.to_numpy().astype(np.int64), pairs) if i >= 0]
    sentence = scored_pairs([(hypothesis, text) for _, (_, _, hypothesis, text) in kept])
    by_system: dict[str, list[tuple[str, str]]] = {}
    for _, (_, system, hypothesis, text) in kept:
        by_system.setdefault(system, []).append((hypothesis, text))
    system_level = {system: corpus_scores(texts) for system, texts in by_system.items()}
    found = []
    for number, metric in enumerate(("bleu", "chrf")):
        x = np.full(len(text_ids), np.nan)
        x[[i for i, _ in kept]] = [-scores[number] for scores in sentence]  # error-like
        stamp, by_sys = f"{metric}-sacrebleu{sacrebleu.__version__}", {s: -v[number] for s, v in system_level.items()}
        found.append(Scored(metric, "builtin", True, x, gold, length, systems, inputs, stamp, by_sys))
    return [scored.on_texts_scored() for scored in found]


def split_scores(
    con, corpus: str, split: str, scopes: list[str], settings: Settings, names: list[str] | None
) -> pa.Table:
    """The scores of every metric of the split (or those named), by metric and text, in a column per scope (score_0
    for scopes[0] …; null where the metric has no score): a submission's count of the scope (in ALL, the weighted
    sum of its categories' counts), another metric's score. One query for every scope, the view computed once: a
    query per scope took 16 s of CPU at scale 1000, this one 7 s (1.4 million rows, 120 MB)."""
    columns = ",\n".join(
        f"""
            CASE WHEN any_value(scores.kind) = 'submission'
                THEN sum(scores.score * coalesce(weights.weight, 1))
                    FILTER (WHERE scores.scope <> 'ALL' AND $scope_{number} IN ('ALL', scores.scope))
                ELSE any_value(scores.score) FILTER (WHERE scores.scope = $scope_{number})
            END AS score_{number}"""
        for number in range(len(scopes))
    )
    return con.sql(
        f"""
        SELECT
            scores.metric,
            any_value(scores.kind) AS kind,
            any_value(scores.higher_is_better) AS higher_is_better,
            scores.text_id,{columns}
        FROM scoped_metric_scores AS scores
        LEFT JOIN (SELECT unnest($categories) AS category, unnest($weights) AS weight) AS weights
            ON weights.category = scores.scope
        WHERE scores.corpus = $corpus AND scores.split = $split
          AND ($names IS NULL OR list_contains($names, scores.metric))
        GROUP BY scores.metric, scores.text_id
        ORDER BY scores.metric, scores.text_id
        """,
        params={
            "corpus": corpus,
            "split": split,
            "names": names,
            **{f"scope_{number}": scope for number, scope in enumerate(scopes)},
            **weight_parameters(settings),
        },
    ).to_arrow_table()  # columns, not a Python object a value


def scope_metrics(
    rows: pa.Table, column: str, scope_targets: tuple, settings: Settings, stamps: dict[str, str]
) -> list[Scored]:
    """The metrics of one scope from the rows of scores (ordered by metric and text; the scope's in column) and its
    targets."""
    text_ids, gold, length, systems, inputs = scope_targets
    per_100 = PER_TOKENS / np.maximum(length, 1)
    if settings.per_token:
        gold = gold * per_100
    at = pc.index_in(rows["text_id"], value_set=text_ids).fill_null(-1)  # each row's text
    at = at.to_numpy().astype(np.int64)
    scores = rows[column].to_numpy()  # a null (no score in the scope) as NaN
    metrics = pc.dictionary_encode(rows["metric"]).combine_chunks()
    codes, names = metrics.indices.to_numpy(), metrics.dictionary.to_pylist()
    starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]]) if len(codes) else np.zeros(0, dtype=np.int64)
    found: dict[str, Scored] = {}
    for start, end in zip(starts, [*starts[1:], len(codes)]):  # the rows of one metric (ordered by metric)
        kind, higher_is_better = rows["kind"][start].as_py(), bool(rows["higher_is_better"][start].as_py())
        kept = (at[start:end] >= 0) & ~np.isnan(scores[start:end])
        if not kept.any():
            continue  # it scores no text of the targets in the scope
        texts, values = at[start:end][kept], scores[start:end][kept]
        if kind == "submission" and settings.per_token:
            values = values * per_100[texts]
        x = np.full(len(text_ids), np.nan)
        x[texts] = -values if higher_is_better else values
        metric = names[codes[start]]
        found[metric] = Scored(
            metric, kind, higher_is_better, x, gold, length, systems, inputs, stamps.get(metric, metric)
        )
    return [scored.on_texts_scored() for scored in found.values()]


def metric_stamps(con, corpus: str, split: str) -> dict[str, str]:
    """How each metric is named in a signature: an imported metric or a submission by the first 12 hex digits of the
    SHA-256 of its own content (an imported metric's scores, text by text, and its direction: two metrics of one
    file differ; a submission's annotation_sets.content_sha256), a built-in by its name and version."""
    import sacrebleu

    rows = con.execute(
        """
        SELECT
            metrics.metric,
            metrics.kind,
            sha256(concat_ws(
                '|',
                metrics.higher_is_better,
                string_agg(scores.text_id || '=' || scores.score::VARCHAR, ';' ORDER BY scores.text_id)
            ))
        FROM metrics
        LEFT JOIN text_scores AS scores USING (corpus, split, metric)
        WHERE metrics.corpus = $corpus AND metrics.split = $split
        GROUP BY metrics.metric, metrics.kind, metrics.higher_is_better
        UNION ALL
        SELECT name, 'submission', content_sha256 FROM annotation_sets
        WHERE kind = 'submission' AND corpus = $corpus AND split = $split
        """,
        {"corpus": corpus, "split": split},
    ).fetchall()
    return {
        metric: f"{metric}-sacrebleu{sacrebleu.__version__}"
        if kind == "builtin" and metric != "length"
        else metric
        if kind == "builtin"
        else (sha256 or "")[:12]
        for metric, kind, sha256 in rows
    }


def gold_stamp(con, corpus: str, split: str) -> str:
    rows = con.execute(
        "SELECT content_sha256 FROM annotation_sets WHERE kind = 'gold' AND corpus = ? AND split = ?",
        [corpus, split],
    ).fetchall()  # all: a result left unfinished would hold the connection
    return (rows[0][0] if rows else "")[:12]


def signature(gold: str, metric: str, scope: str, level: str, settings: Settings, **more) -> str:
    parts = [f"accuracy-db:{VERSION}", f"gold:{gold}", f"metric:{metric}", f"scope:{scope}", f"level:{level}"]
    return "|".join(parts + [f"{key}:{value}" for key, value in {**settings.signed(), **more}.items()])


def shown_threshold(measure: str, result: mm.Measure, scored: Scored) -> float | None:
    """best_f1's threshold in the metric's own scale (flag a text when its score is ≥ it, or ≤ it for a metric
    whose higher scores are better); acc_eq's is a difference of scores, the same in either direction."""
    if result.threshold is None or measure != "best_f1" or not scored.higher_is_better:
        return result.threshold
    return -result.threshold


def unmeasured(measure: str, texts: int) -> str | None:
    """What a defined measure lacks on so many texts (see INTERVAL_TEXTS), or None."""
    if texts > INTERVAL_TEXTS.get(measure, texts):
        return f"no interval or rank above {INTERVAL_TEXTS[measure]:,} texts"
    return None


def cluster_test(measure: str, texts: int) -> str | None:
    """The test that makes the clusters of a text-level measure on so many texts: PERM-BOTH, the paired bootstrap
    (a rank-based measure above PERMUTED_TEXTS) or none (no resamples: see INTERVAL_TEXTS)."""
    if measure not in MEASURE_FUNCTIONS or texts > INTERVAL_TEXTS.get(measure, texts):
        return None
    return "paired-bootstrap" if measure in RANK_MEASURES and texts > PERMUTED_TEXTS else "perm-both"


def grouped_cluster_test(measure: str) -> str:
    """The test that makes the clusters of a measure averaged by item or sys."""
    return "perm-both" if measure == "pearson" else "paired-bootstrap"


def measure_values(
    scored: Scored, settings: Settings, resamples: Resamples, kept: MadeOnce | None = None
) -> dict[str, mm.Measure]:
    """The text-level measures of one metric (acc_eq above EXACT_TEXTS on the table's one sample of pairs), the
    metric's scores and the gold sorted once for them all, and for every metric and scope with the same vector
    (kept: their Groups and acc_eq's differences over the sampled pairs by the vector's bytes, for the metrics of
    a table; at scale 1000 each measure sorting them anew took 4 s of the table's CPU)."""
    kept = MadeOnce() if kept is None else kept
    groups = tuple(kept.get(("groups", v.tobytes()), functools.partial(mm.Groups, v)) for v in (scored.x, scored.y))
    values = {"pearson": mm.pearson(scored.x, scored.y)}
    values |= {name: MEASURE_FUNCTIONS[name](scored.x, scored.y, groups=groups) for name in SORTED_MEASURES}
    n, seed = len(scored.x), settings.resampling.seed
    sample = resamples.pair_sample(n, SAMPLED_PAIRS) if n > EXACT_TEXTS else None

    def sampled(v: np.ndarray) -> np.ndarray:  # v's differences over the sampled pairs, kept as its Groups
        return kept.get(("pairs", v.tobytes()), lambda: v[sample[0]] - v[sample[1]])

    values["acc_eq"] = acc_eq(scored.x, scored.y, seed, sample=sample, x_groups=groups[0], sampled=sampled)
    if settings.per_token:
        values["partial_pearson"] = mm.partial_pearson(scored.x, scored.y, scored.length)
        values["partial_spearman"] = mm.partial_spearman(scored.x, scored.y, scored.length)
    return values


def text_rows(scored: Scored, settings: Settings) -> list[dict]:
    """The text-level rows of one metric (text_rows_of for one)."""
    return text_rows_of([scored], settings, settings_resamples(settings))[0][0]


def settings_resamples(settings: Settings) -> Resamples:
    return Resamples(settings.resampling.resamples, settings.resampling.seed, settings.trials)


def text_rows_of(
    metrics: list[Scored], settings: Settings, resamples: Resamples
) -> tuple[list[list[dict]], list[dict[str, np.ndarray]]]:
    """The text-level rows of each metric and each measure's values in the resamples (for the paired bootstrap's
    clusters): the metrics on as many texts resampled together (resampled_measures), so that what they share is
    computed once."""
    measures = TEXT_MEASURES + (PARTIAL_MEASURES if settings.per_token else ())
    # what the metrics share (kept) is dropped before the bootstrap, whose blocks make the peak of the memory
    values = in_threads(
        functools.partial(measure_values, settings=settings, resamples=resamples, kept=MadeOnce()), metrics
    )
    pairs = [
        Pair(
            scored.x,
            scored.y,
            scored.length if settings.per_token else None,
            tuple(
                name
                for name in measures
                if found[name].value is not None and len(scored.x) <= INTERVAL_TEXTS.get(name, len(scored.x))
            ),
        )
        for scored, found in zip(metrics, values)
    ]
    resampled: list[dict[str, np.ndarray]] = [{} for _ in metrics]
    for n in sorted({len(pair.x) for pair in pairs}):
        numbers = [i for i, pair in enumerate(pairs) if len(pair.x) == n]
        for i, found in zip(numbers, resampled_measures([pairs[i] for i in numbers], resamples)):
            resampled[i] = found
    confidence = settings.resampling.confidence
    rows = [
        [
            {
                "measure": name,
                "value": found[name].value,
                "ci": interval(resampled[i][name], confidence).ci if name in resampled[i] else None,
                "n": len(scored.x),
                "threshold": shown_threshold(name, found[name], scored),
                "reason": found[name].reason or unmeasured(name, len(scored.x)),
                "method": found[name].method,
                "clusters": cluster_test(name, len(scored.x)),
            }
            for name in measures
        ]
        for i, (scored, found) in enumerate(zip(metrics, values))
    ]
    return rows, resampled


def grouped_rows(metrics: list[Scored], settings: Settings) -> tuple[list[list[dict]], list[dict[str, np.ndarray]]]:
    """text_rows_of for --average-by item or sys: Pearson, Spearman and Kendall averaged over the groups
    (groups), each with the interval of the groups resampled, and those resamples' values (the paired
    bootstrap's clusters of Spearman and Kendall; Pearson's are PERM-BOTH's, grouped_perm_both_p)."""
    resampling, rows, resampled = settings.resampling, [], []
    for scored in metrics:
        grouping = Grouping.of(group_labels(settings.average_by, scored.systems, scored.inputs))
        found_rows, found = [], {}
        for name in GROUPED_MEASURES:
            values = by_group(name, scored.x, scored.y, grouping)
            result = mean_of_groups(values, settings.average_by)
            if result.value is not None:
                found[name] = resampled_means(values, resampling.resamples, resampling.seed)
            found_rows.append(
                {
                    "measure": name,
                    "value": result.value,
                    "ci": interval(found[name], resampling.confidence).ci if name in found else None,
                    "n": len(scored.x),
                    "threshold": None,
                    "reason": result.reason,
                    "method": None,
                    "clusters": grouped_cluster_test(name),
                }
            )
        rows.append(found_rows)
        resampled.append(found)
    return rows, resampled


def system_rows(scored: Scored, settings: Settings) -> list[dict]:
    known = np.array([system is not None for system in scored.systems], dtype=bool)
    x, y, systems, inputs = scored.x[known], scored.y[known], scored.systems[known], scored.inputs[known]
    names, x_means = system_means(x, systems) if known.any() else (np.array([]), np.array([]))
    _, y_means = system_means(y, systems) if known.any() else (None, np.array([]))
    corpus_level = scored.system_scores is not None
    if corpus_level:  # chrF and BLEU of an MQM corpus: each system's corpus score, not its texts' mean
        x_means = np.array([scored.system_scores[name] for name in names])
    values = {
        "pearson": mm.pearson(x_means, y_means, unit="system"),
        "spearman": mm.spearman(x_means, y_means, unit="system"),
        "kendall": mm.kendall(x_means, y_means, unit="system"),
        "pairwise_accuracy": pairwise_accuracy(x_means, y_means),
    }
    if not known.any():
        values = {name: mm.Measure(None, "no text's system is known (nlg_systems)") for name in values}
    has_inputs = known.any() and all(value is not None for value in inputs)
    values["spa"] = (
        spa(x, y, systems, inputs, settings.trials, settings.resampling.seed)
        if has_inputs
        else mm.Measure(None, "the texts' inputs are not known" if known.any() else values["pearson"].reason)
    )
    defined = tuple(name for name in SYSTEM_MEASURES if values[name].value is not None)
    resampling = settings.resampling
    intervals = (
        system_intervals(x, y, systems, defined, resampling.resamples, resampling.seed, resampling.confidence)
        if defined and not corpus_level
        else {}
    )
    return [
        {
            "measure": name,
            "value": values[name].value,
            "ci": intervals[name].ci if name in intervals else None,
            "n": len(names),
            "threshold": None,
            "reason": values[name].reason
            or ("a corpus-level score: no interval" if corpus_level and name in defined else None),
            "method": None,
        }
        for name in (*SYSTEM_MEASURES, "spa")
    ]


def ranks_of(
    rows: list[dict], metrics: dict[str, Scored], resampled: dict, resamples: Resamples, average_by: str = "none"
) -> None:
    """The metrics' significance clusters per (split, scope, level, measure) at the text level, by the test
    cluster_test names: PERM-BOTH (Pearson's by PearsonPermBoth's matrix products), or the paired bootstrap on the
    values in the intervals' resamples (resampled: per (split, scope, metric, measure)). A measure the bootstrap
    alone can tell apart at the system level gets no rank there. Averaged by item or sys, Pearson's by PERM-BOTH of
    the grouped mean (grouped_perm_both_p), the others' by the paired bootstrap on the groups' resamples."""
    groups: dict[tuple, list[dict]] = {}
    for row in rows:
        groups.setdefault((row["split"], row["scope"], row["level"], row["measure"]), []).append(row)
    clustered: dict[tuple, tuple[str, int, list[dict]]] = {}  # (test, texts, the rows on those texts)
    for (split, scope, level, measure), group in groups.items():
        texts = max(row["n"] for row in group)  # metrics of fewer texts (a built-in without references) are not paired
        test = cluster_test(measure, texts) if average_by == "none" else grouped_cluster_test(measure)
        test = test if level == "text" else None
        if test is not None:  # else the reason of each row says so
            clustered[split, scope, level, measure] = test, texts, [row for row in group if row["n"] == texts]
    permutations = pearson_permutations(clustered, metrics, resamples) if average_by == "none" else {}
    for (split, scope, level, measure), (test, _, group) in clustered.items():
        scored = {row["metric"]: metrics[split, scope, row["metric"]] for row in group}
        y = next(iter(scored.values())).y
        values = {row["metric"]: row["value"] for row in group}
        if test == "paired-bootstrap":
            found = {name: resampled.get((split, scope, name, measure)) for name in scored}

            def p_value(better, worse, found=found):
                return paired_bootstrap(found[better], found[worse])

        elif measure == "pearson" and average_by != "none":
            p_value = functools.partial(grouped_perm_both_p, scored, y, average_by, resamples)
        elif measure == "pearson":
            permuted = permutations.get((split, scope, level, measure))
            p_value = permuted.p_value if permuted else None  # None: no metric has a value to rank
        else:
            p_value = functools.partial(perm_both_p, scored, y, measure, resamples)
        ranks = assign_ranks(values, p_value)
        for row in group:
            row["rank"] = ranks[row["metric"]]


def pearson_permutations(clustered: dict, metrics: dict, resamples: Resamples) -> dict[tuple, PearsonPermBoth]:
    """Pearson's PERM-BOTH of each group of ranks_of that it clusters, of the metrics with a value. The groups on as
    many texts (whose trials swap the same texts) are made together (PearsonPermBoth.many: one product of the swaps
    for every scope, an imported metric's columns the same in each)."""
    wanted: dict[int, dict[tuple, tuple]] = {}
    for (split, scope, level, measure), (test, texts, group) in clustered.items():
        if measure != "pearson" or test != "perm-both":
            continue
        defined = {row["metric"]: metrics[split, scope, row["metric"]] for row in group if row["value"] is not None}
        if defined:
            y = next(iter(defined.values())).y
            named = {name: scored.x for name, scored in defined.items()}
            wanted.setdefault(texts, {})[split, scope, level, measure] = named, y
    found = {}
    for texts, groups in wanted.items():
        found |= dict(zip(groups, PearsonPermBoth.many(list(groups.values()), resamples.swaps(texts))))
    return found


def grouped_perm_both_p(
    scored: dict[str, Scored], y, average_by: str, resamples: Resamples, better: str, worse: str
) -> float:
    """PERM-BOTH's p-value that metric better's grouped mean Pearson beats metric worse's (on the same texts)."""
    first = scored[better]
    measure, rows = grouped_pearson(Grouping.of(group_labels(average_by, first.systems, first.inputs)))
    swaps = resamples.swaps(len(y))
    return perm_both(first.x, scored[worse].x, y, measure, resamples.trials, resamples.seed, rows, swaps)["p_value"]


def perm_both_p(scored: dict[str, Scored], y, measure: str, resamples: Resamples, better: str, worse: str) -> float:
    """PERM-BOTH's p-value that metric better beats metric worse: the trials as rows where a measure has a form for
    many vectors at once (Kendall's and acc_eq on up to PAIRWISE_TEXTS texts)."""
    pairwise = measure in ("kendall", "acc_eq")
    rows = ROW_MEASURES.get(measure) if not pairwise or len(y) <= PAIRWISE_TEXTS else None
    swapped_rows = SWAPPED_ROWS.get(measure) if rows is not None else None
    a, b = scored[better].x, scored[worse].x
    swaps = resamples.swaps(len(y))
    tested = perm_both(a, b, y, MEASURE_FUNCTIONS[measure], resamples.trials, resamples.seed, rows, swaps, swapped_rows)
    return tested["p_value"]


def checked_choice(
    con, corpus: str | None, split: str | None, scopes: list[str], settings: Settings
) -> tuple[str, bool, list[str], list[str]]:
    """The corpus (named or chosen), whether it is measured against MQM, the scopes checked, and the splits with a
    gold list: the corpus named, and the split, checked as every command checks them."""
    lists = gold_lists(con)
    check_corpus_choice(con, corpus)
    corpus = choose_corpus(lists, corpus)
    check_corpus_choice(con, corpus, split)
    check_weights(con, corpus, settings.weights)
    mqm = is_mqm(con, corpus)
    return corpus, mqm, checked_scopes(con, corpus, mqm, scopes, settings), lists[corpus]


def metric_table(
    con: duckdb.DuckDBPyConnection,
    corpus: str | None = None,
    split: str | None = None,
    scopes: list[str] | None = None,
    levels: list[str] | None = None,
    settings: Settings | None = None,
) -> list[dict]:
    """One object per (metric, split, scope, level, measure): metric, kind, split, scope, level, measure, value,
    ci ([low, high] or None), n (texts or systems), threshold, rank (the significance cluster, 1 the best; text level
    only), reason (why value is None, or what it lacks: see INTERVAL_TEXTS), signature. Every split with a gold
    list, scope and level unless told which."""
    settings = settings or Settings()
    corpus, mqm, scopes, splits = checked_choice(con, corpus, split, scopes or [], settings)
    if split is not None:
        splits = [checked_split(con, corpus, split, splits)]
    rows, metrics, resampled = [], {}, {}
    average = {"average-by": settings.average_by} if settings.average_by != "none" else {}
    resamples = settings_resamples(settings)  # this table's draws, dropped when it returns
    for split_name in splits:
        gold = gold_stamp(con, corpus, split_name)
        if mqm:
            by_scope = {"ALL": mqm_scored(con, corpus, split_name, settings)}
        else:
            by_scope = scored_by_scope(con, corpus, split_name, scopes, settings)
        scoped = [(scope, scored) for scope in scopes for scored in by_scope[scope]]
        measured: dict[tuple[int, str], list[dict]] = {}
        if "text" in (levels or LEVELS):
            scored_texts = [scored for _, scored in scoped]
            text_found, values = (
                text_rows_of(scored_texts, settings, resamples)
                if settings.average_by == "none"
                else grouped_rows(scored_texts, settings)
            )
            for number, ((scope, scored), found) in enumerate(zip(scoped, values)):
                measured[number, "text"] = text_found[number]
                for measure, in_resamples in found.items():
                    resampled[split_name, scope, scored.metric, measure] = in_resamples
        for number, (scope, scored) in enumerate(scoped):
            metrics[split_name, scope, scored.metric] = scored
            for level in levels or LEVELS:
                found = measured[number, level] if level == "text" else system_rows(scored, settings)
                for row in found:
                    method, clusters = row.pop("method"), row.pop("clusters", None)
                    more = {"acc_eq": method} if method else {}
                    more |= average if level == "text" else {}
                    more |= {"clusters": clusters} if clusters else {}
                    rows.append(
                        {
                            "metric": scored.metric,
                            "kind": scored.kind,
                            "split": split_name,
                            "scope": scope,
                            "level": level,
                            **row,
                            "rank": None,
                            "signature": signature(gold, scored.stamp, scope, level, settings, **more),
                        }
                    )
    ranks_of(rows, metrics, resampled, resamples, settings.average_by)
    order = {
        name: i for i, name in enumerate(dict.fromkeys((*TEXT_MEASURES, *PARTIAL_MEASURES, *SYSTEM_MEASURES, "spa")))
    }
    rows.sort(
        key=lambda r: (
            splits.index(r["split"]),
            scopes.index(r["scope"]),
            LEVELS.index(r["level"]),
            order[r["measure"]],
            r["rank"] or 10**9,
            r["metric"],
        )
    )
    return [{key: row[key] for key in ROW_KEYS} for row in rows]


ROW_KEYS = (
    "metric",
    "kind",
    "split",
    "scope",
    "level",
    "measure",
    "value",
    "ci",
    "n",
    "threshold",
    "rank",
    "reason",
    "signature",
)


def compare_metrics(
    con: duckdb.DuckDBPyConnection,
    a: str,
    b: str,
    measure: str,
    level: str = "text",
    corpus: str | None = None,
    split: str | None = None,
    scope: str = "ALL",
    test: str = "perm-both",
    settings: Settings | None = None,
) -> dict:
    """Is metric A better than metric B on the same texts? a, b, measure, a_value, b_value, difference (A − B),
    p_value (one-sided: A is better), test, trials, signature."""
    settings = settings or Settings()
    if level != "text":
        raise AccuracyDbError("metrics compare tests text-level measures (--level text)")
    if measure not in MEASURE_FUNCTIONS:
        raise AccuracyDbError(f"--measure {measure}: one of {', '.join(MEASURE_FUNCTIONS)}")
    if test == "williams" and measure != "pearson":
        raise AccuracyDbError("Williams' test compares Pearson correlations: give --measure pearson")
    corpus, mqm, (scope,), splits = checked_choice(con, corpus, split, [scope], settings)
    if split is None and len(splits) != 1:
        raise AccuracyDbError(f"give --split: corpus {corpus} has gold lists of {', '.join(splits)}")
    split = splits[0] if split is None else checked_split(con, corpus, split, splits)
    if mqm:
        candidates = mqm_scored(con, corpus, split, settings, [a, b])
    else:
        candidates = scored_metrics(con, corpus, split, scope, settings, [a, b])
    found = {scored.metric: scored for scored in candidates}
    for name in (a, b):
        if name not in found:
            raise AccuracyDbError(f"no metric named {name!r} scores every text of split {split} of corpus {corpus}")
    first, second = found[a], found[b]
    if test == "williams":
        r12 = mm.pearson(first.x, first.y).value
        r13 = mm.pearson(second.x, second.y).value
        r23 = mm.pearson(first.x, second.x).value
        undefined = next((r for r in (r12, r13, r23) if r is None), False) is None
        result = (
            williams(r12, r13, r23, len(first.x)) if not undefined else mm.Measure(None, "a correlation is undefined")
        )
        outcome = {
            "a_value": r12,
            "b_value": r13,
            "difference": None if undefined else r12 - r13,
            "p_value": result.value,
            "trials": None,
            "reason": result.reason,
        }
    else:
        outcome = perm_both(
            first.x, second.x, first.y, MEASURE_FUNCTIONS[measure], settings.trials, settings.resampling.seed
        )
    gold = gold_stamp(con, corpus, split)
    return {
        "a": a,
        "b": b,
        "measure": measure,
        "a_value": outcome["a_value"],
        "b_value": outcome["b_value"],
        "difference": outcome["difference"],
        "p_value": outcome["p_value"],
        "test": test,
        "trials": outcome["trials"] if test == "perm-both" else None,
        "reason": outcome.get("reason"),
        "signature": signature(gold, f"{first.stamp}+{second.stamp}", scope, level, settings, test=test),
    }
