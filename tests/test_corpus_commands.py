"""The commands that name lists work on any corpus, and the saved analyses tell corpora apart: compare, validity,
agreement, adjudicate and difficulty find a name in the corpus that has it, take that corpus's categories as scopes, and ask for --corpus (or --split) only when
a name is in more than one. The database: the shared-task data with the example submissions, the weather corpus
(tests/weather_corpus.py), and a second copy of it, weather2, whose lists have the same names."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import duckdb
import pytest
import sqlglot
from sqlglot import exp
from test_saved_analyses import PARAMETERS
from weather_corpus import import_weather

from accuracy_db.cli.main import run
from accuracy_db.scoring.scores import fetch_dicts
from accuracy_db.stats import ranking
from accuracy_db.store import database
from accuracy_db.store.analyses import saved_analyses, saved_analysis

WEATHER_SCOPES = ["ALL", "Wrong", "Unsupported"]


@pytest.fixture(scope="module")
def two_corpora_db(built_db, tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("two-corpora")
    path = folder / "accuracy.duckdb"
    shutil.copyfile(built_db, path)
    import_weather(path, folder)
    import_weather(path, folder, name="weather2", prefix="second-")
    return path


def json_of(capsys, args: list[str]):
    assert run(args) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def error_of(capsys, args: list[str]) -> str:
    assert run(args) == 1
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    [line] = captured.err.strip().splitlines()
    return line


def test_a_name_in_two_corpora_is_refused_until_the_corpus_is_given(two_corpora_db, capsys):
    db = ["--db", str(two_corpora_db)]
    for command in (["agreement", "metric", "llm"], ["compare", "metric", "llm"], ["validity", "metric"]):
        kind = "submission" if command[0] != "agreement" else "list"
        assert error_of(capsys, command + db) == (
            f"error: 'metric' is a {kind} of the corpora weather and weather2: give --corpus"
        )
    result = json_of(capsys, ["agreement", "metric", "llm", "--corpus", "weather2", "--format", "json"] + db)
    assert result["split"] == "dev" and result["sets"] == ["metric", "llm"]


def test_agreement_scores_in_the_corpus_own_scopes(two_corpora_db, capsys):
    db = ["--db", str(two_corpora_db)]
    result = json_of(capsys, ["agreement", "gold", "metric", "--corpus", "weather", "--format", "json"] + db)
    assert sorted({row["scope"] for row in result["pairs"]}, key=WEATHER_SCOPES.index) == WEATHER_SCOPES
    # metric against gold as its gold list: what the leaderboard of the corpus says of it, in every scope
    con = database.open_existing(two_corpora_db)
    for scope in WEATHER_SCOPES:
        [ranked] = [r for r in ranking.leaderboard(con, "dev", scope, corpus="weather") if r["submission"] == "metric"]
        [pair] = [r for r in result["pairs"] if r["scope"] == scope and r["compared"] == "metric"]
        assert (pair["matched"], pair["recall"], pair["precision"]) == (
            ranked["matched"],
            ranked["recall"],
            ranked["precision"],
        )
    con.close()
    only_wrong = json_of(
        capsys, ["agreement", "gold", "llm", "--corpus", "weather", "--scope", "Wrong"] + db + ["--format", "json"]
    )
    assert {row["scope"] for row in only_wrong["pairs"]} == {"Wrong"}


def test_a_scope_of_another_corpus_is_refused_in_one_line(two_corpora_db, capsys):
    db = ["--db", str(two_corpora_db), "--corpus", "weather"]
    expected = "error: scope 'NAME' is not a scope of corpus weather (ALL, Wrong, Unsupported)"
    assert error_of(capsys, ["agreement", "gold", "metric", "--scope", "NAME"] + db) == expected
    assert error_of(capsys, ["compare", "metric", "llm", "--scope", "NAME"] + db) == expected
    assert error_of(capsys, ["validity", "metric", "--scope", "NAME"] + db) == expected
    shared = ["--db", str(two_corpora_db), "--corpus", "shared-task"]
    assert error_of(capsys, ["compare", "submission", "gsml_doc_based", "--scope", "Wrong"] + shared) == (
        "error: scope 'Wrong' is not a scope of corpus shared-task (ALL, NAME, NUMBER, WORD, CONTEXT, NOT_CHECKABLE,"
        " OTHER)"
    )


def test_compare_and_validity_read_the_corpus_submissions(two_corpora_db, capsys):
    db = ["--db", str(two_corpora_db), "--corpus", "weather"]
    compared = json_of(capsys, ["compare", "metric", "llm", "--scope", "Wrong", "--format", "json"] + db)
    # Wrong: gold w1 and w3; metric finds w1 (4-5 over 4) only, llm w1 (4) and w3 (4-6 over 5)
    assert (compared["a_value"], compared["b_value"]) == (0.5, 1.0)
    figures = json_of(capsys, ["validity", "metric", "--level", "text", "--format", "json"] + db)
    assert [row["scope"] for row in figures if row["measure"] == "pearson"] == WEATHER_SCOPES


def test_adjudicate_and_difficulty_take_a_corpus(two_corpora_db, tmp_path, capsys):
    db = ["--db", str(two_corpora_db)]
    assert run(["adjudicate", "gold", "metric", "llm", "--min-votes", "2", "--as", "majority", "--out", str(tmp_path),
                "--corpus", "weather2"] + db) == 0  # fmt: skip
    assert capsys.readouterr().out.startswith(f"{tmp_path / 'majority.csv'}: 3 mistakes, 0 category tie(s)")
    # tokens two of gold, metric and llm mark: w1's 4 (all three), w2's 5 (gold's 4-6, metric's 5), w3's 5 (gold's
    # 5, llm's 4-6)
    with (tmp_path / "majority.csv").open() as rows:
        spans = [(r["TEXT_ID"], r["DOC_TOKEN_START"], r["DOC_TOKEN_END"], r["TYPE"]) for r in csv.DictReader(rows)]
    assert spans == [
        ("second-w1.txt", "4", "4", "Wrong"),
        ("second-w2.txt", "5", "5", "Unsupported"),
        ("second-w3.txt", "5", "5", "Wrong"),
    ]
    found = json_of(capsys, ["difficulty", "--corpus", "weather", "--format", "json"] + db)
    assert {row["submission"] for row in found} == {"metric", "llm"}
    assert {row["split"] for row in found} == {"dev"}
    everywhere = json_of(capsys, ["difficulty", "--format", "json"] + db)
    assert {"metric", "llm", "submission"} <= {row["submission"] for row in everywhere}


def test_saved_analyses_keep_two_corpora_with_the_same_names_apart(two_corpora_db):
    con = database.open_existing(two_corpora_db)
    try:
        for analysis in (
            "recall_by_found_by",
            "recall_by_annotators",
            "category_confusion",
            "frequent_mistaken_tokens",
        ):
            rows = fetch_dicts(con, saved_analysis(analysis).sql)
            weather = [{k: v for k, v in row.items() if k != "corpus"} for row in rows if row["corpus"] == "weather"]
            second = [{k: v for k, v in row.items() if k != "corpus"} for row in rows if row["corpus"] == "weather2"]
            assert weather and weather == second  # the copy's rows are the same rows, once each
            assert rows[0]["corpus"] == "shared-task"
        # metric's matched pairs, by their gold category: Wrong (w1) and Unsupported (w2), each a share of 1
        shares = fetch_dicts(con, saved_analysis("category_confusion").sql)
        assert {(r["corpus"], r["gold_category"], r["submitted_category"], r["pairs"], r["share"])
                for r in shares if r["submission"] == "metric"} == {
            (corpus, category, category, 1, 1.0) for corpus in ("weather", "weather2")
            for category in ("Wrong", "Unsupported")
        }  # fmt: skip
    finally:
        con.close()


def with_order_keys(con, sql: str, params: dict) -> tuple[list[tuple], int]:
    """The rows of an analysis, each with its ORDER BY keys appended (without the ORDER BY), and how many keys there
    are. A key is computed beside the columns, where it may read what the FROM clause has, or, when it names an
    output column (a key that the FROM clause cannot bind), over the rows."""
    tree = sqlglot.parse_one(sql, read="duckdb")
    keys = [ordered.this for ordered in tree.args["order"].expressions]
    tree.set("order", None)
    beside = tree.copy().select(*(key.copy().as_(f"_order_{i}") for i, key in enumerate(keys)), append=True)
    try:
        return con.execute(beside.sql(dialect="duckdb"), params).fetchall(), len(keys)
    except duckdb.BinderException:
        unqualified = [key.copy().transform(lambda node: exp.column(node.name) if isinstance(node, exp.Column) else node)
                       for key in keys]  # fmt: skip
        over = sqlglot.select("*", *(key.as_(f"_order_{i}") for i, key in enumerate(unqualified))).from_(
            tree.subquery("analysis")
        )
        return con.execute(over.sql(dialect="duckdb"), params).fetchall(), len(keys)


def assert_ties_are_the_same_row(db, name: str) -> None:
    """Rows that tie on every ORDER BY key of a saved analysis (its parameters those of test_saved_analyses) are the
    same row."""
    analysis = saved_analysis(name)
    con = database.open_existing(db)
    try:
        rows, keys = with_order_keys(con, analysis.sql, PARAMETERS.get(name, {}))
    finally:
        con.close()
    assert rows, f"{name} has no row here"
    by_keys: dict[tuple, set[tuple]] = {}
    for row in rows:
        by_keys.setdefault(row[-keys:], set()).add(row[:-keys])
    tied = {key: found for key, found in by_keys.items() if len(found) > 1}
    assert not tied, f"{len(tied)} ORDER BY key(s) of {name} tie different rows, e.g. {next(iter(tied))}"


# offset_audit has rows only for a corpus folder of character offsets: tests/test_corpus_folders.py checks its order
@pytest.mark.parametrize(
    "analysis", [a for a in saved_analyses() if a.name != "offset_audit"], ids=lambda analysis: analysis.name
)
def test_each_analysis_orders_its_rows_whatever_the_engine_does(two_corpora_db, two_metrics_db, analysis):
    """The order an analysis prints is a function of the data, not of how the engine happened to sort it: on three
    corpora, two of them with the same list names (the gold list and a half of it for the mistakes every
    submission misses: here a copy of the gold list finds them all)."""
    db = two_metrics_db if analysis.name == "missed_by_every_submission" else two_corpora_db
    assert_ties_are_the_same_row(db, analysis.name)


def test_false_alarms_order_two_players_of_one_name(built_db, tmp_path):
    """Two players of one name on one side of a game (generated data has them) are told apart by their line of
    the box score."""
    path = tmp_path / "accuracy.duckdb"
    shutil.copyfile(built_db, path)
    con = database.connect_writable(path)
    con.execute(
        "INSERT INTO player_games SELECT * REPLACE (player_index + 1000 AS player_index, pts + 1 AS pts)"
        " FROM player_games WHERE player_name <> ''"
    )
    con.close()
    assert_ties_are_the_same_row(path, "false_alarms")
