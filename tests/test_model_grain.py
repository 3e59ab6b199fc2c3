"""Every model's grain holds, as dbt's `unique` test checks it on every model of dbt Labs' jaffle-shop: the columns
its header's Key line names (accuracy_db/store/model_headers.py) identify one row, on the shared-task database and on
generated data. The models of queries/ and the saved analyses of queries/analysis/ alike; a model or an analysis with
parameters runs with those the tests give it elsewhere."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

import pytest
from test_saved_analyses import PARAMETERS

from accuracy_db.ingest.build import build
from accuracy_db.stats import intervals, significance
from accuracy_db.stats.intervals import Resampling
from accuracy_db.store import database, model_headers
from accuracy_db.store.analyses import saved_analyses, saved_analysis

REPO = Path(__file__).resolve().parents[1]
# The saved analyses whose rows no columns of theirs identify, and why.
NO_KEY = {
    "false_alarms": "two players of one name on one side of a game are two box-score lines, which no column of the"
    " answer tells apart (tests/test_corpus_commands.py, test_false_alarms_order_two_players_of_one_name)",
}
# The query models that read the sums of a run's resampled trials: they exist only inside a run.
RESAMPLED = ("replicate_figures", "bootstrap_intervals", "paired_tests")
# The mushroom scheme's models, which only lists read with character labels fill, and its figures of a run (another
# replicate_figures): checked on a database with a Mu-SHROOM corpus imported, in its runs. The calibration models,
# which only lists with probabilities fill, with them (tests/test_calibration_of_spans.py checks them on spans).
MUSHROOM_MODELS = (
    "mushroom_evaluations",
    "mushroom_characters",
    "mushroom_text_scores",
    "mushroom_scores",
    "mushroom_leaderboard",
    "probability_evaluations",
    "probability_characters",
    "probability_precision_recall",
    "probability_calibration",
    "probability_quality",
)
MUSHROOM_RESAMPLED = ("mushroom_replicate_figures", "bootstrap_intervals", "paired_tests")
GENERATED_NAMES = {"submission": "sub01", "first": "sub01", "second": "sub02"}  # benchmarks/generate.py's names


def definitions() -> dict[str, str]:
    """Every model and saved analysis: name -> SQL (no analysis has a model's name: the first test checks it)."""
    return database.model_definitions() | {analysis.name: analysis.sql for analysis in saved_analyses()}


RUN_FIGURES = {"mushroom_replicate_figures", "system_replicate_figures", "esa_replicate_figures"}
KEYED = sorted(set(definitions()) - set(NO_KEY) - RUN_FIGURES)
# The MQM models, which only lists read from an MQM file fill: checked with one imported, and the systems' figures
# of a run inside the ranking's run.
MQM_MODELS = ("mqm_weighted_errors", "mqm_segments", "system_text_scores", "category_levels", "span_characters")
MQM_MODELS += ("esa_evaluations", "esa_text_statistics", "esa_scores")


@pytest.fixture(scope="module")
def generated_db(tmp_path_factory) -> Path:
    """A database built from generated data at scale 1 (60 texts, and 30 of a test split that no submission names)
    with three submissions: spans the shared task's data never shows."""
    folder = tmp_path_factory.mktemp("generated")
    subprocess.run(
        [sys.executable, "-m", "benchmarks.generate", "--scale", "1", "--submissions", "3", "--test-split"]
        + ["--out", str(folder / "data")],
        cwd=REPO,
        check=True,
        capture_output=True,
    )
    build(folder / "data", folder / "accuracy.duckdb", folder / "data" / "submissions")
    return folder / "accuracy.duckdb"


@pytest.fixture(params=["shared-task", "generated"])
def data(request):
    """The name of a data set and a connection to its database."""
    con = database.open_existing(
        request.getfixturevalue("built_db" if request.param == "shared-task" else "generated_db")
    )
    yield request.param, con
    con.close()


def duplicate_keys(con, sql: str, key: list[str], params: dict | None = None) -> list[tuple]:
    """The values of the key that more than one row of the query has, each with its count (NULLs count as equal, as
    GROUP BY takes them)."""
    columns = con.sql(sql, params=params).columns  # bound, not run
    assert set(key) <= set(columns), f"the key names columns the model does not have: {set(key) - set(columns)}"
    listed = ", ".join(f'"{column}"' for column in key)
    return con.execute(f"SELECT {listed}, count(*) FROM ({sql}) GROUP BY ALL HAVING count(*) > 1", params).fetchall()


def train_submission_ids(con) -> list[int]:
    return [
        i for (i,) in con.execute("SELECT submission_id FROM evaluations WHERE split = 'train' ORDER BY 1").fetchall()
    ]


def query_of(con, dataset: str, name: str) -> tuple[str, dict | None]:
    """What is read of a model or a saved analysis: a model's relation as the database has it; majority_spans and
    soft_gold_spans over the train split's lists, and a saved analysis, with the parameters the tests give them elsewhere."""
    if name in database.view_definitions():
        return f"SELECT * FROM {name}", None
    if name in ("majority_spans", "soft_gold_spans"):
        gold_ids = con.execute("SELECT DISTINCT gold_id FROM evaluations WHERE split = 'train'").fetchall()
        set_ids = [*gold_ids[0], *train_submission_ids(con)]
        return database.stats_query(name), {"set_ids": set_ids} | ({"min_votes": 2} if name == "majority_spans" else {})
    analysis = saved_analysis(name)
    if dataset == "shared-task":
        return analysis.sql, PARAMETERS.get(name) or None
    return analysis.sql, {parameter: GENERATED_NAMES[parameter] for parameter in analysis.parameters} or None


def duplicates_in_resampling_runs(
    monkeypatch, con, name: str, key: list[str], scheme: str = "shared-task"
) -> list[tuple]:
    """The duplicate keys of a query model over a run's trials, checked inside the runs that query it (intervals of
    every submission of the train split, or of the mushroom corpus's EN split, and paired tests of every two of
    them), while trial_sums and replicate_figures exist."""
    found, checked = [], []
    fetch = intervals.fetch_dicts

    def fetch_checked(con, sql, params):
        if name in ("replicate_figures", "mushroom_replicate_figures"):
            found.extend(duplicate_keys(con, "SELECT * FROM replicate_figures", key))
            checked.append(name)
        elif sql == database.stats_query(name):
            found.extend(duplicate_keys(con, sql, key, params))
            checked.append(name)
        return fetch(con, sql, params)

    monkeypatch.setattr(intervals, "fetch_dicts", fetch_checked)
    if scheme == "mushroom":
        ids = [i for (i,) in con.execute("SELECT submission_id FROM mushroom_scores WHERE split = 'EN'").fetchall()]
        scopes, figure = ["ALL"], "iou"
    else:
        ids, scopes, figure = train_submission_ids(con), ["ALL", "NAME"], "recall"
    intervals.bootstrap_intervals(con, ids, scopes, Resampling(20), scheme)
    significance.paired_tests(
        con, list(itertools.combinations(ids, 2)), "ALL", figure, "permutation", 20, Resampling(20), scheme=scheme
    )
    assert checked, f"no run queried {name}"
    return found


def test_every_model_and_saved_analysis_names_its_key():
    parsed = {name: model_headers.parse(sql, name) for name, sql in definitions().items()}
    assert [name for name, header in parsed.items() if not header.key and name not in NO_KEY] == []
    assert [name for name in NO_KEY if parsed[name].key] == []  # one that has a key is checked as the others
    analyses = {analysis.name for analysis in saved_analyses()}
    assert set(NO_KEY) <= analyses  # every model has a key
    assert not analyses & set(database.model_definitions())  # the test tells a model from an analysis by its name


@pytest.mark.parametrize("name", KEYED)
def test_no_two_rows_share_the_key(data, name, monkeypatch):
    dataset, con = data
    key = model_headers.parse(definitions()[name], name).key
    assert key, f"{name}: its header has no Key line"
    if name in RESAMPLED:
        duplicates = duplicates_in_resampling_runs(monkeypatch, con, name, key)
    else:
        sql, params = query_of(con, dataset, name)
        duplicates = duplicate_keys(con, sql, key, params)
    assert duplicates == [], f"{name}: rows share the key ({', '.join(key)}), with their counts: {duplicates[:5]}"


@pytest.fixture(scope="module")
def mushroom_con(built_db, tmp_path_factory):
    """The shared-task database with a Mu-SHROOM corpus of two splits and three systems imported."""
    from test_mushroom_statistics import imported_mushroom

    db, _, _ = imported_mushroom(built_db, tmp_path_factory.mktemp("mushroom_grain"))
    con = database.open_existing(db)
    yield con
    con.close()


@pytest.mark.parametrize("name", MUSHROOM_MODELS + MUSHROOM_RESAMPLED)
def test_no_two_rows_of_the_mushroom_scheme_share_the_key(mushroom_con, name, monkeypatch):
    key = model_headers.parse(definitions()[name], name).key
    if name in MUSHROOM_RESAMPLED:
        duplicates = duplicates_in_resampling_runs(monkeypatch, mushroom_con, name, key, "mushroom")
    else:
        assert mushroom_con.execute(f"SELECT count(*) FROM {name}").fetchone()[0] > 0
        duplicates = duplicate_keys(mushroom_con, f"SELECT * FROM {name}", key)
    assert duplicates == [], f"{name}: rows share the key ({', '.join(key)}), with their counts: {duplicates[:5]}"


@pytest.mark.parametrize(
    "name", (*MQM_MODELS, "system_replicate_figures", "esa_replicate_figures", "bootstrap_intervals", "paired_tests")
)
def test_no_two_rows_of_the_mqm_models_share_the_key(db, tmp_path, name, monkeypatch):
    from accuracy_db.cli.main import run
    from accuracy_db.scoring.schemes import ESA
    from accuracy_db.stats.ranking import leaderboard
    from accuracy_db.stats.system_ranking import ranked_systems

    lines = [
        "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity",
        *(
            f"{system}\td\t{seg}\t{seg}\t{rater}\t源{seg}\tThe <v>cat</v> sat {seg}\tFluency/Punctuation\t{severity}"
            for system in ("A", "B", "ref")
            for seg in range(1, 6)
            for rater, severity in (("r1", "Major"), ("r2", "Minor"), ("r2", "Minor"))
        ),
    ]
    path = tmp_path / "mqm.tsv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert run(["import", "mqm", "--db", str(db), "--corpus", "mqm", str(path)]) == 0
    con = database.open_existing(db)
    key = model_headers.parse(definitions()[name], name).key
    if name in MQM_MODELS:
        assert con.execute(f"SELECT count(*) FROM {name}").fetchone()[0] > 0
        duplicates = duplicate_keys(con, f"SELECT * FROM {name}", key)
    else:
        found, checked, fetch = [], [], intervals.fetch_dicts

        def fetch_checked(con, sql, params):
            table = "replicate_figures" if name.endswith("_replicate_figures") else None
            if table or sql == database.stats_query(name):
                found.extend(
                    duplicate_keys(con, f"SELECT * FROM {table}" if table else sql, key, params if not table else None)
                )
                checked.append(name)
            return fetch(con, sql, params)

        monkeypatch.setattr(intervals, "fetch_dicts", fetch_checked)
        if name != "esa_replicate_figures":
            ranked_systems(con, "mqm", ci=Resampling(20), trials=20)
        if name != "system_replicate_figures":
            leaderboard(con, None, "ALL", Resampling(20), 20, "mqm", ESA)
        assert checked, f"no run queried {name}"
        duplicates = found
    con.close()
    assert duplicates == [], f"{name}: rows share the key ({', '.join(key)}), with their counts: {duplicates[:5]}"
