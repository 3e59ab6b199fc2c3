"""The esa scheme (WMT25's character F1 with severities) on the real TED zh→en file: predictions generated from its
errors (moved, shortened, regraded, dropped, invented) and imported as an MQM rating, scored against the gold (every
rater's errors) and compared with tests/esa_oracle.py, written from scoring_esa.py's definitions; the raters' own
lists; the empty sides; and the leaderboard's intervals against a numpy bootstrap of the oracle's per-text counts."""

from __future__ import annotations

import csv
import json
import random
import shutil
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest
from database_rows import rows
from esa_oracle import char_f1, figures, text_counts
from mqm_oracle import clean, marked
from mqm_oracle import rows as file_rows
from shared_data import DATA, EXAMPLES
from test_mqm import CORPUS, GOOD, HEADER, mqm_db  # noqa: F401 (the fixture)

from accuracy_db.cli.main import run
from accuracy_db.scoring import schemes
from accuracy_db.stats.intervals import Resampling
from accuracy_db.stats.ranking import leaderboard
from accuracy_db.store import database

RESAMPLES = 2000


def gold_errors() -> tuple[dict, dict, dict]:
    """The file's items: (system, doc, seg_id) -> target without markers, its row (with markers, the rest), and
    its target errors as (start, end, severity, rater)."""
    targets, first_rows, errors = {}, {}, defaultdict(list)
    for row in file_rows():
        key = (row["system"], row["doc"], row["seg_id"])
        targets[key] = clean(row["target"])
        first_rows.setdefault(key, row)
        span = marked(row["target"])
        if row["severity"] != "No-error" and span is not None:
            errors[key].append((*span, row["severity"], row["rater"]))
    return targets, first_rows, errors


def generated(targets: dict, errors: dict, seed: int = 49) -> dict:
    """Predicted errors per item: each gold error kept with probability 0.6, its edges moved, its severity
    changed one time in four; an invented error in one item of five. Every span holds a character that is not
    white space (a span of white space alone marks no token, and is no span of the list)."""
    rng = random.Random(seed)
    predicted = defaultdict(list)
    for key, target in targets.items():
        length = len(target)
        wanted = [(s, e, sev) for s, e, sev, _ in errors.get(key, []) if rng.random() < 0.6]
        if rng.random() < 0.2 and length:
            start = rng.randrange(length)
            wanted.append((start, min(length, start + rng.randint(1, 15)), rng.choice(["Major", "Minor"])))
        for start, end, severity in wanted:
            start = max(0, min(length - 1, start + rng.randint(-3, 3)))
            end = max(start + 1, min(length, end + rng.randint(-3, 3)))
            if not target[start:end].strip():
                continue
            if rng.random() < 0.25:
                severity = "Minor" if severity == "Major" else "Major"
            predicted[key].append((start, end, severity))
    return predicted


def write_rating(path: Path, targets: dict, first_rows: dict, predicted: dict) -> None:
    lines = [HEADER]
    for key, errors in predicted.items():
        row = first_rows[key]
        source = clean(row["source"])
        for start, end, severity in errors:
            target = targets[key]
            marked_target = f"{target[:start]}<v>{target[start:end]}</v>{target[end:]}"
            cells = [
                *key[:2],
                row["doc_id"],
                key[2],
                "pred",
                source,
                marked_target,
                "Accuracy/Mistranslation",
                severity,
            ]
            lines.append("\t".join(cells))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.fixture(scope="module")
def esa_db(mqm_db, tmp_path_factory):  # noqa: F811
    """The TED database with generated predictions imported as the submission pred."""
    folder = tmp_path_factory.mktemp("esa")
    path = folder / "accuracy.duckdb"
    shutil.copyfile(mqm_db, path)
    targets, first_rows, errors = gold_errors()
    predicted = generated(targets, errors)
    write_rating(folder / "pred.tsv", targets, first_rows, predicted)
    assert (
        run(["import", "mqm", "--db", str(path), "--corpus", CORPUS, "--as", "submission", str(folder / "pred.tsv")])
        == 0
    )
    return path, targets, errors, predicted


def esa_row(db: Path, name: str) -> dict:
    cursor = database.open_existing(db).execute(
        "SELECT precision, recall, f1, matched, gold_total, submitted_total, texts FROM esa_scores"
        " WHERE corpus = ? AND submission = ?",
        [CORPUS, name],
    )
    return dict(zip([c[0] for c in cursor.description], cursor.fetchone()))


def test_generated_predictions_score_as_the_oracle_computes(esa_db):
    db, targets, errors, predicted = esa_db
    hypotheses = [
        ([(s, e, sev) for s, e, sev, _ in errors.get(key, [])], predicted.get(key, []), len(target))
        for key, target in targets.items()
    ]
    found = esa_row(db, "pred")
    expected = char_f1(hypotheses)
    assert (found["precision"], found["recall"], found["f1"]) == pytest.approx(expected, abs=1e-9)
    assert found["texts"] == len(targets) == 7935
    totals = np.sum([text_counts(*hypothesis) for hypothesis in hypotheses], axis=0)
    assert (found["matched"], found["gold_total"], found["submitted_total"]) == pytest.approx(tuple(totals))
    assert 0 < found["precision"] < 1 and 0 < found["recall"] < 1  # the generation moved and regraded spans


def test_each_raters_list_is_scored_on_the_items_it_rated(esa_db):
    """A rater's list covers the items it rated (list_texts): the gold of every rater on those items against its
    own errors. TED zh→en has one rater an item, so each list is the whole gold of its items."""
    db, targets, errors, _ = esa_db
    rated = defaultdict(set)
    for row in file_rows():
        rated[row["rater"]].add((row["system"], row["doc"], row["seg_id"]))
    for rater in sorted(rated):
        hypotheses = [
            (
                [(s, e, sev) for s, e, sev, _ in errors.get(key, [])],
                [(s, e, sev) for s, e, sev, r in errors.get(key, []) if r == rater],
                len(targets[key]),
            )
            for key in sorted(rated[rater])
        ]
        found = esa_row(db, f"rater/{rater}")
        assert (found["precision"], found["recall"], found["f1"]) == pytest.approx(char_f1(hypotheses), abs=1e-9)
        assert found["texts"] == len(rated[rater])
        assert (found["precision"], found["recall"]) == (1.0, 1.0)


def test_empty_sides_count_as_perfect(db, tmp_path):
    gold, empty = tmp_path / "gold.tsv", tmp_path / "empty.tsv"
    no_error = GOOD.replace("<v>cat</v>", "cat").replace("Accuracy/Mistranslation\tMajor", "No-error\tNo-error")
    gold.write_text("\n".join([HEADER, GOOD, no_error.replace("A\t", "B\t", 1)]) + "\n", encoding="utf-8")
    empty.write_text("\n".join([HEADER, no_error]) + "\n", encoding="utf-8")
    assert run(["import", "mqm", "--db", str(db), "--corpus", "tiny", str(gold)]) == 0
    assert run(["import", "mqm", "--db", str(db), "--corpus", "tiny", "--as", "submission", str(empty)]) == 0
    found = rows(db, "SELECT submission, precision, recall, f1 FROM esa_scores WHERE corpus = 'tiny' ORDER BY 1")
    # nothing predicted: precision 1, recall 0; rater r1 is the whole gold: 1, 1
    assert found == [("empty", 1.0, 0.0, 0.0), ("rater/r1", 1.0, 1.0, 1.0)]
    assert figures(0, 0, 0) == (1.0, 1.0, 1.0) and figures(0, 3, 0) == (1.0, 0.0, 0.0)


def test_the_leaderboards_intervals_agree_with_a_numpy_bootstrap(esa_db):
    db, targets, errors, predicted = esa_db
    con = database.open_existing(db)
    try:
        found = leaderboard(con, None, "ALL", Resampling(RESAMPLES, 3, 0.95), 200, CORPUS, schemes.ESA)
    finally:
        con.close()
    (row,) = [row for row in found if row["submission"] == "pred"]
    assert set(row) >= {"precision", "recall", "f1", "texts", "f1_ci", "cluster"}
    assert_numpy_intervals(row, targets, errors, predicted)


def assert_numpy_intervals(row: dict, targets: dict, errors: dict, predicted: dict, credit: float = 0.5) -> None:
    """The row's intervals are those of a numpy bootstrap of the oracle's per-text counts."""
    ordered = sorted(targets)
    counts = np.array(
        [
            text_counts(
                [(s, e, sev) for s, e, sev, _ in errors.get(k, [])],
                [(s, e, sev) for s, e, sev in predicted.get(k, []) if s != "missing"],
                len(targets[k]),
                credit,
            )
            for k in ordered
        ]
    )
    draws = np.random.default_rng(11).integers(0, len(counts), size=(RESAMPLES, len(counts)))
    sums = counts[draws].sum(axis=1)
    replicate = np.array([figures(*s) for s in sums])  # precision, recall, f1
    for column, figure in enumerate(("precision", "recall", "f1")):
        low, high = np.percentile(replicate[:, column], [2.5, 97.5])
        # a few standard errors of a 2.5 % quantile of 2,000 replicates (the figures' spread is about 0.005)
        assert row[f"{figure}_ci"] == [pytest.approx(low, abs=0.003), pytest.approx(high, abs=0.003)], figure


def test_the_command_ranks_by_f1_as_json(esa_db, capsys):
    db, *_ = esa_db
    assert run(["leaderboard", "--db", str(db), "--corpus", CORPUS, "--scheme", "esa", "--format", "json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert [row["f1"] for row in found] == sorted((row["f1"] for row in found), reverse=True)
    assert {"precision", "recall", "f1", "texts"} <= set(found[0])
    assert run(["leaderboard", "--db", str(db), "--corpus", CORPUS, "--scheme", "esa", "--scope", "Style/Awkward"]) == 1
    assert "the esa scheme scores every span: its one scope is ALL" in capsys.readouterr().err


def test_compare_tests_two_lists_under_the_scheme(esa_db, capsys):
    db, *_ = esa_db
    args = ["compare", "--db", str(db), "--corpus", CORPUS, "--scheme", "esa", "--format", "json", "--trials", "200"]
    assert run([*args, "pred", "rater/rater3"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert (found["metric"], found["a_value"], found["b_value"]) == (
        "f1",
        pytest.approx(esa_row(db, "pred")["f1"]),
        pytest.approx(esa_row(db, "rater/rater3")["f1"]),
    )


def shared_task_spans(path: Path, text_dir: Path) -> dict[str, list[tuple[int, int, str]]]:
    """A CSV list's spans as characters of its texts (tokens joined by single spaces), every one major."""
    spans = defaultdict(list)
    with path.open(encoding="utf-8", newline="") as file:
        for row in csv.DictReader(file):
            text_id = row["TEXT_ID"].removesuffix(".txt")
            tokens = (text_dir / f"{text_id}.txt").read_text(encoding="utf-8").split()
            first, last = int(row["DOC_TOKEN_START"]), int(row["DOC_TOKEN_END"])
            start = sum(len(token) + 1 for token in tokens[: first - 1])
            end = start + len(" ".join(tokens[first - 1 : last]))
            spans[text_id].append((start, end, "major"))
    return spans


def test_evaluate_scores_a_shared_task_submission_as_the_oracle_does(capsys):
    gold = shared_task_spans(DATA / "gsml.csv", DATA / "texts")
    submitted = shared_task_spans(EXAMPLES / "submission_doc_based.csv", DATA / "texts")
    texts = {path.stem: len(path.read_text(encoding="utf-8")) for path in (DATA / "texts").glob("*.txt")}
    expected = char_f1([(gold.get(t, []), submitted.get(t, []), n) for t, n in texts.items()])
    args = ["evaluate", "--scheme", "esa", "--gsml", str(DATA / "gsml.csv"), "--format", "json"]
    assert run([*args, "--submitted", str(EXAMPLES / "submission_doc_based.csv")]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert (row["precision"], row["recall"], row["f1"]) == pytest.approx(expected, abs=1e-9)
    assert run([*args, "--submitted", str(DATA / "gsml.csv")]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert (row["precision"], row["recall"], row["f1"]) == (1.0, 1.0, 1.0)


TASK2_HEADER = [
    "doc_id",
    "segment_id",
    "source_lang",
    "target_lang",
    "set_id",
    "system_id",
    "source_segment",
    "hypothesis_segment",
    "reference_segment",
    "domain_name",
    "method",
    "start_indices",
    "end_indices",
    "error_types",
]


def with_extras(targets: dict, predicted: dict, seed: int = 25) -> dict:
    """The predictions with what the task's scorer reads past: one item in six gets an omission (start missing)
    and an undecided span; one in eight has its last span run past the target's end (the scorer's numpy slice
    cuts it there). As (start, end, severity) with lower-case severities, start "missing" for an omission."""
    rng = random.Random(seed)
    extras = {}
    for key, errors in predicted.items():
        found = [(start, end, severity.lower()) for start, end, severity in errors]
        length = len(targets[key])
        if found and rng.random() < 1 / 8:
            start, end, severity = found[-1]
            if end == length:
                found[-1] = (start, end + rng.randint(1, 9), severity)
        if rng.random() < 1 / 6:
            found += [("missing", "missing", "major"), (*found[0][:2], "undecided")] if found else []
        extras[key] = found
    return extras


def write_task2(path: Path, targets: dict, first_rows: dict, predicted: dict) -> None:
    """The task's TSV as its scripts write it (csv.writer, tab, minimal quoting): every item of the corpus, an
    item without errors as -1 -1 no-error, and a row of another set_id, which the scorer leaves out."""
    with path.open("w", encoding="utf-8", newline="") as file:
        writer = csv.writer(file, delimiter="\t", quoting=csv.QUOTE_MINIMAL)
        writer.writerow(TASK2_HEADER)
        for key, target in targets.items():
            system, doc, seg_id = key
            errors = predicted.get(key) or [("-1", "-1", "no-error")]
            lists = [" ".join(str(error[i]) for error in errors) for i in range(3)]
            source = clean(first_rows[key]["source"])
            writer.writerow([doc, seg_id, "zh", "en", "official", system, source, target, "", "ted", "MQM", *lists])
        writer.writerow(["d", "1", "zh", "en", "testsuite", "nobody", "s", "h", "", "ted", "MQM", "0", "1", "major"])


def write_spans(path: Path, predicted: dict) -> None:
    """A JSON Lines file of predicted spans; seg_id a number on every other line, as a metric's script may write it."""
    with path.open("w", encoding="utf-8") as file:
        for number, (key, errors) in enumerate(predicted.items()):
            system, doc, seg_id = key
            line = {
                "system": system,
                "doc": doc,
                "seg_id": int(seg_id) if number % 2 else seg_id,
                "errors": [
                    {"start": start, "end": end, "severity": severity, "category": "Accuracy/Mistranslation"}
                    for start, end, severity in errors
                ],
                "score": -1.5,
            }
            file.write(json.dumps(line, ensure_ascii=False) + "\n")


@pytest.fixture(scope="module")
def readers_db(esa_db, tmp_path_factory):
    """The esa database with the same kind of predictions read from a task-2 TSV and a JSON Lines file."""
    db, targets, errors, predicted = esa_db
    folder = tmp_path_factory.mktemp("readers")
    path = folder / "accuracy.duckdb"
    shutil.copyfile(db, path)
    _, first_rows, _ = gold_errors()
    task2 = with_extras(targets, generated(targets, errors, seed=2025))
    spans = generated(targets, errors, seed=2026)
    write_task2(folder / "task2.tsv", targets, first_rows, task2)
    write_spans(folder / "spans.jsonl", spans)
    for file in ("task2.tsv", "spans.jsonl"):
        args = ["import", "mqm", "--db", str(path), "--corpus", CORPUS, "--as", "submission", str(folder / file)]
        assert run(args) == 0
    return path, targets, errors, task2, spans


def oracle_figures(targets: dict, errors: dict, predicted: dict, credit: float = 0.5) -> tuple[float, float, float]:
    return char_f1(
        [
            (
                [(s, e, sev) for s, e, sev, _ in errors.get(key, [])],
                [(s, e, sev) for s, e, sev in predicted.get(key, []) if s != "missing"],
                len(target),
            )
            for key, target in targets.items()
        ],
        credit,
    )


@pytest.mark.parametrize("name", ["task2", "spans"])
def test_each_readers_predictions_score_as_the_oracle_computes(readers_db, name):
    db, targets, errors, task2, spans = readers_db
    predicted = task2 if name == "task2" else spans
    found = esa_row(db, name)
    assert (found["precision"], found["recall"], found["f1"]) == pytest.approx(
        oracle_figures(targets, errors, predicted), abs=1e-9
    )
    assert found["texts"] == 7935
    assert 0 < found["precision"] < 1 and 0 < found["recall"] < 1


def test_a_task2_rows_errors_are_kept_each_in_its_place(readers_db):
    db, targets, _, task2, _ = readers_db
    stored = rows(
        db,
        "SELECT t.system, t.doc, t.seg_id, e.error_index, e.severity, e.side, e.char_start, e.char_end"
        " FROM mqm_errors AS e JOIN annotation_sets AS a USING (set_id) JOIN text_systems AS t USING (text_id)"
        " WHERE a.name = 'task2' ORDER BY ALL",
    )
    expected = sorted(
        (*key, index, severity, "none" if start == "missing" else "target")
        + ((None, None) if start == "missing" else (start, min(end, len(targets[key]))))
        for key, found in task2.items()
        for index, (start, end, severity) in enumerate(found)
    )
    assert stored == expected
    assert any(start == "missing" for found in task2.values() for start, *_ in found)
    assert any(end > len(targets[key]) for key, found in task2.items() for _, end, _ in found if end != "missing")


def test_another_partial_credit_scores_as_the_oracle_computes_with_intervals(readers_db):
    db, targets, errors, task2, _ = readers_db
    con = database.open_existing(db)
    try:
        found = leaderboard(con, None, "ALL", Resampling(RESAMPLES, 3, 0.95), 200, CORPUS, schemes.ESA, None, 0.2)
        again = leaderboard(con, None, "ALL", None, 200, CORPUS, schemes.ESA, None, 0.5)
    finally:
        con.close()
    (row,) = [row for row in found if row["submission"] == "task2"]
    expected = oracle_figures(targets, errors, task2, 0.2)
    assert (row["precision"], row["recall"], row["f1"]) == pytest.approx(expected, abs=1e-9)
    assert expected != pytest.approx(oracle_figures(targets, errors, task2))  # the credit changes the figures
    assert row["signature"].endswith("|partial_credit:0.2")
    assert_numpy_intervals(row, targets, errors, task2, 0.2)
    # the default is not named, and the database's own figures are the default's once the command is done
    (row,) = [row for row in again if row["submission"] == "task2"]
    assert "partial_credit" not in row["signature"]
    assert (row["f1"],) == pytest.approx((esa_row(db, "task2")["f1"],), abs=1e-12)
    assert esa_row(db, "task2")["f1"] == pytest.approx(oracle_figures(targets, errors, task2)[2], abs=1e-9)


def test_compare_and_evaluate_take_the_partial_credit(readers_db, capsys):
    db, targets, errors, task2, spans = readers_db
    args = ["compare", "--db", str(db), "--corpus", CORPUS, "--scheme", "esa", "--format", "json", "--trials", "50"]
    assert run([*args, "--partial-credit", "0", "--metric", "f1", "task2", "spans"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert (found["a_value"], found["b_value"]) == pytest.approx(
        (oracle_figures(targets, errors, task2, 0)[2], oracle_figures(targets, errors, spans, 0)[2]), abs=1e-9
    )
    assert found["signature"].endswith("|partial_credit:0")
    assert run([*args, "--partial-credit", "1.5", "task2", "spans"]) == 1
    assert capsys.readouterr().err.strip() == "error: partial credit is 1.5: a credit from 0 to 1, such as 0.5"
    # the drop-in: a shared-task list's spans are all major, so a credit changes no figure, but the signature says it
    evaluate = ["evaluate", "--scheme", "esa", "--gsml", str(DATA / "gsml.csv"), "--format", "json"]
    assert run([*evaluate, "--submitted", str(EXAMPLES / "submission_doc_based.csv"), "--partial-credit", "0.1"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["signature"].endswith("|partial_credit:0.1")
    assert run([*evaluate, "--submitted", str(DATA / "gsml.csv"), "--partial-credit", "0.1", "--scheme", "exact"]) == 1
    assert capsys.readouterr().err.strip() == (
        "error: --partial-credit is the esa scheme's (a count at the wrong severity), not exact's"
    )
