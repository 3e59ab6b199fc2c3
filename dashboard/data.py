"""How the dashboard reads the database: through the views, on a short-lived read-only connection per batch of
queries, with the results cached by the identity of the file.

`accuracy-db build` and `refresh` publish a new database by renaming a new file over the old one while the
dashboard runs. So no connection outlives a batch: each batch opens the file read-only and closes it at once,
and the DuckDB client (which keeps one database instance per path while any connection to it is open) then
opens whatever file the path names next time. The cached results are keyed by the file's (path, inode,
modification time), so a republished file is a new key and the old results are never shown for it.
"""

from __future__ import annotations

import functools
import inspect
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TypeVar

import duckdb
import polars as pl
import streamlit as st

from accuracy_db.defaults import default_db
from accuracy_db.errors import AccuracyDbError
from accuracy_db.metric_validity import table as metric_validity
from accuracy_db.scoring import schemes
from accuracy_db.scoring.schemes import DESCRIPTION as SCHEME_DESCRIPTION  # noqa: F401  for the pages
from accuracy_db.scoring.schemes import (  # noqa: F401  for the pages
    HALF_COUNT_SCHEMES,
    MUSHROOM,
    MUSHROOM_DESCRIPTION,
    SCHEME,
    SCHEMES,
)
from accuracy_db.sqlbox.guard import QueryRefused, megabytes  # noqa: F401  for the pages
from accuracy_db.stats import (
    agreement,
    calibration,
    intervals,
    pair_evaluations,
    ranking,
    significance,
    system_ranking,
    validity,
)
from accuracy_db.stats.intervals import Resampling
from accuracy_db.stats.intervals import figures as scheme_figures  # noqa: F401  for the pages
from accuracy_db.stats.significance import DEFAULT_TRIALS
from accuracy_db.store import database, publish
from accuracy_db.store.analyses import saved_analyses, saved_analysis  # noqa: F401  for the pages

from . import links, palette
from .literal import literal
from .sql_limits import SQL_MAX_BYTES, SQL_QUERIES_AT_ONCE, SQL_ROW_LIMIT, SQL_TIMEOUT

SHARED_TASK = "shared-task"  # the built-in corpus, shown unless another is chosen
ATTEMPTS = 3  # reads tried when the file is replaced while being opened

# One read at a time in this process: while no other connection is open, connect() opens the file the path
# names now, not an instance another session keeps open on a file that has since been replaced.
_read_lock = threading.Lock()

T = TypeVar("T")


class Republished(Exception):
    """The file was replaced between looking at it and opening it."""


@dataclass(frozen=True)
class FileIdentity:
    """Which file a path names: a republished database is another inode (and modification time)."""

    path: str
    inode: int
    mtime_ns: int


def db_path() -> Path:
    """The database the dashboard shows: $ACCURACY_DB_PATH, else ./accuracy.duckdb."""
    return default_db().resolve()


def identity(path: Path) -> FileIdentity:
    return FileIdentity(str(path), *publish.publication(path))


def _named(sql: str, params: dict) -> dict:
    """The parameters a query names ($name): a page can hand the same parameters to each query of a batch."""
    return {name: value for name, value in params.items() if name in set(re.findall(r"\$(\w+)", sql))}


def _on_file(file: FileIdentity, work: Callable[[duckdb.DuckDBPyConnection], T]) -> T:
    """work(connection) on a read-only connection to the file, if the path still names that file."""
    with _read_lock:
        con = database.open_existing(file.path)
        try:
            if identity(Path(file.path)) != file:
                raise Republished
            return work(con)
        finally:
            con.close()


def _current(compute: Callable[..., T], *args) -> T:
    """compute(file, *args) on the file the path names now (again if it was replaced meanwhile). Stops the page
    with a message when there is no database to read."""
    path = db_path()
    problem = "it was replaced while being opened, again and again"
    for _ in range(ATTEMPTS):
        try:
            return compute(identity(path), *args)
        except Republished:
            continue
        except FileNotFoundError:
            problem = "no such file (build one with `accuracy-db build`, or give `accuracy-db dashboard --db`)"
        except AccuracyDbError as error:
            problem = literal(error)
        break
    message = f"Cannot read the database {literal(path)}: {problem}."
    st.error(message)
    st.stop()
    raise AccuracyDbError(message)  # outside a page's run (first_views), where st.stop() does not stop


def cached_read(max_entries: int = 64) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """A read of the database written once, as work(con, *args): called as work(*args), it runs on the file the
    path names now (_current), its result cached by the file's identity and the arguments (with their defaults, so
    that a call that leaves one out and a call that gives it share a result). The cache keeps work's name
    (Streamlit's metrics name it so) and its source (a changed read is computed anew)."""

    def decorate(work: Callable[..., T]) -> Callable[..., T]:
        signature = inspect.signature(work)

        @st.cache_data(show_spinner=False, max_entries=max_entries)
        @functools.wraps(work)
        def on_file(file: FileIdentity, *args) -> T:
            return _on_file(file, lambda con: work(con, *args))

        @functools.wraps(work)
        def current(*args, **kwargs) -> T:
            called = signature.bind(None, *args, **kwargs)
            called.apply_defaults()
            return _current(on_file, *called.args[1:])

        return current

    return decorate


@cached_read(max_entries=512)
def _batch(con: duckdb.DuckDBPyConnection, queries: dict[str, tuple[str, dict]]) -> dict[str, pl.DataFrame]:
    return {
        name: pl.from_arrow(con.sql(sql, params=_named(sql, params)).to_arrow_table())
        for name, (sql, params) in queries.items()
    }


def read(**queries: str | tuple[str, dict]) -> dict[str, pl.DataFrame]:
    """Run a batch of named queries (SQL, or SQL with its parameters) on one connection; the frames by name.
    Stops the page with a message when there is no database to read."""
    return _batch({name: (q, {}) if isinstance(q, str) else q for name, q in queries.items()})


# The statistics as the command line computes them (accuracy_db.stats.ranking, accuracy_db.stats.significance), with its
# default settings: the same intervals, clusters and p-values as `accuracy-db leaderboard --ci` and `compare`.
RESAMPLING = Resampling()
TRIALS = DEFAULT_TRIALS["permutation"]


@cached_read()
def ranked_with_intervals(
    con, split: str, scope: str, corpus: str = SHARED_TASK, scheme: str = schemes.SCHEME
) -> list[dict]:
    """ranking.leaderboard of a corpus's split in a scope under a scheme with intervals (<figure>_ci) and clusters,
    as `accuracy-db leaderboard --ci` prints it."""
    return ranking.leaderboard(con, split, scope, RESAMPLING, TRIALS, corpus, scheme)


@cached_read()
def ranked_under_scheme(con, split: str, scope: str, scheme: str, corpus: str = SHARED_TASK) -> list[dict]:
    """ranking.leaderboard: a corpus's split ranked under a match scheme in a scope, as `accuracy-db leaderboard
    --scheme` prints it."""
    return ranking.leaderboard(con, split, scope, None, TRIALS, corpus, scheme)


@cached_read()
def scoring_schemes(con, corpus: str) -> list[str]:
    """schemes.scoring_schemes: the schemes that rank some list of a corpus, the one its pages open on first (as
    `accuracy-db leaderboard` ranks it by default): the mushroom scheme where its gold list is read with character
    labels, then the match schemes where they score a list of it."""
    return schemes.scoring_schemes(con, corpus)


@cached_read()
def not_scored(con, corpus: str, split: str | None = None, scheme: str = schemes.SCHEME) -> str:
    """schemes.not_scored: why no submission of a corpus (of a split) is ranked under a scheme, in one line, as
    `accuracy-db leaderboard` says it."""
    return schemes.not_scored(con, corpus, split, scheme)


@cached_read()
def pairwise(
    con,
    names: list[str],
    scope: str,
    figure: str,
    split: str,
    corpus: str = SHARED_TASK,
    scheme: str = schemes.SCHEME,
) -> list[dict]:
    """significance.pairwise: the paired permutation test of every ordered pair of these submissions (of a corpus's
    split) under a match scheme, and the bootstrap interval of each difference, as `accuracy-db compare --scheme`
    tests one pair."""
    return significance.pairwise(
        con, list(names), scope, figure, TRIALS, RESAMPLING, split, corpus, scheme, interval=True
    )


@cached_read()
def against_best(con, names: list[str], scope: str, figure: str, split: str, corpus: str = SHARED_TASK) -> list[dict]:
    """significance.against_best: each of these submissions (of a corpus's split, the best first) against the
    best, its difference with its bootstrap interval and p, as `accuracy-db compare OTHER BEST` gives them."""
    return significance.against_best(con, list(names), scope, figure, TRIALS, RESAMPLING, split, corpus)


@cached_read()
def category_intervals(con, submission_ids: list[int], scopes: list[str]) -> pl.DataFrame:
    """intervals.bootstrap_intervals of these submissions (of one split) in these scopes: a row per (submission_id,
    scope, figure) with its low and high, the same as `accuracy-db leaderboard --ci --scope SCOPE` gives (the same
    resamples of the split's texts)."""
    rows = intervals.bootstrap_intervals(con, list(submission_ids), list(scopes), RESAMPLING).values()
    return pl.DataFrame(
        [{key: row[key] for key in ("submission_id", "scope", "figure", "low", "high")} for row in rows],
        schema={"submission_id": pl.Int64, "scope": pl.String, "figure": pl.String, "low": pl.Float64}
        | {"high": pl.Float64},
    )


@cached_read()
def correlations(con, submission: str, split: str, scope: str, corpus: str = SHARED_TASK) -> list[dict]:
    """validity.validity at the text level: Pearson, Spearman and Kendall of the mistakes per text (of a corpus's
    submission), as `accuracy-db validity` prints them."""
    return validity.validity(con, submission, [scope], ["text"], split, RESAMPLING, corpus)


@cached_read()
def soft_label_quality(con, corpus: str) -> list[dict]:
    """calibration.soft_label_quality: the average precision and expected calibration error of each list with
    probabilities, split by split, as `accuracy-db calibration` prints them."""
    return calibration.soft_label_quality(con, corpus)


@cached_read()
def corpora_with_probabilities(con) -> list[str]:
    """calibration.corpora_with_probabilities: the corpora whose lists the Calibration page can weigh."""
    return calibration.corpora_with_probabilities(con)


@cached_read()
def curve_and_diagram(con, submission: str, corpus: str, split: str) -> tuple[list[dict], list[dict]]:
    """calibration.curve_or_diagram, both: a list's precision-recall curve (from the highest threshold down) and
    its reliability diagram, as `accuracy-db calibration --submission NAME [--curve]` prints them."""
    return tuple(calibration.curve_or_diagram(con, submission, corpus, split, curve) for curve in (True, False))


# The metrics' validity as `accuracy-db metrics` measures it by default: the same resampling and permutation trials.
METRIC_SETTINGS = metric_validity.Settings(resampling=RESAMPLING)


@cached_read()
def metric_table(con, split: str, scope: str, corpus: str = SHARED_TASK) -> list[dict]:
    """metric_validity.table.metric_table of one split and scope, both levels, with METRIC_SETTINGS: every metric's
    measures against the gold list with intervals and clusters, as `accuracy-db metrics` prints them."""
    return metric_validity.metric_table(con, corpus, split, [scope], None, METRIC_SETTINGS)


@cached_read()
def measured_against_mqm(con, corpus: str) -> bool:
    """metric_validity.is_mqm: whether a corpus's metrics are measured against its MQM scores."""
    return metric_validity.is_mqm(con, corpus)


def metric_scopes(corpus: str) -> list[str]:
    """The scopes the metrics of a corpus are measured in: ALL alone for a corpus measured against its MQM scores
    (metric_validity.is_mqm), else every scope."""
    return ["ALL"] if measured_against_mqm(corpus) else scopes(corpus)


@cached_read()
def ranked_systems(con, corpus: str, split: str, weights: str = "google") -> list[dict]:
    """system_ranking.ranked_systems of a corpus's split with intervals and clusters: the generating systems by their
    mean errors per text, as `accuracy-db systems --ci` prints them (its default settings)."""
    return system_ranking.ranked_systems(con, corpus, split, weights, RESAMPLING, TRIALS)


def system_splits(corpus: str) -> list[str]:
    """The splits of a corpus with texts whose generating system is known, test first."""
    frame = read_one(
        "SELECT DISTINCT split FROM text_generators WHERE corpus = $corpus ORDER BY split <> 'test', split",
        {"corpus": corpus},
    )
    return frame["split"].to_list()


def systems_of(corpus: str, split: str) -> list[str]:
    """The generating systems of a corpus's split (text_generators), by name."""
    frame = read_one(
        "SELECT DISTINCT system FROM text_generators WHERE corpus = $corpus AND split = $split ORDER BY system",
        {"corpus": corpus, "split": split},
    )
    return frame["system"].to_list()


SEVERITY_ORDER = ["Critical", "Major", "Minor", "Neutral"]  # an MQM file's, the gravest first
SEVERITIES = """
SELECT DISTINCT mistakes.severity
FROM mistakes
JOIN annotation_sets USING (set_id)
WHERE annotation_sets.corpus = $corpus AND annotation_sets.split = $split AND mistakes.severity IS NOT NULL
"""


def severities(corpus: str, split: str) -> list[str]:
    """The severities the lists of a corpus's split give their mistakes (none for a corpus without them), the
    gravest first."""
    found = read_one(SEVERITIES, {"corpus": corpus, "split": split})["severity"].to_list()
    return sorted(found, key=lambda name: (SEVERITY_ORDER.index(name) if name in SEVERITY_ORDER else 99, name))


def read_one(sql: str, params: dict | None = None) -> pl.DataFrame:
    return read(result=(sql, params or {}))["result"]


def splits_with_submissions(corpus: str = SHARED_TASK, scheme: str = schemes.SCHEME) -> list[str]:
    """The splits of a corpus that have submissions scored under a scheme (the match schemes score those of
    evaluations, the mushroom scheme those of mushroom_leaderboard), test first (the split of the shared task's
    results)."""
    scored = "mushroom_leaderboard" if scheme == MUSHROOM else "evaluations"
    frame = read_one(
        f"SELECT DISTINCT split FROM {scored} WHERE corpus = $corpus ORDER BY split <> 'test', split",
        {"corpus": corpus},
    )
    return frame["split"].to_list()


# The best-ranked submission that is not the gold list again: a list that matches every gold mistake and lists
# nothing else shows 16 of 16 matched, nothing to read (the examples' gsml_doc_based is one).
BEST_SUBMISSION = """
SELECT submission
FROM leaderboard
WHERE corpus = $corpus AND split = $split AND scope = 'ALL'
ORDER BY matched = gold_total AND submitted_total = matched, rank, submission
LIMIT 1
"""


def best_submission(corpus: str, split: str | None) -> str | None:
    """The submission a page shows first: the best-ranked of the split that is not a copy of the gold list (or the
    best-ranked, when every one is); None when the split has none."""
    found = read_one(BEST_SUBMISSION, {"corpus": corpus, "split": split})["submission"]
    return found[0] if len(found) else None


def corpora() -> list[str]:
    """The corpora of the database, the shared task first."""
    return read_one("SELECT corpus FROM corpora ORDER BY corpus <> $shared, corpus", {"shared": SHARED_TASK})[
        "corpus"
    ].to_list()


def choose_corpus(where=None) -> str:
    """The corpus a page shows: a selector (in where, a column, else the page) when the database has more than
    one. It is a shared choice (links.shared): the address's corpus (?corpus=NAME), else the one kept from page to
    page, else the shared task."""
    names = corpora()
    if len(names) > 1:
        return links.select(
            where,
            "Corpus",
            "corpus",
            names,
            SHARED_TASK,
            help="The texts, categories and lists of one corpus (`corpora`).",
        )
    return links.shared("corpus", names, SHARED_TASK)


def corpus_and_columns(widths: list[float], corpus_width: float = 1) -> tuple[str, list]:
    """A page's top row: columns of these widths, and first, when the database has several corpora, the corpus
    selector in a column of its own. The chosen corpus, and the other columns."""
    several = len(corpora()) > 1
    columns = st.columns(([corpus_width] if several else []) + widths, vertical_alignment="bottom")
    corpus = choose_corpus(columns[0] if several else None)
    return corpus, columns[1:] if several else columns


CATEGORIES = "SELECT category, colour FROM categories WHERE corpus = $corpus ORDER BY position"


@cached_read()
def _categories(con, corpus: str) -> palette.Categories:
    return palette.Categories.of(con.sql(CATEGORIES, params={"corpus": corpus}).fetchall())


def categories(corpus: str) -> palette.Categories:
    """A corpus's categories with their colours and initials (the shared task's: the dashboard's own palette),
    worked out once per corpus of the file, not on every run of a page."""
    if corpus == SHARED_TASK:
        return palette.SHARED_TASK
    return _categories(corpus)


def scopes(corpus: str) -> list[str]:
    """The scopes a corpus is scored in: ALL, then each of its categories."""
    return ["ALL", *categories(corpus).names]


# Agreement (accuracy_db.stats.agreement), as `accuracy-db agreement` computes it, of lists given by their ids.
@cached_read(max_entries=32)
def agreement_of(con, set_ids: list[int], scopes: list[str], scheme: str = schemes.SCHEME) -> dict:
    """agreement.agreement_of these lists (annotation_sets.set_id) in these scopes, the pairs' figures under a match
    scheme: pairs, correlations and, for three lists or more, categories."""
    return agreement.agreement_of(con, pair_evaluations.sets_by_id(con, list(set_ids)), list(scopes), scheme)


PAIR_SPANS = """
SELECT set_id, text_id, doc_token_start, tokens, correction, comment
FROM mistakes
WHERE list_contains($set_ids, set_id) AND text_id = $text
"""


@cached_read(max_entries=128)
def pair_outcomes(con, reference_id: int, compared_id: int, text_id: str) -> list[dict]:
    """What became of each span of two lists in one text when the second is scored against the first as if it
    were the gold list (pair_evaluations.outcomes, the ALL scope): side gold is the first list's, submitted the
    second's; matched, missed (only the first marks it) or false_alarm (only the second)."""
    reference, compared = pair_evaluations.sets_by_id(con, [reference_id, compared_id])
    scoring = pair_evaluations.score_pairs(con, [(reference, compared)], [text_id])
    try:
        found = pair_evaluations.outcomes(scoring, 0, text_id)
    finally:
        scoring.con.close()
    # A list's spans never overlap in a scored list: the first token names a span of the list in the text.
    listed = {
        (row["set_id"], row["doc_token_start"]): row
        for row in pl.from_arrow(
            con.sql(PAIR_SPANS, params={"set_ids": [reference_id, compared_id], "text": text_id}).to_arrow_table()
        ).iter_rows(named=True)
    }
    for row in found:
        own = listed[(reference_id if row["side"] == "gold" else compared_id, row["doc_token_start"])]
        row |= {key: own[key] for key in ("tokens", "correction", "comment")}
    return found


_sql_slots = threading.BoundedSemaphore(SQL_QUERIES_AT_ONCE)


def guarded_query(sql: str, params: dict, dialect: str | None, tick=None):
    """Someone's own query, through the guard of accuracy_db.sqlbox.guard, in a process of its own: a QueryResult, or
    QueryRefused / QueryStopped / QueryFailed saying why not. tick(seconds) is called while it runs; an exception
    it raises (Streamlit's, when the visitor cancels or leaves) stops the query. A session runs one script, so
    one query, at a time; the server runs at most SQL_QUERIES_AT_ONCE."""
    from accuracy_db.sqlbox.sandbox import run_query

    path = db_path()
    if not path.is_file():
        st.error(f"Cannot read the database {literal(path)}: there is no such file.")
        st.stop()
    if not _sql_slots.acquire(blocking=False):
        raise QueryRefused(f"{SQL_QUERIES_AT_ONCE} queries are running on this dashboard already: run it again soon")
    try:
        return run_query(
            path, sql, params or None, dialect, SQL_ROW_LIMIT, SQL_TIMEOUT, SQL_MAX_BYTES, tick, keep_spare=True
        )
    finally:
        _sql_slots.release()


def bounded_csv(frame: pl.DataFrame, max_bytes: int = SQL_MAX_BYTES) -> tuple[str, int]:
    """The frame as CSV of at most max_bytes, cut after the last whole row that fits; the CSV and its rows."""
    # A row's CSV takes at least its values' bytes and a separator each (quoting only adds), so the rows whose
    # values fit bound the answer from above; the most rows whose CSV fits is then searched for below it.
    sizes = pl.sum_horizontal(pl.col(c).cast(pl.String).str.len_bytes().fill_null(0) + 1 for c in frame.columns)
    low, high = 0, frame.select((sizes.cum_sum() <= max_bytes).sum()).item() if frame.columns else 0
    while low < high:
        middle = (low + high + 1) // 2
        if len(frame.head(middle).write_csv().encode()) <= max_bytes:
            low = middle
        else:
            high = middle - 1
    return frame.head(low).write_csv(), low


# The tokens around mistakes, by their ids: list_contains hands the ids down to the scans of mistake_contexts,
# where a join would read the context of every mistake first.
CONTEXTS = """
SELECT mistake_id, context_before, marked, context_after
FROM mistake_contexts
WHERE list_contains($mistake_ids, mistake_id)
"""


def with_context(frame: pl.DataFrame, id_column: str = "mistake_id") -> pl.DataFrame:
    """The rows of a frame with the context of the mistake each names: context_before, marked, context_after,
    and in_context (the three, the marked tokens in [brackets])."""
    contexts = read_one(CONTEXTS, {"mistake_ids": frame[id_column].to_list()}).rename({"mistake_id": id_column})
    in_context = pl.concat_str(
        pl.col("context_before"), pl.lit("[") + pl.col("marked") + pl.lit("]"), pl.col("context_after"), separator=" "
    ).str.strip_chars()
    return frame.join(contexts, on=id_column, how="left", maintain_order="left").with_columns(in_context=in_context)


# The pages' own reads: each page's SQL, named here, so that a page holds layout alone.

RANKED = """
SELECT submission
FROM leaderboard
WHERE corpus = $corpus AND split = $split AND scope = $scope
ORDER BY rank, submission
"""
# The lists the mushroom scheme scores (read with character labels), in its rank order: by iou, then cor.
MUSHROOM_RANKED = """
SELECT submission
FROM mushroom_leaderboard
WHERE corpus = $corpus AND split = $split
ORDER BY rank, submission
"""


def ranked_submissions(corpus: str, split: str, scope: str, scheme: str) -> list[str]:
    """The submissions of a corpus's split scored under a scheme, in rank order (the mushroom scheme's one scope
    is ALL: scope is not read for it)."""
    if scheme == MUSHROOM:
        return read_one(MUSHROOM_RANKED, {"corpus": corpus, "split": split})["submission"].to_list()
    return read_one(RANKED, {"corpus": corpus, "split": split, "scope": scope})["submission"].to_list()


EVALUATED = """
SELECT submission_id, submission, split
FROM evaluations
WHERE corpus = $corpus
ORDER BY split <> 'test', split, submission
"""


def evaluated_submissions(corpus: str) -> pl.DataFrame:
    """The scored submissions of a corpus (submission_id, submission, split), the test split first."""
    return read_one(EVALUATED, {"corpus": corpus})


PER_TEXT = """
SELECT submission, scope, text_id, gold, submitted, matched
FROM text_statistics
WHERE list_contains($submission_ids, submission_id)
ORDER BY position, submission, text_id
"""


def counts_per_text(submission_ids: list[int]) -> pl.DataFrame:
    """text_statistics of these submissions: the gold, submitted and matched mistakes of each text and scope."""
    return read_one(PER_TEXT, {"submission_ids": submission_ids})


NOT_CURATED = "not curated"  # the gold mistakes that no mistake of the curation exports covers


def _recall_at_levels(analysis: str, level: str) -> str:
    """A saved analysis, only the rows of the submissions of the corpus $corpus and split $split, its level as a
    label."""
    label = f"coalesce({level}::VARCHAR, '{NOT_CURATED}')"
    return (
        f"SELECT submission, {label} AS level, gold, matched, recall FROM ({saved_analysis(analysis).sql}) "
        "WHERE corpus = $corpus AND split = $split"
    )


def recall_by_difficulty(corpus: str, split: str) -> dict[str, pl.DataFrame]:
    """The saved analyses recall_by_found_by and recall_by_annotators of a corpus's split, as found_by and
    annotators: each submission's recall at each level, the level as a label."""
    params = {"corpus": corpus, "split": split}
    return read(
        found_by=(_recall_at_levels("recall_by_found_by", "found_by"), params),
        annotators=(_recall_at_levels("recall_by_annotators", "annotators"), params),
    )


# The gold mistakes at a level of a measure, and whether a submission found them (in the ALL scope).
AT_LEVEL = f"""
SELECT difficulty.text_id, difficulty.category, difficulty.tokens, difficulty.correction,
    scored.counterpart_id IS NOT NULL AS found
FROM gold_mistake_difficulty AS difficulty
JOIN scored_mistakes AS scored
    ON scored.mistake_id = difficulty.gold_mistake_id AND scored.side = 'gold'
JOIN evaluations USING (submission_id)
WHERE evaluations.corpus = $corpus AND evaluations.split = $split AND evaluations.submission = $submission
    AND CASE WHEN $measure = 'found_by' THEN difficulty.found_by::VARCHAR
        ELSE coalesce(difficulty.annotators::VARCHAR, '{NOT_CURATED}') END = $level
ORDER BY difficulty.text_id, difficulty.doc_token_start
"""


def gold_mistakes_at_level(corpus: str, split: str, submission: str, measure: str, level: str) -> pl.DataFrame:
    """The gold mistakes of a corpus's split at a level of a measure (found_by or annotators), and whether the
    submission found each (in the ALL scope)."""
    params = {"corpus": corpus, "split": split, "submission": submission, "measure": measure, "level": level}
    return read_one(AT_LEVEL, params)


CATEGORY_SCORES = """
SELECT submission_id, submission, scope, position, recall, precision, f1, token_recall, token_precision, token_f1,
    matched, gold_total, submitted_total
FROM scores
WHERE corpus = $corpus AND split = $split
ORDER BY submission, position
"""

# A submitter's url is a link only when it is a web address (never javascript: or data:).
METADATA = """
SELECT meta.submission, meta.team, meta.system, meta.approach, meta.description,
    CASE WHEN regexp_matches(meta.url, '^https?://[^\\s]+$') THEN meta.url END AS url
FROM submission_metadata AS meta
WHERE meta.corpus = $corpus
    AND meta.submission IN (SELECT submission FROM evaluations WHERE corpus = $corpus AND split = $split)
ORDER BY meta.submission
"""


def scores_and_metadata(corpus: str, split: str) -> dict[str, pl.DataFrame]:
    """A corpus's split, read at once: categories, the scores view's figures of each submission in each scope
    (by submission, then scope), and metadata, who submitted each scored submission (its url a link only when a
    web address)."""
    params = {"corpus": corpus, "split": split}
    return read(categories=(CATEGORY_SCORES, params), metadata=(METADATA, params))


LATEST_PUBLICATION = "SELECT max(published_at) AS published_at FROM publications"


def latest_publication() -> datetime | None:
    """When the database was last published (the sidebar says it), None when it has no record of it."""
    return read_one(LATEST_PUBLICATION)["published_at"][0]


# The Refresh status page's reads: the publications (latest first), the lists with their hashes, the rejections
# and the input files.
REFRESH_STATUS = {
    "publications": "SELECT * FROM publications ORDER BY published_at DESC",
    "lists": """
        SELECT kind, name, split, row_count AS mistakes, sha256, loaded_at, source_file
        FROM annotation_sets
        ORDER BY kind, split DESC, name
    """,
    # A problem of a file that is not the CSV is one of the metadata sidecar (inbox.load_sidecar).
    # The same message on many lines is one row (a blank column refuses every one of 571 lines): its lines as
    # runs (2–572), each run the lines whose number less their rank in the group is the same.
    "rejections": """
        WITH ranked AS (
            SELECT submission, file, message, line,
                line - row_number() OVER (PARTITION BY submission, file, message ORDER BY line) AS run
            FROM rejections
        ),

        runs AS (
            SELECT submission, file, message, min(line) AS first_line, max(line) AS last_line, count(*) AS times
            FROM ranked
            GROUP BY submission, file, message, run
        )

        SELECT
            submission,
            string_agg(
                CASE WHEN first_line = last_line THEN first_line::VARCHAR ELSE first_line || '–' || last_line END,
                ', ' ORDER BY first_line
            ) AS lines,
            sum(times)::BIGINT AS times,
            message,
            file,
            suffix(file, '.csv') AS of_csv
        FROM runs
        GROUP BY submission, file, message
        ORDER BY submission, file, min(first_line) NULLS FIRST
    """,
    "sources": "SELECT role, corpus, name, sha256, size, path FROM source_files ORDER BY role, corpus, name",
}


def refresh_status() -> dict[str, pl.DataFrame]:
    """The publications (latest first), the lists with their hashes, the rejections (a message's lines as runs,
    of_csv: a problem of the CSV, else of the metadata sidecar) and the input files with theirs."""
    return read(**REFRESH_STATUS)


# The lists that can be compared: those the shared-task scheme scores (scheme_refusals names those it refuses).
COMPARABLE_LISTS = """
SELECT set_id, CASE kind WHEN 'gold' THEN 'gold list' ELSE name END AS list, split, kind = 'submission' AS scored
FROM annotation_sets
WHERE corpus = $corpus AND set_id NOT IN (SELECT set_id FROM scheme_refusals)
ORDER BY split <> 'test', split, kind <> 'gold', name
"""


def comparable_lists(corpus: str) -> pl.DataFrame:
    """The lists of a corpus the shared-task scheme scores (set_id, list: its name or 'gold list', split, scored:
    a submission), by split (test first), the gold list first, then by name."""
    return read_one(COMPARABLE_LISTS, {"corpus": corpus})


REFUSED_LISTS = """
SELECT count(*) AS refused
FROM scheme_refusals
JOIN annotation_sets USING (set_id)
WHERE corpus = $corpus AND split = $split
"""


def refused_lists(corpus: str, split: str) -> int:
    """How many lists of a corpus's split the shared-task scheme refuses (scheme_refusals)."""
    return read_one(REFUSED_LISTS, {"corpus": corpus, "split": split})["refused"][0]


TEXTS_OF_SPLIT = "SELECT text_id FROM texts WHERE corpus = $corpus AND split = $split ORDER BY text_id"


def texts_of(corpus: str, split: str) -> list[str]:
    """The texts of a corpus's split, by id."""
    return read_one(TEXTS_OF_SPLIT, {"corpus": corpus, "split": split})["text_id"].to_list()


TOKENS = "SELECT list(token ORDER BY doc_token) AS tokens FROM tokens WHERE text_id = $text"


def tokens_of(text_id: str) -> list[str]:
    """A text's tokens, in order."""
    return read_one(TOKENS, {"text": text_id})["tokens"][0].to_list()


METRIC_SPLITS = """
SELECT DISTINCT split
FROM metric_targets
WHERE corpus = $corpus
ORDER BY split <> 'test', split
"""

# One point a text the metric scores: its score as given, the gold list's mistakes of the scope in it, its system.
METRIC_POINTS = """
SELECT
    scores.text_id,
    scores.score,
    targets.gold_count AS gold,
    coalesce(targets.system, 'not known') AS system,
    scores.higher_is_better
FROM scoped_metric_scores AS scores
JOIN metric_targets AS targets USING (corpus, split, scope, text_id)
WHERE scores.corpus = $corpus AND scores.split = $split AND scores.scope = $scope AND scores.metric = $metric
ORDER BY scores.text_id
"""

# The ROC curve of flagging a text as having a gold mistake when its score is at least the threshold (at most, for
# a metric whose higher scores are better): a point a distinct score, highest error-likeness first, and (0, 0).
METRIC_ROC = f"""
WITH points AS ({METRIC_POINTS}),
at_score AS (
    SELECT
        score AS threshold,
        any_value(higher_is_better) AS higher_is_better,
        count(*) FILTER (WHERE gold > 0) AS positives,
        count(*) FILTER (WHERE gold = 0) AS negatives
    FROM points
    GROUP BY score
),
curve AS (
    SELECT
        row_number() OVER flagged AS position,
        threshold,
        sum(positives) OVER flagged / sum(positives) OVER () AS true_positive_rate,
        sum(negatives) OVER flagged / sum(negatives) OVER () AS false_positive_rate
    FROM at_score
    WINDOW flagged AS (
        ORDER BY CASE WHEN higher_is_better THEN -threshold ELSE threshold END DESC ROWS UNBOUNDED PRECEDING
    )
)
SELECT position, threshold, true_positive_rate, false_positive_rate FROM curve
UNION ALL
SELECT 0, NULL, 0.0, 0.0
ORDER BY position
"""


def metric_splits(corpus: str) -> list[str]:
    """The splits of a corpus whose metrics are measured (metric_targets), test first."""
    return read_one(METRIC_SPLITS, {"corpus": corpus})["split"].to_list()


def metric_points_and_roc(corpus: str, split: str, scope: str, metric: str) -> dict[str, pl.DataFrame]:
    """One metric of a corpus's split in a scope, read at once: points, a row a text it scores (METRIC_POINTS),
    and curve, its ROC curve (METRIC_ROC)."""
    of_metric = {"corpus": corpus, "split": split, "scope": scope, "metric": metric}
    return read(points=(METRIC_POINTS, of_metric), curve=(METRIC_ROC, of_metric))


# The Gold explorer's reads.
BY_CATEGORY = """
SELECT categories.category, count(gold.mistake_id) AS mistakes, categories.description
FROM categories
LEFT JOIN (
    SELECT gold.* FROM gold_mistakes AS gold JOIN annotation_sets AS lists ON lists.set_id = gold.gold_id
    WHERE lists.corpus = $corpus
) AS gold ON gold.category = categories.category AND gold.split = $split
WHERE categories.corpus = $corpus
GROUP BY ALL
ORDER BY any_value(categories.position)
"""


def _of_split_texts(analysis: str) -> str:
    """A saved analysis, only the rows of the texts of the corpus $corpus and split $split, in the analysis's own
    order. The texts are a list the rows are checked against, not a join: DuckDB keeps the order of the rows
    through a filter, and a join (IN a subquery is one) hashes them out of it (the By text table went T005,
    T010, T016, …)."""
    return (
        f"SELECT * FROM ({saved_analysis(analysis).sql}) WHERE split = $split"
        " AND list_contains((SELECT list(text_id) FROM texts WHERE corpus = $corpus AND split = $split), text_id)"
    )


# Another corpus's gold mistakes per text and category (mistakes_per_text has the shared task's categories as
# its columns): one row per text and category, pivoted below.
PER_TEXT_AND_CATEGORY = """
SELECT texts.text_id, categories.category, count(gold.mistake_id) AS mistakes
FROM texts
JOIN categories ON categories.corpus = texts.corpus
LEFT JOIN gold_mistakes AS gold ON gold.text_id = texts.text_id AND gold.category = categories.category
WHERE texts.corpus = $corpus AND texts.split = $split
GROUP BY ALL
ORDER BY texts.text_id, any_value(categories.position)
"""


MISSED_BY_ALL = f"""
SELECT text_id, category, correction, gold_mistake_id
FROM ({_of_split_texts("missed_by_every_submission")})
ORDER BY text_id, doc_token_start
"""


GOLD_SPLITS = """
SELECT split
FROM annotation_sets
WHERE kind = 'gold' AND corpus = $corpus
ORDER BY split <> 'test', split
"""


def gold_splits(corpus: str) -> list[str]:
    """The splits of a corpus with a gold list, test first."""
    return read_one(GOLD_SPLITS, {"corpus": corpus})["split"].to_list()


def gold_explorer(corpus: str, split: str) -> dict[str, pl.DataFrame]:
    """The gold list of a corpus's split, read at once: by_category (its mistakes per category), per_text (the
    saved analysis mistakes_per_text for the shared task; another corpus's, whose categories are not its columns,
    a row per text and category), per_system (mistakes_per_text_by_system), missed (missed_by_every_submission)
    and submissions (how many the split has)."""
    params = {"corpus": corpus, "split": split}
    shared_task = corpus == SHARED_TASK
    return read(
        by_category=(BY_CATEGORY, params),
        per_text=(_of_split_texts("mistakes_per_text"), params) if shared_task else (PER_TEXT_AND_CATEGORY, params),
        per_system=(
            f"SELECT * FROM ({saved_analysis('mistakes_per_text_by_system').sql}) WHERE split = $split",
            params,
        ),
        missed=(MISSED_BY_ALL, params),
        submissions=(
            "SELECT count(*) AS submissions FROM evaluations WHERE corpus = $corpus AND split = $split",
            params,
        ),
    )


# The Errors browser's reads: every query takes the page's filters ($split, $within_category, $submission_ids,
# $categories, $outcomes, $texts, $search, $systems, $severities).
# Matched gold mistakes stand for their matched pair (the submitted side is in the "matched with" columns);
# so every row is a matched gold mistake, a missed one, or a false alarm. The rows come from scored_mistakes (the
# table behind mistake_outcomes, a row per mistake with its outcome in both scopes), and the mistakes' own columns
# are joined to the page alone: at scale 1000 the filters leave 17 million rows to count and sort.
SEARCHED = """
SELECT mistake_id
FROM mistakes
WHERE $search <> '' AND contains(lower(concat_ws(' ', tokens, correction, comment)), lower($search))
"""
ERROR_ROWS = """
SELECT
    submission_id, submission, split, side, category, outcome, category_outcome, counterpart_id,
    category_counterpart_id, text_id, doc_token_start, mistake_id, 1 AS mistakes
FROM scored_mistakes
"""
# The counts need the rows only when a text is chosen or something searched; otherwise they add up the counts kept
# per submission (scored_mistake_counts: some hundred rows, where the rows are 24 million at scale 1000). The
# parameters are constants to DuckDB, so the branch they rule out is dropped from the plan.
COUNTED = f"""
{ERROR_ROWS}
WHERE $search <> '' OR len($texts) > 0 OR len($systems) > 0 OR len($severities) > 0
UNION ALL
SELECT
    submission_id, submission, split, side, category, outcome, category_outcome, NULL,
    NULL, NULL, NULL, NULL, mistakes
FROM scored_mistake_counts
WHERE $search = '' AND len($texts) = 0 AND len($systems) = 0 AND len($severities) = 0
"""


# The rows (or counts) the filters leave, of a relation with the columns of ERROR_ROWS.
CHOSEN_COLUMNS = """
SELECT
    outcome.submission,
    outcome.text_id,
    CASE WHEN $within_category THEN outcome.category_outcome ELSE outcome.outcome END AS outcome,
    outcome.category,
    outcome.side,
    outcome.doc_token_start,
    outcome.mistake_id,
    CASE WHEN $within_category THEN outcome.category_counterpart_id ELSE outcome.counterpart_id END AS counterpart_id,
    outcome.mistakes
"""
CHOSEN = f"""
WHERE outcome.split = $split
    AND NOT (outcome.side = 'submitted'
        AND CASE WHEN $within_category THEN outcome.category_outcome ELSE outcome.outcome END = 'matched')
    AND list_contains($submission_ids, outcome.submission_id)
    AND list_contains($categories, outcome.category)
    AND list_contains($outcomes, CASE WHEN $within_category THEN outcome.category_outcome ELSE outcome.outcome END)
    AND (len($texts) = 0 OR list_contains($texts, outcome.text_id))
    -- the texts of the generating systems chosen (none chosen: every text), and the mistakes of the severities
    AND (len($systems) = 0
        OR outcome.text_id IN (SELECT text_id FROM text_generators WHERE list_contains($systems, system)))
    AND (len($severities) = 0
        OR outcome.mistake_id IN (SELECT mistake_id FROM mistakes WHERE list_contains($severities, severity)))
    -- the search: a literal piece of text (no pattern), in any case, in the tokens, the correction or the comment
    -- (without one, SEARCHED is empty and DuckDB drops it from the plan: the parameters are constants to it)
    AND ($search = '' OR outcome.mistake_id IN ({SEARCHED}))
"""
FILTERED = f"{CHOSEN_COLUMNS} FROM ({ERROR_ROWS}) AS outcome {CHOSEN}"
FILTERED_COUNTS = f"{CHOSEN_COLUMNS} FROM ({COUNTED}) AS outcome {CHOSEN}"

ERRORS_ORDER = "ORDER BY submission, text_id, doc_token_start, side"

ERROR_COUNTS = f"""
SELECT submission, category, side, outcome, sum(mistakes)::BIGINT AS mistakes
FROM ({FILTERED_COUNTS})
GROUP BY ALL
ORDER BY ALL
"""

ERROR_PAGE = f"""
SELECT
    page.submission,
    page.text_id,
    page.outcome,
    page.category,
    mistakes.severity,
    generators.system,
    mistakes.correction,
    mistakes.comment,
    page.side,
    page.doc_token_start,
    mistakes.doc_token_end,
    page.mistake_id,
    page.counterpart_id
FROM ({FILTERED} {ERRORS_ORDER} LIMIT $page_size OFFSET $offset) AS page
JOIN mistakes ON mistakes.mistake_id = page.mistake_id
LEFT JOIN text_generators AS generators ON generators.text_id = page.text_id
ORDER BY page.submission, page.text_id, page.doc_token_start, page.side
"""

# What the mistakes of a page were matched with, by their ids (see data.with_context).
COUNTERPARTS = """
SELECT mistake_id AS counterpart_id, category AS matched_category, tokens AS matched_tokens
FROM mistakes
WHERE list_contains($counterpart_ids, mistake_id)
"""

# What the box score says about the mistakes of a page (queries/marts/mistake_box_evidence.sql), by their ids.
EVIDENCE = """
SELECT mistake_id, evidence, entity, stat, claimed, actual, rule
FROM mistake_box_evidence
WHERE list_contains($mistake_ids, mistake_id)
"""


def error_choices(corpus: str, split: str) -> dict[str, pl.DataFrame]:
    """What the Errors browser offers for a corpus's split: submissions (submission, submission_id, by name) and
    texts (by id)."""
    params = {"corpus": corpus, "split": split}
    return read(
        submissions=(
            "SELECT submission, submission_id FROM evaluations WHERE corpus = $corpus AND split = $split"
            " ORDER BY submission",
            params,
        ),
        texts=(TEXTS_OF_SPLIT, params),
    )


def error_counts(filters: dict) -> pl.DataFrame:
    """The mistakes the filters leave, counted by submission, category, side and outcome."""
    return read_one(ERROR_COUNTS, filters)


def error_page(filters: dict, page_size: int, offset: int) -> pl.DataFrame:
    """A page of the mistakes the filters leave (page_size rows from offset), with their own columns."""
    return read_one(ERROR_PAGE, filters | {"page_size": page_size, "offset": offset})


def counterparts(counterpart_ids: list[int]) -> pl.DataFrame:
    """What mistakes were matched with, by the ids of their counterparts: counterpart_id, matched_category,
    matched_tokens."""
    return read_one(COUNTERPARTS, {"counterpart_ids": counterpart_ids})


def box_evidence(mistake_ids: list[int]) -> pl.DataFrame:
    """What the box score says about these mistakes (mistake_box_evidence)."""
    return read_one(EVIDENCE, {"mistake_ids": mistake_ids})


# The Document view's reads.
DOCUMENT_TEXT = """
SELECT texts.text_id, texts.split, texts.source_data, texts.generated_text,
    json_extract_string(texts.source_data, '$.source') AS source,
    list(tokens.token ORDER BY tokens.doc_token) AS tokens
FROM texts
JOIN tokens USING (text_id)
WHERE texts.text_id = $text
GROUP BY ALL
"""

# Numbered in reading order, G for gold and S for submitted: the labels on the text and in the side list.
DOCUMENT_MISTAKES = """
WITH listed AS (
    SELECT side, mistake_id, outcome, counterpart_id, doc_token_start, doc_token_end, category, tokens,
        correction, comment
    FROM mistake_outcomes
    WHERE submission = $submission AND scope = 'ALL' AND text_id = $text
    UNION ALL
    SELECT 'gold', mistake_id, NULL, NULL, doc_token_start, doc_token_end, category, tokens, correction, comment
    FROM gold_mistakes
    WHERE $submission IS NULL AND text_id = $text
),

labelled AS (
    SELECT
        CASE side WHEN 'gold' THEN 'G' ELSE 'S' END
            || row_number() OVER (PARTITION BY side ORDER BY doc_token_start) AS label,
        *
    FROM listed
)
SELECT labelled.*, counterpart.label AS matched_with
FROM labelled
LEFT JOIN labelled AS counterpart ON counterpart.mistake_id = labelled.counterpart_id
ORDER BY labelled.side, labelled.doc_token_start
"""

DOCUMENT_GAME = """
SELECT game_date, home_city, home_name, vis_city, vis_name, bref_box_url
FROM games
WHERE text_id = $text
"""

DOCUMENT_TEAMS = """
SELECT
    team_name AS team,
    team_city AS city,
    side,
    wins || '–' || losses AS record,
    pts_qtr1 AS Q1, pts_qtr2 AS Q2, pts_qtr3 AS Q3, pts_qtr4 AS Q4, pts AS PTS,
    fg_pct AS "FG%", fg3_pct AS "3P%", ft_pct AS "FT%", reb AS REB, ast AS AST, tov AS TOV
FROM team_games
WHERE text_id = $text
ORDER BY side DESC
"""

DOCUMENT_PLAYERS = """
SELECT
    coalesce(teams.team_name, players.team_city) AS team,
    players.player_name AS player,
    players.second_name AS surname,
    coalesce(players.start_position, '') AS pos,
    CASE WHEN players.did_not_play THEN 'DNP' ELSE players.minutes::VARCHAR END AS MIN,
    players.pts AS PTS,
    players.fgm || '-' || players.fga AS FG,
    players.fg3m || '-' || players.fg3a AS "3P",
    players.ftm || '-' || players.fta AS FT,
    players.reb AS REB, players.ast AS AST, players.stl AS STL, players.blk AS BLK, players.tov AS TOV,
    players.pf AS PF,
    players.side,
    players.player_index
FROM player_games AS players
LEFT JOIN team_games AS teams USING (text_id, side)
WHERE players.text_id = $text
ORDER BY players.side DESC NULLS LAST, players.starter DESC, players.minutes DESC NULLS LAST, players.player_index
"""

# The box-score checker's findings on the text, and the cells of the box score they contradict.
DOCUMENT_FINDINGS = """
SELECT doc_token_start, tokens, category, entity, stat, claimed, actual, rule
FROM boxscore_findings
WHERE text_id = $text
ORDER BY doc_token_start
"""
DOCUMENT_FINDING_CELLS = "SELECT * FROM boxscore_finding_cells WHERE text_id = $text"

# The errors raters marked on an MQM text or its source, numbered E1, E2… in reading order, the target first.
DOCUMENT_RATED = """
SELECT
    'E' || row_number() OVER (ORDER BY side DESC, char_start, char_end, line_number, error_index) AS label,
    side, char_start, char_end, severity, category, rater
FROM rated_error_spans
WHERE text_id = $text
ORDER BY side DESC, char_start, char_end, line_number, error_index
"""

# The lists of the lanes and side-by-side layouts, each span with its outcome when its list is a scored
# submission (matched or a false alarm in the ALL scope, against the gold list).
LISTED_SPANS = """
SELECT listed.set_id, listed.mistake_id, listed.doc_token_start, listed.doc_token_end, listed.category,
    listed.tokens, listed.correction, listed.comment, outcomes.outcome
FROM mistakes AS listed
LEFT JOIN (
    SELECT mistake_id, outcome FROM mistake_outcomes WHERE text_id = $text AND scope = 'ALL' AND side = 'submitted'
) AS outcomes USING (mistake_id)
WHERE listed.text_id = $text AND list_contains($set_ids, listed.set_id)
ORDER BY listed.set_id, listed.doc_token_start
"""

LISTS_OF_SPLIT = """
SELECT set_id, CASE kind WHEN 'gold' THEN 'gold list' ELSE name END AS list
FROM annotation_sets
WHERE corpus = $corpus AND split = $split
ORDER BY kind <> 'gold', name
"""


def corpus_of_text(text_id: str) -> str | None:
    """The corpus of a text, None when no text has that id."""
    found = read_one("SELECT corpus FROM texts WHERE text_id = $text", {"text": text_id})["corpus"]
    return found[0] if len(found) else None


def document_choices(corpus: str) -> dict[str, pl.DataFrame]:
    """What the Document view offers for a corpus: texts (text_id, split; the test split first, by id) and
    submissions (submission, split; by name)."""
    return read(
        texts=(
            "SELECT text_id, split FROM texts WHERE corpus = $corpus ORDER BY split DESC, text_id",
            {"corpus": corpus},
        ),
        submissions=(
            "SELECT submission, split FROM evaluations WHERE corpus = $corpus ORDER BY submission",
            {"corpus": corpus},
        ),
    )


def document(text_id: str, submission: str | None) -> dict[str, pl.DataFrame]:
    """A text as the Document view shows it, read at once: text, mistakes (the submission's, scored, with the gold
    list's; the gold list's alone when submission is None), game, teams, players, findings, finding_cells and
    rated."""
    params = {"text": text_id, "submission": submission}
    return read(
        text=(DOCUMENT_TEXT, params),
        mistakes=(DOCUMENT_MISTAKES, params),
        game=(DOCUMENT_GAME, params),
        teams=(DOCUMENT_TEAMS, params),
        players=(DOCUMENT_PLAYERS, params),
        findings=(DOCUMENT_FINDINGS, params),
        finding_cells=(DOCUMENT_FINDING_CELLS, params),
        rated=(DOCUMENT_RATED, params),
    )


def lists_of(corpus: str, split: str) -> pl.DataFrame:
    """The lists of a corpus's split (set_id, list: its name or 'gold list'), the gold list first, then by name."""
    return read_one(LISTS_OF_SPLIT, {"corpus": corpus, "split": split})


def spans_of_lists(text_id: str, set_ids: list[int]) -> pl.DataFrame:
    """The spans of these lists in a text, each with its outcome when its list is a scored submission."""
    return read_one(LISTED_SPANS, {"text": text_id, "set_ids": set_ids})


RELATIONS = """
SELECT table_name AS name, 'table' AS kind, comment AS description FROM duckdb_tables() WHERE schema_name = 'main'
UNION ALL
SELECT view_name, 'view', comment FROM duckdb_views() WHERE schema_name = 'main' AND NOT internal
ORDER BY kind, name
"""


def relations() -> pl.DataFrame:
    """The tables and views of the database (name, kind, description), tables first, by name."""
    return read_one(RELATIONS)
