"""Where a guarded query runs: a child process of its own, bounded by the operating system.

DuckDB's memory limit covers what its buffer manager tracks, not everything a query can make (a list of 200
million numbers, a 1.5 GB string), and DuckDB cannot interrupt a single long function call (levenshtein of two
long strings). So the guard's parse, the checks and the query all run in a child process:

* its address space is capped (RLIMIT_AS): an allocation past the cap fails inside the child, DuckDB reports it
  as out of memory, and the caller's process never grows;
* the parent kills it at the time limit (counted from when the child is ready, so Python's start is not
  counted), whatever it is doing; its CPU time is capped too, and it dies with its parent;
* it returns at most the bounded number of rows and bytes, as Arrow record batches counted while they are
  fetched: a result is refused as soon as it passes the bound, before anything copies it into a frame.

The parent sends the request (pickled) on the child's stdin; the child answers on its stdout with one byte when
it is ready, a line of JSON (the outcome), and for a result the Arrow IPC stream of its batches.

A parent that prints rows (the query command, but for parquet) asks for them as Python values: a small result of
plain types (numbers, text, dates; plain_rows) then comes as one line of JSON, and the parent reads it without
polars or pyarrow, whose imports cost more than a small query. The bounds are counted on the Arrow batches alike.

A child imports what every query needs (DuckDB, pyarrow, sqlglot) before it reads its request. The dashboard keeps
one child started ahead (keep_spare), which also warms up the guard (its parser, DuckDB's lists of functions and
views): a visitor's query then waits for no Python start, no imports and no first parse (most of the time of a small
query of the SQL page). A child started for one query (the query command, the Python API) reads its request at once,
and the guard works out only what that query needs; meanwhile its parent imports what it reads the answer with. The
query command's child is started before the command's own imports and checks (start_early, from the command line's
entry point), so that the two processes start side by side. A spare answers one request, as any child, and ends
with the process that started it.
"""

from __future__ import annotations

import json
import math
import os
import pickle
import queue
import resource
import select
import signal
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from accuracy_db import sql_parse
from accuracy_db.defaults import default_db
from accuracy_db.errors import AccuracyDbError
from accuracy_db.sqlbox import guard
from accuracy_db.sqlbox.guard import (
    DEFAULT_MAX_BYTES,
    DEFAULT_ROW_LIMIT,
    DEFAULT_TIMEOUT,
    PYTHON_ROW_LIMIT,
    Limits,
    QueryFailed,
    QueryRefused,
    QueryResult,
    QueryStopped,
    ResultTooLarge,
    megabytes,
)

if TYPE_CHECKING:
    import polars as pl

# What the child may map besides its result: about 0.95 GB of it once started (Python, its imports and the one
# DuckDB instance the query runs on, 0.4 GB of it), which leaves a query 1.7 GB, as 3 GB did when it held two.
CHILD_ADDRESS_SPACE = 2600 * 2**20
STARTUP_SECONDS = 60.0  # for the child to start and import on a busy machine; the time limit starts after
POLL_SECONDS = 0.1  # how often the parent looks at the clock (and calls tick) while it waits
BATCH_ROWS = 1024  # rows of a record batch: the result is counted batch by batch
READY = b"R"
WARM = "--warm"  # the argument that makes a child a spare, which warms up the guard while it waits
HEADER_OVERHEAD = 1_000_000  # bytes of JSON and Arrow framing the parent reads beyond the result bound
ROWS_BYTES = 100_000  # the Arrow bytes of the largest result sent as JSON rows (JSON is at most ~6 times as long)
MEMORY_STOP = f"the query needed more than {guard.MEMORY_LIMIT} of memory and was stopped"


def run(
    db: Path | str,
    sql: str,
    params=None,
    dialect: str | None = None,
    limits: Limits | None = None,
    tick: Callable[[float], None] | None = None,
    keep_spare: bool = False,
    rows: bool = False,
) -> QueryResult:
    """Check and run one query in a child process within the limits; tick(seconds) is called about ten times a
    second while it runs (an exception it raises, such as a cancelled page's, kills the child). keep_spare: run it
    in the spare child if one is waiting, and have another started for the next query (a long-lived process's
    choice: the dashboard's). rows: the rows as Python values when the result is small and plain (QueryResult)."""
    limits = limits or Limits()
    guard.check_size(sql)  # the cheap checks need no process
    path = Path(db)
    if not path.is_file():
        raise AccuracyDbError(f"no database at {path}: build one with `accuracy-db build`")
    request = pickle.dumps(request_for(path, sql, params, dialect, limits, rows))
    child = (take_spare() if keep_spare else take_early()) or start_child()
    try:
        try:
            child.stdin.write(request)
            child.stdin.close()
        except BrokenPipeError:
            pass  # the child died at once; what it said is read below
        if not rows:
            import polars  # noqa: F401  (decode's imports, made while the child starts: on two cores they overlap)
            import pyarrow  # noqa: F401

        output, errors = collect(child, limits, tick)
    finally:
        if child.poll() is None:
            child.kill()
        child.wait()
        child.stdout.close()
        child.stderr.close()
    return decode(output, errors, child.returncode)


def start_child(warm: bool = False) -> subprocess.Popen:
    """A child process for one query; warm: a spare's, which warms up the guard while it waits for its request."""
    return subprocess.Popen(
        [sys.executable, "-m", "accuracy_db.sqlbox.sandbox", *([WARM] if warm else [])],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


# The spare child, and the requests for a new one to the thread that starts them. One long-lived thread starts
# every spare: Linux sends a child the parent-death signal when the thread that started it ends, and a visitor's
# thread ends with its page.
_spare_lock = threading.Lock()
_spare: subprocess.Popen | None = None
_spare_requests: queue.SimpleQueue | None = None


def take_spare() -> subprocess.Popen | None:
    """The spare child, if one is waiting (None otherwise); another is started for the next query either way."""
    global _spare, _spare_requests
    with _spare_lock:
        child, _spare = _spare, None
        if _spare_requests is None:
            _spare_requests = queue.SimpleQueue()
            threading.Thread(target=start_spares, args=(_spare_requests,), name="sandbox-spares", daemon=True).start()
        _spare_requests.put(None)
    return alive(child)


def alive(child: subprocess.Popen | None) -> subprocess.Popen | None:
    """child, unless it died waiting for its request (killed from outside): then None."""
    if child is not None and child.poll() is not None:
        discard(child)
        return None
    return child


_early: subprocess.Popen | None = None  # the child the command line started before its own imports


def start_early() -> None:
    """Start the child of the query this process is about to run, ahead of the command's own imports and checks
    (the command line's entry point does, for `accuracy-db query`); the next run() takes it."""
    global _early
    _early = start_child()


def take_early() -> subprocess.Popen | None:
    """The child start_early started, once, if it is alive (None otherwise)."""
    global _early
    child, _early = _early, None
    return alive(child)


def start_spares(requests: queue.SimpleQueue) -> None:
    """Start a spare child for each request, in place of the one waiting, if any."""
    global _spare
    while True:
        requests.get()
        child = start_child(warm=True)
        with _spare_lock:
            child, _spare = _spare, child
        if child is not None:
            discard(child)


def spare_pid() -> int | None:
    """The process id of the spare child waiting for the next query, if one is."""
    with _spare_lock:
        return None if _spare is None else _spare.pid


def end_spare() -> None:
    """End the spare child waiting, if one is: for a long-lived process that will run no more queries (the spare
    would otherwise wait until that process ends)."""
    global _spare
    with _spare_lock:
        child, _spare = _spare, None
    if child is not None:
        discard(child)


def discard(child: subprocess.Popen) -> None:
    child.kill()
    child.wait()
    for stream in (child.stdin, child.stdout, child.stderr):
        stream.close()


def collect(child: subprocess.Popen, limits: Limits, tick) -> tuple[bytes, bytes]:
    """Everything the child writes, until it exits; it is killed at the time limit or past the bytes bound."""
    started = time.monotonic()
    deadline = started + STARTUP_SECONDS
    ready = False
    output, errors = bytearray(), bytearray()
    buffers = {child.stdout.fileno(): output, child.stderr.fileno(): errors}
    while buffers:
        now = time.monotonic()
        if not ready and output:
            ready, deadline = True, now + limits.seconds
        if now > deadline:
            child.kill()
            if ready:
                raise QueryStopped(f"the query ran longer than {limits.seconds:g} s and was stopped")
            raise QueryStopped(f"the query's process did not start within {STARTUP_SECONDS:g} s")
        if tick is not None:
            tick(now - started)
        readable, _, _ = select.select(list(buffers), [], [], POLL_SECONDS)
        for fd in readable:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                del buffers[fd]
            elif buffers[fd] is output or len(errors) < 65_536:
                buffers[fd].extend(chunk)
        if len(output) > limits.bytes + HEADER_OVERHEAD:  # the child counts too; this is the parent's own wall
            child.kill()
            raise ResultTooLarge(too_large(limits.bytes, None))
    try:
        child.wait(timeout=max(0.0, deadline - time.monotonic()) + 1)
    except subprocess.TimeoutExpired:
        child.kill()
        raise QueryStopped(f"the query ran longer than {limits.seconds:g} s and was stopped") from None
    return bytes(output), bytes(errors)


def too_large(bound: int, rows: range | None) -> str:
    """The refusal of a result past the bound, naming the rows (a batch of them) where it passed it."""
    where = f" within rows {rows.start + 1:,}–{rows.stop:,}" if rows is not None else ""
    return (
        f"the result passed the bound of {megabytes(bound)}{where} and was refused: "
        "ask for fewer rows or columns, or shorter values (left(text, 100))"
    )


# How the child names each error it answers with, the most specific first.
OUTCOMES = {
    "too_large": ResultTooLarge,
    "stopped": QueryStopped,
    "refused": QueryRefused,
    "failed": QueryFailed,
    "error": AccuracyDbError,
}


def decode(output: bytes, errors: bytes, status: int) -> QueryResult:
    """The child's answer as a result, or the exception it stands for."""
    header_end = output.find(b"\n")
    if not output.startswith(READY) or header_end < 0:
        raise died(errors, status)
    header = json.loads(output[len(READY) : header_end])
    if header["outcome"] != "ok":
        raise OUTCOMES[header["outcome"]](header["message"])
    if "rows" in header:
        records = rows_read(header["columns"], header["kinds"], header["rows"])
        return QueryResult(None, header["truncated"], header["sql"], records, header["columns"])
    import polars as pl
    import pyarrow as pa

    table = pa.ipc.open_stream(pa.py_buffer(output)[header_end + 1 :]).read_all()
    try:
        frame = pl.from_arrow(table, rechunk=False)
    except pl.exceptions.PolarsError as error:
        reason = guard.one_line(error).split(". ")[0]
        raise QueryFailed(f"a column of the result has a type polars cannot hold ({reason}): cast it") from None
    return QueryResult(frame, header["truncated"], header["sql"])


def died(errors: bytes, status: int) -> AccuracyDbError:
    """Why the child ended without an answer: the operating system's limits, or a crash."""
    text = errors.decode("utf-8", "replace")
    if status == -signal.SIGXCPU:
        return QueryStopped("the query used up its processor time and was stopped")
    if status in (-signal.SIGKILL, -signal.SIGABRT, -signal.SIGSEGV) or "MemoryError" in text or "bad_alloc" in text:
        return QueryStopped(MEMORY_STOP)
    last = f": {text.strip().splitlines()[-1]}" if text.strip() else ""
    return QueryFailed(f"the query's process ended without an answer (exit status {status}){last}")


# --- the child ---


def limit_resources(limits: Limits) -> None:
    """The operating system's bounds on this process: address space, processor time, no files written, no core
    dumps."""
    address_space = CHILD_ADDRESS_SPACE + limits.bytes
    resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
    cpu = math.ceil(limits.seconds * guard.THREADS + STARTUP_SECONDS)
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def die_with_parent() -> None:
    """Death with the thread that started this process (see start_spares)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG (Linux)
    except (OSError, AttributeError):
        pass
    if os.getppid() == 1:  # the parent died before the signal was armed
        os._exit(1)


def request_for(db: Path, sql: str, params, dialect: str | None, limits: Limits, rows: bool = False) -> dict:
    """What the child is asked: the query, its parameters and dialect, the database and the limits; rows: the
    result as Python values if it is small and plain."""
    return {"db": str(db), "sql": sql, "params": params, "dialect": dialect, "limits": limits, "rows": rows}


# The Arrow types whose values go through JSON unchanged, or as text (a kind) that rows_read makes them again from:
# the values pyarrow's to_pylist and polars' to_dicts give alike (tests/test_query_cli.py compares them).
PLAIN_TYPES = ("null", "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float")
PLAIN_TYPES += ("double", "string", "large_string")
TEXT_KINDS = {"decimal128": "decimal", "date32[day]": "date"}


def plain_rows(schema, batches: list) -> dict | None:
    """The result as JSON's columns, kinds and rows, when every column has a plain type and its own name (rows are
    dicts); None otherwise."""
    columns = schema.names
    kinds = []
    for field in schema:
        name = str(field.type).split("(")[0]
        if name not in PLAIN_TYPES and name not in TEXT_KINDS:
            return None
        kinds.append(TEXT_KINDS.get(name))
    if len(set(columns)) < len(columns):
        return None
    rows = [
        [value if value is None or kind is None else str(value) for value, kind in zip(row, kinds)]
        for batch in batches
        for row in zip(*(column.to_pylist() for column in batch.columns))
    ]
    return {"columns": columns, "kinds": kinds, "rows": rows}


def rows_read(columns: list[str], kinds: list[str | None], rows: list[list]) -> list[dict]:
    """plain_rows' rows as dicts of Python values."""
    from datetime import date
    from decimal import Decimal

    make = {None: None, "decimal": Decimal, "date": date.fromisoformat}
    makers = [make[kind] for kind in kinds]
    return [
        {
            column: value if value is None or maker is None else maker(value)
            for column, value, maker in zip(columns, row, makers)
        }
        for row in rows
    ]


def fetch(request: dict) -> tuple[dict, list]:
    """Check and run the query here; the outcome (a dict for the header) and the record batches. The guard parses
    the query with the connection it then runs on, locked down before either (one DuckDB instance, not two)."""
    import duckdb

    limits: Limits = request["limits"]
    con = guard.connect(request["db"])
    try:
        with sql_parse.parsing_with(con):
            sql = guard.check_query(request["sql"], request["dialect"], request["params"])
        reader = con.sql(sql, params=request["params"]).fetch_record_batch(BATCH_ROWS)
        batches, rows, size, truncated = [], 0, 0, False
        for batch in reader:
            if limits.rows is not None and rows + batch.num_rows > limits.rows:
                batch, truncated = batch.slice(0, limits.rows - rows), True
            rows, size = rows + batch.num_rows, size + batch.nbytes
            if size > limits.bytes:
                raise ResultTooLarge(too_large(limits.bytes, range(rows - batch.num_rows, rows)))
            batches.append(batch)
            if truncated:
                break
        header = {"outcome": "ok", "sql": sql, "truncated": truncated}
        plain = plain_rows(reader.schema, batches) if request.get("rows") and size <= ROWS_BYTES else None
        if plain is not None:
            return header | plain, None
        return header, (reader.schema, batches)
    except duckdb.OutOfMemoryException:
        raise QueryStopped(MEMORY_STOP) from None
    except duckdb.PermissionException as error:
        reason = guard.one_line(error)
        raise QueryRefused(f"refused by the database: {reason}; queries read the database only") from None
    except duckdb.Error as error:
        raise QueryFailed(guard.one_line(error)) from None
    finally:
        con.close()


def import_for_queries() -> None:
    """What every query needs, imported before the request is read (the time limit starts after). Not numpy, which
    pyarrow would import (it costs more than pyarrow itself) though nothing here uses it: DuckDB hands its results
    to Arrow in C++, and a process that has no numpy is an import pyarrow runs without."""
    sys.modules["numpy"] = None  # the import system's way to mark a module absent: `import numpy` fails at once
    import duckdb  # noqa: F401
    import pyarrow  # noqa: F401
    import sqlglot  # noqa: F401


def warm_up() -> None:
    """What a spare makes while it waits, so that a query is checked at once: the guard's parser (its first check
    of a query builds it) and DuckDB's lists of functions and views, which the guard reads when a query needs them."""
    guard.check_query("SELECT 1", None, None)
    guard.duckdb_functions()
    guard.engine_views()
    sql_parse.drop_own_parser()  # the query's connection parses the query: one DuckDB while it runs, as in any child


def child_main() -> None:
    die_with_parent()
    import_for_queries()
    if WARM in sys.argv[1:]:
        warm_up()
    try:
        request = pickle.load(sys.stdin.buffer)
    except EOFError:
        return  # a spare whose parent ended before it had a query for it
    limit_resources(request["limits"])
    sys.setrecursionlimit(20_000)  # a deep but permitted query is read; past that, RecursionError is refused
    out = sys.stdout.buffer
    out.write(READY)
    out.flush()
    batches = None
    try:
        header, batches = fetch(request)
    except MemoryError:
        header = {"outcome": "stopped", "message": MEMORY_STOP}
    except RecursionError:
        header = {"outcome": "refused", "message": "the query is nested too deeply to be checked"}
    except AccuracyDbError as error:
        outcome = next(name for name, kind in OUTCOMES.items() if isinstance(error, kind))
        header = {"outcome": outcome, "message": str(error)}
    out.write(json.dumps(header).encode() + b"\n")
    if batches is not None:
        import pyarrow as pa

        schema, kept = batches
        with pa.ipc.new_stream(out, schema) as stream:
            for batch in kept:
                stream.write_batch(batch)
    out.flush()


def run_query(
    db: Path | str,
    sql: str,
    params=None,
    dialect: str | None = None,
    limit: int | None = DEFAULT_ROW_LIMIT,
    timeout: float = DEFAULT_TIMEOUT,
    max_bytes: int = DEFAULT_MAX_BYTES,
    tick=None,
    keep_spare: bool = False,
    rows: bool = False,
) -> QueryResult:
    """Check a query and run it in a process of its own (run, below) on a locked-down read-only
    connection, within the limits; keep_spare: in a process started ahead (run says how).

    params: a dict for $name parameters, a list for ? or $1. At most limit rows are returned (all when None);
    truncated says there were more. A query running longer than timeout seconds is stopped, and one whose result
    passes max_bytes is refused. tick(seconds) is called while it runs. rows: a small result of plain types as
    Python values (QueryResult's records, for a parent that prints them), which spares the parent polars."""
    return run(db, sql, params, dialect, Limits(limit, timeout, max_bytes), tick, keep_spare, rows)


def query(
    sql: str,
    params=None,
    dialect: str | None = None,
    db: Path | str | None = None,
    *,
    limit: int | None = PYTHON_ROW_LIMIT,
    timeout: float = DEFAULT_TIMEOUT,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> pl.DataFrame:
    """The Python API: run one read-only query through the guard and return its rows as a polars DataFrame.

    params: a dict for $name parameters (or a list for ?). dialect: the SQL dialect the query is written in
    (postgres, sqlite, mysql…), translated to DuckDB. db: default $ACCURACY_DB_PATH, else ./accuracy.duckdb.
    A result longer than limit rows is cut, with a warning; limit=None returns every row. A result larger than
    max_bytes is refused."""
    try:
        result = run_query(db if db is not None else default_db(), sql, params, dialect, limit, timeout, max_bytes)
    except ResultTooLarge as error:
        raise ResultTooLarge(f"{error}; max_bytes= raises the bound") from None
    if result.truncated:
        warnings.warn(f"the result was cut at {limit} rows: pass limit=None for all of them", stacklevel=2)
    return result.frame


if __name__ == "__main__":
    child_main()
