"""The SQL views score exactly like the plain-Python oracle, on generated span lists.

Spans are drawn small and close together so that the hard cases come up all the time: a submitted span
that touches two gold mistakes, gold spans split or merged by the submission, adjacent spans, long runs
of shared candidates, spans that run on into the next sentence, texts with no mistakes at all, and categories
with nothing in them.
"""

from __future__ import annotations

from dataclasses import replace

import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracle import CATEGORIES, Span, matches, score

from accuracy_db.scoring import scores
from accuracy_db.store import database

TEXTS = ("S001", "S002", "S003")

SHORT_SPANS = st.integers(1, 4)  # tokens a span marks


@st.composite
def span_lists(draw, first_key: int, lengths=SHORT_SPANS, most_per_text: int = 12) -> list[Span]:
    """Disjoint spans over a few texts: each text is a walk of (gap, length) steps."""
    spans = []
    categories = draw(st.lists(st.sampled_from(CATEGORIES), min_size=1, max_size=3, unique=True))
    for text_id in draw(st.lists(st.sampled_from(TEXTS), max_size=3, unique=True)):
        position = 1
        for gap, length in draw(st.lists(st.tuples(st.integers(0, 3), lengths), max_size=most_per_text)):
            start = position + gap
            spans.append(
                Span(first_key + len(spans), text_id, start, start + length - 1, draw(st.sampled_from(categories)))
            )
            position = start + length
    return spans


@st.composite
def evaluations(draw) -> tuple[list[Span], list[list[Span]]]:
    """A gold list and one to five submissions."""
    gold = draw(span_lists(first_key=1))
    submissions = [draw(span_lists(first_key=1000 * (i + 1))) for i in range(draw(st.integers(1, 5)))]
    return gold, submissions


@pytest.fixture(scope="module")
def con():
    con = database.open_new(None)
    yield con
    con.close()


def neighbours(spans: list[Span]) -> dict[int, tuple[int, int]]:
    """Span key -> (previous_end, next_start), as the loader stores them: where the list's previous span in the
    text ends (0 for none) and its next one starts (past the text's end for none)."""
    found = {}
    for text_id in {s.text_id for s in spans}:
        in_text = sorted((s for s in spans if s.text_id == text_id), key=lambda s: s.start)
        for i, span in enumerate(in_text):
            previous_end = in_text[i - 1].end if i else 0
            next_start = in_text[i + 1].start if i + 1 < len(in_text) else 10**6
            found[span.key] = (previous_end, next_start)
    return found


SENTENCE = 5  # tokens a sentence in the generated texts: many spans run on into the next sentence


def sentence_ids(span: Span) -> tuple[int, int, int]:
    """SENTENCE_ID, SENT_TOKEN_START and SENT_TOKEN_END as the loader derives them from document ids: the sentence
    of the first token, and each end counted in its own token's sentence."""
    return (span.start - 1) // SENTENCE + 1, (span.start - 1) % SENTENCE + 1, (span.end - 1) % SENTENCE + 1


def load(con, gold: list[Span], submissions: list[list[Span]], with_neighbours: bool = True) -> list[int]:
    """Replace the database's mistake lists by these, and score them (as a refresh
    does); return the submissions' set ids. Without their neighbours, no overlap is known to be one to one, and
    every gold mistake is matched the contested way."""
    (submission_ids,) = load_cases(con, [(gold, submissions)], with_neighbours)
    return submission_ids


def load_cases(con, cases: list[tuple[list[Span], list[list[Span]]]], with_neighbours: bool = True) -> list[list[int]]:
    """load() for several cases at once, each a gold list and its submissions in a split of its own (the views'
    fixed cost is paid once for them all, and no list may see another split's); the set ids of each case's
    submissions."""
    database.forget(con, [set_id for (set_id,) in con.execute("SELECT set_id FROM annotation_sets").fetchall()])
    con.execute("DELETE FROM mistakes; DELETE FROM annotation_sets")
    set_id, case_ids, sets, rows = 0, [], [], []
    for number, (gold, submissions) in enumerate(cases):
        split = "train" if len(cases) == 1 else f"case{number}"
        lists = [("gold", "gold", gold)] + [("submission", f"s{i}", spans) for i, spans in enumerate(submissions)]
        case_ids.append([])
        for kind, name, spans in lists:
            set_id += 1
            sets.append((set_id, kind, name, split, "generated", "", len(spans)))
            around = neighbours(spans) if with_neighbours else {}
            rows += [
                (s.key, set_id, line, s.text_id, *sentence_ids(s), s.start, s.end, s.category)
                + around.get(s.key, (None, None))
                for line, s in enumerate(spans, start=2)
            ]
            if kind == "submission":
                case_ids[-1].append(set_id)
    insert(con, "annotation_sets", ["set_id", "kind", "name", "split", "source_file", "sha256", "row_count"], sets)
    insert(con, "mistakes", MISTAKE_COLUMNS, rows)
    database.materialize(con, [set_id for ids in case_ids for set_id in ids])
    return case_ids


def insert(con, table: str, columns: list[str], rows: list[tuple]) -> None:
    """INSERT the rows INTO table, in one statement (executemany took most of a small case's time)."""
    if rows:
        frame = pa.table({column: [row[i] for row in rows] for i, column in enumerate(columns)})  # noqa: F841 (SQL)
        con.execute(f"INSERT INTO {table} ({', '.join(columns)}) SELECT * FROM frame")


MISTAKE_COLUMNS = [
    *("mistake_id", "set_id", "line_number", "text_id", "sentence_id", "sent_token_start", "sent_token_end"),
    *("doc_token_start", "doc_token_end", "category", "previous_end", "next_start"),
]
CASE_KEYS = 100_000  # mistake keys a case may use: case n's keys are moved up by n times this


def case_of_its_own(case: tuple[list[Span], list[list[Span]]], number: int):
    """A case of a batch on texts and keys of its own: its text ids suffixed with its number, its keys moved."""

    def moved(spans: list[Span]) -> list[Span]:
        return [replace(s, key=s.key + number * CASE_KEYS, text_id=f"{s.text_id}-{number}") for s in spans]

    gold, submissions = case
    return moved(gold), [moved(spans) for spans in submissions]


def scored_by_views(con) -> tuple[dict, dict]:
    """Every submission's report, and which submitted mistake each gold mistake took in each scope."""
    reports: dict[int, list[dict]] = {}
    for row in scores.fetch_dicts(con, "SELECT * FROM scores ORDER BY submission_id, position"):
        figures = {key: row[key] for key in scores.REPORT_KEYS if key not in ("f1", "token_f1")}
        reports.setdefault(row["submission_id"], []).append({"categories": row["scope"], **figures})
    taken: dict[tuple[int, str], dict] = {}
    for submission_id, scope, gold_key, submitted_key in con.execute(
        "SELECT submission_id, scope, gold_mistake_id, submitted_mistake_id FROM mistake_matches"
    ).fetchall():
        taken.setdefault((submission_id, scope), {})[gold_key] = submitted_key
    return reports, taken


# Cases come in batches of up to 18 (about 380 cases in all), each case in a split of its own: the views' fixed cost
# is paid once a batch, and a list that saw another split's would be caught.
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@pytest.mark.parametrize("with_neighbours", [True, False], ids=["loaded", "without neighbours"])
@given(st.lists(evaluations(), min_size=1, max_size=18))
def test_the_views_score_like_the_oracle(con, with_neighbours, cases):
    cases = [case_of_its_own(case, number) for number, case in enumerate(cases)]
    case_ids = load_cases(con, cases, with_neighbours)
    reports, taken = scored_by_views(con)
    for (gold, submissions), submission_ids in zip(cases, case_ids):
        for submission_id, submitted in zip(submission_ids, submissions):
            assert reports[submission_id] == score(gold, submitted)
            for scope in ("ALL",) + CATEGORIES:
                scoped_gold = [s for s in gold if scope in ("ALL", s.category)]
                scoped_submitted = [s for s in submitted if scope in ("ALL", s.category)]
                assert taken.get((submission_id, scope), {}) == matches(scoped_gold, scoped_submitted)


def spans(text: str, first_key: int = 1) -> list[Span]:
    """Spans drawn as text: '[..]' marks a span over positions 1, 2, …; '.' is an unmarked token."""
    found, start = [], None
    for position, char in enumerate(text, start=1):
        if char == "[":
            start = position
        elif char == "]":
            found.append(Span(first_key + len(found), "S001", start, position, "NAME"))
    return found


@pytest.mark.parametrize(
    "gold, submitted, taken",
    [
        # One submitted span over two gold mistakes is used once: the second gold mistake is missed.
        ("[][]", "[  ]", {1: 101, 2: None}),
        # A gold mistake split in two by the submission takes the left part; the right part is left over.
        ("[  ]", "[][]", {1: 101}),
        # The carry: each gold mistake's first candidate was taken by the one before, so each takes its second.
        ("[][  ][  ][  ]", "[  ][  ][  ][]", {1: 101, 2: 102, 3: 103, 4: 104}),
        # A gold mistake with three candidates takes the first free one and leaves the shared last one free.
        ("[    ][]", "[][][  ]", {1: 101, 2: 103}),
    ],
)
def test_worked_examples(con, gold, submitted, taken):
    gold_spans, submitted_spans = spans(gold), spans(submitted, first_key=101)
    assert matches(gold_spans, submitted_spans) == taken  # the oracle reads the examples the same way
    (submission_id,) = load(con, gold_spans, [submitted_spans])
    rows = con.execute(
        "SELECT gold_mistake_id, submitted_mistake_id FROM mistake_matches WHERE scope = 'ALL' AND submission_id = ?",
        [submission_id],
    ).fetchall()
    assert dict(rows) == taken
