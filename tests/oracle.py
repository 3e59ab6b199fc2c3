"""An independent plain-Python scorer: the shared task's rules, written as directly as they read.

It shares no code with the SQL views; the property tests compare the two on generated span lists.
"""

from __future__ import annotations

from dataclasses import dataclass

CATEGORIES = ("NAME", "NUMBER", "WORD", "CONTEXT", "NOT_CHECKABLE", "OTHER")
SCOPES = ("ALL",) + CATEGORIES


@dataclass(frozen=True)
class Span:
    """A listed mistake: the tokens start..end (inclusive) of a text, and its category."""

    key: int
    text_id: str
    start: int
    end: int
    category: str

    def tokens(self) -> set[tuple[str, int]]:
        return {(self.text_id, token) for token in range(self.start, self.end + 1)}


def in_scope(spans: list[Span], scope: str) -> list[Span]:
    return [span for span in spans if scope == "ALL" or span.category == scope]


def matches(gold: list[Span], submitted: list[Span]) -> dict[int, int | None]:
    """Gold key -> key of the submitted span it took: gold left to right, each taking the leftmost
    intersecting submitted span that is not taken yet."""
    taken: set[int] = set()
    result: dict[int, int | None] = {}
    for g in sorted(gold, key=lambda s: (s.text_id, s.start)):
        result[g.key] = None
        for s in sorted(submitted, key=lambda s: (s.text_id, s.start)):
            if s.key not in taken and s.text_id == g.text_id and s.start <= g.end and g.start <= s.end:
                taken.add(s.key)
                result[g.key] = s.key
                break
    return result


def ratio(numerator: int, denominator: int) -> float | None:
    return numerator / denominator if denominator else None


def score(gold: list[Span], submitted: list[Span]) -> list[dict]:
    """The seven scopes, as the evaluate command's JSON reports them."""
    report = []
    for scope in SCOPES:
        scoped_gold, scoped_submitted = in_scope(gold, scope), in_scope(submitted, scope)
        matched = sum(key is not None for key in matches(scoped_gold, scoped_submitted).values())
        gold_tokens = set().union(*(s.tokens() for s in scoped_gold))
        submitted_tokens = set().union(*(s.tokens() for s in scoped_submitted))
        both = gold_tokens & submitted_tokens
        report.append(
            {
                "categories": scope,
                "recall": ratio(matched, len(scoped_gold)),
                "precision": ratio(matched, len(scoped_submitted)),
                "token_recall": ratio(len(both), len(gold_tokens)),
                "token_precision": ratio(len(both), len(submitted_tokens)),
                "matched": matched,
                "gold_total": len(scoped_gold),
                "submitted_total": len(scoped_submitted),
                "token_matched": len(both),
                "gold_tokens": len(gold_tokens),
                "submitted_tokens": len(submitted_tokens),
            }
        )
    return report
