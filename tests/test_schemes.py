"""The match schemes against independent references: nervaluate itself for strict, exact, partial and ent_type,
and the plain-Python unit oracle (tests/unit_oracle.py) for the token- and character-level schemes; on generated
span lists and on the shared-task data."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nervaluate import Evaluator
from oracle import CATEGORIES, SCOPES, Span
from shared_data import DATA, EXAMPLES
from test_corpus_files import GOLD, METRIC, corpus_folder
from test_matching_properties import SHORT_SPANS, case_of_its_own, insert, load, load_cases
from test_matching_properties import span_lists as matching_span_lists
from unit_oracle import unit_scores

from accuracy_db.scoring import scores
from accuracy_db.scoring.schemes import NERVALUATE_SCHEMES, SCHEMES, UNIT_SCHEMES
from accuracy_db.store import database

TEXTS = ("S001", "S002", "S003")
COUNTS = ("correct", "incorrect", "partial", "missed", "spurious", "possible", "actual")


def span_lists(first_key: int, long_spans: bool):
    """Disjoint spans over a few texts, small and dense; with long_spans, now and then a span of over 100 tokens,
    which one shared token overlaps by less than nervaluate's 1%."""
    lengths = SHORT_SPANS | st.integers(95, 130) if long_spans else SHORT_SPANS
    return matching_span_lists(first_key, lengths, most_per_text=10)


@st.composite
def evaluations(draw) -> tuple[list[Span], list[list[Span]], dict[tuple[str, int], str]]:
    """A gold list, one to five submissions, and the tokens of the texts (1 to 6 characters each)."""
    gold = draw(span_lists(first_key=1, long_spans=True))
    submissions = [draw(span_lists(first_key=1000 * (i + 1), long_spans=False)) for i in range(draw(st.integers(1, 5)))]
    last = max([s.end for s in gold] + [s.end for spans in submissions for s in spans] + [1])
    # a few words, repeated along the texts (drawing each token would make most of the test's time)
    words = draw(st.lists(st.text(alphabet="abcdé0123-", min_size=1, max_size=6), min_size=1, max_size=7))
    tokens = {
        (text_id, position): words[(position * 5 + index) % len(words)]
        for index, text_id in enumerate(TEXTS)
        for position in range(1, last + 1)
    }
    return gold, submissions, tokens


@pytest.fixture(scope="module")
def con():
    con = database.open_new(None)
    yield con
    con.close()


def load_tokens(con, tokens: dict[tuple[str, int], str]) -> None:
    con.execute("DELETE FROM tokens")
    rows = [(text_id, position, 1, position, token) for (text_id, position), token in tokens.items()]
    insert(con, "tokens", ["text_id", "doc_token", "sentence_id", "sent_token", "token"], rows)


def by_nervaluate(
    gold: list[Span], submitted: list[Span], categories: tuple[str, ...] = CATEGORIES
) -> dict[tuple[str, str], dict]:
    """(scheme, scope) -> nervaluate's counts and figures in ALL and in each category's scope, each text a document
    with its spans in text order."""
    documents = sorted({s.text_id for s in gold + submitted} | set(TEXTS))

    def entities(spans: list[Span]) -> list[list[dict]]:
        return [
            [
                {"label": s.category, "start": s.start, "end": s.end}
                for s in sorted((s for s in spans if s.text_id == text_id), key=lambda s: s.start)
            ]
            for text_id in documents
        ]

    results = Evaluator(entities(gold), entities(submitted), tags=list(categories), loader="dict").evaluate()
    found = {}
    for scheme in NERVALUATE_SCHEMES:
        for scope in ("ALL", *categories):
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


def scheme_rows(con) -> dict[int, dict[tuple[str, str], dict]]:
    """submission_id -> (scheme, scope) -> its row of scheme_scores."""
    found: dict[int, dict] = {}
    for row in scores.fetch_dicts(con, "SELECT * FROM scheme_scores"):
        found.setdefault(row["submission_id"], {})[row["scheme"], row["scope"]] = row
    return found


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


# Cases come in batches, each in a split and on texts of its own (see test_matching_properties).
@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(st.lists(evaluations(), min_size=1, max_size=16))
def test_every_scheme_scores_like_its_reference(con, cases):
    cases = [
        (*case_of_its_own((gold, submissions), number), {(f"{t}-{number}", p): w for (t, p), w in tokens.items()})
        for number, (gold, submissions, tokens) in enumerate(cases)
    ]
    load_tokens(con, {unit: token for *_, tokens in cases for unit, token in tokens.items()})
    case_ids = load_cases(con, [(gold, submissions) for gold, submissions, _ in cases])
    every_row = scheme_rows(con)
    for (gold, submissions, tokens), submission_ids in zip(cases, case_ids):
        weights = {unit: len(token) for unit, token in tokens.items()}
        for submission_id, submitted in zip(submission_ids, submissions):
            ours = every_row[submission_id]
            assert {scheme for scheme, _ in ours} == set(SCHEMES)
            for (scheme, scope), theirs in by_nervaluate(gold, submitted).items():
                assert_like_nervaluate(ours[scheme, scope], theirs)
            for scheme in UNIT_SCHEMES:
                for scope in SCOPES:
                    assert_like_unit_oracle(ours[scheme, scope], gold, submitted, scheme, scope, weights)


def one_submission(con, gold: list[Span], submitted: list[Span], tokens: dict | None = None) -> dict:
    load_tokens(con, tokens or {("S001", position): "ab" for position in range(1, 200)})
    (submission_id,) = load(con, gold, [submitted])
    return scheme_rows(con)[submission_id]


def counts(row: dict) -> tuple[int, ...]:
    return tuple(row[key] for key in ("correct", "incorrect", "partial", "missed", "spurious"))


@pytest.mark.parametrize(
    "gold, submitted, expected",
    [
        # A type mismatch on an exact span: incorrect under strict and ent_type, correct under exact and partial.
        (
            [Span(1, "S001", 3, 4, "NAME")],
            [Span(101, "S001", 3, 4, "NUMBER")],
            {
                "strict": (0, 1, 0, 0, 0),
                "exact": (1, 0, 0, 0, 0),
                "partial": (1, 0, 0, 0, 0),
                "ent_type": (0, 1, 0, 0, 0),
            },
        ),
        # One submitted span over two gold mistakes takes the first (leftmost) one; ent_type takes the one of its
        # category, the second.
        (
            [Span(1, "S001", 1, 2, "NAME"), Span(2, "S001", 3, 4, "NUMBER")],
            [Span(101, "S001", 1, 4, "NUMBER")],
            {
                "strict": (0, 1, 0, 1, 0),
                "exact": (0, 1, 0, 1, 0),
                "partial": (0, 0, 1, 1, 0),
                "ent_type": (1, 0, 0, 1, 0),
            },
        ),
        # One shared token is 1% of a gold span of 100 tokens (a candidate), but less of one of 101 (spurious and
        # missed).
        (
            [Span(1, "S001", 1, 100, "NAME"), Span(2, "S001", 101, 201, "NAME")],
            [Span(101, "S001", 100, 100, "NAME"), Span(102, "S001", 201, 201, "NAME")],
            {
                "strict": (0, 1, 0, 1, 1),
                "exact": (0, 1, 0, 1, 1),
                "partial": (0, 0, 1, 1, 1),
                "ent_type": (1, 0, 0, 1, 1),
            },
        ),
    ],
)
def test_worked_examples(con, gold, submitted, expected):
    tokens = {("S001", position): "ab" for position in range(1, 202)}
    ours = one_submission(con, gold, submitted, tokens)
    theirs = by_nervaluate(gold, submitted)
    for scheme, expected_counts in expected.items():
        assert counts(ours[scheme, "ALL"]) == expected_counts
        assert_like_nervaluate(ours[scheme, "ALL"], theirs[scheme, "ALL"])


def test_characters_are_those_of_the_tokens(con):
    """Tokens 'Wednesday' 'the' '113' '-' '107': a gold NAME over tokens 1-2 (12 characters) and a submitted
    NUMBER over 2-4 (7 characters) share 'the' (3 characters) in ALL, soft; nothing hard."""
    tokens = {("S001", i): token for i, token in enumerate(["Wednesday", "the", "113", "-", "107"], start=1)}
    ours = one_submission(con, [Span(1, "S001", 1, 2, "NAME")], [Span(101, "S001", 2, 4, "NUMBER")], tokens)
    figures = ("matched", "gold_total", "submitted_total")
    assert [ours["char-soft", "ALL"][key] for key in figures] == [3, 12, 7]
    assert [ours["char-hard", "ALL"][key] for key in figures] == [0, 12, 7]
    assert [ours["token-soft", "ALL"][key] for key in figures] == [1, 2, 3]
    assert ours["char-soft", "ALL"]["recall"] == pytest.approx(3 / 12)
    assert ours["char-hard", "ALL"]["f1"] == 0.0


FIGURES = ("recall", "precision", "f1")


@pytest.mark.parametrize(
    "gold, submitted, expected",
    [
        # No gold mistake: recall undefined, precision 0 (something was marked, nothing rightly), F1 undefined.
        ([], [Span(101, "S001", 1, 2, "NAME")], (None, 0.0, None)),
        # No prediction: precision undefined, recall 0, F1 undefined.
        ([Span(1, "S001", 1, 2, "NAME")], [], (0.0, None, None)),
        # Both empty: all three undefined.
        ([], [], (None, None, None)),
    ],
    ids=["no gold", "no prediction", "both empty"],
)
def test_empty_cases(con, gold, submitted, expected):
    tokens = {("S001", position): "ab" for position in range(1, 5)}
    ours = one_submission(con, gold, submitted, tokens)
    for scheme in SCHEMES:
        assert tuple(ours[scheme, "ALL"][figure] for figure in FIGURES) == expected, scheme
        if scheme in UNIT_SCHEMES:
            unit, agreement = scheme.split("-")
            oracle = unit_scores(gold, submitted, "ALL", agreement == "hard", {u: 2 for u in tokens})
            assert tuple(oracle[figure] for figure in FIGURES) == expected


def scored_lists(built, corpus: str = "shared-task") -> dict[int, tuple[list[Span], list[Span]]]:
    """submission_id -> the spans of its gold list and its own, for each scored submission of a corpus."""

    def spans(set_id: int) -> list[Span]:
        rows = built.execute(
            "SELECT mistake_id, text_id, doc_token_start, doc_token_end, category FROM mistakes WHERE set_id = ?",
            [set_id],
        ).fetchall()
        return [Span(*row) for row in rows]

    evaluations = built.execute("SELECT submission_id, gold_id FROM evaluations WHERE corpus = ?", [corpus]).fetchall()
    return {submission_id: (spans(gold_id), spans(submission_id)) for submission_id, gold_id in evaluations}


def assert_corpus_scores_like_the_references(con, corpus: str, categories: tuple[str, ...]) -> int:
    """Every scored submission of a corpus: nervaluate's four schemes, every count and figure in ALL and in each of
    the corpus's categories, and the unit oracle's token and character figures, the characters being those of the
    texts' tokens; no other scope. Returns how many submissions were checked."""
    weights = {
        (text_id, doc_token): len(token or "")
        for text_id, doc_token, token in con.execute("SELECT text_id, doc_token, token FROM tokens").fetchall()
    }
    every_row = scheme_rows(con)
    lists = scored_lists(con, corpus)
    for submission_id, (gold, submitted) in lists.items():
        ours = every_row[submission_id]
        assert set(ours) == {(scheme, scope) for scheme in SCHEMES for scope in ("ALL", *categories)}
        for (scheme, scope), theirs in by_nervaluate(gold, submitted, categories).items():
            assert_like_nervaluate(ours[scheme, scope], theirs)
        for scheme in UNIT_SCHEMES:
            for scope in ("ALL", *categories):
                assert_like_unit_oracle(ours[scheme, scope], gold, submitted, scheme, scope, weights)
    return len(lists)


def test_the_shared_task_data_scores_like_the_references(built):
    """Every example submission of both splits, in the shared task's seven scopes."""
    assert assert_corpus_scores_like_the_references(built, "shared-task", CATEGORIES) >= 5
    every_row = scheme_rows(built)
    # the shared task's token level is token-soft
    token_level = built.execute(
        "SELECT submission_id, scope, token_recall, token_precision, token_f1, token_matched FROM scores"
    ).fetchall()
    for submission_id, scope, recall, precision, f1, matched in token_level:
        soft = every_row[submission_id]["token-soft", scope]
        assert (soft["recall"], soft["precision"], soft["f1"], soft["matched"]) == (recall, precision, f1, matched)


def run(*args) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "accuracy_db", *map(str, args)], capture_output=True, text=True, timeout=120
    )


def test_evaluate_and_leaderboard_take_a_scheme(built_db, built):
    """--scheme gives the figures of scheme_scores, signed with the scheme's name; the default is unchanged."""
    result = run(
        "evaluate",
        "--gsml",
        DATA / "gsml.csv",
        "--submitted",
        EXAMPLES / "submission.csv",
        "--scheme",
        "strict",
        "--format",
        "json",
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    expected = scores.fetch_dicts(
        built,
        "SELECT * FROM scheme_scores WHERE scheme = 'strict' AND submission = 'submission' ORDER BY position",
    )
    assert [row["categories"] for row in report] == [row["scope"] for row in expected]
    for got, row in zip(report, expected):
        assert [got[key] for key in COUNTS[:5]] == [row[key] for key in COUNTS[:5]]
        assert (got["recall"], got["precision"], got["f1"]) == (row["recall"], row["precision"], row["f1"])
        assert "|scheme:strict|" in got["signature"]
    default = json.loads(run("leaderboard", "--db", built_db, "--split", "train", "--format", "json").stdout)
    assert all("|scheme:shared-task|" in row["signature"] for row in default)
    result = run("leaderboard", "--db", built_db, "--split", "train", "--scheme", "char-soft", "--format", "json")
    rows = json.loads(result.stdout)
    # the gold list's copies tie first, the box-score checker's list is third, the example's three copies tie fourth
    assert [(row["rank"], row["submission"] == "boxscore") for row in rows] == [
        (1, False),
        (1, False),
        (3, True),
        (4, False),
        (4, False),
        (4, False),
    ]
    assert all("|scheme:char-soft|" in row["signature"] and "correct" not in row for row in rows)


def test_an_imported_corpus_is_scored_in_its_own_scopes(built_db, built, tmp_path):
    """A corpus folder (tests/test_corpus_files.py's, its second category renamed NAME, a name the shared task has
    too) imported beside the shared task: every scheme scores it in ALL and its own two categories, as the
    references do; the shared task's figures are unchanged; `leaderboard --corpus --scheme` ranks it."""
    shared_task_before = scores.fetch_dicts(
        built, "SELECT * EXCLUDE (corpus) FROM scheme_scores WHERE corpus = 'shared-task' ORDER BY ALL"
    )
    renamed = [dict(span, category="NAME" if span["category"] == "Unsupported" else span["category"]) for span in GOLD]
    metric = [dict(span, category="NAME" if span["category"] == "Unsupported" else span["category"]) for span in METRIC]
    folder = corpus_folder(tmp_path, gold=renamed, metric=metric, categories="- name: Wrong\n- name: NAME\n")
    db = tmp_path / "accuracy.duckdb"
    shutil.copyfile(built_db, db)
    assert run("import", "corpus", "--db", db, folder).returncode == 0
    con = database.open_existing(db)
    try:
        assert assert_corpus_scores_like_the_references(con, "weather", ("Wrong", "NAME")) == 1
        assert (
            scores.fetch_dicts(
                con, "SELECT * EXCLUDE (corpus) FROM scheme_scores WHERE corpus = 'shared-task' ORDER BY ALL"
            )
            == shared_task_before
        )
        strict = scores.fetch_dicts(
            con, "SELECT * FROM scheme_leaderboard WHERE corpus = 'weather' AND scheme = 'strict' AND scope = 'NAME'"
        )
    finally:
        con.close()
    result = run(
        "leaderboard", "--db", db, "--corpus", "weather", "--scope", "NAME", "--scheme", "strict", "--format", "json"
    )
    assert result.returncode == 0, result.stderr
    (row,) = json.loads(result.stdout)
    (expected,) = strict
    assert row["submission"] == expected["submission"] == "metric"
    assert [row[key] for key in ("rank", "recall", "precision", "f1", *COUNTS[:5])] == [
        expected[key] for key in ("rank", "recall", "precision", "f1", *COUNTS[:5])
    ]
    assert "|scheme:strict|" in row["signature"] and row["signature"].endswith("|scope:NAME")
