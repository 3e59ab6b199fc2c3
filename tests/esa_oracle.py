"""An independent implementation of WMT25's error-span scoring (wmt-conference/wmt25-mteval,
scripts/scoring/task2/scoring_esa.py, get_char_f1), from its definitions: each character of a hypothesis counts the
major (major or critical) and the minor errors marking it, on each side; per character, a count matched at the same
severity is a full credit, and of the counts left unmatched on both sides the smaller number is a partial credit
each (partial_credit, 0.5 by default);
precision and recall are the credits over all the characters counted on each side, summed over the hypotheses
(precision 1 with nothing predicted, recall 1 with no gold); F1 their harmonic mean (0 when both are 0)."""

from __future__ import annotations

import numpy as np

CLASSES = {"major": 0, "critical": 0, "minor": 1}


def character_counts(errors: list[tuple[int, int, str]], length: int) -> np.ndarray:
    """(2, length): how many major and minor errors mark each character."""
    counts = np.zeros((2, length))
    for start, end, severity in errors:
        if severity.lower() in CLASSES:
            counts[CLASSES[severity.lower()], start:end] += 1
    return counts


def text_counts(gold, predicted, length: int, partial_credit: float = 0.5) -> tuple[float, float, float]:
    """(credit, gold characters counted, predicted characters counted) of one hypothesis."""
    g, p = character_counts(gold, length), character_counts(predicted, length)
    same = np.minimum(g, p).sum()
    left_gold, left_predicted = np.clip(g - p, 0, None).sum(axis=0), np.clip(p - g, 0, None).sum(axis=0)
    partial = partial_credit * np.minimum(left_gold, left_predicted).sum()
    return float(same + partial), float(g.sum()), float(p.sum())


def figures(credit: float, gold: float, predicted: float) -> tuple[float, float, float]:
    precision = credit / predicted if predicted else 1.0
    recall = credit / gold if gold else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def char_f1(hypotheses: list[tuple[list, list, int]], partial_credit: float = 0.5) -> tuple[float, float, float]:
    """(precision, recall, f1) over hypotheses given as (gold errors, predicted errors, length)."""
    totals = np.sum(
        [text_counts(gold, predicted, length, partial_credit) for gold, predicted, length in hypotheses], axis=0
    )
    return figures(*totals)
