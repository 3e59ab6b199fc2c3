"""evaluate reproduces the shared task's own scorer, figure for figure, on every public example."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from shared_data import DATA, EXAMPLES, expected_report

from accuracy_db.scoring.evaluate import evaluate

# case in ../shared/data/expected/ -> (gold list, submitted list, folder of the texts)
CASES = {
    "example_submission": (DATA / "gsml.csv", EXAMPLES / "submission.csv", DATA / "texts"),
    "example_submission_doc_based": (DATA / "gsml.csv", EXAMPLES / "submission_doc_based.csv", DATA / "texts"),
    "example_submission_sent_based": (DATA / "gsml.csv", EXAMPLES / "submission_sent_based.csv", DATA / "texts"),
    "example_gsml_doc_based": (DATA / "gsml.csv", EXAMPLES / "gsml_doc_based.csv", DATA / "texts"),
    "example_gsml_sent_based": (DATA / "gsml.csv", EXAMPLES / "gsml_sent_based.csv", DATA / "texts"),
    "test_gsml_vs_itself": (DATA / "test_set/gsml.csv", DATA / "test_set/gsml.csv", DATA / "test_set/texts"),
}


def shared_task_keys(report: list[dict]) -> list[dict]:
    """The report restricted to the keys the shared task's scorer gives (ours adds F1)."""
    keys = expected_report("example_submission")[0].keys()
    return [{key: scope[key] for key in keys} for scope in report]


@pytest.mark.parametrize("case", sorted(CASES))
def test_evaluate_equals_the_shared_task_scorer(case):
    gold, submitted, text_dir = CASES[case]
    assert shared_task_keys(evaluate(gold, submitted, text_dir=text_dir)) == expected_report(case)


def test_tokens_from_token_lookup_alone_give_the_same_figures():
    report = evaluate(DATA / "gsml.csv", EXAMPLES / "submission.csv", token_lookup=DATA / "token_lookup.yaml")
    assert shared_task_keys(report) == expected_report("example_submission")


def test_gold_against_itself_is_perfect_wherever_defined():
    gold = DATA / "test_set/gsml.csv"
    for scope in evaluate(gold, gold):
        for key in ("recall", "precision", "token_recall", "token_precision", "f1", "token_f1"):
            assert scope[key] in (1.0, None)
        assert (scope["recall"] is None) == (scope["gold_total"] == 0)


def test_undefined_figures_are_null_not_zero():
    by_scope = {s["categories"]: s for s in evaluate(DATA / "gsml.csv", EXAMPLES / "submission.csv")}
    assert by_scope["WORD"]["precision"] is None  # nothing submitted in WORD
    assert by_scope["WORD"]["recall"] == 0.0  # 334 gold WORD mistakes, none found
    assert by_scope["WORD"]["f1"] is None


def test_f1_is_the_harmonic_mean():
    for scope in evaluate(DATA / "gsml.csv", EXAMPLES / "submission.csv"):
        if scope["precision"]:
            r, p = scope["recall"], scope["precision"]
            assert scope["f1"] == pytest.approx(2 * r * p / (r + p))


def test_the_command_prints_the_same_json(tmp_path):
    csv_out = tmp_path / "figures.csv"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "accuracy_db",
            "evaluate",
            "--gsml",
            str(DATA / "gsml.csv"),
            "--submitted",
            str(EXAMPLES / "submission_sent_based.csv"),
            "--token_lookup",
            str(DATA / "token_lookup.yaml"),
            "--text_dir",
            str(DATA / "texts"),
            "--csv_out",
            str(csv_out),
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    printed = json.loads(result.stdout)
    assert [scope["categories"] for scope in printed] == [
        "ALL",
        "NAME",
        "NUMBER",
        "WORD",
        "CONTEXT",
        "NOT_CHECKABLE",
        "OTHER",
    ]
    assert shared_task_keys(printed) == expected_report("example_submission_sent_based")
    assert csv_out.read_text().splitlines()[0].startswith("categories,recall,precision,token_recall,token_precision")
