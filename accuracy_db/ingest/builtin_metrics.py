"""The built-in metrics, computed by build (and again by refresh or import for a corpus whose texts were loaded
again): bleu and chrf, sacrebleu's sentence_bleu and sentence_chrf with their defaults, of each text as annotated
(texts.generated_text: in the shared task its tokens joined by single spaces) against the human-written reference of
its game (games.reference_text, the cleaned_text of shared_task.jsonl), for every text that has one; and length, the
text's number of tokens, for every text of every corpus (the baseline an accuracy metric must beat: longer texts hold
more mistakes)."""

from __future__ import annotations

import functools
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

import duckdb
import polars as pl

from accuracy_db.etl.frames import create_temp_table
from accuracy_db.names import BUILTIN_METRICS

# name -> (higher is better, description)
DEFINITIONS = {
    "bleu": (True, "sacrebleu's sentence_bleu (defaults) of the text against the human-written reference"),
    "chrf": (True, "sacrebleu's sentence_chrf (defaults) of the text against the human-written reference"),
    "length": (False, "The text's number of tokens (longer texts hold more mistakes)"),
}
assert tuple(DEFINITIONS) == BUILTIN_METRICS


# sacrebleu scores a text's two metrics in Python, slowly: past this many texts they are scored in processes of their
# own, one a core, which start and import sacrebleu first (benchmarks/results/code-timings.md).
TEXTS_IN_PROCESS = 2_000


def reference_scores(pairs: list[tuple[str, str]]) -> list[tuple[float, float]]:
    """sentence_bleu and sentence_chrf of each (text, reference)."""
    return [pair_scores(text, reference) for text, reference in pairs]


# A process that loads the same texts again (a watching refresh when a corpus folder changes, a test session's
# builds) scores each pair once: the scores are a function of the two strings alone. Bounded: 4,096 pairs of texts
# of a few kilobytes are some tens of megabytes at most.
@functools.lru_cache(maxsize=4096)
def pair_scores(text: str, reference: str) -> tuple[float, float]:
    import sacrebleu  # here: only the commands that load texts pay its import

    return sacrebleu.sentence_bleu(text, [reference]).score, sacrebleu.sentence_chrf(text, [reference]).score


def corpus_scores(pairs: list[tuple[str, str]]) -> tuple[float, float]:
    """sacrebleu's corpus_bleu and corpus_chrf (defaults) of the (text, reference) pairs: a system's score at the
    system level, as mt-metrics-eval's corpus-level BLEU and chrF (statistics summed over the texts, not a mean)."""
    import sacrebleu

    texts, references = [text for text, _ in pairs], [[reference for _, reference in pairs]]
    return sacrebleu.corpus_bleu(texts, references).score, sacrebleu.corpus_chrf(texts, references).score


def scored_pairs(texts: list[tuple]) -> list[tuple[float, float]]:
    """The scores of the texts' (text, reference) pairs, in the texts' order: in this process, or spread over
    processes (spawned: this one holds threads and a database) when there are many."""
    pairs = [(text, reference) for *_, text, reference in texts]
    workers = min(os.cpu_count() or 1, -(-len(pairs) // TEXTS_IN_PROCESS))
    if workers <= 1:
        return reference_scores(pairs)
    size = -(-len(pairs) // workers)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        parts = pool.map(reference_scores, [pairs[start : start + size] for start in range(0, len(pairs), size)])
        return [scores for part in parts for scores in part]


def compute(con: duckdb.DuckDBPyConnection, corpora: list[str] | None = None) -> None:
    """Compute the built-in metrics of the texts of some corpora (None: every corpus) in place of those they had."""
    if corpora is None:
        corpora = [corpus for (corpus,) in con.execute("SELECT corpus FROM corpora").fetchall()]
    texts = con.execute(
        "SELECT texts.corpus, texts.split, texts.text_id, texts.generated_text, games.reference_text FROM texts"
        " JOIN games USING (text_id) WHERE texts.corpus = ANY($corpora) AND games.reference_text IS NOT NULL"
        " AND texts.generated_text IS NOT NULL ORDER BY texts.text_id",
        {"corpora": corpora},
    ).fetchall()
    scores = pl.DataFrame(
        [
            (corpus, split, text_id, *scored)
            for (corpus, split, text_id, _, _), scored in zip(texts, scored_pairs(texts))
        ],
        schema={"corpus": pl.String, "split": pl.String, "text_id": pl.String, "bleu": pl.Float64, "chrf": pl.Float64},
        orient="row",
    )
    definitions = pl.DataFrame(
        [(name, *definition) for name, definition in DEFINITIONS.items()],
        schema={"metric": pl.String, "higher_is_better": pl.Boolean, "description": pl.String},
        orient="row",
    )
    create_temp_table(con, "reference_scores", scores)
    create_temp_table(con, "builtin_definitions", definitions)
    parameters = {"corpora": corpora}
    con.begin()
    try:
        con.execute(
            "DELETE FROM text_scores USING metrics WHERE metrics.kind = 'builtin' AND metrics.corpus = ANY($corpora)"
            " AND text_scores.corpus = metrics.corpus AND text_scores.metric = metrics.metric",
            parameters,
        )
        con.execute("DELETE FROM metrics WHERE kind = 'builtin' AND corpus = ANY($corpora)", parameters)
        con.execute(
            """
            INSERT INTO text_scores
            SELECT corpus, 'length', text_id, split, token_count FROM texts WHERE corpus = ANY($corpora)
            UNION ALL
            SELECT corpus, metric, text_id, split, score
            FROM (UNPIVOT reference_scores ON bleu, chrf INTO NAME metric VALUE score)
            """,
            parameters,
        )
        con.execute(
            "INSERT INTO metrics (corpus, split, metric, kind, higher_is_better, description)"
            " SELECT DISTINCT scores.corpus, scores.split, scores.metric, 'builtin', definitions.higher_is_better,"
            " definitions.description FROM text_scores AS scores JOIN builtin_definitions AS definitions USING (metric)"
            " WHERE scores.corpus = ANY($corpora)",
            parameters,
        )
        con.commit()
    except BaseException:
        con.rollback()
        raise
    finally:
        con.execute("DROP TABLE reference_scores; DROP TABLE builtin_definitions")
