"""The limits of the SQL box hold: hostile queries through `accuracy-db query` and accuracy_db.query() are stopped
or refused in one line, without a traceback, and the memory they reach is bounded, measured as real processes'
peak resident memory (getrusage). Each hostile query is sized to be stopped within a few seconds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from accuracy_db.errors import AccuracyDbError
from accuracy_db.sqlbox.guard import MAX_NESTING, QueryRefused, check_query
from accuracy_db.sqlbox.sandbox import CHILD_ADDRESS_SPACE, run_query

MB = 2**20
DEFAULT_BYTES = 50_000_000
# The sandbox's address space caps its resident memory; the caller (the CLI's or a notebook's process) stays near
# its idle size: it holds a result of at most the byte bound.
SANDBOX_BOUND = CHILD_ADDRESS_SPACE + DEFAULT_BYTES
CALLER_BOUND = 600 * MB
MEMORY = "the query needed more than 1GB of memory and was stopped"
TOO_LARGE = "the result passed the bound of 50 MB within rows "

# (query, what the one line starts with): huge strings, huge lists, wide rows, string_agg of everything, memory
# DuckDB does not account for, and one function call DuckDB cannot interrupt.
HOSTILE = [
    ("SELECT repeat('x', 60000000) AS huge", TOO_LARGE + "1–1 and was refused"),
    ("SELECT repeat('x', 1500000000) AS huge", MEMORY),
    ("SELECT len(range(200000000)) AS n", MEMORY),
    ("SELECT unnest(generate_series(1, 200000000)) AS x ORDER BY x DESC LIMIT 3", MEMORY),
    ("SELECT list(range) AS numbers FROM range(10000000)", TOO_LARGE + "1–1 and was refused"),
    ("SELECT repeat('x', 1000) AS a, repeat('y', 1000) AS b, range FROM range(200000)", TOO_LARGE),
    ("SELECT string_agg(generated_text, ' ') AS everything FROM texts, range(400)", TOO_LARGE + "1–1"),
    ("SELECT levenshtein(repeat('a', 500000), repeat('b', 500000)) AS d", "the query ran longer than 2 s"),
]
# Each query's time limit: 2 s for the one that must be stopped by it; for the others a limit they never reach,
# even on a loaded machine, so that what stops them is the bound they are there to test.
TIMEOUTS = [2 if "levenshtein" in sql else 60 for sql, _ in HOSTILE]


def measured(code: str) -> dict:
    """Run Python code in a process of its own; what it printed (JSON) and the peak resident memory of that
    process (self) and of every process it waited for (children), in bytes."""
    wrapper = textwrap.dedent(
        """
        import json, resource, sys
        exec(sys.argv[1])
        usage = resource.getrusage
        # This process's own peak from /proc (VmHWM, reset by exec): ru_maxrss would keep the peak of the process
        # it was forked from (pytest, hundreds of MB into the suite), which Linux carries across exec.
        status = dict(line.split(":", 1) for line in open("/proc/self/status").read().splitlines())
        peaks = {"self": int(status["VmHWM"].split()[0]) * 1024,
                 "children": usage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024}
        print(json.dumps({"outcome": outcome, "peaks": peaks}))
        """
    )
    done = subprocess.run([sys.executable, "-c", wrapper, code], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_hostile_queries_through_the_command_are_refused_in_one_line_with_bounded_memory(built_db):
    code = f"""
import subprocess, sys
outcome = []
for sql, timeout in {[(sql, timeout) for (sql, _), timeout in zip(HOSTILE, TIMEOUTS)]!r}:
    done = subprocess.run([sys.executable, "-m", "accuracy_db", "query", sql, "--db", {str(built_db)!r},
                           "--timeout", str(timeout), "--limit", "0"], capture_output=True, text=True, timeout=300)
    outcome.append([done.returncode, done.stdout, done.stderr])
"""
    result = measured(code)
    for (sql, expected), (status, stdout, stderr) in zip(HOSTILE, result["outcome"]):
        assert status == 1, (sql, stderr)
        assert stdout == ""
        assert "Traceback" not in stderr
        assert len(stderr.splitlines()) == 1, stderr
        assert stderr.startswith(f"error: {expected}"), (sql, stderr)
    assert result["peaks"]["children"] < SANDBOX_BOUND
    print(f"accuracy-db query, hostile queries: peak {result['peaks']['children'] / MB:.0f} MB")


def test_hostile_queries_through_the_python_api_leave_the_callers_memory_alone(built_db):
    code = f"""
import accuracy_db
from accuracy_db.errors import AccuracyDbError
outcome = []
for sql, timeout in {[(sql, timeout) for (sql, _), timeout in zip(HOSTILE, TIMEOUTS)]!r}:
    try:
        accuracy_db.query(sql, db={str(built_db)!r}, timeout=timeout, limit=None)
        outcome.append("no refusal")
    except AccuracyDbError as error:
        outcome.append(str(error))
"""
    result = measured(code)
    for (sql, expected), message in zip(HOSTILE, result["outcome"]):
        assert message.startswith(expected), (sql, message)
        assert "\n" not in message and "--" not in message
    assert result["peaks"]["self"] < CALLER_BOUND
    assert result["peaks"]["children"] < SANDBOX_BOUND
    print(
        f"accuracy_db.query(), hostile queries: caller's peak {result['peaks']['self'] / MB:.0f} MB, "
        f"the queries' processes' {result['peaks']['children'] / MB:.0f} MB"
    )


def test_the_api_says_how_to_raise_the_bound_in_its_own_terms(built_db):
    with pytest.raises(QueryRefused) as caught:
        __import__("accuracy_db").query("SELECT repeat('x', 2000000) AS s", db=built_db, max_bytes=1_000_000)
    assert str(caught.value) == (
        "the result passed the bound of 1 MB within rows 1–1 and was refused: ask for fewer rows or columns, "
        "or shorter values (left(text, 100)); max_bytes= raises the bound"
    )


@pytest.mark.parametrize(
    "rows, limit, kept, truncated",
    [
        (0, 5, 0, False),
        (1024, 1024, 1024, False),
        (1025, 1024, 1024, True),
        (3000, 2049, 2049, True),
        (7, None, 7, False),
    ],
)
def test_the_row_limit_is_exact_across_record_batches(built_db, rows, limit, kept, truncated):
    result = run_query(built_db, f"SELECT range AS n FROM range({rows})", limit=limit)
    assert result.frame["n"].to_list() == list(range(kept))
    assert result.truncated is truncated


def test_the_byte_bound_counts_every_row_up_to_it(built_db):
    # 100 rows of 10,000 bytes: about 1 MB of text, refused under 0.5 MB, returned whole under 2 MB
    sql = "SELECT repeat('x', 10000) AS s FROM range(100)"
    assert run_query(built_db, sql, max_bytes=2_000_000).frame.height == 100
    with pytest.raises(QueryRefused, match=r"^the result passed the bound of 0.5 MB within rows 1–100"):
        run_query(built_db, sql, max_bytes=500_000)


@pytest.mark.parametrize(
    "sql, message",
    [
        ("SELECT 1 " + " " * 5_000_000, "the query is 5,000,009 characters long; at most 100,000 are read"),
        (
            "SELECT " + "(" * 3000 + "1" + ")" * 3000,
            f"the query nests parentheses 3000 deep; at most {MAX_NESTING} are read",
        ),
        ("SELECT " + "NOT " * 3000 + "true", "the query is nested too deeply to be checked"),
        ("SELECT " + "CASE WHEN true THEN " * 600 + "1" + " END" * 600, "the query is nested too deeply to be checked"),
    ],
)
def test_size_and_nesting_are_refused_before_or_instead_of_a_recursion_error(sql, message):
    with pytest.raises(QueryRefused) as caught:
        check_query(sql)
    assert str(caught.value) == message


def test_parentheses_in_strings_and_comments_do_not_count_as_nesting():
    deep_text = "'" + "(" * 500 + "'"
    assert check_query(f"SELECT {deep_text} AS s -- {'(' * 500}").startswith(f"SELECT {deep_text} AS s")


@pytest.mark.parametrize(
    "sql, message",
    [
        ("selec 1", 'syntax error: syntax error at or near "selec" (line 1, column 1)'),
        ("SELECT 1\nFROM", 'syntax error: syntax error at or near "FROM" (line 2, column 1)'),
        ("SELECT 'abc", "syntax error: unterminated string literal (line 1, column 8)"),
        ("SELECT B''", "the guard cannot read this SQL at line 1, column 10, near \"''\": write that part another way"),
        (
            "SELECT x'41'",
            "the guard cannot read this SQL at line 1, column 12, near \"'41'\": write that part another way",
        ),
    ],
)
def test_a_parse_error_reads_as_a_syntax_error_with_its_place(sql, message):
    with pytest.raises(QueryRefused) as caught:
        check_query(sql)
    assert str(caught.value) == message


def test_a_pivot_that_needs_a_query_of_its_own_says_to_list_its_values(built_db):
    with pytest.raises(QueryRefused, match=r"list them, as in ON category IN \('NAME'\)$"):
        check_query("PIVOT categories ON category USING count(*)")
    pivot = "PIVOT (SELECT category FROM categories) ON category IN ('NAME', 'WORD') USING count(*)"
    assert run_query(built_db, pivot).frame.rows() == [(1, 1)]


@pytest.mark.parametrize("timeout", ["inf", "nan", "-1", "0", "1e300"])
def test_a_time_limit_that_is_not_a_number_of_seconds_is_one_line(built_db, timeout):
    done = subprocess.run(
        [sys.executable, "-m", "accuracy_db", "query", "SELECT 1", "--db", str(built_db), "--timeout", timeout],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("error: the time limit must be more than 0 and at most 86400 seconds, not ")
    assert len(done.stderr.splitlines()) == 1


@pytest.mark.parametrize("timeout", [float("inf"), float("nan"), -1, True, "10"])
def test_the_api_refuses_such_a_time_limit_without_speaking_of_flags(built_db, timeout):
    with pytest.raises(AccuracyDbError) as caught:
        __import__("accuracy_db").query("SELECT 1", db=built_db, timeout=timeout)
    assert str(caught.value).startswith("the time limit must be ") and "--" not in str(caught.value)


def test_the_api_without_a_database_does_not_speak_of_flags(tmp_path, monkeypatch):
    monkeypatch.setenv("ACCURACY_DB_PATH", str(tmp_path / "missing.duckdb"))
    for call in (lambda: __import__("accuracy_db").query("SELECT 1"), lambda: __import__("accuracy_db").connect()):
        with pytest.raises(AccuracyDbError) as caught:
            call()
        assert str(caught.value).startswith(f"no database at {tmp_path / 'missing.duckdb'}")
        assert "--" not in str(caught.value)


# --- the spare process the dashboard keeps (sandbox.run's keep_spare) ---


@pytest.fixture
def started_children(monkeypatch):
    """The ids of the query processes started while the test runs; the spare left waiting is ended afterwards."""
    from accuracy_db.sqlbox import sandbox

    started = []
    sandbox.end_spare()  # one an earlier test left (the dashboard's tests run the SQL page)

    def start_child(**options):
        child = original(**options)
        started.append(child.pid)
        return child

    original = sandbox.start_child
    monkeypatch.setattr(sandbox, "start_child", start_child)
    yield started
    sandbox.end_spare()


def wait_for_spare(started: list[int], count: int) -> int:
    """The id of the spare once count processes have been started (the spare is started by a thread of its own)."""
    from accuracy_db.sqlbox import sandbox

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        spare = sandbox.spare_pid()
        if len(started) >= count and spare is not None:
            return spare
        time.sleep(0.05)
    raise AssertionError("no spare process was started")


def running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").read_text().split(") ")[-1][0] != "Z"


def test_a_spare_process_answers_the_next_query_and_another_is_started(built_db, started_children):
    sql = "SELECT split, count(*) AS texts FROM texts GROUP BY split ORDER BY split"
    fresh = run_query(built_db, sql)  # a process of its own
    first = run_query(built_db, sql, keep_spare=True)  # no spare yet: a process of its own, and a spare started
    spare = wait_for_spare(started_children, 3)
    assert spare in started_children[1:3]  # started beside the first query's own process
    second = run_query(built_db, sql, keep_spare=True)
    assert first.frame.equals(fresh.frame) and second.frame.equals(fresh.frame)
    assert not running(spare)  # it answered, and ended
    assert wait_for_spare(started_children, 4) == started_children[3]  # the next spare, and no process for the query
    assert len(started_children) == 4


@pytest.mark.parametrize("sql, expected", [HOSTILE[1], HOSTILE[2], HOSTILE[-1]])
def test_a_spare_process_is_held_to_the_same_limits(built_db, started_children, sql, expected):
    run_query(built_db, "SELECT 1 AS one", keep_spare=True)
    spare = wait_for_spare(started_children, 2)
    with pytest.raises(AccuracyDbError) as caught:
        run_query(built_db, sql, timeout=2 if "levenshtein" in sql else 60, limit=None, keep_spare=True)
    assert str(caught.value).startswith(expected)
    assert not running(spare) and spare not in started_children[2:]  # the spare ran it


def test_a_spare_process_ends_with_the_process_that_started_it(built_db):
    code = f"""
import time
from accuracy_db.sqlbox import sandbox
from accuracy_db.sqlbox.sandbox import run_query
run_query({str(built_db)!r}, "SELECT 1 AS one", keep_spare=True)
while sandbox.spare_pid() is None:
    time.sleep(0.05)
print(sandbox.spare_pid())
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    spare = int(done.stdout.split()[-1])
    deadline = time.monotonic() + 30
    while running(spare) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not running(spare)


def test_ending_the_spare_process_ends_it_and_leaves_none_waiting(built_db, started_children):
    from accuracy_db.sqlbox import sandbox

    run_query(built_db, "SELECT 1 AS one", keep_spare=True)
    spare = wait_for_spare(started_children, 2)
    sandbox.end_spare()
    assert sandbox.spare_pid() is None and not running(spare)
    assert run_query(built_db, "SELECT 1 AS one", keep_spare=True).frame["one"].to_list() == [1]  # in a new process
