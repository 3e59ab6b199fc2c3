"""An independent plain-Python scorer of SemEval-2025 Task 3 (Mu-SHROOM), written from the task's definitions:
per text, the intersection over union of the hard labels' characters (1.0 when both are empty) and Spearman's rho
of the per-character soft vectors (a character no soft label marks is 0; of two labels on a character the later
one counts; when either vector is constant, rounded to 8 decimals, 1.0 if both are, else 0.0). Spearman's rho is
Pearson's r of the average ranks, computed here by sorting; the tests compare it with nothing of accuracy-db."""

from __future__ import annotations

import math


def hard_characters(spans) -> set[int]:
    return {index for start, end in spans for index in range(start, end)}


def iou(gold_hard, predicted_hard) -> float:
    gold, predicted = hard_characters(gold_hard), hard_characters(predicted_hard)
    union = gold | predicted
    return 1.0 if not union else len(gold & predicted) / len(union)


def soft_vector(soft, length: int) -> list[float]:
    vector = [0.0] * length
    for start, end, probability in soft:
        for index in range(start, end):
            vector[index] = probability
    return vector


def average_ranks(values: list[float]) -> list[float]:
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    first = 0
    while first < len(order):
        last = first
        while last + 1 < len(order) and values[order[last + 1]] == values[order[first]]:
            last += 1
        for position in range(first, last + 1):
            ranks[order[position]] = (first + last) / 2 + 1
        first = last + 1
    return ranks


def spearman(x: list[float], y: list[float]) -> float:
    rx, ry = average_ranks(x), average_ranks(y)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    covariance = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    spread = math.sqrt(sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry))
    return covariance / spread


def cor(gold_soft, predicted_soft, length: int) -> float:
    gold, predicted = soft_vector(gold_soft, length), soft_vector(predicted_soft, length)
    gold_constant = len({round(v, 8) for v in gold}) == 1
    predicted_constant = len({round(v, 8) for v in predicted}) == 1
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
