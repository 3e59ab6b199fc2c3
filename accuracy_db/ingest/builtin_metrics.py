"""The built-in metrics, computed by build (and again by refresh or import for a corpus whose texts were loaded
again): bleu and chrf, sacrebleu's sentence_bleu and sentence_chrf with their defaults, of each text as annotated
(texts.generated_text: in the shared task its tokens joined by single spaces) against the human-written reference of
its game (games.reference_text, the cleaned_text of shared_task.jsonl), for every text that has one; and length, the
text's number of tokens, for every text of every corpus (the baseline an accuracy metric must beat: longer texts hold
more mistakes)."""

from __future__ import annotations

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


def compute(con: duckdb.DuckDBPyConnection, corpora: list[str] | None = None) -> None:
    """Compute the built-in metrics of the texts of some corpora (None: every corpus) in place of those they had."""
    import sacrebleu  # (0.2 s to import: only the commands that load texts need it)

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
            (
                corpus,
                split,
                text_id,
                sacrebleu.sentence_bleu(text, [reference]).score,
                sacrebleu.sentence_chrf(text, [reference]).score,
            )
            for corpus, split, text_id, text, reference in texts
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
