"""The Spark half of benchmarks/spark_parity.py: run in the Spark virtual environment (PySpark, no accuracy_db).

    benchmarks/.spark-venv/bin/python benchmarks/spark_models.py PLAN.json

PLAN.json (written by spark_parity.py) names the Parquet folder of each base table, the models in dependency order with
their Spark SQL (transpiled from the DuckDB files by accuracy_db/interchange/portable.py), and the saved analyses. This
script creates the tables and models in a local Spark session the way a cluster would hold them (base tables over
Parquet, models as views, incremental models as Parquet tables partitioned by submission), forgets one submission from
the incremental tables by dropping its partition and adds it back with the model's SELECT for that submission alone,
then writes every model's and analysis's rows to Parquet, in Spark's row order, for the comparison with DuckDB. The
timings and any error go to the plan's "report" file.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
from pyspark.sql import SparkSession


def session(warehouse: Path) -> SparkSession:
    """A local session on both cores, UTC, ANSI SQL as Spark 4 has it by default; few shuffle partitions, since
    the data is small for Spark."""
    return (
        SparkSession.builder.master("local[2]")
        .appName("accuracy-db parity")
        .config("spark.sql.warehouse.dir", str(warehouse))
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.driver.memory", "8g")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )


def quoted(name: str) -> str:
    return f"`{name}`"


def first_line(error: Exception) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


def main(plan_path: Path) -> None:
    plan = json.loads(plan_path.read_text(encoding="utf-8"))
    out = Path(plan["out"])
    report: dict = {"seconds": {}, "errors": {}, "forget": {}}
    started = time.perf_counter()
    spark = session(out / "warehouse")
    spark.sparkContext.setLogLevel("ERROR")
    report["seconds"]["session"] = time.perf_counter() - started

    started = time.perf_counter()
    for table, folder in plan["tables"].items():
        spark.sql(f"CREATE TABLE {table} USING parquet LOCATION '{folder}'")
    report["seconds"]["tables"] = time.perf_counter() - started

    started = time.perf_counter()
    report["seconds"]["model"] = {}
    for model in plan["models"]:
        name = model["name"]
        model_started = time.perf_counter()
        try:
            if model["incremental"]:
                spark.sql(f"CREATE TABLE {name} USING parquet PARTITIONED BY (submission_id) AS\n{model['sql']}")
            else:
                spark.sql(f"CREATE VIEW {name} AS\n{model['sql']}")
        except Exception as error:  # noqa: BLE001 - every failing model is reported, and the run goes on
            report["errors"][name] = first_line(error)
        report["seconds"]["model"][name] = time.perf_counter() - model_started
    report["seconds"]["models"] = time.perf_counter() - started

    # A refresh on a cluster: forget a submission (drop its partition), then add it back (insert its rows alone).
    started = time.perf_counter()
    forgotten = plan["forget_submission_id"]
    for model in plan["models"]:
        name = model["name"]
        if not model["incremental"] or name in report["errors"]:
            continue
        try:
            count = f"SELECT count(*) FROM {name} WHERE submission_id = {forgotten}"
            before = spark.sql(count).first()[0]
            spark.sql(f"ALTER TABLE {name} DROP PARTITION (submission_id = {forgotten})")
            dropped = spark.sql(count).first()[0]
            columns = ", ".join(quoted(c) for c in spark.table(name).columns)  # the partition column comes last
            spark.sql(f"INSERT INTO {name} PARTITION (submission_id) SELECT {columns} FROM (\n{model['one_sql']}\n)")
            report["forget"][name] = {"rows": before, "after_drop": dropped}
        except Exception as error:  # noqa: BLE001
            report["errors"][name] = "forget and add back: " + first_line(error)
    report["seconds"]["forget_and_add_back"] = time.perf_counter() - started

    started = time.perf_counter()
    queries = [(m["name"], f"SELECT {', '.join(map(quoted, m['columns']))} FROM {m['name']}") for m in plan["models"]]
    queries += [(f"analysis/{a['name']}", a["sql"]) for a in plan["analyses"]]
    report["seconds"]["query"] = {}
    for name, sql in queries:
        if name in report["errors"]:
            continue
        query_started = time.perf_counter()
        try:
            pq.write_table(spark.sql(sql).toArrow(), out / "rows" / f"{name.replace('/', '__')}.parquet")
        except Exception as error:  # noqa: BLE001
            report["errors"][name] = first_line(error)
        report["seconds"]["query"][name] = time.perf_counter() - query_started
    report["seconds"]["queries"] = time.perf_counter() - started
    report["spark_version"] = spark.version
    spark.stop()
    Path(plan["report"]).write_text(json.dumps(report, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
