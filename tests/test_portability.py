"""Every model and saved analysis transpiles from DuckDB to PostgreSQL, Spark and Trino, with nothing dropped."""

from __future__ import annotations

import pytest

from accuracy_db.interchange import portable
from accuracy_db.store import database
from accuracy_db.store.analyses import saved_analyses


def every_query() -> dict[str, str]:
    """Every model of queries/ (views, incremental tables and the stats layer's queries) and saved analysis."""
    models = {
        f.name.removesuffix(".sql"): f.read_text(encoding="utf-8")
        for layer in database.VIEW_LAYERS
        for f in database.sql_files(f"accuracy_db.queries.{layer}")
    }
    return models | {f"analysis/{a.name}": a.sql for a in saved_analyses()}


@pytest.mark.parametrize("dialect", portable.DIALECTS)
def test_every_query_transpiles(dialect):
    failures = {}
    for name, sql in every_query().items():
        try:
            out = portable.transpile(sql, dialect)
        except portable.NotPortable as error:
            failures[name] = str(error)
            continue
        assert "ratio(" not in out.lower() and "f1(" not in out.lower(), name  # the figure macros are expanded
    assert failures == {}
    assert len(every_query()) >= 40  # 28 models and 12 saved analyses: a file lost from the package would show


CONTESTED = "contested_matches"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("count(decided.first_taken) OVER", "last_value(decided.first_taken IGNORE NULLS) OVER"),
        ("min(earlier.gold_mistake_id)", "any_value(earlier.gold_mistake_id)"),
        (
            "min(CASE WHEN next_candidate_start IS NULL THEN submitted_mistake_id END)",
            "arg_max(submitted_mistake_id, submitted_start)",
        ),
        ("count(*) AS candidate_count,", "count(*) AS candidate_count, [1, 2][:1] AS l,"),
        ("GROUP BY submission_id, scope, gold_mistake_id, gold_start", "GROUP BY ALL"),
        ("min(submitted_start) < gold_start", "len(list_filter([1], lambda x: x > 0)) > 0"),
    ],
)
def test_a_non_portable_construct_in_a_model_is_refused(old, new):
    sql = every_query()[CONTESTED]
    assert old in sql
    with pytest.raises(portable.NotPortable):
        portable.transpile(sql.replace(old, new, 1), "postgres")


@pytest.mark.parametrize(
    "query",
    [
        "SELECT * EXCLUDE (a) FROM t",
        "SELECT * REPLACE (1 AS a) FROM t",
        "SELECT t.* FROM t JOIN u USING (k)",
        "SELECT * FROM t UNPIVOT (v FOR f IN (a, b))",
        "SELECT a FROM t QUALIFY row_number() OVER (ORDER BY a) = 1",
    ],
)
@pytest.mark.parametrize("dialect", portable.DIALECTS)
def test_constructs_sqlglot_would_pass_through_are_refused(query, dialect):
    with pytest.raises(portable.NotPortable):
        portable.transpile(query, dialect)


def test_parameters_become_literals():
    sql = "SELECT ratio(a, b) AS r FROM t WHERE id = ANY($ids) AND name = $name"
    out = portable.transpile(sql, "postgres", {"ids": [3, 4], "name": "it's"})
    assert out == (
        "SELECT (CAST((a) AS DOUBLE PRECISION) / NULLIF((b), 0)) AS r FROM t WHERE id = ANY(ARRAY[3, 4]) AND name = 'it''s'"
    )


def test_not_materialized_is_kept_for_postgres_only():
    sql = "WITH x AS NOT MATERIALIZED (SELECT 1 AS a) SELECT a FROM x"
    assert "NOT MATERIALIZED" in portable.transpile(sql, "postgres")
    assert "MATERIALIZED" not in portable.transpile(sql, "spark")
    assert "MATERIALIZED" not in portable.transpile(sql, "trino")


def test_a_range_unnested_in_a_select_list_is_a_series_in_postgresql():
    # sqlglot writes UNNEST(GENERATE_SERIES(…)), which PostgreSQL refuses: its generate_series is a set, no array
    out = portable.transpile("SELECT unnest(range(a, b + 1)) AS x FROM t", "postgres")
    assert out == "SELECT GENERATE_SERIES(a, b + 1 - 1) AS x FROM t"
