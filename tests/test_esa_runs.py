"""The esa scheme's counts, computed over runs of characters (queries/stats/esa_text_statistics.sql), against the
per-character definition of tests/esa_oracle.py on adversarial overlaps: nested spans, spans touching and adjacent
at different severities, the same span given several times, spans at the text's ends, Neutral spans, texts with
spans on one side alone, dense random spans, and (a task-2 file) spans past the text's end, which the reader cuts."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest
from database_rows import rows
from esa_oracle import char_f1, text_counts
from test_esa import TASK2_HEADER
from test_mqm import HEADER

from accuracy_db.cli.main import run
from accuracy_db.store import database

TEXT = "The quick brown fox jumps"  # 25 characters
SOURCE = "敏捷的棕色狐狸跳了"
TASK2_SEVERITY = {"Major": "major", "Minor": "minor", "Critical": "critical", "Neutral": "undecided"}
# per system (one text each): the gold errors by rater, and the predicted errors, as (start, end, severity)
CASES = {
    "nested": (
        {"r1": [(0, 19, "Major")], "r2": [(4, 9, "Minor")], "r3": [(4, 9, "Minor"), (5, 7, "Critical")]},
        [(2, 15, "Minor"), (4, 9, "Major"), (5, 7, "Critical"), (6, 7, "Minor")],
    ),
    "touching": (
        {"r1": [(0, 3, "Major")], "r2": [(3, 9, "Minor")], "r3": [(9, 15, "Critical"), (15, 25, "Minor")]},
        [(0, 9, "Minor"), (9, 11, "Major"), (11, 15, "Minor"), (15, 19, "Major")],
    ),
    "repeated": (
        {"r1": [(4, 9, "Major")], "r2": [(4, 9, "Major")], "r3": [(4, 9, "Neutral")]},
        [(4, 9, "Major"), (4, 9, "Minor"), (4, 9, "Minor"), (4, 9, "Neutral")],
    ),
    "ends": (
        {"r1": [(20, 25, "Minor"), (0, 1, "Major")], "r2": [(16, 25, "Major")], "r3": []},
        [(10, 25, "Major"), (0, 3, "Minor"), (24, 25, "Minor")],
    ),
    "gold-only": ({"r1": [(0, 9, "Major")], "r2": [(2, 5, "Minor")], "r3": []}, []),
    "predicted-only": ({"r1": [], "r2": [], "r3": []}, [(0, 9, "Major"), (2, 5, "Minor")]),
    "neutral-only": ({"r1": [(0, 9, "Neutral")], "r2": [], "r3": []}, [(0, 9, "Neutral")]),
}


def random_cases(count: int, seed: int = 52) -> dict:
    """Dense spans: each rater 0 to 4 errors of any severity, the prediction 0 to 6, every edge on any character."""
    rng = random.Random(seed)
    severities = ["Major", "Minor", "Critical", "Neutral"]

    def spans(most: int) -> list:
        found = []
        for _ in range(rng.randint(0, most)):
            start = rng.randrange(len(TEXT))
            end = rng.randint(start + 1, len(TEXT))
            if TEXT[start:end].strip():  # a span of white space alone is no span of the list
                found.append((start, end, rng.choice(severities)))
        return found

    return {f"random-{n:02d}": ({r: spans(4) for r in ("r1", "r2", "r3")}, spans(6)) for n in range(count)}


def marked_row(system: str, rater: str, error: tuple[int, int, str] | None) -> str:
    if error is None:
        return "\t".join([system, "d", "1", "1", rater, SOURCE, TEXT, "No-error", "No-error"])
    start, end, severity = error
    target = f"{TEXT[:start]}<v>{TEXT[start:end]}</v>{TEXT[end:]}"
    return "\t".join([system, "d", "1", "1", rater, SOURCE, target, "Accuracy/Mistranslation", severity])


def mqm_file(path, raters_errors: dict[str, dict[str, list]]) -> None:
    lines = [HEADER]
    for system, by_rater in raters_errors.items():
        for rater, errors in by_rater.items():
            lines += [marked_row(system, rater, error) for error in errors] or [marked_row(system, rater, None)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.fixture(scope="module")
def runs_db(built_db, tmp_path_factory):
    """The cases as corpus runs: a gold file of three raters, and the predictions as an MQM rating (pred) and as a
    task-2 TSV (task2) whose spans ending at the text's end run on past it."""
    folder = tmp_path_factory.mktemp("esa-runs")
    db = folder / "accuracy.duckdb"
    db.write_bytes(built_db.read_bytes())
    cases = CASES | random_cases(40)
    mqm_file(folder / "gold.tsv", {system: gold for system, (gold, _) in cases.items()})
    mqm_file(folder / "pred.tsv", {system: {"pred": predicted} for system, (_, predicted) in cases.items()})
    lines = ["\t".join(TASK2_HEADER)]
    for system, (_, predicted) in cases.items():
        lists = [[str(s), str(e + 7 if e == len(TEXT) else e), TASK2_SEVERITY.get(sev, sev)] for s, e, sev in predicted]
        cells = [" ".join(error[i] for error in lists) for i in range(3)] if lists else ["-1", "-1", "no-error"]
        lines.append("\t".join(["d", "1", "zh", "en", "official", system, SOURCE, TEXT, "", "ted", "MQM", *cells]))
    (folder / "task2.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert run(["import", "mqm", "--db", str(db), "--corpus", "runs", str(folder / "gold.tsv")]) == 0
    for name in ("pred", "task2"):
        args = ["import", "mqm", "--db", str(db), "--corpus", "runs", "--as", "submission", "--name", name]
        assert run([*args, str(folder / f"{name}.tsv")]) == 0
    return db, cases


def oracle_texts(cases: dict) -> dict[str, tuple]:
    """Per system, its text's (gold errors of every rater, predicted errors, length)."""
    return {
        system: ([error for errors in gold.values() for error in errors], predicted, len(TEXT))
        for system, (gold, predicted) in cases.items()
    }


@pytest.mark.parametrize("name", ["pred", "task2"])
@pytest.mark.parametrize("credit", [0.5, 0.2])
def test_each_texts_counts_are_the_per_character_definitions(runs_db, name, credit):
    db, cases = runs_db
    con = database.open_existing(db)
    try:
        with database.credited(con, credit):
            found = con.execute(
                "SELECT system, matched, gold_total, submitted_total FROM esa_text_statistics"
                " JOIN annotation_sets ON set_id = submission_id JOIN text_systems USING (text_id)"
                " WHERE corpus = 'runs' AND name = ?",
                [name],
            ).fetchall()
            figures = con.execute(
                "SELECT precision, recall, f1 FROM esa_scores WHERE corpus = 'runs' AND submission = ?", [name]
            ).fetchone()
    finally:
        con.close()
    expected = {
        system: text_counts(gold, predicted, length, credit)
        for system, (gold, predicted, length) in oracle_texts(cases).items()
    }
    # a text whose spans are all Neutral, or that neither side marks, has no row: it counts 0 everywhere
    expected = {system: counts for system, counts in expected.items() if counts != (0.0, 0.0, 0.0)}
    found = {system: tuple(counts) for system, *counts in found}
    assert found.keys() == expected.keys()
    for system, counts in expected.items():
        assert found[system] == pytest.approx(counts, abs=1e-9), system
    assert sum(1 for counts in expected.values() if counts[0] % 1) > 5  # partial credits were given
    assert figures == pytest.approx(char_f1(list(oracle_texts(cases).values()), credit), abs=1e-9)


def test_each_raters_list_counts_the_gold_on_its_own_texts(runs_db):
    db, cases = runs_db
    found = defaultdict(dict)
    for rater, system, *counts in rows(
        db,
        "SELECT name, system, matched, gold_total, submitted_total FROM esa_text_statistics"
        " JOIN annotation_sets ON set_id = submission_id JOIN text_systems USING (text_id)"
        " WHERE corpus = 'runs' AND name LIKE 'rater/%'",
    ):
        found[rater][system] = tuple(counts)
    for rater in ("r1", "r2", "r3"):
        expected = {}
        for system, (gold, _) in cases.items():
            counts = text_counts([e for errors in gold.values() for e in errors], gold[rater], len(TEXT))
            if counts != (0.0, 0.0, 0.0):
                expected[system] = counts
        assert found[f"rater/{rater}"] == expected
