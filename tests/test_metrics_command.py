"""accuracy-db metrics on the shared-task data: every figure against scipy and scikit-learn computed here on counts
read from the data files with the csv module (the measures themselves are checked against their references on
random vectors in test_metric_measures.py), the orientation of higher-is-better metrics, weights, per-token targets,
the clusters, `metrics compare` against a PERM-BOTH written out, and bad options in one line."""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from scipy import stats
from shared_data import DATA, EXAMPLES
from sklearn.metrics import average_precision_score, roc_auc_score
from test_metric_measures import brute_perm_both
from test_score_files import CATEGORIES, SPLITS, TEST, TRAIN, mistake_counts, tokens_of

from accuracy_db.cli.main import run
from accuracy_db.metric_validity.table import Scored, Settings, text_rows
from accuracy_db.stats.intervals import Resampling
from accuracy_db.store import database

ROOT = Path(__file__).resolve().parent.parent
FAST = ["--resamples", "100", "--trials", "100"]
GOLD = {split: mistake_counts(folder / "gsml.csv") for split, folder in SPLITS.items()}
LENGTH = {path.stem: len(tokens_of(path)) for folder in SPLITS.values() for path in (folder / "texts").glob("*.txt")}


def gold_counts(split: str, scope: str = "ALL", weights: dict | None = None) -> np.ndarray:
    ids = TEST if split == "test" else TRAIN
    categories = CATEGORIES if scope == "ALL" else [scope]
    weights = weights or {}
    return np.array([sum(GOLD[split][t, c] * weights.get(c, 1) for c in categories) for t in ids], dtype=float)


def bleu_scores(split: str) -> np.ndarray:
    references = {}
    for line in (SPLITS[split] / "shared_task.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        references[record["shared_task_text_id"]] = record["cleaned_text"]
    texts = {path.stem: " ".join(tokens_of(path)) for path in (SPLITS[split] / "texts").glob("*.txt")}
    ids = TEST if split == "test" else TRAIN
    return np.array([sacrebleu.sentence_bleu(texts[t], [references[t]]).score for t in ids])


def metrics_json(db, capsys, *options: str) -> list[dict]:
    assert run(["metrics", "--db", str(db), *FAST, "--format", "json", *options]) == 0
    return json.loads(capsys.readouterr().out)


def figure(rows: list[dict], metric: str, measure: str, **where) -> dict:
    (row,) = [
        r
        for r in rows
        if r["metric"] == metric and r["measure"] == measure and all(r[k] == v for k, v in where.items())
    ]
    return row


def test_the_built_ins_on_the_test_split_equal_scipys(built_db, capsys):
    rows = metrics_json(built_db, capsys, "--split", "test", "--scope", "ALL", "--level", "text")
    gold = gold_counts("test")
    length = np.array([LENGTH[t] for t in TEST], dtype=float)
    bleu = -bleu_scores("test")  # higher is better: taken as error-like
    for metric, x in (("length", length), ("bleu", bleu)):
        assert figure(rows, metric, "pearson")["value"] == pytest.approx(stats.pearsonr(x, gold).statistic, abs=1e-12)
        assert figure(rows, metric, "spearman")["value"] == pytest.approx(stats.spearmanr(x, gold).statistic, abs=1e-12)
        assert figure(rows, metric, "kendall")["value"] == pytest.approx(stats.kendalltau(x, gold).statistic, abs=1e-12)
    # the first measurements: length tracks the gold far better than BLEU does
    assert round(figure(rows, "length", "pearson")["value"], 2) == 0.83
    assert round(figure(rows, "bleu", "pearson")["value"], 2) == 0.10
    every_text = figure(rows, "length", "roc_auc")
    assert every_text["value"] is None and every_text["reason"] == "every text has a gold mistake"
    assert {row["n"] for row in rows} == {30}
    # beside the built-ins, the test split's one list: the box-score checker's, which build adds (test_checker.py)
    assert {(row["metric"], row["kind"]) for row in rows} == {
        ("length", "builtin"),
        ("bleu", "builtin"),
        ("chrf", "builtin"),
        ("boxscore", "submission"),
    }
    for row in rows:
        assert row["value"] is None or row["ci"] is not None
        assert row["signature"].startswith("accuracy-db:") and "|scope:ALL|level:text|bs:100|" in row["signature"]


def test_a_submission_detects_texts_as_scikit_learn_says_in_a_category_scope(built_db, capsys):
    rows = metrics_json(built_db, capsys, "--split", "train", "--scope", "NUMBER", "--level", "text")
    gold = gold_counts("train", "NUMBER")
    submitted = mistake_counts(EXAMPLES / "submission.csv")
    x = np.array([submitted[t, "NUMBER"] for t in TRAIN], dtype=float)
    assert figure(rows, "submission", "roc_auc")["value"] == pytest.approx(roc_auc_score(gold > 0, x), abs=1e-12)
    assert figure(rows, "submission", "average_precision")["value"] == pytest.approx(
        average_precision_score(gold > 0, x), abs=1e-12
    )
    assert figure(rows, "submission", "pearson")["value"] == pytest.approx(stats.pearsonr(x, gold).statistic)
    # bleu is taken as error-like: its threshold is given in its own scale, and flags texts at or below it
    bleu = bleu_scores("train")
    best = figure(rows, "bleu", "best_f1")
    flagged = bleu <= best["threshold"]
    precision, recall = (flagged & (gold > 0)).sum() / flagged.sum(), (flagged & (gold > 0)).sum() / (gold > 0).sum()
    assert best["value"] == pytest.approx(2 * precision * recall / (precision + recall))


def test_weights_weigh_the_gold_and_the_submissions_counts(built_db, capsys):
    weights = {"NAME": 5, "NUMBER": 0.5}
    rows = metrics_json(
        built_db, capsys, "--split", "train", "--scope", "ALL", "--level", "text", "--weights", "NAME=5,NUMBER=0.5"
    )
    gold = gold_counts("train", "ALL", weights)
    submitted = mistake_counts(EXAMPLES / "submission.csv")
    x = np.array([sum(submitted[t, c] * weights.get(c, 1) for c in CATEGORIES) for t in TRAIN], dtype=float)
    assert figure(rows, "submission", "pearson")["value"] == pytest.approx(stats.pearsonr(x, gold).statistic)
    length = np.array([LENGTH[t] for t in TRAIN], dtype=float)
    assert figure(rows, "length", "pearson")["value"] == pytest.approx(stats.pearsonr(length, gold).statistic)
    assert all("|weights:NAME=5,NUMBER=0.5" in row["signature"] for row in rows)


EDGES = {"tiny300": 1e-300, "tiny200": 1e-200, "big150": 1e150, "big200": 1e200, "big300": 1e300}
CORRELATIONS = {"pearson": stats.pearsonr, "spearman": stats.spearmanr, "kendall": stats.kendalltau}


def test_scores_at_the_edge_of_the_doubles_give_scipy_s_figures_and_leave_the_clusters(db, built_db, tmp_path, capsys):
    """The texts' lengths times 1e-300 … 1e300, imported as metrics: each correlation is scipy's, its interval and
    cluster are length's, every other metric keeps its cluster, and no numpy warning reaches stderr (on main: Pearson
    0.0 [0.0, 0.0] at 1e150, "undefined" at 1e200 and 1e-200, overflow warnings)."""
    length = np.array([LENGTH[t] for t in TEST], dtype=float)
    for name, scale in EDGES.items():
        path = tmp_path / f"{name}.csv"
        path.write_text("text_id,score\n" + "".join(f"{t},{float(v)!r}\n" for t, v in zip(TEST, length * scale)))
        assert run(["import", "scores", str(path), "--db", str(db), "--lower-is-better"]) == 0
    capsys.readouterr()
    options = ["--split", "test", "--scope", "ALL", "--level", "text"]
    before = metrics_json(built_db, capsys, *options)
    result = subprocess.run(
        [sys.executable, "-m", "accuracy_db", "metrics", "--db", str(db), *options, *FAST, "--format", "json"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0 and result.stderr == ""
    rows = json.loads(result.stdout)
    gold = gold_counts("test")
    for name, scale in EDGES.items():
        for measure, reference in CORRELATIONS.items():
            row, of_length = figure(rows, name, measure), figure(rows, "length", measure)
            assert row["value"] == pytest.approx(reference(length * scale, gold).statistic, abs=1e-12), name
            assert row["ci"] == pytest.approx(of_length["ci"], abs=1e-12) and row["rank"] == of_length["rank"]
    for row in before:
        assert figure(rows, row["metric"], row["measure"])["rank"] == row["rank"], row
    # the query of docs/metrics.md, in SQL (DuckDB's corr() alone gives 0 at 1e200 and NaN at 1e-200)
    query = re.search(r'accuracy-db query "(WITH scaled.*?)"\n', (ROOT / "docs" / "metrics.md").read_text(), re.S)
    con = database.open_existing(db)
    by_sql = {metric: pearson for metric, _, pearson in con.execute(query.group(1)).fetchall()}
    con.close()
    for name, scale in EDGES.items():
        assert by_sql[name] == pytest.approx(stats.pearsonr(length * scale, gold).statistic, abs=1e-12), name


def test_compare_finds_a_metric_no_better_than_itself_times_1e200(db, tmp_path, capsys):
    """PERM-BOTH of length times 1e200 against length (identical rankings) gives p = 1 both ways on every measure
    (on main: 0.561 for Spearman), with no numpy warning."""
    path = tmp_path / "big.csv"
    path.write_text("text_id,score\n" + "".join(f"{t},{LENGTH[t] * 1e200!r}\n" for t in TEST))
    assert run(["import", "scores", str(path), "--db", str(db), "--lower-is-better"]) == 0
    capsys.readouterr()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for measure in ("pearson", "spearman", "kendall", "acc_eq"):
            for a, b in (("big", "length"), ("length", "big")):
                options = ["--measure", measure, "--split", "test", "--trials", "200", "--format", "json"]
                assert run(["metrics", "compare", a, b, *options, "--db", str(db)]) == 0
                (result,) = json.loads(capsys.readouterr().out)
                assert result["p_value"] == 1.0, (measure, a, b)


def test_a_weight_of_1e200_gives_scipy_s_figures(built_db, capsys):
    """A category weighed 1e200 makes gold counts of 1e200 (on main: every Pearson undefined)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rows = metrics_json(
            built_db, capsys, "--split", "test", "--scope", "ALL", "--level", "text", "--weights", "NAME=1e200"
        )
    gold = gold_counts("test", "ALL", {"NAME": 1e200})
    length, bleu = np.array([LENGTH[t] for t in TEST], dtype=float), -bleu_scores("test")
    for measure, reference in CORRELATIONS.items():
        for name, x in (("length", length), ("bleu", bleu)):
            assert figure(rows, name, measure)["value"] == pytest.approx(reference(x, gold).statistic, abs=1e-12)


# Runs a command as its own child and reports the child's peak memory: measured from pytest, ru_maxrss would keep
# the peak of the process it was forked from (pytest, hundreds of MB into the suite), which Linux carries across exec.
PEAK_OF_CHILD = """
import json, resource, subprocess, sys
done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
print(json.dumps({"returncode": done.returncode, "peak": peak, "stdout": done.stdout, "stderr": done.stderr}))
"""
GB = 1024**3


def test_the_most_resamples_accepted_run_in_bounded_memory(built_db):
    """--resamples 100000 (the most accepted) on the test split: worked through in blocks, the command peaks under
    2 GB (0.7 GB on 2 cores; on main 2.65 GB for this one scope, 9 GB for the whole table, which no limit of 2 GB
    would let finish), and gives its intervals."""
    command = [sys.executable, "-m", "accuracy_db", "metrics", "--db", str(built_db), "--split", "test"]
    command += ["--scope", "ALL", "--level", "text", "--resamples", "100000", "--trials", "10", "--format", "json"]
    done = subprocess.run([sys.executable, "-c", PEAK_OF_CHILD, *command], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    outcome = json.loads(done.stdout)
    assert outcome["returncode"] == 0 and outcome["stderr"] == "", outcome["stderr"]
    assert outcome["peak"] < 2 * GB, f"{outcome['peak'] / GB:.2f} GB"
    rows = json.loads(outcome["stdout"])
    length = figure(rows, "length", "pearson")
    assert length["ci"][0] < length["value"] < length["ci"][1] and "|bs:100000|" in length["signature"]


def test_per_token_targets_and_the_partial_correlation_with_length(built_db, capsys):
    rows = metrics_json(built_db, capsys, "--split", "test", "--scope", "ALL", "--level", "text", "--per-token")
    length = np.array([LENGTH[t] for t in TEST], dtype=float)
    gold = gold_counts("test") * 100 / length
    bleu = -bleu_scores("test")
    assert figure(rows, "bleu", "pearson")["value"] == pytest.approx(stats.pearsonr(bleu, gold).statistic)

    def residuals(v):  # v with the linear trend in length taken out
        design = np.column_stack([np.ones_like(length), length])
        return v - design @ np.linalg.lstsq(design, v, rcond=None)[0]

    partial = stats.pearsonr(residuals(bleu), residuals(gold)).statistic
    assert figure(rows, "bleu", "partial_pearson")["value"] == pytest.approx(partial, abs=1e-9)


def test_the_clusters_put_the_best_metric_first_and_only_significant_gaps_start_a_new_one(built_db, capsys):
    rows = metrics_json(built_db, capsys, "--split", "test", "--scope", "ALL", "--level", "text")
    pearson = sorted((r for r in rows if r["measure"] == "pearson"), key=lambda r: r["rank"])
    assert pearson[0]["rank"] == 1
    assert [r["rank"] for r in pearson] == sorted(r["rank"] for r in pearson)
    # length and the box-score checker's findings per text (0.83 and 0.87): neither beats the other, the first
    # cluster; bleu and chrf: neither beats the other (one cluster); length beats both
    assert {r["metric"] for r in pearson if r["rank"] == 1} == {"length", "boxscore"}
    assert figure(rows, "bleu", "pearson")["rank"] == figure(rows, "chrf", "pearson")["rank"] == 2


def test_compare_is_perm_both_as_written_out(built_db, capsys):
    assert (
        run(
            [
                "metrics",
                "compare",
                "length",
                "bleu",
                "--measure",
                "kendall",
                "--db",
                str(built_db),
                "--split",
                "test",
                "--trials",
                "200",
                "--format",
                "json",
            ]
        )
        == 0
    )
    (result,) = json.loads(capsys.readouterr().out)
    length = np.array([LENGTH[t] for t in TEST], dtype=float)
    bleu, gold = -bleu_scores("test"), gold_counts("test")
    expected = brute_perm_both(length, bleu, gold, lambda x, y: stats.kendalltau(x, y).statistic, 200, 12345)
    assert result["p_value"] == expected
    assert result["difference"] == pytest.approx(
        stats.kendalltau(length, gold).statistic - stats.kendalltau(bleu, gold).statistic
    )
    assert (result["a"], result["b"], result["test"], result["trials"]) == ("length", "bleu", "perm-both", 200)


def test_compare_by_williams_test(built_db, capsys):
    assert (
        run(
            [
                "metrics",
                "compare",
                "bleu",
                "length",
                "--measure",
                "pearson",
                "--test",
                "williams",
                "--db",
                str(built_db),
                "--split",
                "test",
                "--format",
                "json",
            ]
        )
        == 0
    )
    (result,) = json.loads(capsys.readouterr().out)
    assert result["difference"] < 0 and result["p_value"] > 0.99  # bleu does not beat length


@pytest.mark.parametrize(
    "options, message",
    [
        (["--weights", "NAME"], "--weights: 'NAME' is not CATEGORY=WEIGHT (e.g. NAME=5)"),
        (["--weights", "NAME=x"], "--weights: 'NAME=x' is not CATEGORY=WEIGHT (e.g. NAME=5)"),
        (["--weights", "SIZE=2"], "--weights: 'SIZE' is not a category of corpus shared-task"),
        (["--weights", "NAME=-1"], "--weights: the weight of NAME is -1.0: a number from 0 to 1e+300 (so that"),
        (["--weights", "NAME=nan"], "--weights: the weight of NAME is nan: a number from 0 to 1e+300 (so that"),
        (["--weights", "NAME=1e301"], "--weights: the weight of NAME is 1e+301: a number from 0 to 1e+300 (so that"),
        (["--weights", "NAME=1,NAME=2"], "--weights: NAME is weighed twice"),
        (["--split", "dev2"], "split 'dev2' is not a split of corpus shared-task (test, train)"),  # as every command
        (["--scope", "SIZE"], "scope 'SIZE' is not a scope of corpus shared-task"),
        (["--corpus", "nothing"], "no corpus named 'nothing' (the corpora: shared-task)"),
        (
            ["compare", "bleu", "nothing", "--measure", "pearson", "--split", "test"],
            "no metric named 'nothing' scores every text of split test of corpus shared-task",
        ),
        (
            ["compare", "bleu", "length", "--measure", "kendall", "--test", "williams", "--split", "test"],
            "Williams' test compares Pearson correlations: give --measure pearson",
        ),
        (["compare", "bleu", "length", "--measure", "size", "--split", "test"], "--measure size: one of pearson"),
        (["compare", "bleu", "length", "--measure", "pearson"], "give --split: corpus shared-task has gold lists of"),
    ],
)
def test_a_bad_option_is_one_line(built_db, capsys, options, message):
    assert run(["metrics", *options, "--db", str(built_db)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"error: {message}") and err.count("\n") == 1, err


def test_the_system_level_correlates_the_systems_means(built_db, capsys):
    rows = metrics_json(built_db, capsys, "--split", "train", "--scope", "ALL", "--level", "system")
    with (DATA.parent / "nlg_systems.csv").open(encoding="utf-8", newline="") as stream:
        systems = {row["TEXT_ID"]: row["SYSTEM"] for row in csv.DictReader(stream)}
    known = [t for t in TRAIN if t in systems]
    names = sorted({systems[t] for t in known})
    gold = dict(zip(TRAIN, gold_counts("train")))

    def means(values):
        return [np.mean([values[t] for t in known if systems[t] == name]) for name in names]

    length_means, gold_means = means(LENGTH), means(gold)
    result = figure(rows, "length", "pearson")
    assert result["n"] == len(names) == 3
    assert result["value"] == pytest.approx(stats.pearsonr(length_means, gold_means).statistic)
    # each game has one text: the systems share no input, so there is no soft pairwise accuracy
    assert figure(rows, "length", "spa")["reason"].startswith("the systems do not share their inputs")


def test_above_a_thousand_texts_acc_eq_has_no_interval_and_the_rows_say_how_they_are_clustered():
    rng = np.random.default_rng(7)
    y = rng.integers(0, 4, 1_001).astype(float)
    x = y + rng.normal(size=len(y))
    scored = Scored("m", "import", False, x, y, y, np.full(len(y), None), np.full(len(y), None), "m")
    rows = {row["measure"]: row for row in text_rows(scored, Settings(Resampling(20), trials=20))}
    assert rows["acc_eq"]["value"] is not None and rows["acc_eq"]["ci"] is None
    assert rows["acc_eq"]["reason"] == "no interval or rank above 1,000 texts" and rows["acc_eq"]["clusters"] is None
    assert rows["kendall"]["ci"] is not None and rows["kendall"]["reason"] is None
    assert rows["kendall"]["clusters"] == rows["spearman"]["clusters"] == "paired-bootstrap"
    assert rows["pearson"]["ci"] is not None and rows["pearson"]["reason"] is None
    assert rows["pearson"]["clusters"] == "perm-both"


WITHOUT_SCIPY = """import runpy, sys
sys.argv = ["accuracy-db", *sys.argv[1:]]
try:
    runpy.run_module("accuracy_db", run_name="__main__")
finally:
    print("scipy imported" if "scipy" in sys.modules else "scipy not imported", file=sys.stderr)
"""


@pytest.mark.parametrize(
    "command",
    [
        ["metrics"],
        ["metrics", "compare", "bleu", "length", "--measure", "pearson"],
        ["validity", "submission"],
        ["compare", "submission", "submission"],
    ],
)
def test_a_bad_resampling_option_is_refused_before_the_statistics_are_imported(built_db, command):
    """The refusal comes at once: importing scipy alone takes a second and a half."""
    result = subprocess.run(
        [sys.executable, "-c", WITHOUT_SCIPY, *command, "--seed", "-1", "--db", str(built_db)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.splitlines() == [
        "error: seed is -1: a whole number from 0 to 4294967295",
        "scipy not imported",
    ]
