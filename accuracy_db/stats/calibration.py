"""How good a list's probabilities are, over the characters of a split: the average precision and expected
calibration error of each list with probabilities (queries/stats/probability_quality.sql), a list's precision-recall
curve (probability_precision_recall.sql) and its reliability diagram (probability_calibration.sql), whether its
probabilities come from soft labels (a Mu-SHROOM file) or from spans (a CSV, JSON Lines or factgenie list). The
figures are the views'; this reads them for the command and the dashboard."""

from __future__ import annotations

import duckdb

from accuracy_db.errors import AccuracyDbError
from accuracy_db.scoring.scores import fetch_dicts, find_submission, resolve_split

LISTED = "probability_evaluations"  # the lists with probabilities, each with its gold list
QUALITY = """
SELECT submission, split, read_with, characters, gold_characters, average_precision, calibration_error
FROM probability_quality
WHERE corpus = $corpus AND ($split IS NULL OR split = $split)
ORDER BY split DESC, average_precision DESC NULLS LAST, submission
"""
CURVE = """
SELECT threshold, precision, recall, true_positives, false_positives, gold_characters
FROM probability_precision_recall
WHERE submission_id = $submission_id
ORDER BY threshold DESC
"""
DIAGRAM = """
SELECT bin, low, high, characters, mean_probability, observed_rate, gap
FROM probability_calibration
WHERE submission_id = $submission_id
ORDER BY bin
"""
NONE_MESSAGE = "has no list read with character labels nor span with a probability"


def corpora_with_probabilities(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The corpora that have a list with probabilities scored against a gold list, in name order."""
    return [c for (c,) in con.execute(f"SELECT DISTINCT corpus FROM {LISTED} ORDER BY corpus").fetchall()]


def chosen_corpus(con: duckdb.DuckDBPyConnection, corpus: str | None) -> str:
    """The corpus given, checked to have lists with probabilities; without one, the only corpus that has some."""
    having = corpora_with_probabilities(con)
    if corpus is not None:
        if corpus not in having:
            others = f" (corpora that have: {', '.join(having)})" if having else ""
            raise AccuracyDbError(f"corpus {corpus} {NONE_MESSAGE}{others}")
        return corpus
    if len(having) != 1:
        raise AccuracyDbError(
            f"lists with probabilities are in corpora {', '.join(having)}: give --corpus"
            if having
            else f"the database {NONE_MESSAGE}: `import mushroom`, or a list with a probability column, gives some"
        )
    return having[0]


def soft_label_quality(con: duckdb.DuckDBPyConnection, corpus: str | None, split: str | None = None) -> list[dict]:
    """Each list with probabilities of a corpus (of a split): its average precision and expected calibration error
    over the split's characters, best average precision first within a split."""
    corpus = chosen_corpus(con, corpus)
    return fetch_dicts(con, QUALITY, {"corpus": corpus, "split": resolve_split(con, split, corpus)})


def curve_or_diagram(
    con: duckdb.DuckDBPyConnection, submission: str, corpus: str | None, split: str | None, curve: bool
) -> list[dict]:
    """A list's precision-recall curve (curve: its points from the highest threshold down) or its reliability
    diagram (the bins holding a character, in order)."""
    listed = "SELECT 1 FROM {} WHERE {} = $name AND ($corpus IS NULL OR corpus = $corpus)"
    params = {"name": submission, "corpus": corpus}
    if not con.execute(listed.format(LISTED, "submission"), params).fetchall() and (
        con.execute(listed.format("annotation_sets", "kind = 'submission' AND name"), params).fetchall()
    ):
        raise AccuracyDbError(
            f"{submission} was not read with character labels and has no span with a probability: it has no"
            " probabilities to weigh"
        )
    found = find_submission(con, submission, split, chosen_corpus(con, corpus), scored_in=LISTED)
    return fetch_dicts(con, CURVE if curve else DIAGRAM, {"submission_id": found["submission_id"]})
