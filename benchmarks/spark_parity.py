"""Spark parity: every model and saved analysis, transpiled to Spark SQL, gives DuckDB's rows (not in the test suite).

    python -m benchmarks.spark_parity --data ../shared/data/accuracy-shared-task          # the shared-task data
    python -m benchmarks.spark_parity --scale 10 --submissions 10                         # generated data
        [--work /tmp/accuracy-spark] [--out benchmarks/results] [--seed 0]

It builds a database (from the data folder with its example submissions, or from a folder benchmarks.generate
writes), then:

1. export: writes every base table to Parquet (DuckDB's COPY, one folder a table);
2. models: in a local Spark session (PySpark in its own virtual environment, benchmarks/.spark-venv, created on
   the first run; Java 17 or later on the PATH), creates the base tables over the Parquet folders, every model of
   queries/ as a view, and the incremental models (span_overlaps, contested_matches, text_statistics) as Parquet
   tables partitioned by submission_id, filled by their own SELECT for every submission; the SQL is the DuckDB
   files transpiled by accuracy_db/interchange/portable.py (one source). Then it forgets one submission from each
   incremental table (ALTER TABLE … DROP PARTITION) and adds it back (INSERT … SELECT for that submission alone),
   as a refresh would (benchmarks/spark_models.py is this half). A model materialized whole (gold_mistake_finds,
   recall_by_difficulty, gold_token_counts) is a view there: its rows are the same, computed on every read;
3. compare: every model and saved analysis, read whole, against DuckDB's rows: the same columns, the same rows as a
   multiset, and for a saved analysis (each has an ORDER BY) the same order. Floats are equal when they differ by
   at most 1e-9 relatively (math.isclose(rel_tol=1e-9, abs_tol=1e-12)): the engines add in different orders.

It writes OUT/spark-parity-LABEL.json (LABEL: shared-task or scale-K) with the verdict per model and analysis, the
wall time of each stage and of each Spark query, and prints a summary; it exits 1 when any query differs or fails.
"""

from __future__ import annotations

import argparse
import datetime
import decimal
import json
import math
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

from accuracy_db.ingest.build import build
from accuracy_db.interchange import portable
from accuracy_db.store import database
from accuracy_db.store.analyses import saved_analyses
from benchmarks.generate import generate

REPO = Path(__file__).resolve().parents[1]
SPARK_VENV = REPO / "benchmarks" / ".spark-venv"
SPARK_REQUIREMENT = "pyspark[sql]>=4,<5"  # Spark 4 runs on Java 17 and 21
REL_TOL, ABS_TOL = 1e-9, 1e-12


def spark_python() -> Path:
    """The Python of the Spark virtual environment, created with PySpark from the package index when missing."""
    python = SPARK_VENV / "bin" / "python"
    if not (SPARK_VENV / ".installed").is_file():
        subprocess.run([sys.executable, "-m", "venv", SPARK_VENV], check=True)
        subprocess.run([python, "-m", "pip", "install", "--quiet", SPARK_REQUIREMENT], check=True)
        (SPARK_VENV / ".installed").touch()
    return python


def export_parquet(con, folder: Path) -> dict[str, str]:
    """Every base table (the tables of models materialized as tables excepted) as Parquet: table -> its folder."""
    materialized = set(database.table_models())
    tables = {}
    for (table,) in con.execute(
        "SELECT table_name FROM duckdb_tables() WHERE NOT temporary ORDER BY table_name"
    ).fetchall():
        if table in materialized:
            continue
        (folder / table).mkdir(parents=True)
        con.execute(f"COPY {table} TO '{folder / table / 'rows.parquet'}' (FORMAT parquet)")
        tables[table] = str(folder / table)
    return tables


def analysis_parameters(con) -> dict[str, str]:
    """Values for the saved analyses' parameters: the last submission by name, and the first to compare it with
    (on the shared-task data, an example submission and the gold list itself: no analysis comes out empty)."""
    names = [n for (n,) in con.execute("SELECT submission FROM evaluations ORDER BY submission").fetchall()]
    return {"submission": names[-1], "first": names[-1], "second": names[0]}


def plan(con, work: Path) -> dict:
    """What the Spark half runs: the tables, the models (Spark SQL, DuckDB's column order) and the analyses."""
    ids = [i for (i,) in con.execute("SELECT submission_id FROM evaluations ORDER BY 1").fetchall()]
    definitions = database.view_definitions()
    models = []
    for name in database.views_in_dependency_order(definitions):
        sql = definitions[name]
        columns = [c for (c,) in con.execute(f"SELECT column_name FROM (DESCRIBE {name})").fetchall()]
        incremental = database.is_incremental(sql)
        models.append(
            {
                "name": name,
                "incremental": incremental,
                "columns": columns,
                "sql": portable.transpile(sql, "spark", {"submission_ids": ids} if incremental else None),
                "one_sql": portable.transpile(sql, "spark", {"submission_ids": ids[-1:]}) if incremental else None,
            }
        )
    values = analysis_parameters(con)
    analyses = []
    for analysis in saved_analyses():
        params = {p: values[p] for p in analysis.parameters}
        analyses.append(
            {"name": analysis.name, "params": params, "sql": portable.transpile(analysis.sql, "spark", params)}
        )
    return {
        "out": str(work),
        "report": str(work / "spark-report.json"),
        "tables": {},
        "models": models,
        "analyses": analyses,
        "forget_submission_id": ids[-1],
    }


def normal(value: object) -> object:
    """A value as both engines' rows can be compared: decimals as floats, timestamps without a zone (UTC)."""
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, datetime.datetime) and value.tzinfo is not None:
        return value.astimezone(datetime.UTC).replace(tzinfo=None)
    return value


def sort_key(row: tuple) -> tuple:
    """Rows ordered with NULLs first and floats rounded, so that two engines' float noise does not reorder them."""
    return tuple((0, 0) if v is None else (1, float(f"{v:.9g}")) if isinstance(v, float) else (1, v) for v in row)


def same_value(a: object, b: object) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return a is not None and b is not None and math.isclose(a, b, rel_tol=REL_TOL, abs_tol=ABS_TOL)
    return a == b


def same_rows(left: list[tuple], right: list[tuple]) -> bool:
    return len(left) == len(right) and all(
        len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b)) for a, b in zip(left, right)
    )


def compare(duck: list[tuple], spark: list[tuple], ordered: bool) -> dict:
    """The verdict on two engines' rows: equal as multisets, and in order when the query orders them."""
    duck = [tuple(map(normal, r)) for r in duck]
    spark = [tuple(map(normal, r)) for r in spark]
    as_multiset = same_rows(sorted(duck, key=sort_key), sorted(spark, key=sort_key))
    verdict = {"rows": len(duck), "spark_rows": len(spark), "equal": as_multiset}
    if ordered:
        verdict["equal_in_order"] = same_rows(duck, spark)
        verdict["equal"] = as_multiset and verdict["equal_in_order"]
    if not as_multiset:
        duck_set, spark_set = set(duck), set(spark)
        verdict["only_duckdb"] = [repr(r) for r in sorted(duck_set - spark_set, key=sort_key)[:5]]
        verdict["only_spark"] = [repr(r) for r in sorted(spark_set - duck_set, key=sort_key)[:5]]
    return verdict


def run(label: str, data: Path, submissions: Path, work: Path, out: Path) -> dict:
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    (work / "rows").mkdir()
    seconds = {}
    started = time.perf_counter()
    db = work / "accuracy.duckdb"
    build(data, db, submissions)
    seconds["build_duckdb"] = time.perf_counter() - started

    python = spark_python()
    con = database.open_existing(db)
    started = time.perf_counter()
    the_plan = plan(con, work)
    seconds["transpile"] = time.perf_counter() - started
    started = time.perf_counter()
    the_plan["tables"] = export_parquet(con, work / "parquet")
    seconds["export_parquet"] = time.perf_counter() - started
    (work / "plan.json").write_text(json.dumps(the_plan, indent=2), encoding="utf-8")

    started = time.perf_counter()
    subprocess.run([python, REPO / "benchmarks" / "spark_models.py", work / "plan.json"], check=True)
    seconds["spark_process"] = time.perf_counter() - started
    report = json.loads(Path(the_plan["report"]).read_text(encoding="utf-8"))

    started = time.perf_counter()
    verdicts = {}
    queries = [(m["name"], f"SELECT {', '.join(m['columns'])} FROM {m['name']}", {}, False) for m in the_plan["models"]]
    analyses = {a.name: a for a in saved_analyses()}
    queries += [(f"analysis/{a['name']}", analyses[a["name"]].sql, a["params"], True) for a in the_plan["analyses"]]
    for name, sql, params, ordered in queries:
        if name in report["errors"]:
            verdicts[name] = {"equal": False, "error": report["errors"][name]}
            continue
        duck = con.execute(sql, params).fetchall() if params else con.execute(sql).fetchall()
        spark_file = work / "rows" / f"{name.replace('/', '__')}.parquet"
        spark = con.execute(f"SELECT * FROM read_parquet('{spark_file}')").fetchall()
        verdicts[name] = compare(duck, spark, ordered)
    seconds["compare"] = time.perf_counter() - started
    con.close()

    forgotten = report["forget"]
    result = {
        "label": label,
        "machine": f"{platform.machine()}, {platform.system()}",
        "spark_version": report.get("spark_version"),
        "java": subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()[0],
        "float_tolerance": {"rel_tol": REL_TOL, "abs_tol": ABS_TOL},
        "equal": sum(v["equal"] for v in verdicts.values()),
        "queries": len(verdicts),
        "seconds": seconds | {"spark": report["seconds"]},
        "forget_and_add_back": forgotten,
        "verdicts": verdicts,
    }
    out.mkdir(parents=True, exist_ok=True)
    (out / f"spark-parity-{label}.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--data", type=Path, help="a shared-task data folder; its example_submissions are loaded")
    source.add_argument("--scale", type=int, help="generate K×60 texts with benchmarks.generate")
    parser.add_argument("--submissions", type=int, default=10, help="submissions of the generated data")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--work", type=Path, default=Path("/tmp/accuracy-spark"))
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results")
    args = parser.parse_args()
    if args.data:
        label, data, submissions = "shared-task", args.data, args.data / "example_submissions"
    else:
        label = f"scale-{args.scale}"
        data = args.work / f"data-{label}"
        if not (data / "gsml.csv").is_file():
            generate(data, args.scale, args.submissions, args.seed)
        submissions = data / "submissions"
    result = run(label, data, submissions, args.work / label, args.out)
    s = result["seconds"]
    print(
        f"{label}: {result['equal']} of {result['queries']} queries equal; export {s['export_parquet']:.1f} s, "
        f"Spark {s['spark_process']:.1f} s (session {s['spark']['session']:.1f} s, models "
        f"{s['spark']['models']:.1f} s, queries {s['spark']['queries']:.1f} s), compare {s['compare']:.1f} s"
    )
    for name, verdict in result["verdicts"].items():
        if not verdict["equal"]:
            print(f"  DIFFERS {name}: {json.dumps(verdict)[:600]}")
    sys.exit(0 if result["equal"] == result["queries"] else 1)


if __name__ == "__main__":
    main()
