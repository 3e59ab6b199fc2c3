"""Export a built database to PostgreSQL: the tables (DDL transpiled, constraints kept), their rows (COPY), the
models as views, and the models materialized as tables (incremental or whole) as tables filled by their own
transpiled SELECT."""

from __future__ import annotations

from pathlib import Path

import sqlglot

from accuracy_db.errors import AccuracyDbError
from accuracy_db.interchange import portable
from accuracy_db.store import database, model_headers

BATCH_ROWS = 10_000


def table_ddl() -> list[str]:
    """The DDL of schema/ in PostgreSQL's SQL, table by table; the rows (categories' too) are copied, and the
    figure macros are expanded into the models that call them."""
    statements = []
    for ddl in database.sql_files("accuracy_db.schema"):
        if ddl.name == "00_figures.sql":
            continue
        for statement in sqlglot.parse(ddl.read_text(encoding="utf-8"), read="duckdb"):
            if statement is not None and not isinstance(statement, sqlglot.exp.Insert):
                statements.append(statement.sql(dialect="postgres", unsupported_level=sqlglot.ErrorLevel.RAISE))
    return statements


def model_statements(submission_ids: list[int]) -> list[str]:
    """The models in dependency order: a view each, or a table filled for every submission (incremental, or
    computed whole)."""
    definitions = database.view_definitions()
    statements = []
    for name in database.views_in_dependency_order(definitions):
        sql = definitions[name]
        select = portable.transpile(sql, "postgres", {"submission_ids": submission_ids})
        kind = "TABLE" if database.is_table(sql) else "VIEW"
        statements.append(f"CREATE {kind} {name} AS\n{select}")
        description = sqlglot.exp.Literal.string(model_headers.parse(sql).description)
        statements.append(f"COMMENT ON {kind} {name} IS {description}")
    return statements


def export_postgres(db: Path, dsn: str) -> dict[str, int]:
    """Copy the database at db into the (empty) PostgreSQL database dsn names, in one transaction; the rows
    copied per table."""
    import psycopg

    con = database.open_existing(db)
    materialized = set(database.table_models())
    tables = [
        name
        for (name,) in con.execute(
            "SELECT table_name FROM duckdb_tables() WHERE NOT temporary ORDER BY table_name"
        ).fetchall()
        if name not in materialized
    ]
    submission_ids = [i for (i,) in con.execute("SELECT submission_id FROM evaluations ORDER BY 1").fetchall()]
    copied = {}
    try:
        with psycopg.connect(dsn) as pg, pg.cursor() as cur:
            for statement in table_ddl():
                cur.execute(statement)
            for table in tables:
                columns = [c for (c,) in con.execute(f"SELECT column_name FROM (DESCRIBE {table})").fetchall()]
                result = con.execute(f"SELECT {', '.join(columns)} FROM {table}")
                copied[table] = 0
                with cur.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
                    while rows := result.fetchmany(BATCH_ROWS):
                        for row in rows:
                            copy.write_row(row)
                        copied[table] += len(rows)
            for sequence, table, column in (
                ("annotation_set_ids", "annotation_sets", "set_id"),
                ("mistake_ids", "mistakes", "mistake_id"),
            ):
                cur.execute(f"SELECT setval('{sequence}', coalesce((SELECT max({column}) FROM {table}), 0) + 1, false)")
            cur.execute("ANALYZE")  # the planner's statistics of the copied rows: without them it picks nested loops
            # The models filled as tables join the evaluations view, which PostgreSQL estimates at one row whatever
            # the submissions: text_statistics then re-ran an aggregate of every submission's sums once per row of
            # its result in a nested loop, most of the export's time (benchmarks/results/code-timings.md).
            cur.execute("SET LOCAL enable_nestloop = off")
            for statement in model_statements(submission_ids):
                cur.execute(statement)
            cur.execute("RESET enable_nestloop")
            for name in sorted(materialized):  # filled by the statements above, after the first ANALYZE
                cur.execute(f"ANALYZE {name}")
    except psycopg.Error as error:
        raise AccuracyDbError(f"export to PostgreSQL failed: {str(error).strip().splitlines()[0]}") from None
    finally:
        con.close()
    return copied
