"""SemEval-2025 Task 3 (Mu-SHROOM): `import mushroom` and the mushroom scheme's iou and cor, per text and averaged,
against tests/mushroom_oracle.py (written from the task's definitions) on generated files of the task's shape: texts
with characters outside the Basic Multilingual Plane, right-to-left script and combining marks, soft and hard labels
of every kind the task's rules allow, and annotators. Bad input is refused in one line naming file and line."""

from __future__ import annotations

import json
from pathlib import Path

import mushroom_oracle as oracle
import pytest
from accuracy_db.etl import mushroom_files
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accuracy_db.cli.main import run
from accuracy_db.store import database

# Latin, Chinese, Arabic (right to left), an emoji outside the BMP, a combining acute accent, spaces.
ALPHABET = "ab 中文ال😀\U0001f469\u0301."
PROBABILITIES = st.one_of(st.sampled_from([0.0, 0.5, 1.0]), st.integers(0, 1000).map(lambda k: k / 1000))


@st.composite
def spans(draw, length: int, most: int = 4) -> list[tuple[int, int]]:
    pairs = draw(st.lists(st.tuples(st.integers(0, length - 1), st.integers(1, length)), max_size=most))
    return [(start, end) for start, end in pairs if start < end]


@st.composite
def files(draw):
    """A labelled file's lines and a prediction file's lines (a text may have no prediction line)."""
    gold, predicted = [], []
    for number in range(draw(st.integers(1, 5))):
        text = draw(st.text(alphabet=ALPHABET, min_size=1, max_size=30))
        soft = [(s, e, draw(PROBABILITIES)) for s, e in draw(spans(len(text)))]
        line = {
            "id": f"t-{number}",
            "lang": draw(st.sampled_from(["EN", "ZH"])),
            "model_input": "?",
            "model_output_text": text,
            "soft_labels": [{"start": s, "end": e, "prob": p} for s, e, p in soft],
            "hard_labels": [list(span) for span in draw(spans(len(text)))],
            "annotations": {name: [list(span) for span in draw(spans(len(text)))] for name in ("A", "B")},
        }
        gold.append(line)
        kind = draw(st.sampled_from(["soft", "hard", "both", "none"]))
        if kind == "none":
            continue
        prediction = {"id": line["id"]}
        if kind in ("soft", "both"):
            labels = [(s, e, draw(PROBABILITIES)) for s, e in draw(spans(len(text)))]
            prediction["soft_labels"] = [{"start": s, "end": e, "prob": p} for s, e, p in labels]
        if kind in ("hard", "both"):
            prediction["hard_labels"] = [list(span) for span in draw(spans(len(text)))]
        predicted.append(prediction)
    return gold, draw(st.permutations(predicted))


def write(path: Path, lines: list) -> Path:
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines))
    return path


def expected(gold: list[dict], predicted: list[dict]) -> dict[str, tuple[float, float]]:
    """Each text's (iou, cor) by the oracle, with the task's rules for a prediction's missing labels."""
    return oracle.scores(gold, predicted)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(files())
def test_each_text_and_the_means_equal_the_oracle(tmp_path_factory, drawn):
    gold, predicted = drawn
    folder = tmp_path_factory.mktemp("mushroom")
    reference, submitted = write(folder / "ref.jsonl", gold), write(folder / "pred.jsonl", predicted)
    con = database.open_new(None, models=["mushroom_scores"], threads=1)
    mushroom_files.load_gold(con, reference, "generated")
    mushroom_files.load_prediction(con, submitted, "generated", "system")
    figures = expected(gold, predicted)
    rows = con.execute(
        "SELECT text_id, iou, cor FROM mushroom_text_scores JOIN annotation_sets ON set_id = submission_id"
        " WHERE name = 'system'"
    ).fetchall()
    assert len(rows) == len(gold)
    for text_id, iou, cor in rows:
        assert (iou, cor) == pytest.approx(figures[text_id], abs=1e-9), text_id
    # each annotator is a list of its own, scored as hard labels of p = 1
    annotator_rows = con.execute(
        "SELECT text_id, iou FROM mushroom_text_scores JOIN annotation_sets ON set_id = submission_id"
        " WHERE name = 'annotator/A'"
    ).fetchall()
    by_id = {line["id"]: line for line in gold}
    for text_id, iou in annotator_rows:
        assert iou == pytest.approx(oracle.iou(by_id[text_id]["hard_labels"], by_id[text_id]["annotations"]["A"]))
    # the means of the mart (one row per language), the figures the drop-in `evaluate` prints from it
    texts, *means = con.execute(
        "SELECT sum(texts), sum(iou * texts) / sum(texts), sum(cor * texts) / sum(texts) FROM mushroom_scores"
        " WHERE submission = 'system'"
    ).fetchone()
    oracle_means = [sum(figure[i] for figure in figures.values()) / len(figures) for i in (0, 1)]
    assert texts == len(gold) and means == pytest.approx(oracle_means, abs=1e-9)


def test_hard_labels_from_soft_join_touching_spans_above_one_half():
    soft = [(5, 8, 0.9), (0, 2, 0.6), (2, 5, 0.51), (8, 9, 0.5), (10, 12, 1.0), (12, 13, 0.2)]
    assert mushroom_files.hard_from_soft(soft) == [(0, 8), (10, 12)] == oracle.hard_from_soft(soft)


GOLD = [
    {"id": "x-1", "lang": "EN", "model_output_text": "a😀 中文 b", "hard_labels": [[1, 2]], "soft_labels": []},
    {"id": "x-2", "lang": "EN", "model_output_text": "ال b", "hard_labels": [], "soft_labels": []},
]


@pytest.mark.parametrize(
    ("which", "lines", "message"),
    [
        ("ref", [GOLD[0], {**GOLD[1], "id": "x-1"}], "ref.jsonl: line 2: id x-1 is given again (first on line 1)"),
        (
            "ref",
            [{**GOLD[0], "hard_labels": [[3, 2]]}],
            "ref.jsonl: line 1: hard_labels: characters 3-2 are not a span of the text (0-7)",
        ),
        (
            "ref",
            [GOLD[0], {**GOLD[1], "soft_labels": [{"start": 0, "end": 5, "prob": 0.5}]}],
            "ref.jsonl: line 2: soft_labels: characters 0-5 are not a span of the text (0-4)",
        ),
        ("ref", [{**GOLD[0], "model_output_text": None}], "ref.jsonl: line 1: model_output_text is missing"),
        ("pred", [{"id": "x-9", "hard_labels": []}], "pred.jsonl: line 1: id x-9 is not a text of the gold"),
        (
            "pred",
            [{"id": "x-2", "soft_labels": [{"start": 0, "end": 1, "prob": 1.5}]}],
            "pred.jsonl: line 1: soft_labels: prob 1.5 is not a number from 0 to 1",
        ),
        (
            "pred",
            [{"id": "x-2", "soft_labels": [{"start": 0, "end": 1, "prob": "high"}]}],
            "pred.jsonl: line 1: soft_labels: prob 'high' is not a number from 0 to 1",
        ),
        ("pred", [{"id": "x-2"}], "pred.jsonl: line 1: neither hard_labels nor soft_labels is given"),
        ("pred", [{"id": "x-1", "hard_labels": []}, "[1]"], "pred.jsonl: line 2: not a JSON object"),
    ],
)
def test_bad_input_is_refused_in_one_line_with_file_and_line(tmp_path, capsys, which, lines, message):
    files = {"ref": GOLD, "pred": [{"id": "x-1", "hard_labels": [[0, 1]]}], which: lines}
    reference, submitted = write(tmp_path / "ref.jsonl", files["ref"]), write(tmp_path / "pred.jsonl", files["pred"])
    command = ["evaluate", "--scheme", "mushroom", "--gsml", str(reference), "--submitted", str(submitted)]
    assert run(command) == 1
    err = capsys.readouterr().err
    assert f"{tmp_path}/{message}" in err and "Traceback" not in err


def test_import_loads_the_gold_its_annotators_and_a_prediction(db, tmp_path, capsys):
    gold = [
        {**GOLD[0], "soft_labels": [{"start": 1, "end": 2, "prob": 2 / 3}], "annotations": {"p": [[1, 2]], "q": []}},
        GOLD[1],
    ]
    reference = write(tmp_path / "ref.jsonl", gold)
    assert run(["import", "mushroom", "--db", str(db), "--as", "gold", str(reference)]) == 0
    # the gold's and annotator p's span 1-2 lie inside the token "a😀", which takes them whole
    assert (
        "imported 3 list(s) (2 spans) into corpus mushroom: 2 new text(s); spans adjusted: 2 widened"
        in capsys.readouterr().out
    )
    submitted = write(tmp_path / "sys-1.jsonl", [{"id": "x-1", "soft_labels": [{"start": 0, "end": 2, "prob": 0.7}]}])
    assert run(["import", "mushroom", "--db", str(db), str(submitted)]) == 0
    assert "warning: " + f"{submitted}: 1 text(s) of the gold have no line: scored as empty predictions" in (
        capsys.readouterr().err
    )
    con = database.open_existing(db)
    try:
        assert con.execute(
            "SELECT name, label, char_start, char_end, probability FROM character_labels JOIN annotation_sets"
            " USING (set_id) ORDER BY name, label, char_start"
        ).fetchall() == [
            ("annotator/p", "hard", 1, 2, None),
            ("annotator/p", "soft", 1, 2, 1.0),
            ("gold", "hard", 1, 2, None),
            ("gold", "soft", 1, 2, 2 / 3),
            ("sys-1", "hard", 0, 2, None),
            ("sys-1", "soft", 0, 2, 0.7),
        ]
        # x-1: gold marks 1, sys-1 marks 0-1: iou 1/2; the soft vectors (0, p, 0, …) and (0.7, 0.7, 0, …) by the
        # oracle; x-2 has no label on either side: 1 and 1. The annotators labelled x-1 alone, and are scored on it
        # alone: p marks what the gold marks; q marks nothing where the gold marks a character (iou 0; its soft
        # vector is constant, the gold's not: cor 0).
        x1 = oracle.cor([(1, 2, 2 / 3)], [(0, 2, 0.7)], 7)
        assert con.execute(
            "SELECT submission, split, texts, iou, cor FROM mushroom_scores ORDER BY submission"
        ).fetchall() == [
            ("annotator/p", "EN", 1, 1.0, 1.0),
            ("annotator/q", "EN", 1, 0.0, 0.0),
            ("sys-1", "EN", 2, 0.75, pytest.approx((x1 + 1) / 2, abs=1e-12)),
        ]
        assert con.execute(
            "SELECT doc_token_start, doc_token_end, probability FROM mistakes JOIN annotation_sets USING (set_id)"
            " WHERE name = 'sys-1'"
        ).fetchall() == [(1, 1, None)]
    finally:
        con.close()
    before = db.read_bytes()
    assert run(["import", "mushroom", "--db", str(db), str(submitted)]) == 1
    assert "corpus mushroom has a submission sys-1 already: give another --name" in capsys.readouterr().err
    bad = write(tmp_path / "bad.jsonl", [{"id": "x-1", "hard_labels": [[0, 99]]}])
    assert run(["import", "mushroom", "--db", str(db), str(bad)]) == 1
    assert f"{bad}: line 1: hard_labels: characters 0-99 are not a span of the text (0-7)" in capsys.readouterr().err
    assert db.read_bytes() == before


def test_the_lists_of_a_file_inserted_together_keep_their_neighbours_and_refusals(tmp_path):
    """A gold file's lists are inserted in one statement a table: each list's neighbours (previous_end, next_start)
    and the shared-task scheme's refusal are its own, as if it had been inserted alone; its ids follow the file."""
    text = "one two three four five"
    line = {
        "id": "n-1",
        "lang": "EN",
        "model_output_text": text,
        "hard_labels": [[4, 7]],
        "soft_labels": [],
        # tokens 1 and 3; tokens 2-3 and 3-4, which overlap within q (and each list overlaps another's spans)
        "annotations": {"p": [[8, 13], [0, 3]], "q": [[4, 13], [8, 18]]},
    }
    con = database.open_new(None, models=["mushroom_scores"], threads=1)
    mushroom_files.load_gold(con, write(tmp_path / "ref.jsonl", [line]), "generated")
    rows = con.execute(
        "SELECT name, mistake_id, doc_token_start, doc_token_end, previous_end, next_start FROM mistakes"
        " JOIN annotation_sets USING (set_id) ORDER BY set_id, mistake_id"
    ).fetchall()
    assert [name for name, *_ in rows] == ["gold", "annotator/p", "annotator/p", "annotator/q", "annotator/q"]
    assert [mistake_id for _, mistake_id, *_ in rows] == list(range(rows[0][1], rows[0][1] + 5))
    given = {"gold": [(2, 2)], "annotator/p": [(3, 3), (1, 1)], "annotator/q": [(2, 3), (3, 4)]}
    for name, spans in given.items():  # the neighbours by their definition, from the list's own spans alone
        ordered = sorted(spans)
        expected = [
            (start, end, max([e for _, e in ordered[:i]], default=0), ordered[i + 1][0] if i + 1 < len(ordered) else 6)
            for i, (start, end) in enumerate(ordered)
        ]
        assert sorted(row[2:] for row in rows if row[0] == name) == expected, name
    assert [row[2:4] for row in rows if row[0] == "annotator/p"] == given["annotator/p"]  # in the file's order
    refused = con.execute(
        "SELECT name, scheme FROM scheme_refusals JOIN annotation_sets USING (set_id) ORDER BY name"
    ).fetchall()
    assert refused == [("annotator/q", "shared-task")]


def test_evaluate_prints_iou_and_cor_and_warns_of_texts_without_a_prediction(tmp_path, capsys):
    reference = write(tmp_path / "ref.jsonl", GOLD)
    submitted = write(tmp_path / "pred.jsonl", [{"id": "x-1", "soft_labels": [{"start": 0, "end": 3, "prob": 0.25}]}])
    command = ["evaluate", "--scheme", "mushroom", "--gsml", str(reference), "--submitted", str(submitted)]
    assert run(command) == 0
    out, err = capsys.readouterr()
    # x-1: gold hard 1-2, no gold soft (constant) against a soft vector that varies, no hard label; x-2: both empty
    iou = (oracle.iou([(1, 2)], []) + 1) / 2
    cor = (oracle.cor([], [(0, 3, 0.25)], 7) + 1) / 2
    assert "IoU" in out and "cor" in out and f"│ {iou:.3f} │ {cor:.3f} │" in out
    assert f"warning: {submitted}: 1 text(s) of the gold have no line: scored as empty predictions" in err


@pytest.mark.parametrize(
    "values",
    [(2.5e-08, 2e-08), (1.5e-08, 1e-08), (1.25e-07, 1.2e-07), (0.750000005, 0.75), (1 / 512, 0.0019531199999)],
)
def test_a_vector_is_constant_as_python_rounds_it_to_8_decimals(tmp_path, capsys, values):
    """The task's scorer rounds each value with Python's round(x, 8): the double's exact value, ties to even. 2.5e-08
    is 2.4999…e-08, which rounds to 2e-08, as 2e-08 does: a prediction of those two values is constant, and its cor
    0.0; a cast to DECIMAL(18, 8) rounded it to 3e-08, and the vector varied (cor 0.6547)."""
    first, second = values
    text = "abcdefghijklmno"
    reference = write(
        tmp_path / "ref.jsonl",
        [{"id": "r-1", "lang": "EN", "model_output_text": text, "hard_labels": [[0, 3]],
          "soft_labels": [{"start": 0, "end": 3, "prob": 0.75}]}],
    )  # fmt: skip
    soft = [{"start": 0, "end": 5, "prob": first}, {"start": 5, "end": len(text), "prob": second}]
    submitted = write(tmp_path / "pred.jsonl", [{"id": "r-1", "soft_labels": soft, "hard_labels": []}])
    command = ["evaluate", "--scheme", "mushroom", "--gsml", str(reference), "--submitted", str(submitted)]
    assert run([*command, "--format", "json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    expected = oracle.cor([(0, 3, 0.75)], [(s["start"], s["end"], s["prob"]) for s in soft], len(text))
    assert row["cor"] == pytest.approx(expected, abs=1e-12)
