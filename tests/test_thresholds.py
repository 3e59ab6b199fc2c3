"""Every match scheme at a probability threshold (issue 34, item 4): a list whose spans have probabilities is scored
with the spans of p >= the threshold (0.5 unless --threshold gives another), on `leaderboard`, `compare` and
`evaluate`. The reference for a list at threshold t is the same list cut by hand, without probabilities: the spans of
p >= t, loaded beside it as a list of its own and scored as any hard list (which the oracles check elsewhere). A
list without probabilities scores the same at every threshold, and a threshold given to one command leaves the
connection scoring at the database's again."""

from __future__ import annotations

import csv
import json
import random
import shutil
from pathlib import Path

import pytest
from shared_data import DATA, EXAMPLES
from weather_corpus import CATEGORIES, lines

from accuracy_db.cli.main import run
from accuracy_db.scoring import scores
from accuracy_db.scoring.evaluate import evaluate_with_warnings
from accuracy_db.scoring.schemes import SCHEMES
from accuracy_db.stats import ranking
from accuracy_db.stats.intervals import Resampling
from accuracy_db.stats.significance import compare
from accuracy_db.store import database

THRESHOLDS = (0.0, 0.3, 0.5, 0.7, 1.0)
PROBABILITIES = (None, 0.1, 0.3, 0.45, 0.5, 0.7, 0.9, 1.0)
FIGURES = ("recall", "precision", "f1", "matched", "gold_total", "submitted_total")


def spans(rng: random.Random, text_id: str, tokens: int, soft: bool) -> list[dict]:
    """Disjoint token spans of a text, each of a category, with a probability now and then (soft)."""
    found, token = [], 1
    while token <= tokens:
        if rng.random() < 0.35:
            end = min(tokens, token + rng.randint(0, 2))
            span = {"text_id": text_id, "category": rng.choice(["Wrong", "Unsupported"])}
            span |= {"token_start": token, "token_end": end}
            probability = rng.choice(PROBABILITIES) if soft else None
            found.append(span | ({} if probability is None else {"probability": probability}))
            token = end + 1
        token += 1
    return found


def cut(spans_of_list: list[dict], threshold: float) -> list[dict]:
    """A list's spans of p >= threshold (a span without one is kept), written without probabilities."""
    return [
        {key: value for key, value in span.items() if key != "probability"}
        for span in spans_of_list
        if span.get("probability", 1) >= threshold
    ]


def corpus(name: str, gold_soft: bool, seed: int = 4) -> tuple[list[dict], dict[str, list[dict]]]:
    """Twelve texts, and the lists: gold (with probabilities when gold_soft), soft (with), hard (without), and the
    soft list cut at each threshold."""
    rng = random.Random(seed)
    words = "Rain in Oslo 12 degrees Sunny Rome wind north snow Bergen Monday".split()
    texts = [
        {
            "id": f"{name}-{number}",
            "text": " ".join(rng.choice(words) for _ in range(rng.randint(8, 16))),
            "split": "dev",
        }
        for number in range(12)
    ]
    lists = {name: [] for name in ("gold", "soft", "hard")}
    for text in texts:
        tokens = len(text["text"].split())
        lists["gold"] += spans(rng, text["id"], tokens, gold_soft)
        lists["soft"] += spans(rng, text["id"], tokens, True)
        lists["hard"] += spans(rng, text["id"], tokens, False)
    lists |= {f"cut-{threshold:g}": cut(lists["soft"], threshold) for threshold in THRESHOLDS}
    return texts, lists


def import_corpus(db: Path, folder: Path, name: str, gold_soft: bool) -> dict[str, list[dict]]:
    texts, lists = corpus(name, gold_soft)
    (folder / name / "lists").mkdir(parents=True)
    (folder / name / "texts.jsonl").write_text(lines(texts))
    (folder / name / "categories.yaml").write_text(CATEGORIES)
    for list_name, spans_of_list in lists.items():
        (folder / name / "lists" / f"{list_name}.jsonl").write_text(lines(spans_of_list))
    assert run(["import", "corpus", "--db", str(db), str(folder / name)]) == 0
    return lists


@pytest.fixture(scope="module")
def threshold_db(built_db, tmp_path_factory) -> tuple[Path, dict[str, dict[str, list[dict]]]]:
    """The shared-task database with two corpora of lists with probabilities: hardgold (a gold list without any)
    and softgold (a gold list with some)."""
    folder = tmp_path_factory.mktemp("thresholds")
    db = folder / "accuracy.duckdb"
    shutil.copyfile(built_db, db)
    lists = {name: import_corpus(db, folder, name, name == "softgold") for name in ("hardgold", "softgold")}
    return db, lists


@pytest.fixture
def con(threshold_db):
    con = database.open_existing(threshold_db[0])
    yield con
    con.close()


def figures_by_list(rows: list[dict]) -> dict[str, tuple]:
    return {row["submission"]: tuple(row[figure] for figure in FIGURES) for row in rows}


def every_scheme(con, corpus_name: str, threshold: float | None) -> dict[tuple[str, str], dict[str, tuple]]:
    """(scheme, scope) -> each list's figures, from scheme_scores with the corpus's lists scored at a threshold
    (None: the database's)."""
    ids = [
        i for (i,) in con.execute("SELECT submission_id FROM evaluations WHERE corpus = ?", [corpus_name]).fetchall()
    ]
    with database.scored_at(con, threshold, ids):
        rows = scores.fetch_dicts(con, "SELECT * FROM scheme_scores WHERE corpus = ?", [corpus_name])
    found = {}
    for row in rows:
        found.setdefault((row["scheme"], row["scope"]), {})[row["submission"]] = tuple(row[f] for f in FIGURES)
    assert {scheme for scheme, _ in found} == set(SCHEMES)
    return found


@pytest.mark.parametrize("corpus_name", ["hardgold", "softgold"])
@pytest.mark.parametrize("threshold", THRESHOLDS)
def test_every_scheme_scores_a_list_at_a_threshold_as_its_spans_at_or_above_it(con, corpus_name, threshold):
    for (scheme, scope), rows in every_scheme(con, corpus_name, threshold).items():
        assert rows["soft"] == rows[f"cut-{threshold:g}"], (scheme, scope)


def test_the_database_scores_at_one_half_and_a_list_without_probabilities_at_any_threshold(con):
    default = every_scheme(con, "hardgold", None)
    for key, rows in default.items():
        assert rows["soft"] == rows["cut-0.5"], key
    assert any(rows["soft"] != rows["cut-0"] for rows in default.values())  # spans below one half were left out
    for threshold in THRESHOLDS:
        for key, rows in every_scheme(con, "hardgold", threshold).items():
            assert rows["hard"] == default[key]["hard"] and rows["cut-0.7"] == default[key]["cut-0.7"], key
    # the block of the threshold is over: the connection scores at the database's threshold again
    assert every_scheme(con, "hardgold", None) == default
    board = ranking.leaderboard(con, "dev", "Wrong", None, corpus="hardgold", scheme="partial", threshold=0.7)
    assert figures_by_list(board)["soft"] == default["partial", "Wrong"]["cut-0.7"]


def test_a_gold_list_with_probabilities_is_cut_too(con, threshold_db):
    _, lists = threshold_db
    for threshold in THRESHOLDS:
        rows = ranking.leaderboard(con, "dev", "ALL", None, corpus="softgold", scheme="exact", threshold=threshold)
        expected = len(cut(lists["softgold"]["gold"], threshold))
        assert {row["gold_total"] for row in rows} == {expected}, threshold
        assert all(("|threshold:" in row["signature"]) == (threshold != 0.5) for row in rows)


def test_intervals_and_compare_resample_the_list_at_the_threshold(con):
    rows = ranking.leaderboard(con, "dev", "ALL", Resampling(200), corpus="hardgold", threshold=0.3)
    board = {row["submission"]: row for row in rows}
    reference = ranking.leaderboard(con, "dev", "ALL", Resampling(200), corpus="hardgold")
    assert board["soft"]["recall_ci"] == {row["submission"]: row for row in reference}["cut-0.3"]["recall_ci"]
    result = compare(con, "soft", "hard", metric="recall", trials=200, corpus="hardgold", threshold=0.3)
    assert (result["a_value"], result["b_value"]) == (board["soft"]["recall"], board["hard"]["recall"])
    assert "|threshold:0.3" in result["signature"]
    plain = compare(con, "cut-0.3", "hard", metric="recall", trials=200, corpus="hardgold")
    assert (plain["p_value"], plain["difference_ci"]) == (result["p_value"], result["difference_ci"])


def test_the_commands_take_the_threshold_and_refuse_a_bad_one(threshold_db, capsys):
    db, _ = threshold_db
    base = ["leaderboard", "--db", str(db), "--corpus", "hardgold", "--format", "json"]
    assert run(base + ["--threshold", "0.7", "--scheme", "char-soft"]) == 0
    rows = figures_by_list(json.loads(capsys.readouterr().out))
    assert rows["soft"] == rows["cut-0.7"]
    assert (
        run(
            [
                "compare",
                "soft",
                "cut-1",
                "--db",
                str(db),
                "--corpus",
                "hardgold",
                "--threshold",
                "1",
                "--format",
                "json",
            ]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)["difference"] == 0
    for args, message in [
        (base + ["--threshold", "1.5"], "threshold is 1.5: a probability from 0 to 1, such as 0.5"),
        (
            base + ["--scheme", "mushroom", "--threshold", "0.5"],
            "the mushroom scheme reads the probabilities themselves",
        ),
    ]:
        assert run(args) == 1
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err


def with_probabilities(tmp_path: Path) -> tuple[Path, list[list[str]], list[str]]:
    """The example submission with a PROBABILITY column: 0.2, 0.5, 0.8 and none (a hard row), in turn."""
    header, *rows = list(csv.reader((EXAMPLES / "submission.csv").read_text(encoding="utf-8").splitlines()))
    cells = ["0.2", "0.5", "0.8", ""]
    probabilities = [cells[number % len(cells)] for number in range(len(rows))]
    path = tmp_path / "with_probabilities.csv"
    write_csv(path, [header + ["PROBABILITY"]] + [row + [p] for row, p in zip(rows, probabilities)])
    return path, [header, *rows], probabilities


def write_csv(path: Path, rows: list[list[str]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as file:
        csv.writer(file).writerows(rows)
    return path


def without_signatures(report: list[dict]) -> list[dict]:
    return [{key: value for key, value in row.items() if key != "signature"} for row in report]


@pytest.mark.parametrize("scheme", ["shared-task", "strict", "token-soft"])
def test_evaluate_scores_the_rows_of_a_probability_at_or_above_the_threshold(tmp_path, scheme):
    path, (header, *rows), probabilities = with_probabilities(tmp_path)
    for threshold in (None, 0.0, 0.3, 0.5, 0.8, 1.0):
        kept = [
            row
            for row, p in zip(rows, probabilities)
            if p == "" or float(p) >= (0.5 if threshold is None else threshold)
        ]
        reference = write_csv(tmp_path / f"cut-{threshold}.csv", [header, *kept])
        ours = evaluate_with_warnings(DATA / "gsml.csv", path, scheme=scheme, threshold=threshold).report
        theirs = evaluate_with_warnings(DATA / "gsml.csv", reference, scheme=scheme).report
        assert without_signatures(ours) == without_signatures(theirs), threshold
        assert all(("|threshold:" in row["signature"]) == (threshold not in (None, 0.5)) for row in ours)
    # a file without probabilities scores the same at any threshold
    plain = evaluate_with_warnings(DATA / "gsml.csv", EXAMPLES / "submission.csv", scheme=scheme).report
    at_one = evaluate_with_warnings(DATA / "gsml.csv", EXAMPLES / "submission.csv", scheme=scheme, threshold=1.0)
    assert without_signatures(at_one.report) == without_signatures(plain)


@pytest.mark.parametrize("cell", ["1.5", "-0.1", "high", "nan", "inf"])
def test_evaluate_refuses_a_probability_that_is_not_one_in_one_line(tmp_path, capsys, cell):
    header, *rows = list(csv.reader((EXAMPLES / "submission.csv").read_text(encoding="utf-8").splitlines()))
    path = write_csv(
        tmp_path / "bad.csv", [header + ["PROBABILITY"]] + [row + ["0.5"] for row in rows[:2]] + [rows[2] + [cell]]
    )
    assert run(["evaluate", "--gsml", str(DATA / "gsml.csv"), "--submitted", str(path), "--threshold", "0.5"]) == 1
    err = capsys.readouterr().err
    assert f"{path}: line 4: PROBABILITY is '{cell}', not a number from 0 to 1" in err and "Traceback" not in err
