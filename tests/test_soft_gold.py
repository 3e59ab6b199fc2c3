"""accuracy-db adjudicate --soft (issue 34, item 5): soft gold, per character the share of the lists that mark it,
in runs of constant share, written as a Mu-SHROOM file. Checked against a brute force written here from the
definition (count, character by character, the lists whose spans cover it) on generated files of the task's shape
(Latin, Chinese, Arabic, emoji and combining marks; an annotator's spans may overlap), and the file scored by the
mushroom scheme as tests/mushroom_oracle.py scores it: an annotator against the soft gold. Token lists (a corpus
folder's) mark the characters from their first token's start to their last token's end. The task's published soft
labels are trimmed at word edges, so they are not the shares: nothing here compares with them."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import mushroom_oracle as oracle
import pytest
from accuracy_db.etl import mushroom_files
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_mushroom import ALPHABET, spans, write
from weather_corpus import LISTS, TEXTS, import_weather

from accuracy_db.cli.main import run
from accuracy_db.stats.agreement import soft_adjudicate, soft_gold_lines
from accuracy_db.store import database


def shares(marks: dict[str, list[tuple[int, int]]], length: int) -> list[float]:
    """Per character, the share of the lists whose spans cover it."""
    return [sum(any(s <= i < e for s, e in spans) for spans in marks.values()) / len(marks) for i in range(length)]


def runs(vector: list[float]) -> list[tuple[int, int, float]]:
    """The maximal runs of equal, non-zero values: (start, end, value)."""
    found = []
    for index, value in enumerate(vector):
        if value and found and found[-1][1] == index and found[-1][2] == value:
            found[-1] = (found[-1][0], index + 1, value)
        elif value:
            found.append((index, index + 1, value))
    return found


@st.composite
def annotated(draw):
    """A labelled file whose texts two to four annotators mark (each annotator's spans may overlap)."""
    annotators = [f"A{number}" for number in range(draw(st.integers(2, 4)))]
    lines = []
    for number in range(draw(st.integers(1, 4))):
        text = draw(st.text(alphabet=ALPHABET, min_size=1, max_size=30))
        lines.append(
            {
                "id": f"t-{number}",
                "lang": "EN",
                "model_output_text": text,
                "hard_labels": [],
                "annotations": {name: [list(span) for span in draw(spans(len(text)))] for name in annotators},
            }
        )
    return lines, annotators


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(annotated())
def test_each_character_s_share_and_the_mushroom_scores_follow_the_definition(tmp_path_factory, drawn):
    lines, annotators = drawn
    folder = tmp_path_factory.mktemp("soft")
    con = database.open_new(None, models=["mushroom_scores"], threads=1)
    mushroom_files.load_gold(con, write(folder / "ref.jsonl", lines), "annotated")
    written = soft_gold_lines(con, soft_adjudicate(con, [f"annotator/{name}" for name in annotators]))
    assert [line["id"] for line in written] == sorted(line["id"] for line in lines)
    by_id = {line["id"]: line for line in lines}
    for line in written:
        given_line = by_id[line["id"]]
        text = given_line["model_output_text"]
        assert line["model_output_text"] == text
        expected = runs(shares({a: given_line["annotations"][a] for a in annotators}, len(text)))
        soft = [(label["start"], label["end"], label["prob"]) for label in line["soft_labels"]]
        assert soft == [pytest.approx(run) for run in expected]
        assert [tuple(span) for span in line["hard_labels"]] == oracle.hard_from_soft(expected)

    # the soft gold as a reference, the first annotator as a system: the mushroom scheme scores it as the oracle does
    con.close()
    con = database.open_new(None, models=["mushroom_scores"], threads=1)
    mushroom_files.load_gold(con, write(folder / "soft.jsonl", written), "soft", annotators=False)
    first = [{"id": line["id"], "hard_labels": line["annotations"][annotators[0]]} for line in lines]
    mushroom_files.load_prediction(con, write(folder / "first.jsonl", first), "soft", "first")
    scored = dict(
        (text_id, (iou, cor))
        for text_id, iou, cor in con.execute(
            "SELECT text_id, iou, cor FROM mushroom_text_scores JOIN annotation_sets ON set_id = submission_id"
            " WHERE name = 'first'"
        ).fetchall()
    )
    assert scored.keys() == by_id.keys()
    for line in written:
        marked = by_id[line["id"]]["annotations"][annotators[0]]
        soft = [(label["start"], label["end"], label["prob"]) for label in line["soft_labels"]]
        iou = oracle.iou(line["hard_labels"], marked)
        cor = oracle.cor(soft, [(s, e, 1.0) for s, e in marked], len(line["model_output_text"]))
        assert scored[line["id"]] == pytest.approx((iou, cor), abs=1e-9), line["id"]
    con.close()


def test_one_list_twice_is_hard_gold_and_an_unmarked_text_has_no_labels(tmp_path):
    line = {"id": "x", "lang": "AR", "model_output_text": "العاصمة 😀 cafe\u0301", "hard_labels": [],
            "annotations": {"a": [[0, 3], [2, 7], [10, 15]], "b": [[0, 3], [2, 7], [10, 15]]}}  # fmt: skip
    empty = {"id": "y", "lang": "AR", "model_output_text": "中文", "hard_labels": [], "annotations": {"a": [], "b": []}}
    con = database.open_new(None, models=["list_texts"], threads=1)  # the texts each annotator covers
    mushroom_files.load_gold(con, write(tmp_path / "ref.jsonl", [line, empty]), "two")
    written = soft_gold_lines(con, soft_adjudicate(con, ["annotator/a", "annotator/b"]))
    assert written[0]["soft_labels"] == [{"start": 0, "end": 7, "prob": 1.0}, {"start": 10, "end": 15, "prob": 1.0}]
    assert written[0]["hard_labels"] == [[0, 7], [10, 15]]
    assert written[1] == {"id": "y", "lang": "AR", "model_output_text": "中文", "soft_labels": [], "hard_labels": []}


@pytest.fixture(scope="module")
def weather_db(built_db, tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("soft-weather")
    path = folder / "accuracy.duckdb"
    shutil.copyfile(built_db, path)
    import_weather(path, folder)
    return path


def test_token_lists_mark_from_their_first_token_to_their_last(weather_db, tmp_path, capsys):
    args = ["adjudicate", "gold", "metric", "llm", "--soft", "--as", "soft", "--corpus", "weather"]
    assert run([*args, "--db", str(weather_db), "--out", str(tmp_path)]) == 0
    written = [json.loads(line) for line in (tmp_path / "soft.jsonl").read_text(encoding="utf-8").splitlines()]
    labels = sum(len(line["soft_labels"]) for line in written)
    assert f"soft.jsonl: {labels} soft labels, per character, the share of 3 lists" in capsys.readouterr().out
    for line, text in zip(written, sorted(TEXTS, key=lambda text: text["id"]), strict=True):
        words = [match.span() for match in re.finditer(r"\S+", text["text"])]  # the corpus's tokens: 1, 2, …
        marks = {
            name: [(words[s["token_start"] - 1][0], words[s["token_end"] - 1][1]) for s in spans if s["text_id"] == text["id"]]
            for name, spans in LISTS.items()
        }  # fmt: skip
        expected = runs(shares(marks, len(text["text"])))
        assert (line["id"], line["lang"], line["model_output_text"]) == (text["id"], "dev", text["text"])
        assert [(s["start"], s["end"], s["prob"]) for s in line["soft_labels"]] == [pytest.approx(r) for r in expected]
        assert [tuple(span) for span in line["hard_labels"]] == oracle.hard_from_soft(expected)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["gold", "metric", "--soft", "--min-votes", "2"], "give --min-votes K (majority gold) or --soft (soft gold)"),
        (["gold", "metric"], "give --min-votes K (majority gold) or --soft (soft gold)"),
        (["gold", "--soft"], "adjudicate needs two lists or more"),
        (["gold", "nothing", "--soft"], "no list named 'nothing'"),
    ],
)
def test_bad_soft_adjudication_is_a_one_line_error(weather_db, tmp_path, capsys, args, message):
    status = run(
        ["adjudicate", *args, "--as", "x", "--corpus", "weather", "--db", str(weather_db), "--out", str(tmp_path)]
    )
    err = capsys.readouterr().err
    assert status == 1 and message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not list(tmp_path.iterdir())
