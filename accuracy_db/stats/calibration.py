"""How good a list's probabilities are, over the characters of a Mu-SHROOM corpus's split: the average precision and
expected calibration error of each list (queries/stats/mushroom_soft_label_quality.sql), a list's precision-recall
curve (mushroom_precision_recall.sql) and its reliability diagram (mushroom_calibration.sql). The figures are the
views'; this reads them for the command."""

from __future__ import annotations

import duckdb

from accuracy_db.errors import AccuracyDbError
from accuracy_db.scoring import schemes
from accuracy_db.scoring.scores import fetch_dicts, resolve_split

QUALITY = """
SELECT submission, split, characters, gold_characters, average_precision, calibration_error
FROM mushroom_soft_label_quality
WHERE corpus = $corpus AND ($split IS NULL OR split = $split)
ORDER BY split DESC, average_precision DESC NULLS LAST, submission
"""
CURVE = """
SELECT threshold, precision, recall, true_positives, false_positives, gold_characters
FROM mushroom_precision_recall
WHERE submission_id = $submission_id
ORDER BY threshold DESC
"""
DIAGRAM = """
SELECT bin, low, high, characters, mean_probability, observed_rate, gap
FROM mushroom_calibration
WHERE submission_id = $submission_id
ORDER BY bin
"""


def soft_label_quality(con: duckdb.DuckDBPyConnection, corpus: str, split: str | None = None) -> list[dict]:
    """Each list read with character labels of a corpus (of a split): its average precision and expected
    calibration error over the split's characters, best average precision first within a split."""
    if not schemes.has_character_labels(con, corpus):
        raise AccuracyDbError(f"corpus {corpus} has no list read with character labels: `import mushroom` reads some")
    return fetch_dicts(con, QUALITY, {"corpus": corpus, "split": resolve_split(con, split, corpus)})


def curve_or_diagram(
    con: duckdb.DuckDBPyConnection, submission: str, corpus: str, split: str | None, curve: bool
) -> list[dict]:
    """A list's precision-recall curve (curve: its points from the highest threshold down) or its reliability
    diagram (the bins holding a character, in order)."""
    found = schemes.find_scored(con, submission, split, corpus, "ALL", schemes.MUSHROOM)
    return fetch_dicts(con, CURVE if curve else DIAGRAM, {"submission_id": found["submission_id"]})
