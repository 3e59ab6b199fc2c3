"""Random SQL at the guard (hypothesis): whatever the text, the guard answers with a checked query or a one-line
refusal, quickly, never another exception; and a random query run through accuracy_db.query() returns rows or
one line, and leaves the database file as it was."""

from __future__ import annotations

import hashlib
import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import accuracy_db
from accuracy_db.errors import AccuracyDbError
from accuracy_db.sqlbox.guard import check_query

WORDS = [
    "SELECT", "FROM", "WHERE", "WITH", "AS", "UNION", "ALL", "JOIN", "ON", "GROUP", "BY", "ORDER", "LIMIT", "INSERT",
    "INTO", "DELETE", "UPDATE", "SET", "DROP", "TABLE", "ATTACH", "COPY", "PRAGMA", "CALL", "INSTALL", "LOAD",
    "scores", "mistakes", "texts", "recall", "*", "(", ")", ",", ";", "'", "''", '"', "--", "/*", "*/", "$1", "$x",
    "1", "0.5", "NULL", "read_csv('/etc/passwd')", "query('SELECT 1')", "repeat('x', 10)", "B''", "x''", "E'\\\\'",
    "range(3)", "unnest([1, 2])", "::INTEGER", "||", "CASE", "WHEN", "THEN", "END", "NOT", "IN", "EXISTS",
]  # fmt: skip
sql_texts = st.one_of(
    st.text(max_size=300),
    st.lists(st.sampled_from(WORDS), max_size=40).map(" ".join),
    st.builds(lambda a, b: f"SELECT {a} FROM {b}", st.sampled_from(WORDS), st.sampled_from(WORDS)),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sql=sql_texts)
def test_the_guard_answers_any_text_quickly_with_a_query_or_one_line(sql):
    started = time.perf_counter()
    try:
        checked = check_query(sql)
    except AccuracyDbError as error:
        assert str(error) and "\n" not in str(error), repr(str(error))
    else:
        assert isinstance(checked, str)
    assert time.perf_counter() - started < 5


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(sql=st.lists(st.sampled_from(WORDS), min_size=1, max_size=12).map(lambda words: "SELECT " + " ".join(words)))
def test_a_random_query_returns_rows_or_one_line_and_changes_nothing(built_db, sql):
    before = hashlib.sha256(built_db.read_bytes()).hexdigest()
    try:
        accuracy_db.query(sql, db=built_db, timeout=10)
    except AccuracyDbError as error:
        assert str(error) and "\n" not in str(error), repr(str(error))
    assert hashlib.sha256(built_db.read_bytes()).hexdigest() == before
