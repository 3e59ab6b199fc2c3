"""accuracy-db export postgres: a private PostgreSQL server gets the database, and its models give DuckDB's rows,
on the shared-task data, on generated scale-10 data, and on the MQM and esa models of the TED zh→en file."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import duckdb
import psycopg
import pytest
from shared_data import DATA, EXAMPLES, REPO
from test_corpus_folders import corpus_folder
from test_esa import esa_db  # noqa: F401 (the fixture)
from test_factgenie_campaign_round_trip import thirty_outputs
from test_mqm import mqm_db  # noqa: F401 (the fixture)

from accuracy_db.cli.main import run
from accuracy_db.ingest.build import build
from accuracy_db.ingest.refresh import refresh
from accuracy_db.interchange import portable
from accuracy_db.interchange.imports import import_factgenie
from accuracy_db.store import database
from accuracy_db.store.analyses import saved_analyses

# Per data set: the values of the saved analyses' parameters, the saved analyses that come out empty, and the rows of
# scores (7 scopes a submission). On the shared-task data gsml_doc_based is the gold list itself, so every gold
# mistake is found by some submission; the generated texts name no NLG system (nlg_systems.csv); neither has a corpus
# of character spans (offset_audit: test_the_offset_audit_of_a_corpus_folder_equals_duckdb_row_for_row).
DATASETS = {
    "shared-task": (
        {"submission": "submission", "first": "submission", "second": "gsml_doc_based"},
        {"offset_audit"},  # the checker's list marks test texts' mistakes: some of them are missed by every list
        49,  # 7 scopes of the 5 loaded lists on train, and of the box-score checker's list (boxscore) on both splits
    ),
    "scale-10": (
        {"submission": "sub01", "first": "sub01", "second": "sub02"},
        {"validity_by_system", "offset_audit"},
        28,  # 7 scopes of each of the 3 generated lists, and of the box-score checker's list
    ),
}
GENERATED_SUBMISSIONS = 3  # one of each kind: document ids, sentence ids, both (benchmarks/generate.py)


def server_binaries() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    assert found, "PostgreSQL is not installed: apt-get install postgresql (.ci/run and make test do)"
    return Path(found[-1]).parent


@pytest.fixture(scope="session")
def postgres_server():
    """A PostgreSQL server of the test session, listening only on a Unix socket in its own folder; as nobody when
    the tests run as root (PostgreSQL refuses root)."""
    binaries = server_binaries()
    folder = Path(tempfile.mkdtemp(prefix="accuracy-pg-"))  # short: a socket path has at most 107 bytes
    as_user = []
    if os.geteuid() == 0:
        shutil.chown(folder, "nobody")
        as_user = ["runuser", "-u", "nobody", "--"]
    data = folder / "data"
    subprocess.run(
        [*as_user, binaries / "initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale"],
        check=True,
        capture_output=True,
    )
    subprocess.run(
        [
            *as_user,
            binaries / "pg_ctl",
            "-D",
            data,
            "-l",
            folder / "log",
            "-w",
            "-o",
            f"-c listen_addresses='' -k {folder}",
            "start",
        ],
        check=True,
        capture_output=True,
    )
    try:
        yield folder
    finally:
        subprocess.run([*as_user, binaries / "pg_ctl", "-D", data, "-m", "fast", "-w", "stop"], capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def generated_db(tmp_path_factory) -> Path:
    """A database built from generated data at scale 10 (600 texts): spans the shared task's data never shows
    (it once exposed a PostgreSQL transpilation that dropped IGNORE NULLS and got 9 of 15,352 matches wrong)."""
    folder = tmp_path_factory.mktemp("generated")
    subprocess.run(
        [sys.executable, "-m", "benchmarks.generate", "--scale", "10", "--submissions", str(GENERATED_SUBMISSIONS)]
        + ["--out", str(folder / "data")],
        cwd=REPO,
        check=True,
    )
    build(folder / "data", folder / "accuracy.duckdb", folder / "data" / "submissions")
    return folder / "accuracy.duckdb"


@dataclass
class Exported:
    """A data set's database in DuckDB, and the same exported to PostgreSQL by the command."""

    dataset: str
    duck: duckdb.DuckDBPyConnection
    pg: psycopg.Connection


@pytest.fixture(scope="session", params=list(DATASETS))
def exported(request, postgres_server):
    """Each data set's database exported by the command into a fresh PostgreSQL database."""
    db = request.getfixturevalue("built_db" if request.param == "shared-task" else "generated_db")
    dsn = exported_into(postgres_server, request.param.replace("-", "_"), db)
    duck = database.open_existing(db)
    with psycopg.connect(dsn) as pg:
        yield Exported(request.param, duck, pg)
    duck.close()


def exported_into(postgres_server: str, name: str, db: Path) -> str:
    """Export a database by the command into a fresh PostgreSQL database of this name; its connection string."""
    with psycopg.connect(f"host={postgres_server} user=postgres dbname=postgres", autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    dsn = f"host={postgres_server} user=postgres dbname={name}"
    assert run(["export", "postgres", "--db", str(db), "--dsn", dsn]) == 0
    return dsn


def rows_of(con, sql: str) -> list[tuple]:
    return [tuple(row) for row in con.execute(sql).fetchall()]


def columns_of(exported: Exported, relation: str) -> str:
    return ", ".join(c for (c,) in exported.duck.execute(f"SELECT column_name FROM (DESCRIBE {relation})").fetchall())


def unordered(rows: list[tuple]) -> list[tuple]:
    return sorted(rows, key=lambda row: tuple((v is not None, v) for v in row))


def test_the_generating_systems_the_dashboard_filters_by_equal_duckdb(exported):
    """text_generators: the systems of the texts (the shared task's 21 of nlg_systems.csv)."""
    duck = rows_of(exported.duck, "SELECT * FROM text_generators ORDER BY text_id")
    assert rows_of(exported.pg, "SELECT * FROM text_generators ORDER BY text_id") == duck


@pytest.mark.parametrize("view", ["scores", "leaderboard"])
def test_views_equal_duckdb_row_for_row(exported, view):
    columns = columns_of(exported, view)
    order = f"ORDER BY {', '.join(columns.split(', ')[:6])}"
    duck = rows_of(exported.duck, f"SELECT {columns} FROM {view} {order}")
    pg = rows_of(exported.pg, f"SELECT {columns} FROM {view} {order}")
    assert len(duck) == DATASETS[exported.dataset][2] and pg == duck


@pytest.mark.parametrize("analysis", saved_analyses(), ids=lambda a: a.name)
def test_saved_analyses_equal_duckdb_row_for_row(exported, analysis):
    values, empty, _ = DATASETS[exported.dataset]
    params = {name: values[name] for name in analysis.parameters}
    duck = [tuple(row) for row in exported.duck.execute(analysis.sql, params).fetchall()]
    pg = rows_of(exported.pg, portable.transpile(analysis.sql, "postgres", params))
    assert pg == duck
    assert bool(duck) != (analysis.name in empty)


def test_constraints_are_kept(exported):
    with pytest.raises(psycopg.errors.CheckViolation):
        exported.pg.execute(
            "INSERT INTO team_games (text_id, side, team_name, team_city) VALUES ('x', 'away', 'a', 'b')"
        )
    exported.pg.rollback()
    with pytest.raises(psycopg.errors.UniqueViolation):
        exported.pg.execute("INSERT INTO categories SELECT * FROM categories LIMIT 1")
    exported.pg.rollback()
    for score in ("NaN", "Infinity", "-Infinity"):  # a metric's score is a finite number
        with pytest.raises(psycopg.errors.CheckViolation):
            exported.pg.execute(
                "INSERT INTO text_scores (corpus, metric, text_id, split, score) VALUES ('c', 'm', 't', 's', %s)",
                [float(score)],
            )
        exported.pg.rollback()


@pytest.mark.parametrize("name", database.table_models())
def test_models_materialized_as_tables_are_tables_equal_to_duckdb(exported, name):
    kind = exported.pg.execute("SELECT table_type FROM information_schema.tables WHERE table_name = %s", [name])
    assert kind.fetchone() == ("BASE TABLE",)
    columns = columns_of(exported, name)
    duck = unordered(rows_of(exported.duck, f"SELECT {columns} FROM {name}"))
    assert duck and unordered(rows_of(exported.pg, f"SELECT {columns} FROM {name}")) == duck


def test_the_offset_audit_of_a_corpus_folder_equals_duckdb_row_for_row(db, postgres_server, tmp_path):
    """offset_audit on a corpus folder with adjusted spans (widened, relocated) and a refused one."""
    folder = corpus_folder(tmp_path)
    (folder / "lists" / "bad.csv").write_text("text_id,category,start,text\nw1,Wrong,-1,12\n")
    refresh(db, DATA, EXAMPLES, corpus_dirs=[folder])
    dsn = exported_into(postgres_server, "offset_audit", db)
    sql = [a for a in saved_analyses() if a.name == "offset_audit"][0].sql
    duck = database.open_existing(db)
    try:
        expected = [tuple(row) for row in duck.execute(sql).fetchall()]
    finally:
        duck.close()
    with psycopg.connect(dsn) as pg:
        assert rows_of(pg, portable.transpile(sql, "postgres")) == expected
    assert sorted(row[6] for row in expected) == ["refused", "relocated", "relocated", "widened", "widened"]


def test_the_calibration_of_a_list_with_probabilities_equals_duckdb(db, postgres_server, tmp_path):
    """The calibration models (queries/stats/probability_*.sql) on a corpus folder whose gold list and one
    submission have probabilities: the characters of their spans, the curve, the bins, AP and ECE."""
    from test_thresholds import import_corpus

    import_corpus(db, tmp_path, "softgold", gold_soft=True)
    dsn = exported_into(postgres_server, "calibration", db)
    models = ["probability_precision_recall", "probability_calibration", "probability_quality"]
    duck = database.open_existing(db)
    try:
        expected = {model: unordered(rows_of(duck, f"SELECT * FROM {model}")) for model in models}
    finally:
        duck.close()
    with psycopg.connect(dsn) as pg:
        for model in models:
            assert unordered(rows_of(pg, f"SELECT * FROM {model}")) == [pytest.approx(row) for row in expected[model]]
    assert [row[1] for row in expected["probability_quality"]] == ["soft"]


def test_a_factgenie_campaign_kept_as_it_came_equals_duckdb_row_for_row(db, postgres_server, tmp_path):
    """The tables that keep a factgenie campaign as it came (schema/09_factgenie.sql): Unicode, JSON text, BIGINT."""
    import_factgenie(db, thirty_outputs(tmp_path), "games")
    dsn = exported_into(postgres_server, "factgenie", db)
    tables = ["factgenie_lists", "factgenie_records"]
    duck = database.open_existing(db)
    try:
        expected = {table: sorted(rows_of(duck, f"SELECT * FROM {table}")) for table in tables}
    finally:
        duck.close()
    with psycopg.connect(dsn) as pg:
        assert {table: sorted(rows_of(pg, f"SELECT * FROM {table}")) for table in tables} == expected
    assert [len(expected[table]) for table in tables] == [2, 45]


MQM_MODELS = {  # the MQM and esa models, ordered by their key
    "category_levels": "corpus, category",
    "mqm_weighted_errors": "set_id, line_number",
    "mqm_segments": "text_id",
    "system_text_scores": "text_id",
    "esa_text_statistics": "submission_id, text_id",
    "esa_scores": "submission_id",
    "mqm_metric_targets": "text_id",
    "segment_references": "text_id, reference_system",
    "text_generators": "text_id",
    "rated_error_spans": "set_id, line_number, error_index",
}


def test_the_mqm_and_esa_figures_of_the_ted_file_equal_duckdb_row_for_row(esa_db, postgres_server):  # noqa: F811
    """The TED zh→en MQM file (read in place) with generated predictions scored by esa (tests/test_esa.py): the
    errors' weights, the segments' MQM scores, the texts the systems are ranked by (accuracy-db systems), the esa
    counts and figures, and what metrics sets a metric against (the MQM targets, the texts beside their references)."""
    db, *_ = esa_db
    dsn = exported_into(postgres_server, "mqm", db)
    duck = database.open_existing(db)
    try:
        expected = {model: rows_of(duck, f"SELECT * FROM {model} ORDER BY {key}") for model, key in MQM_MODELS.items()}
    finally:
        duck.close()
    with psycopg.connect(dsn) as pg:
        for model, key in MQM_MODELS.items():
            assert rows_of(pg, f"SELECT * FROM {model} ORDER BY {key}") == [
                pytest.approx(row) for row in expected[model]
            ], model
    assert len(expected["mqm_segments"]) == 7935
    assert {row[2] for row in expected["esa_scores"]} >= {"pred", "rater/rater3"}
