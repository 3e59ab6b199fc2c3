"""The measured work of benchmarks.run that is not an `accuracy-db` command, one step per child process.

    python -m benchmarks.steps scores DB
    python -m benchmarks.steps query DB SPEC            # SPEC: JSON {"sql", "params", "fetch": stream|frame|sql-page}
    python -m benchmarks.steps scan FILE...
    python -m benchmarks.steps build-parts DATA DB            # a build's parts against DuckDB's scans
    python -m benchmarks.steps oracle DATA DB
    python -m benchmarks.steps explain DB OUT_PREFIX
    python -m benchmarks.steps profile OUT_PREFIX ACCURACY_DB_ARGUMENTS…   # e.g. build --data D --db X …
    python -m benchmarks.steps dashboard-queries DB

Each prints one JSON line: the seconds of the measured work itself (Python's start and the imports are not in
it; benchmarks.run also times the whole process) and what it found.
"""

from __future__ import annotations

import ast
import csv
import importlib.util
import itertools
import json
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
COUNT_FIELDS = ("matched", "gold_total", "submitted_total", "token_matched", "gold_tokens", "submitted_tokens")


def report(**figures) -> None:
    print(json.dumps(figures))


def median_of_runs(run, times: int = 3) -> tuple[float, list[float], object]:
    """The median wall time of a few runs of run() (the first one warms the caches as much as the others), every
    time, and the last run's result: the two sides of the scoring target are measured alike."""
    seconds, result = [], None
    for _ in range(times):
        started = time.perf_counter()
        result = run()
        seconds.append(round(time.perf_counter() - started, 3))
    return statistics.median(seconds), seconds, result


def scores(db: str) -> None:
    """Every score of every submission, all seven scopes, both levels: the scores view, fetched whole (the median
    of three reads)."""
    from accuracy_db.store import database

    con = database.open_existing(db)  # as the commands and the dashboard open it
    seconds, runs, rows = median_of_runs(lambda: con.execute("SELECT * FROM scores").fetchall())
    report(seconds=seconds, runs=runs, rows=len(rows))


SPARE_SECONDS = 3.0


def query(db: str, spec: str) -> None:
    """One query, read whole: streamed in Arrow batches (stream), or into one polars frame the way the dashboard
    reads its queries (frame); or as the SQL page runs it (sql-page): checked by the guard and run in a process
    of its own within the page's limits, its first rows shown (the seconds a visitor waits after Run)."""
    import polars as pl

    from accuracy_db.store import database

    spec = json.loads(spec)
    if spec["fetch"] == "sql-page":
        from accuracy_db.dashboard import sql_limits as page

        from accuracy_db.sqlbox.sandbox import run_query

        # As on a dashboard that has answered a query before: pyarrow imported, and a spare process waiting (given
        # SPARE_SECONDS to start and warm up: a visitor takes longer than that to write or pick a query).
        run_query(db, "SELECT 1 AS one", keep_spare=True)
        time.sleep(SPARE_SECONDS)
        started = time.perf_counter()
        result = run_query(
            db,
            spec["sql"],
            spec.get("params") or None,
            None,
            page.SQL_ROW_LIMIT,
            page.SQL_TIMEOUT,
            page.SQL_MAX_BYTES,
            keep_spare=True,
        )
        report(seconds=time.perf_counter() - started, rows=result.frame.height, truncated=result.truncated)
        return
    con = database.open_existing(db)  # as the commands and the dashboard open it
    started = time.perf_counter()
    relation = con.sql(spec["sql"], params=spec.get("params") or None)
    if spec["fetch"] == "stream":
        rows = sum(batch.num_rows for batch in relation.to_arrow_reader(1_000_000))
    else:
        rows = pl.from_arrow(relation.to_arrow_table()).height
    report(seconds=time.perf_counter() - started, rows=rows)


def scan(*files: str) -> None:
    """The baseline: DuckDB reading the same CSV files and counting their rows (the median of three scans). Also
    reported: the same scan counting the values of every column, which makes the reader parse them."""
    import duckdb

    con = duckdb.connect()
    source = "read_csv($files, header = true, all_varchar = true)"
    seconds, runs, (rows,) = median_of_runs(
        lambda: con.execute(f"SELECT count(*) FROM {source}", {"files": list(files)}).fetchone()
    )
    every_column, _, _ = median_of_runs(
        lambda: con.execute(f"SELECT count(COLUMNS(*)) FROM {source}", {"files": list(files)}).fetchone()
    )
    report(seconds=seconds, runs=runs, rows=rows, every_column_seconds=every_column)


def build_parts(data: str, db: str) -> None:
    """Issue 15's bound, measured in one process: each part of an in-process build of a generated data folder
    (benchmarks.generate) against DuckDB scanning that part's inputs, every value read (the median of three scans,
    each timed alone). The parts are cut at the build's own steps: the texts; the lists (the gold list and the
    submissions, with the games loading beside them in their thread); the scoring (the incremental models, then the
    publication). The games, which have no step of their own, are then loaded alone into an empty database and
    timed so. Core-seconds are the process's (every thread). Beside each scan, once: DuckDB copying the same
    inputs, as they are, unchecked and in any order, into a database file (the least a load of them into DuckDB
    costs), and that copy's ratio to the scan."""
    import duckdb
    from accuracy_db.etl import games
    from accuracy_db.etl.data_folder import splits

    from accuracy_db.ingest.build import build
    from accuracy_db.store import database

    def now() -> tuple[float, float]:
        times = os.times()
        return time.perf_counter(), times.user + times.system

    folder = Path(data)
    marks = [("start", *now())]
    build(folder, Path(db), folder / "submissions", step=lambda name: marks.append((name, *now())))
    marks.append(("end", *now()))
    first = {name.split(" of the ")[0].split(" (")[0]: (wall, cpu) for name, wall, cpu in reversed(marks)}
    bounds = {
        "texts": ("Loading the texts", "Loading the gold list"),
        "lists": ("Loading the gold list", "Scoring"),
        "scoring": ("Scoring", "end"),
    }
    parts = {
        part: {"seconds": first[end][0] - first[start][0], "core_seconds": first[end][1] - first[start][1]}
        for part, (start, end) in bounds.items()
    }
    alone = Path(db).with_name("games-alone.duckdb")
    alone.unlink(missing_ok=True)
    con = database.open_new(alone)
    started = now()
    for split_files in splits(folder):
        games.load_games(con, split_files, {})
    ended = now()
    con.close()
    alone.unlink()
    parts["games"] = {"seconds": ended[0] - started[0], "core_seconds": ended[1] - started[1]}

    lists = [str(folder / "gsml.csv"), *map(str, sorted((folder / "submissions").glob("*.csv")))]
    inputs = {  # what each part reads, as DuckDB reads it
        "texts": [f"read_text('{folder / 'texts'}/*.txt')"],
        "lists": [f"read_csv({lists}, header = true, all_varchar = true)"],
        "games": [
            f"read_json('{folder / 'shared_task.jsonl'}')",
            f"read_csv('{folder / 'games.csv'}', all_varchar = true)",
        ],
        "scoring": ["built.mistakes", "built.tokens", "built.texts"],
    }
    copy = Path(db).with_name("inputs-copied.duckdb")
    scan = duckdb.connect()
    scan.execute(f"ATTACH '{db}' AS built (READ_ONLY)")
    for part, sources in inputs.items():
        # the scan: every value of every input read (and hashed); the median of three, each input alone
        queries = [f"SELECT count(*), sum(hash(COLUMNS(*))) FROM {source}" for source in sources]
        scans = [median_of_runs(lambda sql=sql: scan.execute(sql).fetchall()) for sql in queries]
        seconds = sum(median for median, _, _ in scans)
        rows = [result[0][0] for _, _, result in scans]  # what each scan read, which the test checks
        # the copy: DuckDB storing the inputs as they are in tables of a new database file, checked for nothing
        copy.unlink(missing_ok=True)
        started = time.perf_counter()
        with duckdb.connect(copy) as store:
            # rows in any order: keeping the files' order took 10.9 s for the texts of scale 1000, against 2.7 s
            store.execute("SET preserve_insertion_order = false")
            store.execute(f"ATTACH '{db}' AS built (READ_ONLY)")
            for number, source in enumerate(sources):
                store.execute(f"CREATE TABLE input_{number} AS FROM {source}")
            store.execute("CHECKPOINT")
        copied = time.perf_counter() - started
        copy.unlink()
        parts[part] |= {
            "scan_rows": rows,
            "scan_seconds": seconds,
            "ratio": parts[part]["seconds"] / seconds,
            "copy_seconds": copied,
            "copy_ratio": copied / seconds,
        }
    report(seconds=marks[-1][1] - marks[0][1], core_seconds=marks[-1][2] - marks[0][2], parts=parts)


# --- the plain-Python oracle of tests/oracle.py ---


def load_oracle():
    spec = importlib.util.spec_from_file_location("oracle", REPO / "tests" / "oracle.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["oracle"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def doc_ids(texts_dir: Path) -> dict[tuple[str, int, int], int]:
    """(text, sentence id, token in sentence) -> token in document, from the texts ('.' ends a sentence)."""
    ids = {}
    for path in sorted(texts_dir.glob("*.txt")):
        sentence, in_sentence = 1, 0
        for doc_token, token in enumerate(path.read_text(encoding="utf-8").split(), start=1):
            in_sentence += 1
            ids[(path.stem, sentence, in_sentence)] = doc_token
            if token == ".":
                sentence, in_sentence = sentence + 1, 0
    return ids


def read_spans(oracle, path: Path, ids: dict) -> list:
    spans = []
    with open(path, encoding="utf-8-sig", newline="") as stream:
        for key, row in enumerate(csv.DictReader(stream)):
            text_id = row["TEXT_ID"].removesuffix(".txt")
            if row["DOC_TOKEN_START"]:
                start, end = int(row["DOC_TOKEN_START"]), int(row["DOC_TOKEN_END"])
            else:
                sentence = int(row["SENTENCE_ID"])
                start = ids[(text_id, sentence, int(row["SENT_TOKEN_START"]))]
                end = ids[(text_id, sentence, int(row["SENT_TOKEN_END"]))]
            spans.append(oracle.Span(key, text_id, start, end, row["TYPE"]))
    return spans


def run_oracle(data: str, db: str) -> None:
    """tests/oracle.py's score() on every submission of DATA/submissions, timed, and compared with the database."""
    from accuracy_db.store import database

    oracle = load_oracle()
    data = Path(data)
    ids = doc_ids(data / "texts")
    gold = read_spans(oracle, data / "gsml.csv", ids)
    con = database.open_existing(db)  # as the commands and the dashboard open it
    columns = ", ".join(COUNT_FIELDS)
    sql_figures = {
        (submission, scope): figures
        for submission, scope, *figures in con.execute(f"SELECT submission, scope, {columns} FROM scores").fetchall()
    }
    con.close()
    seconds, per_submission, disagreements = 0.0, {}, []
    for path in sorted((data / "submissions").glob("*.csv")):
        submitted = read_spans(oracle, path, ids)
        started = time.perf_counter()
        reports = oracle.score(gold, submitted)
        took = time.perf_counter() - started
        seconds += took
        per_submission[path.stem] = round(took, 3)
        for scope in reports:
            figures = [scope[field] for field in COUNT_FIELDS]
            if sql_figures.get((path.stem, scope["categories"])) != figures:
                disagreements.append([path.stem, scope["categories"], figures])
    report(seconds=seconds, per_submission=per_submission, agrees=not disagreements, disagreements=disagreements[:10])


# --- the dashboard's queries ---

PAGES = REPO / "dashboard" / "app_pages"


def string_constants(path: Path) -> dict[str, str]:
    """The module-level string constants of a Python file, f-strings made only of other constants included."""
    constants: dict[str, str] = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
            continue
        value = node.value
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            constants[node.targets[0].id] = value.value
        elif isinstance(value, ast.JoinedStr):
            parts = []
            for part in value.values:
                if isinstance(part, ast.Constant):
                    parts.append(part.value)
                elif isinstance(part.value, ast.Name) and part.value.id in constants:
                    parts.append(constants[part.value.id])
                else:
                    break
            else:
                constants[node.targets[0].id] = "".join(parts)
    return constants


def dashboard_queries(db: str) -> None:
    """Every query the dashboard's pages send through dashboard.data.read when each page opens on DB as a visitor
    first sees it (Streamlit's AppTest runs the pages themselves): {"queries": {NAME: {"sql", "params"}}}, NAME
    being page:PAGE:CONSTANT (the page's or data.py's constant holding the SQL) or page:PAGE:KEY (the key a page
    reads it under); the sidebar's queries come with the first page, the leaderboard. The intervals, clusters and
    p-values of the leaderboard, significance and validity pages are computed by Python functions
    (benchmarks.statistics_speed measures them), here with few resamples and trials; the errors page's CSV download
    and the SQL page's query run only on a click (the SQL page runs the saved analyses, measured as analysis:NAME).
    """
    import os

    from accuracy_db.dashboard import DB_ENV, data
    from streamlit.testing.v1 import AppTest

    from accuracy_db.stats.intervals import Resampling

    os.environ[DB_ENV] = db
    data.RESAMPLING, data.TRIALS = Resampling(resamples=20), 20  # only their queries are wanted here

    def names(path: Path) -> dict[str, str]:  # SQL -> the name of the constant holding it
        return {sql: name for name, sql in string_constants(path).items()}

    constants = names(PAGES.parent / "data.py")
    queries, read = {}, data.read

    def recorded(**batch):
        for key, query in batch.items():
            sql, params = (query, {}) if isinstance(query, str) else query
            entry = {"sql": sql, "params": data._named(sql, params)}
            if entry in queries.values():
                continue
            name = base = f"page:{page}:{page_constants.get(sql) or constants.get(sql) or key}"
            for n in itertools.count(2):
                if name not in queries:
                    break
                name = f"{base}#{n}"
            queries[name] = entry
        return read(**batch)

    data.read = recorded
    started = time.perf_counter()
    for path in [PAGES / "leaderboard.py", *sorted(set(PAGES.glob("*.py")) - {PAGES / "leaderboard.py"})]:
        if path.name == "__init__.py":
            continue
        # A new session for each page, opened at the first page (the leaderboard), as a visitor's link opens it.
        page, page_constants = "leaderboard", names(PAGES / "leaderboard.py")
        app = AppTest.from_file(str(PAGES.parent / "app.py"), default_timeout=600).run()
        page, page_constants = path.stem, names(path)
        if path.stem != "leaderboard":
            app.switch_page(f"app_pages/{path.name}").run()
        if app.exception:
            raise RuntimeError(f"{path.name}: {app.exception}")
    report(seconds=time.perf_counter() - started, queries=queries)


# --- profiles ---


def explain(db: str, prefix: str) -> None:
    """EXPLAIN ANALYZE of the scores query (PREFIX.txt), and its slowest operators (PREFIX.json)."""
    from accuracy_db.store import database

    con = database.open_existing(db)  # as the commands and the dashboard open it
    started = time.perf_counter()
    plan = con.execute("EXPLAIN ANALYZE SELECT * FROM scores").fetchall()
    seconds = time.perf_counter() - started
    Path(prefix + ".txt").write_text("\n".join(row[1] for row in plan), encoding="utf-8")
    con.execute("PRAGMA enable_profiling = 'json'")
    con.execute(f"PRAGMA profiling_output = '{prefix}.profile.json'")
    con.execute("SELECT * FROM scores").fetchall()
    con.execute("PRAGMA disable_profiling")
    profile = json.loads(Path(prefix + ".profile.json").read_text(encoding="utf-8"))
    operators = []

    def walk(node, depth):
        # DuckDB 2 writes type/timing/intermediate_rows, DuckDB 1 operator_type/operator_timing/…_cardinality.
        name = node.get("type") or node.get("operator_type") or node.get("operator_name") or "?"
        extra = node.get("extra_info") or {}
        shown = ("Join Type", "Conditions", "Function", "Partitions", "Aggregates", "Groups", "Table")
        detail = "; ".join(f"{key}: {value}" for key, value in extra.items() if key in shown)
        operators.append(
            {
                "operator": name.strip(),
                "seconds": round(node.get("timing", node.get("operator_timing", 0.0)), 3),
                "rows": node.get("intermediate_rows", node.get("operator_cardinality", 0)),
                "depth": depth,
                "detail": detail[:240],
            }
        )
        for child in node.get("children", []):
            walk(child, depth + 1)

    roots = profile.get("operator") or profile.get("children") or []
    for root in roots if isinstance(roots, list) else [roots]:
        walk(root, 0)
    slowest = sorted(operators, key=lambda o: -o["seconds"])[:15]
    Path(prefix + ".json").write_text(json.dumps(slowest, indent=1), encoding="utf-8")
    summary = {
        key: profile.get(part, {}).get(key)
        for part, key in (
            ("query", "cpu_time"),
            ("query", "total_time"),
            ("query", "total_intermediate_rows"),
            ("system", "peak_buffer_memory"),
        )
    }
    report(seconds=seconds, **summary, slowest=slowest)


class TimedConnection:
    """A DuckDB connection that records how long each execute() takes, by the statement's first words."""

    statements: dict[str, list] = {}

    def __init__(self, con):
        self._con = con

    def __getattr__(self, name):
        return getattr(self._con, name)

    def cursor(self):
        """A connection of its own (the build prepares mistake lists on such), timed the same way."""
        return TimedConnection(self._con.cursor())

    def execute(self, sql, *args, **kwargs):
        started = time.perf_counter()
        try:
            return self._con.execute(sql, *args, **kwargs)
        finally:
            key = " ".join(str(sql).split())[:110]
            entry = TimedConnection.statements.setdefault(key, [0, 0.0])
            entry[0] += 1
            entry[1] += time.perf_counter() - started


def profile(prefix: str, *command: str) -> None:
    """An accuracy-db command (its arguments as given to accuracy-db) under cProfile, with the time of every SQL
    statement it runs (PREFIX.txt, PREFIX.prof)."""
    import cProfile
    import io
    import pstats

    import duckdb

    from accuracy_db.cli import main as cli

    real_connect = duckdb.connect
    duckdb.connect = lambda *args, **kwargs: TimedConnection(real_connect(*args, **kwargs))
    profiler = cProfile.Profile()
    started = time.perf_counter()
    profiler.enable()
    status = cli.run(list(command))
    profiler.disable()
    seconds = time.perf_counter() - started
    duckdb.connect = real_connect
    profiler.dump_stats(prefix + ".prof")
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(45)
    statements = sorted(TimedConnection.statements.items(), key=lambda item: -item[1][1])
    lines = [f"accuracy-db {' '.join(command)}: {seconds:.1f} s, exit status {status}", ""]
    lines += ["SQL statements by total time (calls, seconds, statement):"]
    lines += [f"{calls:6} {total:8.2f}  {key}" for key, (calls, total) in statements[:30]]
    Path(prefix + ".txt").write_text("\n".join(lines) + "\n\n" + out.getvalue(), encoding="utf-8")
    top = [[key, calls, round(total, 2)] for key, (calls, total) in statements[:12]]
    report(seconds=seconds, status=status, statements=top)


STEPS = {
    "scores": scores,
    "query": query,
    "scan": scan,
    "build-parts": build_parts,
    "oracle": run_oracle,
    "explain": explain,
    "profile": profile,
    "dashboard-queries": dashboard_queries,
}

if __name__ == "__main__":
    STEPS[sys.argv[1]](*sys.argv[2:])
