"""accuracy-db compare and leaderboard --ci as people run them: processes, their output, one line on bad input."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from shared_data import DATA, EXAMPLES
from test_cli_tables import printed_signatures

from accuracy_db.ingest.build import build
from accuracy_db.stats import ranking
from accuracy_db.stats.intervals import Resampling
from accuracy_db.stats.significance import compare
from accuracy_db.store import database


def accuracy_db(*args) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "accuracy_db", *map(str, args)], capture_output=True, text=True, timeout=120
    )


def one_line_error(result: subprocess.CompletedProcess) -> str:
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.fixture(scope="module")
def both_splits_db(tmp_path_factory):
    """The example submission (train split) beside the test split's gold list submitted as a submission, and its
    first 99 rows as another; those three alone (built without the box-score checker's list)."""
    folder = tmp_path_factory.mktemp("both_splits")
    (folder / "submissions").mkdir()
    (folder / "submissions" / "submission.csv").write_bytes((EXAMPLES / "submission.csv").read_bytes())
    test_gold = (DATA / "test_set" / "gsml.csv").read_text(encoding="utf-8")
    (folder / "submissions" / "test_gold.csv").write_text(test_gold, encoding="utf-8")
    (folder / "submissions" / "test_part.csv").write_text("".join(test_gold.splitlines(True)[:100]), encoding="utf-8")
    build(DATA, folder / "accuracy.duckdb", folder / "submissions", check=False)
    return folder / "accuracy.duckdb"


def test_compare_prints_the_figures_the_difference_its_interval_and_a_p_value(two_metrics_db):
    result = accuracy_db("compare", "half_gold", "submission", "--db", two_metrics_db, "--format", "json")
    assert result.returncode == 0, result.stderr
    comparison = json.loads(result.stdout)
    assert set(comparison) >= {
        "a", "b", "metric", "scope", "a_value", "b_value", "difference", "difference_ci", "p_value", "test", "trials",
        "signature",
    }  # fmt: skip
    assert (comparison["a"], comparison["b"], comparison["metric"], comparison["test"]) == (
        "half_gold", "submission", "recall", "permutation",
    )  # fmt: skip
    assert comparison["difference"] == pytest.approx(comparison["a_value"] - comparison["b_value"])
    low, high = comparison["difference_ci"]
    assert low <= comparison["difference"] <= high
    assert comparison["trials"] == 10_000 and 0 < comparison["p_value"] < 0.001
    assert comparison["signature"].endswith("|scope:ALL|bs:1000|seed:12345|ci:95|test:permutation|trials:10000")


def test_the_same_settings_give_the_same_figures(two_metrics_db):
    args = ("compare", "half_gold", "submission", "--db", two_metrics_db, "--test", "bootstrap", "--format", "json")
    first, second = accuracy_db(*args, "--seed", "3"), accuracy_db(*args, "--seed", "3")
    assert first.stdout == second.stdout
    assert json.loads(first.stdout)["trials"] == 1000


def test_leaderboard_ci_adds_intervals_clusters_and_signatures(two_metrics_db):
    result = accuracy_db("leaderboard", "--db", two_metrics_db, "--ci", "--format", "json")
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)
    assert [row["submission"] for row in rows] == ["half_gold", "submission"]
    assert [row["cluster"] for row in rows] == [1, 2]  # half the gold list's recall (0.5) is far above 0.29
    for row in rows:
        for figure in ("recall", "precision", "f1", "token_recall", "token_precision", "token_f1"):
            low, high = row[f"{figure}_ci"]
            assert low <= row[figure] <= high
        assert row["signature"].startswith("accuracy-db:")


def test_compare_takes_a_scheme(two_metrics_db):
    """--scheme: the figures, interval and p-value of significance.compare under the scheme, signed with its name;
    the table prints the same figures."""
    args = ("compare", "submission", "half_gold", "--db", two_metrics_db, "--scope", "NAME", "--scheme", "partial")
    result = accuracy_db(*args, "--metric", "f1", "--format", "json")
    assert result.returncode == 0, result.stderr
    comparison = json.loads(result.stdout)
    con = database.open_existing(two_metrics_db)
    try:
        expected = compare(con, "submission", "half_gold", "NAME", "f1", "permutation", 10_000, scheme="partial")
        (partial_f1,) = con.execute(
            "SELECT f1 FROM scheme_scores WHERE scheme = 'partial' AND submission = 'submission' AND scope = 'NAME'"
        ).fetchone()
    finally:
        con.close()
    assert comparison == expected
    assert comparison["a_value"] == partial_f1
    assert "|scheme:partial|" in comparison["signature"]
    assert comparison["signature"].endswith("|scope:NAME|bs:1000|seed:12345|ci:95|test:permutation|trials:10000")
    table = accuracy_db(*args, "--metric", "f1")
    assert table.returncode == 0, table.stderr
    assert f"{partial_f1:.3f}" in table.stdout and printed_signatures(table.stdout) == {
        "signature": comparison["signature"]
    }


def test_leaderboard_ci_takes_a_scheme(two_metrics_db):
    """--ci --scheme: the ranking under the scheme with the intervals and clusters of ranking.leaderboard, every
    figure within its interval, signed with the scheme's name; no token-level figures."""
    args = ("leaderboard", "--db", two_metrics_db, "--ci", "--scheme", "char-soft", "--resamples", "200")
    result = accuracy_db(*args, "--trials", "500", "--format", "json")
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)
    con = database.open_existing(two_metrics_db)
    try:
        expected = ranking.leaderboard(con, None, "ALL", Resampling(200), 500, scheme="char-soft")
        figures = con.execute(
            "SELECT submission, recall, precision, f1 FROM scheme_scores WHERE scheme = 'char-soft' AND scope = 'ALL'"
        ).fetchall()
    finally:
        con.close()
    assert rows == expected
    assert sorted((row["submission"], row["recall"], row["precision"], row["f1"]) for row in rows) == sorted(figures)
    for row in rows:
        assert "token_recall_ci" not in row and set(row["excluded_replicates"]) == {"recall", "precision", "f1"}
        for figure in ("recall", "precision", "f1"):
            low, high = row[f"{figure}_ci"]
            assert low <= row[figure] <= high
        assert "|scheme:char-soft|" in row["signature"] and row["signature"].endswith("|test:permutation|trials:500")
    assert [row["cluster"] for row in rows] == [1, 2]
    table = accuracy_db(*args, "--trials", "500")
    assert table.returncode == 0, table.stderr
    assert "scheme char-soft" in table.stdout
    assert all(
        f"{row['recall']:.3f} [{row['recall_ci'][0]:.2f}, {row['recall_ci'][1]:.2f}]" in table.stdout for row in rows
    )


def test_evaluate_signs_every_scope(tmp_path):
    result = accuracy_db(
        "evaluate", "--gsml", DATA / "gsml.csv", "--submitted", EXAMPLES / "submission.csv", "--format", "json"
    )
    rows = json.loads(result.stdout)
    assert [row["signature"].split("|scope:")[1] for row in rows] == [row["categories"] for row in rows]


def test_a_scope_without_gold_mistakes_has_no_recall_interval_and_one_cluster(both_splits_db):
    # The test split's gold list has no OTHER mistake: recall is undefined for every submission, so is every test.
    result = accuracy_db(
        "leaderboard", "--db", both_splits_db, "--split", "test", "--scope", "OTHER", "--ci", "--format", "json"
    )
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)
    assert [(row["recall"], row["recall_ci"], row["cluster"]) for row in rows] == [(None, [None, None], 1)] * 2
    assert all(row["excluded_replicates"]["recall"] == 1000 for row in rows)


def test_submissions_of_different_gold_lists_are_not_compared(both_splits_db):
    line = one_line_error(accuracy_db("compare", "submission", "test_gold", "--db", both_splits_db))
    assert "different gold lists" in line


@pytest.mark.parametrize(
    "args, message",
    [
        (("compare", "submission", "sumbission"), "no submission named 'sumbission': did you mean submission?"),
        (("compare", "submission", "half_gold", "--resamples", "0"), "resamples is 0"),
        (("compare", "submission", "half_gold", "--trials", "-5"), "trials is -5"),
        (("compare", "submission", "half_gold", "--seed", "-1"), "seed is -1"),
        (("compare", "submission", "half_gold", "--seed", "abc"), "'abc' is not a valid integer"),
        (("compare", "submission", "half_gold", "--confidence", "1.5"), "confidence is 1.5"),
        (("leaderboard", "--ci", "--confidence", "nan"), "confidence is nan"),
        (("leaderboard", "--ci", "--seed", "4294967296"), "seed is 4294967296"),
        (
            ("compare", "submission", "half_gold", "--scheme", "strict", "--metric", "token_f1"),
            "'token_f1' is not a figure of scheme strict: one of recall, precision, f1",
        ),
    ],
)
def test_bad_settings_are_one_line_errors(two_metrics_db, args, message):
    assert message in one_line_error(accuracy_db(*args, "--db", two_metrics_db))


def test_leaderboard_ci_prints_one_table_per_split_with_its_own_ranks(both_splits_db):
    """The two splits are ranked apart, against different gold lists: one table each, titled with its split, its
    ranks from 1, and each signature beside its submission's name."""
    result = accuracy_db("leaderboard", "--db", both_splits_db, "--ci", "--resamples", "200", "--trials", "200")
    assert result.returncode == 0, result.stderr
    rows = json.loads(
        accuracy_db(
            "leaderboard", "--db", both_splits_db, "--ci", "--resamples", "200", "--trials", "200", "--format", "json"
        ).stdout
    )
    text = result.stdout
    _, *titled = re.split(r"^Leaderboard, scope ALL, split (\w+)$", text, flags=re.MULTILINE)
    tables = dict(zip(titled[::2], titled[1::2]))
    assert list(tables) == list(dict.fromkeys(row["split"] for row in rows)) and set(tables) == {"test", "train"}
    for split, part in tables.items():
        ranked = re.findall(r"^│ +(\d+) │ (\S+) +│ +(\d+) │", part, flags=re.MULTILINE)  # rank, name, cluster
        assert ranked == [(str(r["rank"]), r["submission"], str(r["cluster"])) for r in rows if r["split"] == split]
        assert ranked[0][0] == "1"
    assert printed_signatures(text) == {row["submission"]: row["signature"] for row in rows}
