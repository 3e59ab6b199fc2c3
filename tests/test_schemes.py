"""The match schemes against independent references: nervaluate itself for strict, exact, partial and ent_type,
and the plain-Python unit oracle (tests/unit_oracle.py) for the token- and character-level schemes; on generated
span lists and on the shared-task data."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nervaluate import Evaluator
from oracle import CATEGORIES, SCOPES, Span
from test_matching_properties import load
from unit_oracle import unit_scores

from accuracy_db import database, scores
from accuracy_db.schemes import NERVALUATE_SCHEMES, SCHEMES, UNIT_SCHEMES

TEXTS = ("S001", "S002", "S003")
COUNTS = ("correct", "incorrect", "partial", "missed", "spurious", "possible", "actual")


@st.composite
def span_lists(draw, first_key: int, long_spans: bool) -> list[Span]:
    """Disjoint spans over a few texts, small and dense; with long_spans, now and then a span of over 100 tokens,
    which one shared token overlaps by less than nervaluate's 1%."""
    spans = []
    categories = draw(st.lists(st.sampled_from(CATEGORIES), min_size=1, max_size=3, unique=True))
    lengths = st.integers(1, 4) | st.integers(95, 130) if long_spans else st.integers(1, 4)
    for text_id in draw(st.lists(st.sampled_from(TEXTS), max_size=3, unique=True)):
        position = 1
        for gap, length in draw(st.lists(st.tuples(st.integers(0, 3), lengths), max_size=10)):
            start = position + gap
            spans.append(
                Span(first_key + len(spans), text_id, start, start + length - 1, draw(st.sampled_from(categories)))
            )
            position = start + length
    return spans


@st.composite
def evaluations(draw) -> tuple[list[Span], list[list[Span]], dict[tuple[str, int], str]]:
    """A gold list, one to five submissions, and the tokens of the texts (1 to 6 characters each)."""
    gold = draw(span_lists(first_key=1, long_spans=True))
    submissions = [draw(span_lists(first_key=1000 * (i + 1), long_spans=False)) for i in range(draw(st.integers(1, 5)))]
    last = max([s.end for s in gold] + [s.end for spans in submissions for s in spans] + [1])
    words = st.text(alphabet="abcdé0123-", min_size=1, max_size=6)
    tokens = {(text_id, position): draw(words) for text_id in TEXTS for position in range(1, last + 1)}
    return gold, submissions, tokens


@pytest.fixture(scope="module")
def con():
    con = database.open_new(None)
    yield con
    con.close()


def load_tokens(con, tokens: dict[tuple[str, int], str]) -> None:
    con.execute("DELETE FROM tokens")
    con.executemany(
        "INSERT INTO tokens (text_id, doc_token, sentence_id, sent_token, token) VALUES (?, ?, 1, ?, ?)",
        [(text_id, position, position, token) for (text_id, position), token in tokens.items()],
    )


def by_nervaluate(gold: list[Span], submitted: list[Span]) -> dict[tuple[str, str], dict]:
    """(scheme, scope) -> nervaluate's counts and figures, each text a document with its spans in text order."""
    documents = sorted({s.text_id for s in gold + submitted} | set(TEXTS))

    def entities(spans: list[Span]) -> list[list[dict]]:
        return [
            [
                {"label": s.category, "start": s.start, "end": s.end}
                for s in sorted((s for s in spans if s.text_id == text_id), key=lambda s: s.start)
            ]
            for text_id in documents
        ]

    results = Evaluator(entities(gold), entities(submitted), tags=list(CATEGORIES), loader="dict").evaluate()
    found = {}
    for scheme in NERVALUATE_SCHEMES:
        for scope in SCOPES:
            result = results["overall"][scheme] if scope == "ALL" else results["entities"].get(scope, {}).get(scheme)
            found[scheme, scope] = {
                "correct": result.correct if result else 0,
                "incorrect": result.incorrect if result else 0,
                "partial": result.partial if result else 0,
                "missed": result.missed if result else 0,
                "spurious": result.spurious if result else 0,
                "possible": result.possible if result else 0,
                "actual": result.actual if result else 0,
                "precision": result.precision if result else 0,
                "recall": result.recall if result else 0,
                "f1": result.f1 if result else 0,
            }
    return found


def scheme_rows(con, submission_id: int) -> dict[tuple[str, str], dict]:
    rows = scores.fetch_dicts(
        con, "SELECT * FROM scheme_scores WHERE submission_id = $id", {"id": submission_id}
    )
    return {(row["scheme"], row["scope"]): row for row in rows}


def assert_like_nervaluate(ours: dict, theirs: dict) -> None:
    """Every count equal; every figure equal where defined. nervaluate writes 0 where there is nothing to divide
    by; accuracy-db writes NULL (None), as for every figure."""
    assert {key: ours[key if key not in ("possible", "actual") else ours_key(key)] for key in COUNTS} == {
        key: theirs[key] for key in COUNTS
    }
    for figure, denominator in (("precision", "actual"), ("recall", "possible")):
        if theirs[denominator] == 0:
            assert ours[figure] is None and theirs[figure] == 0
        else:
            assert ours[figure] == pytest.approx(theirs[figure], abs=1e-12)
    if ours["precision"] is None or ours["recall"] is None:
        assert ours["f1"] is None and theirs["f1"] == 0
    else:
        assert ours["f1"] == pytest.approx(theirs["f1"], abs=1e-12)


def ours_key(key: str) -> str:
    return {"possible": "gold_total", "actual": "submitted_total"}[key]


def assert_like_unit_oracle(ours: dict, gold, submitted, scheme: str, scope: str, weights) -> None:
    unit, agreement = scheme.split("-")
    expected = unit_scores(gold, submitted, scope, agreement == "hard", weights if unit == "char" else None)
    got = {key: ours[key] for key in expected}
    for figure in ("recall", "precision", "f1"):
        if expected[figure] is not None:
            assert got[figure] == pytest.approx(expected[figure], abs=1e-12)
            got[figure] = expected[figure]
    assert got == expected


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(evaluations())
def test_every_scheme_scores_like_its_reference(con, case):
    gold, submissions, tokens = case
    load_tokens(con, tokens)
    submission_ids = load(con, gold, submissions)
    weights = {unit: len(token) for unit, token in tokens.items()}
    for submission_id, submitted in zip(submission_ids, submissions):
        ours = scheme_rows(con, submission_id)
        assert {scheme for scheme, _ in ours} == set(SCHEMES)
        for (scheme, scope), theirs in by_nervaluate(gold, submitted).items():
            assert_like_nervaluate(ours[scheme, scope], theirs)
        for scheme in UNIT_SCHEMES:
            for scope in SCOPES:
                assert_like_unit_oracle(ours[scheme, scope], gold, submitted, scheme, scope, weights)


