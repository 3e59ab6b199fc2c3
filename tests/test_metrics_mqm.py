"""metrics with MQM as the gold (issue 49, item 5), on the real TED zh→en file: chrF and BLEU against the human
reference `ref` (its texts left out, refB scored as a system) set against each text's MQM score, read from the file
by tests/mqm_oracle.py; the text level with mt-metrics-eval's groupings (none, item, sys) against scipy per group
and a plain average written here from stats.py's AverageCorrelation; the system level against scipy, sacrebleu's
corpus scores and a pairwise accuracy written here from stats.py's Agreement."""

from __future__ import annotations

import itertools
import json
from collections import defaultdict

import numpy as np
import pytest
import sacrebleu
from accuracy_db.dashboard import DB_ENV
from mqm_oracle import clean, rows, segment_scores
from scipy import stats
from streamlit.testing.v1 import AppTest
from test_dashboard import APP, fresh_caches, labelled  # noqa: F401 (fresh_caches: autouse)
from test_mqm import CORPUS, HEADER, mqm_db  # noqa: F401 (the fixture)

from accuracy_db.cli.main import run
from accuracy_db.metric_validity.groups import Grouping, pearson_rows
from accuracy_db.stats import resampling

REFERENCE = "ref"
FAST = ["--resamples", "100", "--trials", "50"]
CORRELATIONS = {"pearson": stats.pearsonr, "spearman": stats.spearmanr, "kendall": stats.kendalltau}


@pytest.fixture(scope="module")
def items() -> dict:
    """(system, doc, seg_id) -> (target without markers, MQM score to 9 decimals) of every rated item, from the
    file (rounded: the same weights summed in another order tie, as the ranks need)."""
    targets = {(r["system"], r["doc"], r["seg_id"]): clean(r["target"]) for r in rows()}
    return {key: (targets[key], round(score * 1e9) / 1e9) for key, score in segment_scores().items()}


@pytest.fixture(scope="module")
def scored(items) -> dict[str, list[tuple]]:
    """Per metric (bleu, chrf): (system, segment, error-like score, MQM score) of every item of a system other than
    the reference, scored by sacrebleu against the reference's target of the same segment."""
    references = {(doc, seg): text for (system, doc, seg), (text, _) in items.items() if system == REFERENCE}
    found = defaultdict(list)
    for (system, doc, seg), (text, mqm) in sorted(items.items()):
        if system == REFERENCE or (doc, seg) not in references:
            continue
        for metric, score in (
            ("bleu", sacrebleu.sentence_bleu(text, [references[doc, seg]]).score),
            ("chrf", sacrebleu.sentence_chrf(text, [references[doc, seg]]).score),
        ):
            found[metric].append((system, f"{doc}|{seg}", -score, mqm))  # higher is better: negated
    return dict(found)


@pytest.fixture(scope="module")
def tables(mqm_db, tmp_path_factory) -> dict[str, list[dict]]:  # noqa: F811
    """The metrics table of the corpus with --reference ref, by --average-by."""
    found = {}
    for average_by in ("none", "item", "sys"):
        out = tmp_path_factory.mktemp("tables") / f"{average_by}.json"
        args = ["metrics", "--db", str(mqm_db), "--corpus", CORPUS, "--reference", REFERENCE, "--format", "json"]
        levels = ["--level", "text"] if average_by != "none" else []
        assert run_to(out, [*args, *FAST, "--average-by", average_by, *levels]) == 0
        found[average_by] = json.loads(out.read_text(encoding="utf-8"))
    return found


def run_to(path, args: list[str]) -> int:
    """run with its standard output in a file (a module fixture has no capsys)."""
    import contextlib

    with path.open("w", encoding="utf-8") as file, contextlib.redirect_stdout(file):
        return run(args)


def row_of(table: list[dict], metric: str, measure: str, level: str = "text") -> dict:
    (row,) = [r for r in table if (r["metric"], r["measure"], r["level"]) == (metric, measure, level)]
    return row


def grouped_average(points: list[tuple], average_by: str, correlation) -> float:
    """AverageCorrelation with average_by: the correlation within each group (a segment, or a system), a group of
    one or with a constant side left out, averaged."""
    groups = defaultdict(list)
    for system, segment, x, y in points:
        groups[{"none": "all", "item": segment, "sys": system}[average_by]].append((x, y))
    values = []
    for pairs in groups.values():
        x, y = np.array(pairs).T
        if len(x) < 2 or np.all(x == x[0]) or np.all(y == y[0]):
            continue
        values.append(correlation(x, y)[0])
    return float(np.mean(values))


@pytest.mark.parametrize("average_by", ["none", "item", "sys"])
@pytest.mark.parametrize("metric", ["chrf", "bleu"])
def test_segment_level_correlations_equal_scipys_averaged_as_mt_metrics_eval(tables, scored, metric, average_by):
    points = scored[metric]
    assert len(points) == 14 * 529 and {system for system, *_ in points} >= {"refB"}  # ref left out, refB scored
    for measure, correlation in CORRELATIONS.items():
        row = row_of(tables[average_by], metric, measure)
        assert row["value"] == pytest.approx(grouped_average(points, average_by, correlation), abs=1e-9), measure
        assert row["n"] == len(points) and row["ci"] is not None
        assert (f"|average-by:{average_by}|" in row["signature"]) == (average_by != "none")
        assert "|reference:ref|" in row["signature"]


def test_the_item_interval_resamples_the_segments(tables, scored):
    """The interval of an averaged correlation: the segments drawn with the documented hashed draws, the mean of
    the drawn segments' correlations (scipy's), its 2.5 and 97.5 percentiles."""
    groups = defaultdict(list)
    for _, segment, x, y in scored["chrf"]:
        groups[segment].append((x, y))
    values = []
    for segment in sorted(groups):
        x, y = np.array(groups[segment]).T
        constant = np.all(x == x[0]) or np.all(y == y[0])
        values.append(np.nan if constant else stats.pearsonr(x, y)[0])
    values = np.array(values)
    draws = resampling.bootstrap_draws(12345, np.arange(1, 101, dtype=np.uint64), [len(values)])
    means = np.nanmean(values[draws], axis=1)
    low, high = row_of(tables["item"], "chrf", "pearson")["ci"]
    assert (low, high) == pytest.approx(tuple(np.percentile(means, [2.5, 97.5])), abs=1e-9)


def test_grouped_pearson_rows_equal_scipy_row_by_row():
    """PERM-BOTH's trials compute the grouped Pearson of many rows at once: each row is scipy's, group by group."""
    rng = np.random.default_rng(49)
    labels = rng.integers(0, 7, 60)
    matrix, y = rng.normal(size=(5, 60)) * 1e-200, rng.normal(size=60)
    matrix[2, labels == 3] = 1.0  # a constant group: no correlation
    found = pearson_rows(matrix, y, Grouping.of(labels))
    for row, values in zip(matrix, found):
        for group, value in enumerate(values):
            x, g = row[labels == group], y[labels == group]
            if np.all(x == x[0]):
                assert np.isnan(value)
            else:
                assert value == pytest.approx(stats.pearsonr(x, g)[0], abs=1e-12)


def test_system_level_sets_corpus_scores_against_the_mean_mqm(tables, items):
    references = {(doc, seg): text for (system, doc, seg), (text, _) in items.items() if system == REFERENCE}
    by_system = defaultdict(list)
    for (system, doc, seg), (text, mqm) in sorted(items.items()):
        if system != REFERENCE:
            by_system[system].append((text, references[doc, seg], mqm))
    systems = sorted(by_system)
    gold = np.array([np.mean([m for *_, m in by_system[s]]) for s in systems])
    table = tables["none"]
    for metric, corpus_score in (("chrf", sacrebleu.corpus_chrf), ("bleu", sacrebleu.corpus_bleu)):
        x = -np.array([corpus_score([t for t, _, _ in by_system[s]], [[r for _, r, _ in by_system[s]]]).score
                       for s in systems])  # fmt: skip
        pearson = row_of(table, metric, "pearson", "system")
        assert pearson["n"] == 14 and pearson["value"] == pytest.approx(stats.pearsonr(x, gold)[0], abs=1e-9)
        agree = [np.sign(x[i] - x[j]) == np.sign(gold[i] - gold[j]) for i, j in itertools.combinations(range(14), 2)]
        accuracy = row_of(table, metric, "pairwise_accuracy", "system")
        assert accuracy["value"] == pytest.approx(np.mean(agree), abs=1e-12)
        assert accuracy["reason"] == "a corpus-level score: no interval"
        assert row_of(table, metric, "spa", "system")["value"] is not None  # the systems share their segments


def test_compare_sets_two_metrics_against_the_mqm_scores(mqm_db, scored, capsys):  # noqa: F811
    args = ["metrics", "compare", "chrf", "bleu", "--measure", "pearson", "--db", str(mqm_db), "--corpus", CORPUS]
    assert run([*args, "--reference", REFERENCE, "--trials", "50", "--format", "json"]) == 0
    (result,) = json.loads(capsys.readouterr().out)
    for side, metric in (("a_value", "chrf"), ("b_value", "bleu")):
        _, _, x, y = np.array(scored[metric], dtype=object).T
        assert result[side] == pytest.approx(stats.pearsonr(x.astype(float), y.astype(float))[0], abs=1e-9)
    assert "|reference:ref|" in result["signature"]


def test_the_raters_lists_are_the_golds_parts_and_no_metric(tables):
    assert {row["metric"] for row in tables["none"]} == {"bleu", "chrf", "length"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--average-by", "item"], "--average-by and --reference are for a corpus with an MQM gold"),
        (["--corpus", CORPUS, "--reference", "DIDI-NLP"], "--reference 'DIDI-NLP' is not a human reference of"),
        (["--corpus", CORPUS, "--scope", "Fluency/Grammar"], "its scope is ALL"),
        (["--corpus", CORPUS, "--weights", "Fluency/Grammar=2"], "--weights and --per-token weigh a gold list's"),
    ],
)
def test_options_of_the_other_kind_of_corpus_are_refused_in_one_line(mqm_db, capsys, args, message):  # noqa: F811
    assert run(["metrics", "--db", str(mqm_db), *FAST, *args]) == 1
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_the_metrics_page_measures_an_mqm_corpus_in_scope_all(db, tmp_path, monkeypatch):
    """The Metrics page offers ALL alone for a corpus measured against its MQM scores (a category's scope is
    refused there), and shows its table."""
    lines = [HEADER]
    for system, seg in itertools.product("ABC", range(1, 6)):
        severity = ("Major", "Minor")[(ord(system) + seg) % 2]
        row = f"{system}\td\t1\t{seg}\tr1\t源{seg}\tThe <v>cat</v> {'sat ' * seg}{system}"
        lines.append(f"{row}\t{('Accuracy/Mistranslation', 'Fluency/Grammar')[seg % 2]}\t{severity}")
    path = tmp_path / "tiny.tsv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert run(["import", "mqm", "--db", str(db), "--corpus", "tiny", str(path)]) == 0
    monkeypatch.setenv(DB_ENV, str(db))
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.query_params["corpus"] = "tiny"
    at.switch_page("app_pages/metrics.py").run()
    assert not at.exception and not at.error, (at.exception, at.error)
    assert labelled(at.selectbox, "Corpus").value == "tiny"
    assert labelled(at.selectbox, "Scope").options == ["ALL"]
