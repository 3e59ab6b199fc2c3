"""An independent plain-Python scorer for the token- and character-level schemes, written as docs/scoring.md defines
them: the units (tokens, or the characters of the tokens) each list marks, and those both mark (hard: by mistakes
of the same category). It shares no code with the SQL views."""

from __future__ import annotations

from oracle import Span, in_scope


def marked(spans: list[Span]) -> dict[tuple[str, int], str]:
    """(text, token) -> the category of the mistake that marks it (spans of one list never overlap)."""
    return {(span.text_id, token): span.category for span in spans for token in range(span.start, span.end + 1)}


def ratio(part: float, whole: float) -> float | None:
    return part / whole if whole else None


def f1(recall: float | None, precision: float | None) -> float | None:
    if recall is None or precision is None:
        return None
    return 0.0 if recall + precision == 0 else 2 * recall * precision / (recall + precision)


def unit_scores(
    gold: list[Span], submitted: list[Span], scope: str, hard: bool, weights: dict[tuple[str, int], int] | None
) -> dict:
    """matched, gold_total, submitted_total, recall, precision and f1 of one scope; weights: the characters of
    each (text, token), or None to count tokens."""
    gold_marks = marked(in_scope(gold, scope))
    submitted_marks = marked(in_scope(submitted, scope))

    def size(units) -> int:
        return sum(1 if weights is None else weights[unit] for unit in units)

    both = [
        unit
        for unit, category in gold_marks.items()
        if unit in submitted_marks and (not hard or submitted_marks[unit] == category)
    ]
    matched, gold_total, submitted_total = size(both), size(gold_marks), size(submitted_marks)
    recall, precision = ratio(matched, gold_total), ratio(matched, submitted_total)
    return {
        "matched": matched,
        "gold_total": gold_total,
        "submitted_total": submitted_total,
        "recall": recall,
        "precision": precision,
        "f1": f1(recall, precision),
    }
