"""A list covers the texts it annotated: an annotator of a Mu-SHROOM file (or of a factgenie campaign) who labelled
some of the texts is scored on those alone, by every scheme; the leaderboard says what each list is (kind) and on
how many texts it is scored (texts); each annotator also gets its human ceiling, scored against the other
annotators of its texts (iou_loo, cor_loo); and every list and metric is named in a signature by its own content.

The references: tests/mushroom_oracle.py (written from the task's definitions) over each annotator's own texts, and
a leave-one-out reference built here from the file's annotations."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import mushroom_oracle as oracle
import pytest

from accuracy_db.cli.main import run
from accuracy_db.stats import ranking
from accuracy_db.stats.intervals import Resampling
from accuracy_db.store import database

# Three texts; annotator a labelled the first two, b the last two, c all three (an empty list is a text labelled with
# no span); the gold's hard labels are the spans most of a text's annotators mark, its soft labels their shares.
TEXTS = ["abc def ghi", "one two three", "xx yy zz ww"]
ANNOTATIONS = [
    {"a": [[0, 3]], "c": [[0, 3], [4, 7]]},
    {"a": [[4, 7]], "b": [], "c": [[4, 13]]},
    {"b": [[0, 5]], "c": [[3, 5]]},
]


def reference_line(number: int, text: str, annotations: dict) -> dict:
    """A labelled line whose soft labels are each character's share of the annotators marking it."""
    marked = [sum(any(s <= i < e for s, e in spans) for spans in annotations.values()) for i in range(len(text))]
    soft = [{"start": i, "end": i + 1, "prob": marked[i] / len(annotations)} for i in range(len(text)) if marked[i]]
    hard = oracle.hard_from_soft([(label["start"], label["end"], label["prob"]) for label in soft])
    return {
        "id": f"val-en-{number}",
        "lang": "EN",
        "model_output_text": text,
        "soft_labels": soft,
        "hard_labels": [list(span) for span in hard],
        "annotations": annotations,
    }


LINES = [reference_line(n, text, annotations) for n, (text, annotations) in enumerate(zip(TEXTS, ANNOTATIONS), 1)]


def write_jsonl(path: Path, lines: list[dict]) -> Path:
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    return path


def own_figures(lines: list[dict], annotator: str) -> tuple[int, float, float]:
    """An annotator's texts, iou and cor against the gold, by the oracle, over the texts it labelled alone."""
    scores = [
        (
            oracle.iou(line["hard_labels"], line["annotations"][annotator]),
            oracle.cor(
                [(s["start"], s["end"], s["prob"]) for s in line["soft_labels"]],
                [(s, e, 1.0) for s, e in line["annotations"][annotator]],
                len(line["model_output_text"]),
            ),
        )
        for line in lines
        if annotator in line["annotations"]
    ]
    return len(scores), sum(s[0] for s in scores) / len(scores), sum(s[1] for s in scores) / len(scores)


def leave_one_out(lines: list[dict], annotator: str) -> tuple[float, float] | None:
    """An annotator's mean iou and cor against the other annotators of each of its texts: a character's soft label
    is the share of the others marking it, hard above one half; texts no other annotator labelled left out."""
    scores = []
    for line in lines:
        others = {name: spans for name, spans in line["annotations"].items() if name != annotator}
        if annotator not in line["annotations"] or not others:
            continue
        length = len(line["model_output_text"])
        share = [
            sum(any(s <= i < e for s, e in spans) for spans in others.values()) / len(others) for i in range(length)
        ]
        soft = [(i, i + 1, share[i]) for i in range(length) if share[i]]
        hard = [(i, i + 1) for i in range(length) if share[i] > 0.5]
        own = line["annotations"][annotator]
        scores.append((oracle.iou(hard, own), oracle.cor(soft, [(s, e, 1.0) for s, e in own], length)))
    if not scores:
        return None
    return sum(s[0] for s in scores) / len(scores), sum(s[1] for s in scores) / len(scores)


@pytest.fixture
def mushroom_db(db, tmp_path):
    reference = write_jsonl(tmp_path / "ref.jsonl", LINES)
    assert run(["import", "mushroom", "--db", str(db), "--as", "gold", "--corpus", "mu", str(reference)]) == 0
    return db


def mushroom_leaderboard(db: Path, capsys) -> list[dict]:
    assert run(["leaderboard", "--db", str(db), "--corpus", "mu", "--scheme", "mushroom", "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_an_annotator_is_scored_on_the_texts_it_labelled_alone(mushroom_db, capsys):
    rows = {row["submission"]: row for row in mushroom_leaderboard(mushroom_db, capsys)}
    assert sorted(rows) == ["annotator/a", "annotator/b", "annotator/c"]
    for name in "abc":
        texts, iou, cor = own_figures(LINES, name)
        row = rows[f"annotator/{name}"]
        assert (row["kind"], row["texts"]) == ("annotator", texts)
        assert row["iou"] == pytest.approx(iou, abs=1e-12) and row["cor"] == pytest.approx(cor, abs=1e-12)
    # over all three texts (as before), a would score its unseen third text as an empty prediction: iou 0 there
    assert rows["annotator/a"]["texts"] == 2


def test_each_annotator_has_its_human_ceiling_against_the_others(mushroom_db, capsys):
    rows = {row["submission"]: row for row in mushroom_leaderboard(mushroom_db, capsys)}
    for name in "abc":
        iou, cor = leave_one_out(LINES, name)
        assert rows[f"annotator/{name}"]["iou_loo"] == pytest.approx(iou, abs=1e-12)
        assert rows[f"annotator/{name}"]["cor_loo"] == pytest.approx(cor, abs=1e-12)


def test_a_prediction_covers_every_text_and_has_no_ceiling(mushroom_db, tmp_path, capsys):
    prediction = write_jsonl(tmp_path / "sys.jsonl", [{"id": "val-en-1", "hard_labels": [[0, 3]]}])
    assert run(["import", "mushroom", "--db", str(mushroom_db), "--corpus", "mu", str(prediction)]) == 0
    capsys.readouterr()
    (row,) = [row for row in mushroom_leaderboard(mushroom_db, capsys) if row["submission"] == "sys"]
    predicted = [[[0, 3]], [], []]
    iou = sum(oracle.iou(line["hard_labels"], p) for line, p in zip(LINES, predicted)) / 3
    assert (row["kind"], row["texts"], row["iou_loo"], row["cor_loo"]) == ("submission", 3, None, None)
    assert row["iou"] == pytest.approx(iou, abs=1e-12)


def test_the_other_schemes_count_the_gold_of_an_annotators_texts_alone(mushroom_db):
    con = database.open_existing(mushroom_db)
    try:
        rows = ranking.leaderboard(con, None, "ALL", Resampling(resamples=50), 100, corpus="mu", scheme="token-soft")
        gold_tokens = {row["submission"]: row["gold_total"] for row in rows}
        # token-soft counts tokens: the gold's marked tokens in the texts each annotator labelled
        tokens = con.execute(
            """
            SELECT lists.name, count(DISTINCT (gold.text_id, position))
            FROM annotation_sets AS lists
            JOIN list_coverage USING (set_id)
            JOIN mistakes AS gold ON gold.text_id = list_coverage.text_id
                AND gold.set_id = (SELECT set_id FROM annotation_sets WHERE corpus = 'mu' AND kind = 'gold')
            CROSS JOIN LATERAL (SELECT unnest(range(gold.doc_token_start, gold.doc_token_end + 1)) AS position)
            WHERE lists.corpus = 'mu' AND lists.kind = 'submission'
            GROUP BY lists.name
            """
        ).fetchall()
    finally:
        con.close()
    assert gold_tokens == dict(tokens)
    assert {row["submission"]: row["texts"] for row in rows} == {"annotator/a": 2, "annotator/b": 2, "annotator/c": 3}
    # the clusters pair lists text by text: an annotator of some texts has none, and its interval is of its texts
    assert [row["cluster"] for row in rows] == [None, None, None]
    assert all(row["recall_ci"] is not None or row["recall"] is None for row in rows)


def test_agreement_of_two_annotators_is_over_the_texts_both_labelled(mushroom_db, capsys):
    assert (
        run(["agreement", "annotator/a", "annotator/b", "--db", str(mushroom_db), "--corpus", "mu", "--format", "json"])
        == 0
    )
    found = json.loads(capsys.readouterr().out)
    (a_then_b,) = [row for row in found["pairs"] if row["scope"] == "ALL" and row["reference"] == "annotator/a"]
    # they share the second text alone, in which a marks "two" and b nothing: a's span in the first text and b's
    # in the third are not counted (over all three texts: 2 and 1)
    assert (a_then_b["reference_total"], a_then_b["compared_total"]) == (1, 0)
    assert {row["n"] for row in found["correlations"]} == {1}


def test_each_list_and_each_metric_is_signed_by_its_own_content(mushroom_db, tmp_path, capsys):
    signatures = [row["signature"] for row in mushroom_leaderboard(mushroom_db, capsys)]
    parts = [dict(part.split(":", 1) for part in signature.split("|")) for signature in signatures]
    assert len({part["sub"] for part in parts}) == 3  # three annotators of one file: three contents
    assert all(part["sub"] != part["gold"] for part in parts)

    # two metrics of one file of scores, with different values, are two signatures
    scores = tmp_path / "two.csv"
    with scores.open("w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(["text_id", "first", "second"])
        for number in range(1, 4):
            writer.writerow([f"val-en-{number}", number, 4 - number])
    assert run(["import", "scores", str(scores), "--db", str(mushroom_db), "--corpus", "mu", "--lower-is-better"]) == 0
    capsys.readouterr()
    metrics = ["metrics", "--db", str(mushroom_db), "--corpus", "mu", "--split", "EN", "--level", "text"]
    assert run([*metrics, "--format", "json"]) == 0
    found = {row["metric"]: row["signature"] for row in json.loads(capsys.readouterr().out)}
    stamp = {metric: dict(p.split(":", 1) for p in sig.split("|"))["metric"] for metric, sig in found.items()}
    assert stamp["first"] != stamp["second"]


def test_soft_gold_of_annotators_is_each_texts_share_of_its_own_annotators(mushroom_db, tmp_path, capsys):
    names = ["annotator/a", "annotator/b", "annotator/c"]
    assert (
        run(["adjudicate", *names, "--soft", "--as", "shares", "--out", str(tmp_path), "--db", str(mushroom_db)]) == 0
    )
    written = {line["id"]: line for line in map(json.loads, (tmp_path / "shares.jsonl").read_text().splitlines())}
    for line in LINES:  # the reference's soft labels are each character's share of the annotators of its text
        length = len(line["model_output_text"])
        expected = oracle.soft_vector([(s["start"], s["end"], s["prob"]) for s in line["soft_labels"]], length)
        found = [(s["start"], s["end"], s["prob"]) for s in written[line["id"]]["soft_labels"]]
        assert oracle.soft_vector(found, length) == pytest.approx(expected, abs=1e-12)
