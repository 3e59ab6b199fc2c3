"""The schema describes itself: every table, view and column has a description (COMMENT ON), the tables' from
schema/, the models' from their opening comments (accuracy_db/store/model_headers.py), and `accuracy-db schema` shows
them whole."""

from __future__ import annotations

import json
import re

import pytest

from accuracy_db.cli.main import run
from accuracy_db.errors import AccuracyDbError
from accuracy_db.store import database, model_headers

RELATIONS = """
SELECT table_name AS relation FROM duckdb_tables() WHERE schema_name = 'main' AND NOT internal
UNION ALL
SELECT view_name FROM duckdb_views() WHERE schema_name = 'main' AND NOT internal
"""


def test_every_table_view_and_column_has_a_description(built):
    relations = {name for (name,) in built.execute(RELATIONS).fetchall()}
    assert {"mistakes", "scores", "span_overlaps", "text_statistics", "leaderboard"} <= relations
    undescribed = built.execute(
        f"""
        SELECT table_name, column_name FROM duckdb_columns()
        WHERE schema_name = 'main' AND table_name IN ({RELATIONS}) AND coalesce(trim(comment), '') = ''
        ORDER BY ALL
        """
    ).fetchall()
    assert undescribed == []
    undescribed_relations = built.execute(
        f"""
        SELECT relation FROM ({RELATIONS})
        WHERE relation NOT IN (
            SELECT table_name FROM duckdb_tables() WHERE coalesce(trim(comment), '') <> ''
            UNION ALL
            SELECT view_name FROM duckdb_views() WHERE coalesce(trim(comment), '') <> ''
        )
        """
    ).fetchall()
    assert undescribed_relations == []


@pytest.mark.parametrize("name", sorted(database.view_definitions()))
def test_a_model_header_names_only_columns_the_model_has(built, name):
    header = model_headers.parse(database.view_definitions()[name])
    comments = database.column_comments(built)
    columns = [column for relation, column in comments if relation == name]
    assert header.columns, f"{name}: its header lists no columns"
    assert set(header.columns) <= set(columns)
    if header.columns_from:
        assert set(columns) - set(header.columns) <= {
            column for relation, column in comments if relation == header.columns_from
        }
    else:
        assert list(header.columns) == list(columns), f"{name}: the header lists the columns in another order"


def test_the_query_models_have_headers_of_the_same_form():
    for name in ("bootstrap_intervals", "paired_tests", "replicate_figures"):
        header = model_headers.parse(database.stats_query(name))
        assert header.columns and header.description.endswith(")."), name


def test_descriptions_are_whole_not_cut_at_a_line(built):
    view = dict(built.execute("SELECT view_name, comment FROM duckdb_views()").fetchall())["candidate_matches"]
    assert view == (
        "The consumed-mistake matching for the gold mistakes that intersect submitted mistakes: a gold mistake whose "
        "overlap is one to one takes that submitted mistake; contested_matches decides the others (mistake_matches "
        "adds the gold mistakes without candidates, which take nothing). Grain: one row per (submission, scope, gold "
        "mistake that intersects a submitted mistake)."
    )
    comments = {
        (table, column): comment
        for table, column, comment in built.execute(
            "SELECT table_name, column_name, comment FROM duckdb_columns()"
        ).fetchall()
    }
    assert comments["span_overlaps", "shared_category"] == (
        "The category of both mistakes when they agree, else NULL: the category scope the pair also counts in."
    )
    # Inherited from the relation the header names: leaderboard's columns are those of scores.
    assert comments["leaderboard", "token_f1"] == comments["scores", "token_f1"]
    assert comments["listed_mistakes", "previous_end"] == comments["mistakes", "previous_end"]


def test_a_header_is_read_line_by_line():
    header = model_headers.parse(
        "-- What it holds,\n"
        "-- on two lines.\n"
        "-- Materialized: incremental (a table;\n"
        "-- still the materialization).\n"
        "-- Grain: one row per\n"
        "-- thing.\n"
        "-- Key: a, b_2\n"
        "-- Columns:\n"
        "--   a: The first,\n"
        "--     and more of it.\n"
        "--   b_2: The second: with a colon.\n"
        "--   (the other columns are those of mistakes)\n"
        "-- A note about the computation.\n"
        "--   c: not a column: the list has ended.\n"
        "SELECT 1 AS a\n"
        "-- d: not in the header either\n"
    )
    assert header.description == "What it holds, on two lines. Grain: one row per thing."
    assert header.columns == {"a": "The first, and more of it.", "b_2": "The second: with a colon."}
    assert header.columns_from == "mistakes"
    assert header.key == ["a", "b_2"]
    assert header.materialized == "incremental"


@pytest.mark.parametrize(
    ("line", "materialized"),
    [
        (None, "view"),
        ("-- Materialized: table", "table"),
        (
            "-- Materialized: table of the gold lists (computed again when the gold lists have changed)",
            "table of the gold lists",
        ),
        (
            "-- Materialized: incremental, a batch of submissions at a time (a table;",
            "incremental, a batch of submissions at a time",
        ),
    ],
)
def test_the_materialization_is_the_start_of_its_own_line(line, materialized):
    header = model_headers.parse(
        "\n".join(["-- What it holds.", *([line] if line else []), "-- Grain: one row per thing."])
    )
    assert header.materialized == materialized
    # A note that names a materialization is no Materialized line.
    assert model_headers.parse("-- What it holds, not as a table of the gold lists.\nSELECT 1").materialized == "view"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("-- Materialized: tabel (a typo)", "line 2: Materialized: unknown materialization 'tabel': expected one of"),
        (
            "-- Materialized: incremental a batch of submissions at a time",
            "line 2: Materialized: unknown materialization 'incremental a batch of submissions at a time': expected one of"
            " 'incremental', 'incremental, a batch of submissions at a time', 'table', 'table of the gold lists', 'query'",
        ),
        ("-- Key: submission_id scope", "line 2: Key: 'submission_id scope' is not a list of column names"),
        ("-- Key: submission_id, scope\n-- and more", "line 3: the Key line runs on"),
    ],
)
def test_a_header_line_not_well_formed_is_an_error_naming_the_file_and_line(line, message):
    with pytest.raises(AccuracyDbError, match=f"^queries/marts/thing.sql: {re.escape(message)}"):
        model_headers.parse(f"-- What it holds.\n{line}\n-- Columns:\nSELECT 1", "queries/marts/thing.sql")


def test_the_schema_command_shows_descriptions_whole_and_text_left_aligned(built_db, capsys):
    assert run(["schema", "--db", str(built_db), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    described = {(row["relation"], row["column"]): row["description"] for row in rows}
    assert described["scores", ""].startswith("The scores of each submission against the gold list of its split")
    assert described["scores", "precision"] == (
        "Mistake-level precision: matched / submitted_total; NULL when the scope has no submitted mistake."
    )
    assert all(described.values())

    assert run(["schema", "--db", str(built_db)]) == 0
    lines = capsys.readouterr().out.splitlines()
    # The widest relation name sets the column's width; a shorter one starts at the cell's left edge.
    rows = [line.split("│")[1:-1] for line in lines if line.startswith("│")]
    (recall,) = [cells for cells in rows if [cells[0].strip(), cells[2].strip()] == ["scores", "recall"]]
    assert [cell[:8] for cell in recall] == [" scores ", " view  ", " recall ", " DOUBLE ", " Mistake"]


def test_an_undescribed_scratch_database_has_the_same_tables_and_rows():
    """The drop-in evaluate's scratch database leaves out the comments of schema/ (one line each): every table, column,
    type, constraint, macro and row of the DDL is still there, and no comment is."""
    catalog = [
        "SELECT table_name, column_name, data_type, is_nullable, column_default FROM duckdb_columns() ORDER BY ALL",
        "SELECT table_name, constraint_type, constraint_text FROM duckdb_constraints() ORDER BY ALL",
        "SELECT function_name, macro_definition FROM duckdb_functions() WHERE NOT internal ORDER BY ALL",
        "SELECT * FROM categories ORDER BY ALL",
        "SELECT * FROM corpora ORDER BY ALL",
    ]
    described, undescribed = database.connect(":memory:"), database.connect(":memory:")
    database.create_tables(described)
    database.create_tables(undescribed, described=False)
    for query in catalog:
        assert undescribed.execute(query).fetchall() == described.execute(query).fetchall()
    comments = "SELECT count(*) FROM duckdb_columns() WHERE comment IS NOT NULL"
    assert undescribed.execute(comments).fetchall() == [(0,)] and described.execute(comments).fetchall() != [(0,)]
