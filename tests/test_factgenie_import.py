"""accuracy-db import factgenie: every rule, on campaign folders written here in factgenie's format (metadata.json
with config.annotation_span_categories; files/*.jsonl records of dataset, split, setup_id, example_idx, output,
annotations [{text, start, type, reason}] and metadata {annotator_id, annotator_group})."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from accuracy_db.etl import span_lists
from database_rows import rows
from hypothesis import given, settings
from hypothesis import strategies as st

from accuracy_db.cli.main import run
from accuracy_db.errors import InputError
from accuracy_db.interchange.imports import import_factgenie

CATEGORIES = [
    {"name": "Incorrect", "color": "rgb(214, 39, 40)", "description": "The fact contradicts the data."},
    {"name": "Not checkable", "color": "rgb(148, 103, 189)", "description": "It cannot be checked."},
]
OUTPUTS = ["Boston beat Miami 102-98 on Friday.", "Smith scored 31 points. Jones added 12."]


def span(output: str, text: str, kind: int = 0, reason: str = "") -> dict:
    return {"text": text, "start": output.index(text), "type": kind, "reason": reason}


def record(example_idx: int, annotator: str, annotations: list, output: str | None = None) -> dict:
    return {
        "dataset": "games",
        "split": "test",
        "setup_id": "llama",
        "example_idx": example_idx,
        "output": OUTPUTS[example_idx] if output is None else output,
        "annotations": annotations,
        "metadata": {"annotator_id": annotator, "annotator_group": 0},
    }


def campaign(folder: Path, records: list, name: str = "camp", categories=CATEGORIES) -> Path:
    (folder / name / "files").mkdir(parents=True)
    metadata = {"id": name, "mode": "llm_eval", "config": {"annotation_span_categories": categories}}
    (folder / name / "metadata.json").write_text(json.dumps(metadata))
    lines = [json.dumps(r) if isinstance(r, dict) else r for r in records]
    (folder / name / "files" / "a.jsonl").write_text("\n".join(lines) + "\n")
    return folder / name


GOLD = [
    record(0, "human", [span(OUTPUTS[0], "Miami"), span(OUTPUTS[0], "Friday", 1, "no date given")]),
    record(1, "human", [span(OUTPUTS[1], "31")]),
]
LLM = [
    record(0, "gpt", [span(OUTPUTS[0], "Miami"), {"text": "Frid", "start": 28, "type": 1, "reason": ""}]),
    record(1, "gpt", [span(OUTPUTS[1], "Jones"), {"text": "31", "start": 0, "type": 0, "reason": "moved"}]),
]


def test_a_new_corpus_with_a_gold_list_and_an_llm_s_list_is_scored(db, tmp_path):
    gold = campaign(tmp_path, GOLD, "humans")
    assert run(["import", "factgenie", "--db", str(db), str(gold), "--corpus", "games", "--as", "gold"]) == 0
    assert run(["import", "factgenie", "--db", str(db), str(campaign(tmp_path, LLM, "llm")), "--corpus", "games"]) == 0
    assert rows(db, "SELECT category, position, colour FROM categories WHERE corpus = 'games' ORDER BY position") == [
        ("Incorrect", 1, "rgb(214, 39, 40)"),
        ("Not checkable", 2, "rgb(148, 103, 189)"),
    ]
    assert rows(db, "SELECT text_id, split, token_count, sentence_count FROM texts WHERE corpus = 'games'") == [
        ("games/test/llama/0", "test", 6, 1),
        ("games/test/llama/1", "test", 7, 1),
    ]
    # gold: Miami (Incorrect), Friday. (Not checkable), 31 (Incorrect); llm: Miami, Friday. (from Frid),
    # Jones (Incorrect), 31 (relocated from offset 0). The scopes are ALL and the corpus's two categories.
    scores = rows(
        db,
        "SELECT scope, matched, gold_total, submitted_total, token_matched, gold_tokens, submitted_tokens"
        " FROM scores WHERE submission = 'llm/gpt' ORDER BY position",
    )
    assert scores == [("ALL", 3, 3, 4, 3, 3, 4), ("Incorrect", 2, 2, 3, 2, 2, 3), ("Not checkable", 1, 1, 1, 1, 1, 1)]
    adjustments = rows(
        db,
        "SELECT regexp_extract(file, '/(\\w+)/files/a.jsonl$', 1), line_number, adjustment, given_start, given_text,"
        " char_start, char_end, doc_token_start, doc_token_end FROM offset_adjustments ORDER BY set_id, line_number",
    )
    assert adjustments == [
        ("humans", 1, "widened", 28, "Friday", 28, 35, 6, 6),  # the full stop is part of the token
        ("llm", 1, "widened", 28, "Frid", 28, 35, 6, 6),
        ("llm", 2, "relocated", 0, "31", 13, 15, 3, 3),
    ]
    # The shared task's figures are untouched by the new corpus: 7 lists (the examples' 5 and the checker's, one per
    # split), 7 rows each.
    assert rows(db, "SELECT count(*) FROM scores WHERE corpus = 'shared-task'") == [(49,)]


def test_every_mistake_has_its_own_id_and_a_list_s_ids_follow_its_lines(db, tmp_path):
    # The CSV lists take their ids from the sequence as one block each, given by line number; a campaign's spans
    # take theirs one by one from the same sequence, after the blocks.
    import_factgenie(db, campaign(tmp_path, GOLD, "humans"), "games", "gold")
    assert rows(db, "SELECT count(*) = count(DISTINCT mistake_id) FROM mistakes") == [(True,)]
    campaign_after_lists = rows(
        db,
        "SELECT max(mistake_id) FILTER (WHERE corpus = 'shared-task') < min(mistake_id) FILTER (WHERE corpus = 'games')"
        " FROM mistakes JOIN annotation_sets USING (set_id)",
    )
    assert campaign_after_lists == [(True,)]
    out_of_line = rows(
        db,
        "SELECT count(*) FROM (SELECT set_id, mistake_id, lag(mistake_id) OVER (PARTITION BY set_id ORDER BY line_number)"
        " AS previous_id FROM mistakes) WHERE mistake_id <= previous_id",
    )
    assert out_of_line == [(0,)]


def test_reasons_become_comments(db, tmp_path):
    import_factgenie(db, campaign(tmp_path, GOLD, "humans"), "games", "gold")
    listed = rows(
        db,
        "SELECT tokens, category, comment FROM mistakes JOIN annotation_sets USING (set_id)"
        " WHERE corpus = 'games' ORDER BY mistake_id",
    )
    assert listed == [
        ("Miami", "Incorrect", ""),
        ("Friday.", "Not checkable", "no date given"),
        ("31", "Incorrect", ""),
    ]


def test_overlapping_spans_are_kept_and_the_shared_task_scheme_refuses_the_list_naming_them(db, tmp_path, capsys):
    import_factgenie(db, campaign(tmp_path, GOLD, "humans"), "games", "gold")
    overlapping = [record(0, "gpt", [span(OUTPUTS[0], "Boston beat"), span(OUTPUTS[0], "beat Miami", 1)])]
    assert (
        run(["import", "factgenie", "--db", str(db), str(campaign(tmp_path, overlapping, "llm")), "--corpus", "games"])
        == 0
    )
    message = (
        "1 pair(s) of spans overlap within the list, which the shared-task scheme does not score: games/test/llama/0"
        " a.jsonl:1 'Boston beat' (tokens 1-2) and a.jsonl:1 'beat Miami' (tokens 2-3)"
    )
    assert (
        "not scored by the shared-task scheme: 1 list(s) whose spans overlap (the table scheme_refusals says why);"
        f" first: llm/gpt (test): {message}\n"
    ) in capsys.readouterr().err
    assert rows(db, "SELECT scheme, message FROM scheme_refusals") == [("shared-task", message)]
    assert rows(db, "SELECT row_count FROM annotation_sets WHERE name = 'llm/gpt'") == [(2,)]  # kept
    assert rows(db, "SELECT count(*) FROM scores WHERE submission = 'llm/gpt'") == [(0,)]  # not scored


def test_a_text_already_in_the_corpus_must_match_and_is_not_added_again(db, tmp_path):
    import_factgenie(db, campaign(tmp_path, GOLD, "humans"), "games", "gold")
    changed = [record(0, "gpt", [], output="Boston beat Miami 102-97 on Friday.")]
    with pytest.raises(InputError) as refused:
        import_factgenie(db, campaign(tmp_path, changed, "llm"), "games")
    assert str(refused.value).endswith(
        "a.jsonl: line 1: the output of text games/test/llama/0 differs from the text in the database (from character 23)"
    )
    import_factgenie(db, campaign(tmp_path, LLM, "llm2"), "games")
    assert rows(db, "SELECT count(*) FROM texts WHERE corpus = 'games'") == [(2,)]


@pytest.mark.parametrize(
    ("records", "message"),
    [
        (["{not json"], "line 1: not valid JSON: Expecting property name enclosed in double quotes (column 2)"),
        (
            [record(0, "gpt", [{"text": "Sunday", "start": 200, "type": 0}])],
            "line 1: annotation 1: the span's text 'Sunday' is not at offset 200 (it runs past the end of the text"
            " (35 characters)) and does not occur in the text",
        ),
        (
            [record(0, "gpt", [{"text": "Miami", "start": -1, "type": 0}])],
            "line 1: annotation 1: the span's start is -1: the span was not located in the text",
        ),
        (
            [record(0, "gpt", [{"text": "a", "start": 0, "type": 0}])],
            "line 1: annotation 1: the span's text 'a' is not at offset 0 (the text at offset 0 is 'B') and occurs 3"
            " times",
        ),
        ([{"dataset": "games"}], "line 1: example_idx is missing or not a whole number"),
        (
            [record(0, "gpt", []), record(0, "gpt", [], output="Other text.")],
            "line 2: text games/test/llama/0 has another output or split in",
        ),
        ([record(0, "gpt", []), record(0, "gpt", [])], "line 2: annotator gpt annotated text games/test/llama/0 again"),
    ],
)
def test_bad_records_are_reported_with_file_and_line_and_nothing_is_loaded(db, tmp_path, capsys, records, message):
    folder = campaign(tmp_path, [*records, record(1, "gpt", [])])  # a good record after the bad ones
    before = db.read_bytes()
    assert run(["import", "factgenie", "--db", str(db), str(folder)]) == 1
    err = capsys.readouterr().err
    assert f"{folder / 'files' / 'a.jsonl'}: {message}" in err
    assert err.rstrip().endswith("nothing was loaded.")
    assert "Traceback" not in err
    assert db.read_bytes() == before


def test_a_folder_without_metadata_json_is_refused(db, tmp_path, capsys):
    (tmp_path / "empty" / "files").mkdir(parents=True)
    assert run(["import", "factgenie", "--db", str(db), str(tmp_path / "empty")]) == 1
    assert f"{tmp_path / 'empty'}: no metadata.json: not a factgenie campaign folder" in capsys.readouterr().err


def test_metadata_without_categories_and_a_campaign_without_files_are_refused(db, tmp_path, capsys):
    folder = tmp_path / "bare"
    folder.mkdir()
    (folder / "metadata.json").write_text('{"id": "bare", "config": {}}')
    assert run(["import", "factgenie", "--db", str(db), str(folder)]) == 1
    err = capsys.readouterr().err
    assert f"{folder / 'metadata.json'}: no config.annotation_span_categories: a list of categories" in err
    assert f"{folder}: no files/*.jsonl: the campaign has no annotated outputs" in err


def test_two_campaigns_claiming_the_same_texts_with_different_content_are_refused(db, tmp_path):
    import_factgenie(db, campaign(tmp_path, GOLD, "first"), "games", "gold")
    other = [record(1, "gpt", [], output="Smith scored 13 points. Jones added 12.")]
    with pytest.raises(InputError, match="the output of text games/test/llama/1 differs from the text in the database"):
        import_factgenie(db, campaign(tmp_path, other, "second"), "games")


def test_a_category_the_corpus_does_not_have_is_refused(db, tmp_path):
    import_factgenie(db, campaign(tmp_path, GOLD, "first"), "games", "gold")
    other = [*CATEGORIES, {"name": "Style", "color": "rgb(0, 0, 0)"}]
    with pytest.raises(InputError, match=r"span category 'Style' is not a category of corpus games \(Incorrect"):
        import_factgenie(db, campaign(tmp_path, LLM, "second", other), "games")


def test_a_gold_list_has_one_annotator_a_split_and_a_split_one_gold_list(db, tmp_path):
    with pytest.raises(InputError, match=r"2 annotators of split test \(gpt, human\): a gold list has one"):
        import_factgenie(db, campaign(tmp_path, [*GOLD, *LLM], "both"), "games", "gold")
    import_factgenie(db, campaign(tmp_path, GOLD, "first"), "games", "gold")
    with pytest.raises(InputError, match="corpus games already has a gold list of split test"):
        import_factgenie(db, campaign(tmp_path, LLM, "second"), "games", "gold")


def test_the_docs_worked_example_is_what_this_file_writes_and_runs_as_shown(db, tmp_path, monkeypatch, capsys):
    readme = (Path(__file__).resolve().parent.parent / "docs" / "corpora.md").read_text(encoding="utf-8")
    example = readme[readme.index("A worked example, which `tests/test_factgenie_import.py`") :]
    metadata, line = (json.loads(block) for block in re.findall(r"```json\n(.*?)```", example, re.DOTALL)[:2])
    humans = campaign(tmp_path, GOLD, "humans")
    campaign(tmp_path, LLM, "llm")
    assert metadata == json.loads((humans / "metadata.json").read_text())
    assert line == json.loads((humans / "files" / "a.jsonl").read_text().splitlines()[1])
    commands = re.search(r"```sh\n(.*?)```", example, re.DOTALL)[1].splitlines()
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    for command in commands:
        words = shlex.split(command, comments=True)
        assert words[0] == "accuracy-db"
        assert run([*words[1:], "--db", str(db)]) == 0, command
    assert "Not checkable" in capsys.readouterr().out
    assert json.loads((tmp_path / "games-campaign" / "metadata.json").read_text())["mode"] == "external"


def test_the_leaderboard_ranks_a_corpus_in_its_own_scopes(db, tmp_path, capsys):
    import_factgenie(db, campaign(tmp_path, GOLD, "humans"), "games", "gold")
    import_factgenie(db, campaign(tmp_path, LLM, "llm"), "games")
    capsys.readouterr()
    arguments = ["leaderboard", "--db", str(db), "--corpus", "games", "--scope", "Incorrect", "--format", "json"]
    assert run(arguments) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert (row["rank"], row["submission"], row["split"], row["matched"], row["submitted_total"]) == (
        1, "llm/gpt", "test", 2, 3,
    )  # fmt: skip
    assert run([*arguments[:5], "--scope", "NAME"]) == 1
    assert (
        "error: scope 'NAME' is not a scope of corpus games (ALL, Incorrect, Not checkable)" in capsys.readouterr().err
    )
    assert run([*arguments[:5], "--split", "train"]) == 1
    assert "error: split 'train' is not a split of corpus games (test)" in capsys.readouterr().err


def test_a_campaign_of_a_hundred_thousand_categories_is_refused_in_seconds(db, tmp_path):
    """Each category name was counted among all the others (minutes), and then more than a thousand categories
    were taken (each a scope of every list); in a process of its own, so that a slow reading fails by its
    timeout."""
    categories = [{"name": f"c{i % 50_000}", "color": "rgb(0, 0, 0)", "description": ""} for i in range(100_000)]
    folder = campaign(tmp_path, GOLD, "many", categories)
    command = [sys.executable, "-m", "accuracy_db", "import", "factgenie", "--db", str(db), str(folder)]
    result = subprocess.run([*command, "--corpus", "games", "--as", "gold"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert f"{folder / 'metadata.json'}: 100,000 categories: at most 1,000" in result.stderr, result.stderr[:300]


TEXTS = ["t1", "t2", "t3", "t4", "t5"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(TEXTS), st.integers(1, 8), st.integers(0, 4)), max_size=16))
def test_the_overlapping_pairs_are_counted_and_named_without_listing_them_all(spans):
    """The count equals the pairs that share a token, counted one by one; each pair named shares a token, its later
    span is one of the first that overlap an earlier one, and its earlier span reaches furthest. More texts than
    pairs named: those are read from the first texts with an overlap alone."""
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE mistakes (set_id INTEGER, mistake_id INTEGER, text_id VARCHAR, annotation_id VARCHAR,"
        " tokens VARCHAR, doc_token_start INTEGER, doc_token_end INTEGER, previous_end INTEGER)"
    )
    rows = [(text, start, start + length, number) for number, (text, start, length) in enumerate(spans, start=1)]
    for text in TEXTS:  # previous_end as the loader stores it: the furthest end of the earlier spans
        furthest = 0
        for _, start, end, number in sorted(row for row in rows if row[0] == text):
            con.execute(
                "INSERT INTO mistakes VALUES (7, ?, ?, ?, 'w', ?, ?, ?)",
                [number, text, f"a{number}", start, end, furthest],
            )
            furthest = max(furthest, end)
    pairs = [
        (a, b) for i, a in enumerate(rows) for b in rows[i + 1 :] if a[0] == b[0] and a[1] <= b[2] and b[1] <= a[2]
    ]
    refusal = span_lists.overlap_refusal(con, 7)
    if not pairs:
        assert refusal is None
        return
    assert refusal.startswith(f"{len(pairs)} pair(s) of spans overlap within the list")
    named = re.findall(r"(t\d) a(\d+) 'w' \(tokens (\d+)-(\d+)\) and a(\d+) 'w' \(tokens (\d+)-(\d+)\)", refusal)
    ordered = sorted(rows)
    overlapping_later = [row for row in ordered if any(o[0] == row[0] and o < row and o[2] >= row[1] for o in ordered)]
    assert [int(b) for *_, b, _, _ in named] == [row[3] for row in overlapping_later[: span_lists.MAX_LISTED_OVERLAPS]]
    for text, a, a_start, a_end, b, b_start, b_end in named:
        earlier = [row for row in ordered if row[0] == text and row < next(r for r in ordered if r[3] == int(b))]
        furthest = max(row[2] for row in earlier)
        assert int(a) == min(row[3] for row in earlier if row[2] == furthest) and int(a_end) == furthest
        assert int(a_start) <= int(b_end) and int(b_start) <= int(a_end)
