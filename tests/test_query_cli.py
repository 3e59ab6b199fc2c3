"""accuracy-db query as people run it: a process, its output, its exit status, and one line on refusal."""

from __future__ import annotations

import csv
import io
import json
import os
import pickle
import re
import subprocess
import sys

import polars as pl
import pytest

from accuracy_db.errors import AccuracyDbError
from accuracy_db.store.analyses import saved_analyses


def accuracy_db(*args, db=None) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "accuracy_db", "query", *map(str, args)]
    if db is not None:
        command += ["--db", str(db)]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def refusal(result: subprocess.CompletedProcess) -> str:
    """The one line a refused query prints, after checking the exit status and that there is nothing else."""
    assert result.returncode == 1
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_a_write_hidden_in_a_with_clause_is_refused_in_one_line(built_db):
    result = accuracy_db("WITH x AS (DELETE FROM mistakes RETURNING *) SELECT * FROM x", db=built_db)
    assert refusal(result) == (
        "error: DELETE (inside a WITH clause) refused: it changes data; only one query that reads runs here"
    )


def test_reading_a_file_is_refused_in_one_line(built_db):
    line = refusal(accuracy_db("SELECT * FROM read_csv('/etc/passwd')", db=built_db))
    assert line == "error: read_csv() refused: it reads files, other databases or Python objects"


def test_a_query_over_the_time_limit_is_stopped(built_db):
    result = accuracy_db(
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r",
        "--timeout",
        "1",
        db=built_db,
    )
    assert refusal(result) == "error: the query ran longer than 1 s and was stopped"


def test_the_list_names_every_saved_analysis_with_its_question_and_parameters(built_db):
    result = accuracy_db("--list", "--format", "json")
    assert result.returncode == 0, result.stderr
    listed = {row["name"]: row for row in json.loads(result.stdout)}
    assert set(listed) == {analysis.name for analysis in saved_analyses()}
    assert listed["per_text_scores"]["parameters"] == "submission"
    assert listed["disagreements"]["parameters"] == "first second"
    assert listed["missed_by_every_submission"]["question"] == (
        "Which gold mistakes did every submission of their split miss?"
    )


def test_a_saved_analysis_runs_with_its_parameters(built_db):
    result = accuracy_db(
        "--saved", "per_text_scores", "--param", "submission=submission", "--format", "csv", db=built_db
    )
    assert result.returncode == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert len(rows) == 60
    assert rows[0] == {
        "text_id": "S001",
        "gold": "16",
        "submitted": "12",
        "matched": "8",
        "recall": "0.5",
        "precision": "0.6666666666666666",
    }


def test_a_saved_analysis_without_its_parameter_says_which(built_db):
    assert refusal(accuracy_db("--saved", "false_alarms", db=built_db)) == (
        "error: the query needs a value for $submission"
    )


def test_an_unknown_saved_analysis_suggests_the_closest(built_db):
    line = refusal(accuracy_db("--saved", "per_text_score", db=built_db))
    assert line.startswith("error: no saved analysis named 'per_text_score': did you mean per_text_scores?")


def test_latex_is_a_booktabs_tabular_with_three_decimals_and_escaped_underscores(built_db):
    result = accuracy_db(
        "SELECT submission, recall, precision FROM leaderboard WHERE scope = 'ALL' AND submission LIKE 'sub%' "
        "ORDER BY submission",
        "--format",
        "latex",
        db=built_db,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == "\n".join(
        [
            r"\begin{tabular}{lrr}",
            r"\toprule",
            r"submission & recall & precision \\",
            r"\midrule",
            r"submission & 0.288 & 0.613 \\",
            r"submission\_doc\_based & 0.288 & 0.613 \\",
            r"submission\_sent\_based & 0.288 & 0.613 \\",
            r"\bottomrule",
            r"\end{tabular}",
            "",
        ]
    )


def test_a_cut_result_says_so_on_stderr(built_db):
    result = accuracy_db("SELECT text_id FROM texts ORDER BY text_id", "--limit", "3", "--format", "csv", db=built_db)
    assert result.returncode == 0
    assert result.stdout == "text_id\nS001\nS002\nS003\n"
    assert "more than 3 rows" in result.stderr


def test_parquet_goes_to_a_file(built_db, tmp_path):
    out = tmp_path / "categories.parquet"
    result = accuracy_db("SELECT * FROM categories ORDER BY position", "--format", "parquet", "-o", out, db=built_db)
    assert result.returncode == 0, result.stderr
    assert pl.read_parquet(out)["category"].to_list() == [
        "NAME",
        "NUMBER",
        "WORD",
        "CONTEXT",
        "NOT_CHECKABLE",
        "OTHER",
    ]
    usage = accuracy_db("SELECT 1", "--format", "parquet", db=built_db)
    assert usage.returncode == 2
    assert "--format parquet needs --output FILE" in usage.stderr


def test_a_query_in_a_file_in_another_dialect(built_db, tmp_path):
    query = tmp_path / "per_split.sql"
    query.write_text("SELECT split, COUNT(*)::int AS texts FROM texts GROUP BY split ORDER BY split;\n")
    result = accuracy_db("-f", query, "--dialect", "postgres", "--format", "json", db=built_db)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == [{"split": "test", "texts": 30}, {"split": "train", "texts": 60}]


@pytest.mark.parametrize(
    "args", [(), ("SELECT 1", "--saved", "false_alarms"), ("--saved", "false_alarms", "--dialect", "postgres")]
)
def test_exactly_one_query_must_be_given(built_db, args):
    result = accuracy_db(*args, db=built_db)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


def test_importing_the_package_loads_neither_polars_nor_sqlglot():
    code = "import sys, accuracy_db.cli.main; print(sorted({'polars', 'sqlglot'} & set(sys.modules)))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "[]"


def test_a_file_gets_every_row_unless_a_limit_is_given(built_db, tmp_path):
    out = tmp_path / "rows.csv"
    whole = accuracy_db("SELECT range AS n FROM range(12000)", "--format", "csv", "-o", out, db=built_db)
    assert whole.returncode == 0 and whole.stderr == ""
    assert out.read_text().splitlines() == ["n", *map(str, range(12000))]
    cut = accuracy_db(
        "SELECT range AS n FROM range(12000)", "--format", "csv", "-o", out, "--limit", "5", "--force", db=built_db
    )
    assert out.read_text().splitlines() == ["n", "0", "1", "2", "3", "4"]
    assert "more than 5 rows; only the first 5 are given (--limit)" in cut.stderr


def test_on_the_terminal_the_default_cap_is_stated_and_limit_0_lifts_it(built_db):
    capped = accuracy_db("SELECT range AS n FROM range(10005)", "--format", "csv", db=built_db)
    assert len(capped.stdout.splitlines()) == 1 + 10_000
    assert "more than 10,000 rows" in capped.stderr
    whole = accuracy_db("SELECT range AS n FROM range(10005)", "--format", "csv", "--limit", "0", db=built_db)
    assert len(whole.stdout.splitlines()) == 1 + 10_005 and whole.stderr == ""


def test_the_tables_caption_states_the_cut_and_long_values_are_cut_for_display(built_db):
    result = accuracy_db("SELECT range AS n, repeat('x', 5000) AS long FROM range(4)", "--limit", "3", db=built_db)
    assert result.returncode == 0
    assert "the result has more than 3 rows; only the first 3 are given (--limit)" in result.stdout
    assert "3 values longer than 1,000 characters are cut (…); the other formats give them whole" in result.stdout
    assert "x" * 1001 not in result.stdout.replace("\n", "").replace("│", "").replace(" ", "")
    whole = accuracy_db("SELECT repeat('x', 5000) AS long", "--format", "json", db=built_db)
    assert json.loads(whole.stdout) == [{"long": "x" * 5000}]


def test_a_result_over_the_byte_bound_is_one_line_naming_the_flag(built_db):
    line = refusal(accuracy_db("SELECT repeat('x', 2000000) AS s", "--max-bytes", "1MB", db=built_db))
    assert line == (
        "error: the result passed the bound of 1 MB within rows 1–1 and was refused: ask for fewer rows or columns, "
        "or shorter values (left(text, 100)); --max-bytes raises the bound"
    )
    usage = accuracy_db("SELECT 1", "--max-bytes", "lots", db=built_db)
    assert usage.returncode == 2 and "'lots' is not a size such as 50MB or 2GB" in usage.stderr


@pytest.mark.parametrize("sql", ["SELECT B''", "SELECT b'01'", "SELECT x''", "SELECT X'4142'", "selec 1"])
def test_dialect_literals_and_typos_are_one_line(built_db, sql):
    assert refusal(accuracy_db(sql, db=built_db)).startswith(("error: syntax error", "error: the guard cannot read"))


def test_one_variable_names_the_database_for_every_command_and_the_api(built_db, tmp_path):
    env = {**os.environ, "ACCURACY_DB_PATH": str(built_db)}
    for args in (["query", "SELECT count(*) AS n FROM texts", "--format", "csv"], ["leaderboard", "--format", "json"]):
        done = subprocess.run(
            [sys.executable, "-m", "accuracy_db", *args],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=tmp_path,
            env=env,
        )
        assert done.returncode == 0, done.stderr
    code = "import accuracy_db; print(accuracy_db.query('SELECT count(*) AS n FROM texts')['n'][0])"
    api = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=tmp_path, env=env
    )
    assert api.stdout.strip() == "90", api.stderr


# What a plain query needs, in each of its processes; the rest is imported only by what asks for it. The command
# (the parent) runs no SQL itself and reads a small plain answer as JSON, without polars or pyarrow; the query's
# process reads the database with DuckDB, checks the SQL with sqlglot and counts the result in Arrow, without numpy
# or the store (the guard reads the figure macros' names from sql_parse).
NEVER = {"streamlit", "scipy", "pandas", "sklearn", "altair", "statsmodels", "orjson", "yaml", "numpy"}
COMMAND_NEVER = NEVER | {"duckdb", "sqlglot", "polars", "pyarrow", "accuracy_db.store", "accuracy_db.ingest"}
COMMAND_NEVER |= {"accuracy_db.etl"}
CHILD_NEVER = NEVER | {"polars", "rich", "click", "accuracy_db.store", "accuracy_db.ingest", "accuracy_db.etl"}

MODULES_AFTER = """
import json, sys
{run}
print(json.dumps(sorted(name for name, module in sys.modules.items() if module is not None)), file=sys.stderr)
"""


def imported(code: str, stdin: bytes = b"") -> set[str]:
    """The modules a Python process running `code` had imported when it ended (top-level packages, and the
    project's subpackages)."""
    result = subprocess.run(
        [sys.executable, "-c", MODULES_AFTER.format(run=code)], input=stdin, capture_output=True, timeout=120
    )
    assert result.returncode == 0, result.stderr.decode()[-2000:]
    modules = json.loads(result.stderr.decode().strip().splitlines()[-1])
    return {module.split(".")[0] for module in modules} | {
        ".".join(module.split(".")[:2]) for module in modules if module.startswith("accuracy_db.")
    }


def test_a_plain_query_imports_only_what_it_needs_in_each_process(built_db):
    """`accuracy-db query "SELECT 1"`: the command imports no DuckDB, sqlglot, store or loader (the query's process
    does the SQL), no polars or pyarrow (a small plain result comes as JSON), nor the dashboard's or the statistics'
    libraries; the query's process no polars, rich, numpy or store."""
    from accuracy_db.sqlbox.guard import Limits
    from accuracy_db.sqlbox.sandbox import request_for

    command = imported(f"from accuracy_db.cli.main import run; run(['query', '--db', {str(built_db)!r}, 'SELECT 1'])")
    assert {"rich", "accuracy_db.sqlbox", "accuracy_db.cli"} <= command
    assert command & COMMAND_NEVER == set()
    request = pickle.dumps(request_for(built_db, "SELECT 1", None, None, Limits()))
    child = imported("from accuracy_db.sqlbox.sandbox import child_main; child_main()", stdin=request)
    assert {"duckdb", "pyarrow", "sqlglot", "accuracy_db.sqlbox"} <= child
    assert child & CHILD_NEVER == set()


@pytest.mark.parametrize("spare", [False, True])
def test_the_query_process_checks_the_query_on_the_duckdb_it_runs_on(built_db, spare):
    """The query's process holds one DuckDB, locked down before the guard reads the query: the guard parses it,
    and lists DuckDB's functions (a figure macro is one, from the database) and views, with the query's own
    connection (DuckDB's views only for a query that reads a table or view by name); a spare (the dashboard's)
    closes the parser it warmed up with before it reads its request. A function it does not list is still
    refused."""
    from accuracy_db.sqlbox.guard import Limits
    from accuracy_db.sqlbox.sandbox import READY, WARM, request_for

    code = (
        "import sys; from accuracy_db.sqlbox.sandbox import child_main; child_main(); "
        "from accuracy_db import sql_parse; from accuracy_db.sqlbox.guard import engine_views; "
        "print(sql_parse.own_parser.cache_info().currsize, engine_views.cache_info().currsize, file=sys.stderr)"
    )
    for sql, outcome, message in [
        ("SELECT ratio(3, 4) AS r FROM duckdb_types() LIMIT 1", "ok", None),
        ("SELECT ratoi(3, 4) AS r", "refused", "unknown function ratoi(): DuckDB has no function of that name; "),
        ("SELECT * FROM pg_settings", "refused", "pg_settings refused: "),
    ]:
        views_listed = "1" if spare or "pg_settings" in sql else "0"
        request = pickle.dumps(request_for(built_db, sql, None, None, Limits(), rows=True))
        command = [sys.executable, "-c", code, *([WARM] if spare else [])]
        child = subprocess.run(command, input=request, capture_output=True, timeout=120)
        assert child.returncode == 0, child.stderr.decode()[-2000:]
        header = json.loads(child.stdout.removeprefix(READY).split(b"\n")[0])
        assert header["outcome"] == outcome, header
        assert message is None or header["message"].startswith(message), header
        assert header.get("rows", [[0.75]])[0] == [0.75]
        assert child.stderr.decode().split() == ["0", views_listed]  # no parser of its own while the query runs


SPAWNS = """
import subprocess, sys
spawned = []  # for each process started: whether click was imported by then
real = subprocess.Popen.__init__
def counted(self, *args, **kwargs):
    spawned.append("click" in sys.modules)
    real(self, *args, **kwargs)
subprocess.Popen.__init__ = counted
from accuracy_db.cli.start import main
try:
    main()
finally:
    print(spawned, file=sys.stderr)
"""


@pytest.mark.parametrize(
    ("args", "spawned"),
    [(["SELECT 41 + 1 AS n", "--format", "csv"], "[False]"), (["--help"], "[]"), (["--list"], "[]")],
)
def test_the_command_line_starts_the_query_process_before_its_own_imports(built_db, args, spawned):
    """`accuracy-db query` (the entry point, cli/start.py) starts the query's process before it imports click and
    the command's modules, and the query runs in that one process; with --help or --list it starts none."""
    command = [sys.executable, "-c", SPAWNS, "query", "--db", str(built_db), *args]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stderr.splitlines()[-1] == spawned
    if args[0].startswith("SELECT"):
        assert result.stdout.split() == ["n", "42"]


PLAIN = (
    "SELECT 1 AS i, 1.50 AS d, 'x' AS t, NULL AS n, true AS b, DATE '2021-08-01' AS day, 2.5::FLOAT AS f, "
    "'nan'::DOUBLE AS nan, -0.0::DOUBLE AS z, 255::UTINYINT AS u, 1::HUGEINT AS h, "
    "12345678901234567890123456789.5::DECIMAL(38, 1) AS wide, 'é\n\"'::VARCHAR AS quoted"
)


@pytest.mark.parametrize(
    "sql",
    [
        PLAIN,
        "SELECT text_id, count(*) AS n FROM mistakes GROUP BY ALL ORDER BY ALL",
        "SELECT * FROM mistakes ORDER BY ALL LIMIT 0",
    ],
)
def test_a_small_plain_result_comes_as_the_values_polars_gives(built_db, sql):
    """Asked for as Python values (the command's way, which spares it polars), a small result of plain types comes
    without a frame, and its rows are those the frame of the same query gives, value for value and type for type."""
    from accuracy_db.sqlbox.sandbox import run_query

    rows = run_query(built_db, sql, rows=True)
    frame = run_query(built_db, sql)
    assert rows.frame is None and frame.frame is not None
    assert rows.columns == frame.frame.columns
    typed = [[(type(value), repr(value)) for value in row.values()] for row in rows.records]  # nan == nan too
    assert typed == [[(type(value), repr(value)) for value in row.values()] for row in frame.frame.to_dicts()]
    assert len(typed) == frame.frame.height


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT [1, 2] AS l, {'a': 1} AS s",  # nested: polars reads them its own way
        "SELECT MAP {'k': 1} AS m",
        "SELECT TIMESTAMP '2021-08-01 10:00' AS t",
        "SELECT 1 AS a, 2 AS a",  # one name twice: not a dict
        "SELECT repeat('x', 200) AS t FROM range(1000)",  # past ROWS_BYTES
    ],
)
def test_any_other_result_comes_as_a_frame(built_db, sql):
    from accuracy_db.sqlbox.sandbox import run_query

    try:
        frame = run_query(built_db, sql).frame
    except AccuracyDbError as error:
        with pytest.raises(type(error), match=re.escape(str(error))):
            run_query(built_db, sql, rows=True)
        return
    result = run_query(built_db, sql, rows=True)
    assert result.frame is not None and result.frame.equals(frame)
