"""accuracy-db import corpus: the generic corpus folder (texts.jsonl, categories.yaml, lists/*.jsonl with
character offsets or token ids), scored in the corpus's own scopes; bad input named with its file and line, and
nothing of a refused folder loaded."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
from accuracy_db.etl import corpus_files
from database_rows import rows

from accuracy_db.cli.main import run

TEXTS = [
    {"id": "w1", "text": "Rain in Oslo, 12 degrees.", "split": "dev", "data": {"city": "Oslo", "temp": 14}},
    {"id": "w2", "text": "Sunny in Rome.\nWind from the north.", "split": "dev"},
]
CATEGORIES = "- name: Wrong\n  description: Contradicts the data\n  colour: '#D55E00'\n- name: Unsupported\n"
GOLD = [
    {"text_id": "w1", "category": "Wrong", "start": 14, "end": 16},  # 12
    {"text_id": "w2", "category": "Unsupported", "token_start": 4, "token_end": 6, "comment": "no wind data"},
]
METRIC = [
    {"text_id": "w1", "category": "Wrong", "start": 14, "text": "12 deg"},  # widened to "12 degrees."
    {"text_id": "w2", "category": "Wrong", "start": 0, "end": 5},  # Sunny: a false alarm
    {"text_id": "w2", "category": "Unsupported", "start": 20, "text": "from"},  # within the gold span
]


def lines(records: list) -> str:
    return "\n".join(r if isinstance(r, str) else json.dumps(r) for r in records) + "\n"


def corpus_folder(root: Path, texts=TEXTS, gold=GOLD, metric=METRIC, categories=CATEGORIES) -> Path:
    folder = root / "weather"
    (folder / "lists").mkdir(parents=True)
    (folder / "texts.jsonl").write_text(lines(texts))
    (folder / "categories.yaml").write_text(categories)
    (folder / "lists" / "gold.jsonl").write_text(lines(gold))
    (folder / "lists" / "metric.jsonl").write_text(lines(metric))
    return folder


def test_a_corpus_folder_is_loaded_and_scored_in_its_own_scopes(db, tmp_path, capsys):
    assert run(["import", "corpus", "--db", str(db), str(corpus_folder(tmp_path))]) == 0
    assert "imported 2 list(s) (5 spans) into corpus weather: 2 new text(s); spans adjusted: 1 widened" in (
        capsys.readouterr().out
    )
    assert rows(
        db,
        "SELECT text_id, split, token_count, sentence_count, source_data FROM texts WHERE corpus = 'weather'"
        " ORDER BY 1",
    ) == [
        ("w1", "dev", 5, 1, '{"city": "Oslo", "temp": 14}'),
        ("w2", "dev", 7, 1, None),
    ]
    assert rows(db, "SELECT category, position, colour FROM categories WHERE corpus = 'weather' ORDER BY 2") == [
        ("Wrong", 1, "#D55E00"),
        ("Unsupported", 2, None),
    ]
    # gold: w1 token 4 (Wrong), w2 tokens 4-6 (Unsupported); metric: w1 tokens 4-5, w2 token 1, w2 token 5.
    assert rows(
        db,
        "SELECT scope, matched, gold_total, submitted_total, token_matched, gold_tokens, submitted_tokens"
        " FROM scores WHERE corpus = 'weather' ORDER BY position",
    ) == [("ALL", 2, 2, 3, 2, 4, 4), ("Wrong", 1, 1, 2, 1, 1, 3), ("Unsupported", 1, 1, 1, 1, 3, 1)]
    assert rows(db, "SELECT comment FROM mistakes WHERE text_id = 'w2' AND doc_token_start = 4") == [("no wind data",)]


@pytest.mark.parametrize(
    ("file", "content", "message"),
    [
        ("texts.jsonl", lines([TEXTS[0], "{oops"]), "texts.jsonl: line 2: not valid JSON"),
        ("texts.jsonl", lines([TEXTS[0], TEXTS[0]]), "texts.jsonl: line 2: id w1 is given again (first on line 1)"),
        (
            "categories.yaml",
            "- name: Wrong\n  description: : x\n",
            "categories.yaml: line 2: not valid YAML: mapping values are not allowed in this context",
        ),
        (
            "lists/metric.jsonl",
            lines([{"text_id": "w1", "category": "Wrong", "start": 20, "end": 40}]),
            "metric.jsonl: line 1: characters 20-40 are not within w1 (0-25)",
        ),
        (
            "lists/metric.jsonl",
            lines([{"text_id": "w1", "category": "Wrong", "start": 3, "text": "Paris"}]),
            "metric.jsonl: line 1: the span's text 'Paris' is not at offset 3 (the text at offset 3 is 'n in ')"
            " and does not occur in the text",
        ),
        (
            "lists/metric.jsonl",
            lines([METRIC[0], {"text_id": "w9", "category": "Wrong", "start": 0, "end": 1}]),
            'metric.jsonl: line 2: text_id "w9" is not a text of texts.jsonl',
        ),
        (
            "lists/gold.jsonl",
            lines([{"text_id": "w1", "category": "Right", "token_start": 1, "token_end": 1}]),
            'gold.jsonl: line 1: category "Right" is not one of Wrong, Unsupported',
        ),
        (
            "lists/gold.jsonl",
            lines([{"text_id": "w1", "category": "Wrong", "token_start": 2, "token_end": 9}]),
            "gold.jsonl: line 1: tokens 2-9 are not tokens of w1 (1-5)",
        ),
        # issue 48: a huge number or text is quoted in a few dozen characters, not whole
        (
            "lists/gold.jsonl",
            lines([{"text_id": "w1", "category": "Wrong", "token_start": 10**400, "token_end": 9}]),
            f"gold.jsonl: line 1: tokens {'1' + '0' * 39}…-9 are not tokens of w1 (1-5)",
        ),
        (
            "lists/metric.jsonl",
            lines([{"text_id": "w1", "category": "Wrong", "start": 0, "end": 10**400}]),
            f"metric.jsonl: line 1: characters 0-{'1' + '0' * 39}… are not within w1 (0-25)",
        ),
        (
            "lists/metric.jsonl",
            lines([{"text_id": "w" * 100_000, "category": "Wrong", "start": 0, "end": 1}]),
            f'metric.jsonl: line 1: text_id "{"w" * 59}… is not a text of texts.jsonl',
        ),
        *(
            (
                "lists/metric.jsonl",
                lines([METRIC[0], {**METRIC[1], key: value}]),
                f"metric.jsonl: line 2: probability {shown} is not a number from 0 to 1",
            )
            for key, value, shown in (
                ("probability", 1.5, "1.5"),
                ("prob", -0.25, "-0.25"),
                ("probability", "0.5", "'0.5'"),
                ("prob", True, "True"),
            )
        ),
        *(
            (
                "lists/soft.csv",
                f"text_id,category,start,end,probability\nw1,Wrong,14,16,0.5\nw2,Wrong,0,5,{cell}\n",
                f"soft.csv: line 3: probability {shown} is not a number from 0 to 1",
            )
            for cell, shown in (("high", "'high'"), ("nan", "nan"), ("1.0000001", "1.0000001"))
        ),
    ],
)
def test_bad_input_is_named_with_file_and_line_and_nothing_is_loaded(db, tmp_path, capsys, file, content, message):
    folder = corpus_folder(tmp_path)
    (folder / file).write_text(content)
    before = db.read_bytes()
    assert run(["import", "corpus", "--db", str(db), str(folder)]) == 1
    err = capsys.readouterr().err
    assert f"{folder}/{file.rsplit('/', 1)[0] + '/' if '/' in file else ''}{message}" in err
    assert "nothing was loaded" in err and "Traceback" not in err
    assert db.read_bytes() == before


def test_a_span_keeps_its_probability_from_jsonl_and_csv(db, tmp_path):
    """probability (or prob) is kept on the mistake's row, in JSONL and CSV alike; a span without one is hard
    (NULL)."""
    metric = [{**METRIC[0], "probability": 0.25}, {**METRIC[1], "prob": 1}, METRIC[2]]
    folder = corpus_folder(tmp_path, metric=metric)
    (folder / "lists" / "soft.csv").write_text("text_id,category,start,end,prob\nw1,Wrong,14,16,0.75\nw2,Wrong,0,5,\n")
    assert run(["import", "corpus", "--db", str(db), str(folder)]) == 0
    assert rows(
        db,
        "SELECT name, line_number, probability FROM mistakes JOIN annotation_sets USING (set_id)"
        " WHERE corpus = 'weather' ORDER BY name, line_number",
    ) == [
        ("gold", 1, None),
        ("gold", 2, None),
        ("metric", 1, 0.25),
        ("metric", 2, 1.0),
        ("metric", 3, None),
        ("soft", 2, 0.75),
        ("soft", 3, None),
    ]


def test_a_folder_without_texts_and_a_corpus_loaded_twice_are_refused(db, tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert run(["import", "corpus", "--db", str(db), str(tmp_path / "empty")]) == 1
    assert f"{tmp_path / 'empty'}: no texts.jsonl: not a corpus folder" in capsys.readouterr().err
    folder = corpus_folder(tmp_path)
    assert run(["import", "corpus", "--db", str(db), str(folder)]) == 0
    assert run(["import", "corpus", "--db", str(db), str(folder)]) == 1
    assert "error: corpus weather exists already: give another --corpus" in capsys.readouterr().err
    assert run(["import", "corpus", "--db", str(db), str(folder), "--corpus", "again"]) == 1
    assert f"texts.jsonl: line 1: text id w1 is a text of corpus weather ({folder}) already" in capsys.readouterr().err


@pytest.mark.parametrize(
    "file, content, first",
    [
        (
            "lists/wide.csv",
            "text_id,category,start,end," + ",".join(f"x{i}" for i in range(200_000)) + "\n" + "w1,Wrong,0,4\n" * 1000,
            "lists/wide.csv: line 1: unknown column 'x0'",
        ),
        (
            "categories.yaml",
            "".join(f"- name: c{i % 50_000}\n" for i in range(100_000)),
            "categories.yaml: 100,000 categories: at most 1,000",
        ),
    ],
)
def test_a_header_or_a_category_list_of_a_hundred_thousand_names_is_refused_in_seconds(
    db, tmp_path, file, content, first
):
    """Each name was counted among all the others (minutes: 200,000 header cells took 250 s); the command runs in a
    process of its own, so that a slow reading fails by its timeout."""
    folder = corpus_folder(tmp_path)
    (folder / file).write_text(content)
    command = [sys.executable, "-m", "accuracy_db", "import", "corpus", "--db", str(db), str(folder)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"{folder}/{first}"), result.stderr[:300]


def test_each_text_is_tokenized_once_for_all_the_spans_on_it(tmp_path):
    """A text's token index is made once, for every span on it (it was made again for each span: 100,000 spans on
    one text of 1,000 tokens took 28 s to place)."""
    folder = corpus_folder(tmp_path, metric=METRIC * 50)
    with mock.patch.object(corpus_files, "TokenIndex", wraps=corpus_files.TokenIndex) as made:
        read = corpus_files.read_corpus_folder(folder)
    assert sorted(call.args[0] for call in made.call_args_list) == sorted(text["text"] for text in TEXTS)
    assert sum(len(listed.records) for listed in read.lists) == len(GOLD) + 50 * len(METRIC)
