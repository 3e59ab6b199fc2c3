"""A corpus the match schemes cannot score (issue 48, finding 8): a Chinese Mu-SHROOM corpus, whose labels lie inside
one whitespace token, so that the spans of a list overlap as tokens and the shared-task scheme refuses the gold list.
It opens on the mushroom scheme on the command line and on every page that ranks or compares (its figures the
oracle's, tests/mushroom_oracle.py), and every command and page that cannot score it says why in one line instead of
an empty table."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import numpy as np
import pytest
from accuracy_db.dashboard.literal import literal
from shared_data import SHARED
from test_dashboard import chart, labelled, table
from test_dashboard_corpora import opened_at
from test_mushroom import expected, write

from accuracy_db.cli.main import run
from accuracy_db.store import database

# Chinese is written without spaces: a text is one or two whitespace tokens, and a label lies inside one.
CLAUSES = [
    "彼得出生于一八八零年",
    "他参加了夏季奥运会",
    "摩云蛛属是蛛形纲的一属",
    "葡萄牙位于欧洲西南部",
    "金属的熔点较高",
]
SYSTEMS = ("alpha", "beta", "gamma")
CORPUS = "zh"
# Why the match schemes score no list of the corpus: the gold list's spans, and alpha's and beta's, overlap as tokens.
WHY = (
    "no submission of corpus zh{split} is scored under the shared-task scheme: its gold list and 2 of its 3 "
    "submission(s) have spans that overlap within the list (3 list(s), named in scheme_refusals), which the match "
    "schemes do not score; the mushroom scheme ranks them"
)


def inside(rng: random.Random, text: str, spans: int) -> list[tuple[int, int]]:
    """Disjoint spans of characters inside the first token of the text, left to right."""
    token = len(text.split(" ")[0])
    cuts = sorted(rng.sample(range(token + 1), 2 * spans))
    return [(cuts[i], cuts[i + 1]) for i in range(0, len(cuts), 2)]


def generated(seed: int = 48) -> tuple[list[dict], dict[str, list[dict]]]:
    """A labelled file of 16 Chinese texts, two gold labels inside the first token of each; alpha's and beta's
    predictions mark two spans inside a token, gamma's one."""
    rng = random.Random(seed)
    gold, predictions = [], {system: [] for system in SYSTEMS}
    for number in range(16):
        text = " ".join(rng.sample(CLAUSES, rng.randint(1, 2)))
        soft = [{"start": s, "end": e, "prob": rng.choice([0.4, 0.6, 0.8, 1.0])} for s, e in inside(rng, text, 2)]
        gold.append(
            {
                "id": f"val-zh-{number}",
                "lang": "ZH",
                "model_input": "?",
                "model_output_text": text,
                "soft_labels": soft,
                "hard_labels": [[label["start"], label["end"]] for label in soft if label["prob"] > 0.5],
            }
        )
        for system in SYSTEMS:
            spans = inside(rng, text, 1 if system == "gamma" else 2)
            predictions[system].append(
                {
                    "id": gold[-1]["id"],
                    "soft_labels": [{"start": s, "end": e, "prob": rng.randint(1, 20) / 20} for s, e in spans],
                    "hard_labels": [list(span) for span in spans],
                }
            )
    return gold, predictions


@pytest.fixture(scope="module")
def chinese_db(built_db, tmp_path_factory) -> tuple[Path, list[dict], dict[str, list[dict]]]:
    """The shared-task database with the example submissions, and the Chinese corpus imported (its labelled file
    and three systems' predictions)."""
    folder = tmp_path_factory.mktemp("chinese")
    db = folder / "accuracy.duckdb"
    shutil.copyfile(built_db, db)
    gold, predictions = generated()
    imported = ["import", "mushroom", "--db", str(db), "--corpus", CORPUS]
    assert run([*imported, "--as", "gold", str(write(folder / "zh-val.jsonl", gold))]) == 0
    for system, lines in predictions.items():
        assert run([*imported, str(write(folder / f"{system}.jsonl", lines))]) == 0
    return db, gold, predictions


def oracle_means(gold: list[dict], predictions: dict[str, list[dict]]) -> dict[str, np.ndarray]:
    """Each system's mean iou and cor over the texts, by the oracle."""
    return {
        system: np.array(list(expected(gold, lines).values())).mean(axis=0) for system, lines in predictions.items()
    }


def refused(capsys, args: list[str]) -> str:
    """The one line a command refuses with (exit status 1, no traceback)."""
    assert run(args) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    [line] = captured.err.splitlines()
    return line


def test_the_gold_list_is_one_the_match_schemes_refuse(chinese_db, capsys):
    db, _, _ = chinese_db
    assert run(["query", "--db", str(db), "--format", "json", "SELECT count(*) AS n FROM scheme_refusals"]) == 0
    assert json.loads(capsys.readouterr().out) == [{"n": 3}]  # gold, alpha and beta: the premise of the tests


def test_the_leaderboard_of_the_corpus_ranks_under_the_mushroom_scheme_by_default(chinese_db, capsys):
    db, gold, predictions = chinese_db
    args = ["leaderboard", "--db", str(db), "--corpus", CORPUS, "--format", "json"]
    assert run(args) == 0
    rows = json.loads(capsys.readouterr().out)
    means = oracle_means(gold, predictions)
    assert [row["submission"] for row in rows] == sorted(SYSTEMS, key=lambda s: (-means[s][0], -means[s][1]))
    for row in rows:
        assert [row["iou"], row["cor"]] == pytest.approx(list(means[row["submission"]]), abs=1e-12)
        assert "|scheme:mushroom|" in row["signature"]
    assert run([*args, "--scheme", "mushroom"]) == 0
    assert json.loads(capsys.readouterr().out) == rows


def test_a_scheme_that_ranks_nothing_says_why_in_one_line(chinese_db, two_metrics_db, capsys):
    db, _, _ = chinese_db
    base = ["leaderboard", "--db", str(db), "--corpus", CORPUS]
    for scheme in ("shared-task", "strict", "char-soft"):
        line = refused(capsys, [*base, "--scheme", scheme])
        assert line == "error: " + WHY.format(split="").replace("shared-task scheme", f"{scheme} scheme")
    assert refused(capsys, [*base, "--split", "ZH", "--scheme", "shared-task"]) == "error: " + WHY.format(
        split=", the ZH split"
    )
    assert refused(capsys, ["difficulty", "--db", str(db), "--corpus", CORPUS]) == "error: " + WHY.format(split="")
    # a probability threshold is the match schemes' setting: with one, the default is the shared task's scheme
    assert refused(capsys, [*base, "--threshold", "0.5"]) == "error: " + WHY.format(split="")
    # the shared task's test split, on a database without the box-score checker's list (which scores every split)
    assert refused(capsys, ["leaderboard", "--db", str(two_metrics_db), "--split", "test"]) == (
        "error: corpus shared-task, the test split has no submission to rank: `accuracy-db build --submissions` or "
        "`import` loads some"
    )


def test_compare_defaults_to_the_mushroom_scheme_of_the_lists_corpus(chinese_db, capsys):
    db, _, _ = chinese_db
    args = ["compare", "alpha", "gamma", "--db", str(db), "--format", "json"]
    assert run(args) == 0
    by_default = json.loads(capsys.readouterr().out)
    assert by_default["metric"] == "iou" and "|scheme:mushroom|" in by_default["signature"]
    assert run([*args, "--scheme", "mushroom", "--corpus", CORPUS]) == 0
    assert json.loads(capsys.readouterr().out) == by_default
    assert refused(capsys, ["compare", "alpha", "gamma", "--db", str(db), "--scheme", "shared-task"]) == (
        "error: alpha (corpus zh, the ZH split) is loaded but not scored: its spans overlap within the list "
        "(scheme_refusals names them), which the match schemes do not score; `leaderboard` and `compare` score it "
        "under the mushroom scheme"
    )
    assert refused(capsys, ["validity", "gamma", "--db", str(db)]) == (
        "error: gamma (corpus zh, the ZH split) is loaded but not scored: its gold list's spans overlap within the "
        "list (scheme_refusals names them), which the match schemes do not score; `leaderboard` and `compare` score "
        "it under the mushroom scheme"
    )


def test_the_leaderboard_page_opens_the_corpus_on_the_mushroom_scheme(chinese_db, monkeypatch, capsys):
    db, _, _ = chinese_db
    at = opened_at(db, monkeypatch, "leaderboard", corpus=CORPUS)
    assert not at.info and not at.error, (at.info, at.error)
    assert run(["leaderboard", "--db", str(db), "--corpus", CORPUS, "--ci", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    shown = table(at, "mushroom_leaderboard")
    assert list(shown["submission"]) == [row["submission"] for row in rows]
    assert list(shown["cluster"]) == [row["cluster"] for row in rows]
    assert list(shown["iou"]) == pytest.approx([row["iou"] for row in rows], abs=1e-12)  # a mean: summed anew
    assert list(shown["iou_low"]) == pytest.approx([row["iou_ci"][0] for row in rows], abs=1e-12)
    assert list(shown["iou_high"]) == pytest.approx([row["iou_ci"][1] for row in rows], abs=1e-12)
    captions = [caption.value for caption in at.caption]
    assert f"Not under the match schemes: {literal(WHY.format(split=', the ZH split'))}." in captions
    assert "Match scheme" not in [widget.label for widget in at.selectbox]  # no other scheme ranks a list of it


def test_the_significance_page_offers_the_schemes_that_score_the_corpus(chinese_db, monkeypatch):
    db, _, _ = chinese_db
    at = opened_at(db, monkeypatch, "significance", corpus=CORPUS)
    scheme = labelled(at.selectbox, "Match scheme")
    assert (scheme.value, scheme.options) == ("mushroom", ["mushroom"])
    _, cells = chart(at, "significance_matrix")
    assert sorted(zip(cells["a"], cells["b"])) == sorted((a, b) for a in SYSTEMS for b in SYSTEMS if a != b)
    assert f"Not offered, the match schemes: {literal(WHY.format(split=''))}." in [
        caption.value for caption in at.caption
    ]


@pytest.mark.parametrize("page", ["validity", "errors", "difficulty"])
def test_a_page_of_the_match_schemes_alone_says_why_it_shows_nothing(chinese_db, monkeypatch, page):
    db, _, _ = chinese_db
    at = opened_at(db, monkeypatch, page, corpus=CORPUS)
    [info] = at.info
    assert info.value.endswith(f": {literal(WHY.format(split=''))}.")  # (as Markdown that shows it literally)
    assert "No submission is loaded" not in info.value


def test_a_name_not_found_points_to_the_command_that_lists_the_corpus_s_lists(chinese_db, capsys):
    """`accuracy-db leaderboard` alone ranks the shared task: the hint names the corpus (it did not)."""
    db, _, _ = chinese_db
    assert refused(capsys, ["compare", "alpha", "gama", "--db", str(db), "--corpus", CORPUS]) == (
        "error: no submission named 'gama' in corpus zh: did you mean gamma? `accuracy-db leaderboard --corpus zh` "
        "lists them"
    )


def test_the_published_chinese_file_ranks_under_the_mushroom_scheme_or_says_why_not(built_db, tmp_path, capsys):
    """The file the finding was made on: the task's Chinese validation set, its annotators as the lists."""
    db = tmp_path / "accuracy.duckdb"
    shutil.copyfile(built_db, db)
    labelled = SHARED / "mushroom/val/mushroom.zh-val.v2.extra.jsonl"
    assert run(["import", "mushroom", "--db", str(db), "--corpus", CORPUS, "--as", "gold", str(labelled)]) == 0
    capsys.readouterr()
    con = database.open_existing(db)
    try:
        [(lists, refusals, gold_refused)] = con.execute(
            "SELECT count(*) FILTER (kind = 'submission'), count(refusal.set_id),"
            " count(refusal.set_id) FILTER (kind = 'gold')"
            " FROM annotation_sets LEFT JOIN scheme_refusals AS refusal USING (set_id) WHERE corpus = 'zh'"
        ).fetchall()
        ranked = con.execute("SELECT count(*) FROM mushroom_leaderboard WHERE corpus = 'zh'").fetchone()[0]
    finally:
        con.close()
    assert gold_refused == 1 and ranked == lists > 0
    args = ["leaderboard", "--db", str(db), "--corpus", CORPUS, "--format", "json"]
    assert run(args) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == lists and all("|scheme:mushroom|" in row["signature"] for row in rows)
    assert refused(capsys, [*args, "--scheme", "shared-task"]) == (
        f"error: no submission of corpus zh is scored under the shared-task scheme: its gold list and {refusals - 1} of "
        f"its {lists} submission(s) have spans that overlap within the list ({refusals} list(s), named in "
        "scheme_refusals), which the match schemes do not score; the mushroom scheme ranks them"
    )
