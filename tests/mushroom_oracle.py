"""An independent scorer of SemEval-2025 Task 3 (Mu-SHROOM), written from the task's definitions (its
participant_kit/scorer.py): per text, the intersection over union of the hard labels' characters (1.0 when both are
empty) and Spearman's rho of the per-character soft vectors (a character no soft label marks is 0; of two labels on
a character the later one counts; when either vector is constant, its values rounded to 8 decimals by Python's
round(), 1.0 if both are, else 0.0). Spearman's rho is Pearson's r of the average ranks, computed here with numpy
from sorted distinct values; the tests compare it with nothing of accuracy-db.

A prediction that gives one kind of label is completed by the task's rules (scored): soft labels alone give hard
labels (p > 0.5, in order of (start, end), a span starting where the last ended joined to it), hard labels alone
soft labels of p = 1. An empty text has empty vectors, which are not constant (no value at all): the task's scorer
hands them to scipy's spearmanr, which gives NaN, and so does this oracle (accuracy-db scores such a text 1.0)."""

from __future__ import annotations

import numpy as np


def hard_characters(spans) -> set[int]:
    return {index for start, end in spans for index in range(start, end)}


def iou(gold_hard, predicted_hard) -> float:
    gold, predicted = hard_characters(gold_hard), hard_characters(predicted_hard)
    union = gold | predicted
    return 1.0 if not union else len(gold & predicted) / len(union)


def soft_vector(soft, length: int) -> list[float]:
    """Each character's probability: the last label (in the order given) covering it, else 0."""
    vector = np.zeros(length)
    for start, end, probability in soft:
        vector[start:end] = probability
    return vector.tolist()


def average_ranks(values) -> np.ndarray:
    """Ranks from 1, ties given their mean rank: the characters below a value, plus the mean of its own positions."""
    distinct, inverse, counts = np.unique(np.asarray(values, dtype=float), return_inverse=True, return_counts=True)
    below = np.cumsum(counts) - counts
    return (below + (counts + 1) / 2)[inverse]


def spearman(x, y) -> float:
    """Pearson's r of the average ranks; NaN for empty vectors."""
    if len(x) == 0:
        return float("nan")
    rx, ry = average_ranks(x), average_ranks(y)
    rx, ry = rx - rx.mean(), ry - ry.mean()
    return float((rx * ry).sum() / np.sqrt((rx * rx).sum() * (ry * ry).sum()))


def constant(vector) -> bool:
    """One value once rounded to 8 decimals by Python's round() (correctly rounded, ties to even: not numpy's)."""
    return len({round(float(value), 8) for value in np.unique(vector)}) == 1


def cor(gold_soft, predicted_soft, length: int) -> float:
    gold, predicted = soft_vector(gold_soft, length), soft_vector(predicted_soft, length)
    gold_constant, predicted_constant = constant(gold), constant(predicted)
    if gold_constant or predicted_constant:
        return float(gold_constant and predicted_constant)
    return spearman(gold, predicted)


def hard_from_soft(soft) -> list[tuple[int, int]]:
    """The task's rule for a prediction with soft labels alone: p > 0.5, spans that touch joined."""
    merged: list[list[int]] = []
    for start, end, _ in sorted(s for s in soft if s[2] > 0.5):
        if merged and merged[-1][1] == start:
            merged[-1][1] = end
        else:
            merged.append([start, end])
    return [tuple(span) for span in merged]


def completed(line: dict) -> tuple[list, list]:
    """A prediction line's hard labels and soft labels (start, end, prob), each derived from the other when the line
    gives only one (the task's rules); a line of neither (or no line, {}) is an empty prediction."""
    soft = [(s["start"], s["end"], s["prob"]) for s in line.get("soft_labels", [])]
    hard = line.get("hard_labels")
    hard = hard_from_soft(soft) if hard is None else [tuple(span) for span in hard]
    if "soft_labels" not in line:
        soft = [(start, end, 1.0) for start, end in hard]
    return hard, soft


def scores(gold: list[dict], predicted: list[dict]) -> dict[str, tuple[float, float]]:
    """Each gold text's (iou, cor) against the prediction lines (a text without one: an empty prediction)."""
    by_id = {line["id"]: line for line in predicted}
    figures = {}
    for line in gold:
        hard, soft = completed(by_id.get(line["id"], {}))
        gold_soft = [(s["start"], s["end"], s["prob"]) for s in line["soft_labels"]]
        figures[line["id"]] = (
            iou(line["hard_labels"], hard),
            cor(gold_soft, soft, len(line["model_output_text"])),
        )
    return figures
