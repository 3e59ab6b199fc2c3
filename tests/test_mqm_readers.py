"""The other ratings `import mqm` reads (etl/wmt_task2.py, etl/predicted_spans.py): a WMT25 task-2 TSV as a gold
file and as a prediction, scored by the esa scheme as tests/esa_oracle.py scores them; what the task's scorer reads
past; and every refused file in one line naming the file and the line, nothing loaded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from database_rows import rows
from esa_oracle import char_f1
from shared_data import DATA, EXAMPLES

from accuracy_db.cli.main import run

HEADER = (
    "doc_id\tsegment_id\tset_id\tsystem_id\tsource_segment\thypothesis_segment\tstart_indices\tend_indices\terror_types"
)
MQM_HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity"
HYPOTHESES = {("A", "d", "1"): "The cat sat on the mat", ("B", "d", "1"): 'A "dog" sat', ("A", "d", "2"): "Fine."}


def task2_line(key: tuple[str, str, str], starts: str, ends: str, types: str, set_id: str = "official") -> str:
    system, doc, seg_id = key
    return "\t".join([doc, seg_id, set_id, system, "源", HYPOTHESES[key], starts, ends, types])


GOLD_ROWS = [
    task2_line(("A", "d", "1"), "4 8", "7 11", "major minor"),
    task2_line(("B", "d", "1"), "2", "7", "critical"),
    task2_line(("A", "d", "2"), "-1", "-1", "no-error"),
]


def write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def imported(db: Path, path: Path, *more: str, corpus: str = "esa25") -> int:
    """accuracy-db import mqm of one file into a corpus: its exit code."""
    return run(["import", "mqm", "--db", str(db), "--corpus", corpus, *more, str(path)])


@pytest.fixture
def task2_db(db, tmp_path) -> Path:
    """A corpus made from a task-2 gold file."""
    gold = write(tmp_path / "task2_refs.tsv", [HEADER, *GOLD_ROWS])
    assert imported(db, gold) == 0
    return db


def test_a_task2_gold_and_prediction_score_as_the_oracle_computes(task2_db, tmp_path):
    # the B row quotes its hypothesis, as csv.writer writes a cell holding a quote; the A row's second span runs
    # past its target (the scorer's slice cuts it), its third is undecided, and an omission has no span
    lines = [
        HEADER,
        task2_line(("A", "d", "1"), "4 8 0 missing", "11 40 3 missing", "minor major undecided minor"),
        task2_line(("B", "d", "1"), "2 9", "5 11", "major minor").replace('A "dog" sat', '"A ""dog"" sat"'),
        task2_line(("A", "d", "2"), "0", "4", "major"),
    ]
    write(tmp_path / "predictions.tsv", lines)
    assert imported(task2_db, tmp_path / "predictions.tsv", "--as", "submission") == 0
    gold = {("A", "d", "1"): [(4, 7, "major"), (8, 11, "minor")], ("B", "d", "1"): [(2, 7, "critical")]}
    predicted = {
        ("A", "d", "1"): [(4, 11, "minor"), (8, 40, "major"), (0, 3, "undecided")],
        ("B", "d", "1"): [(2, 5, "major"), (9, 11, "minor")],
        ("A", "d", "2"): [(0, 4, "major")],
    }
    expected = char_f1([(gold.get(key, []), predicted[key], len(text)) for key, text in HYPOTHESES.items()])
    found = rows(
        task2_db, "SELECT precision, recall, f1 FROM esa_scores WHERE corpus = 'esa25' AND submission = 'predictions'"
    )
    assert found == [pytest.approx(expected, abs=1e-9)]
    assert rows(task2_db, "SELECT generated_text FROM texts WHERE text_id = 'esa25/B/d/1'") == [('A "dog" sat',)]
    assert rows(
        task2_db,
        "SELECT count(*) FROM mqm_errors JOIN annotation_sets USING (set_id) WHERE name = 'predictions' AND side = 'none'",
    ) == [(1,)]


def test_what_the_scorer_reads_past_is_read_past_and_told(task2_db, tmp_path, capsys):
    """Rows of another set_id are left out; a row with an empty piece among its lists has no error; lists of
    different lengths are read pairwise to the shortest (get_error_list's zip)."""
    lines = [
        HEADER,
        task2_line(("A", "d", "1"), "4 8", "7", "major minor"),
        task2_line(("B", "d", "1"), "", "", ""),
        task2_line(("A", "d", "2"), "0", "4", "major", set_id="testsuite"),
    ]
    write(tmp_path / "lenient.tsv", lines)
    assert imported(task2_db, tmp_path / "lenient.tsv", "--as", "submission") == 0
    err = capsys.readouterr().err
    assert f"{tmp_path / 'lenient.tsv'}: line 4: 1 row(s) of a set_id other than official left out" in err
    assert (
        f"{tmp_path / 'lenient.tsv'}: line 3: 1 row(s) with an empty start, end or error type read as no error" in err
    )
    found = rows(
        task2_db,
        "SELECT text_id, char_start, char_end FROM mqm_errors JOIN annotation_sets USING (set_id) WHERE name = 'lenient'",
    )
    assert found == [("esa25/A/d/1", 4, 7)]


def test_json_lines_of_predicted_spans_score_as_the_oracle_computes(task2_db, tmp_path):
    lines = [
        {
            "system": "A",
            "doc": "d",
            "seg_id": 1,
            "errors": [{"start": 4, "end": 11, "severity": "Major", "category": "Accuracy"}],
        },
        {
            "system": "B",
            "doc": "d",
            "seg_id": "1",
            "errors": [{"start": 2, "end": 7, "severity": "minor"}, {"start": 0, "end": 1, "severity": "Neutral"}],
        },
    ]
    path = tmp_path / "xcomet.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    assert imported(task2_db, path, "--as", "submission") == 0
    gold = {("A", "d", "1"): [(4, 7, "major"), (8, 11, "minor")], ("B", "d", "1"): [(2, 7, "critical")]}
    predicted = {("A", "d", "1"): [(4, 11, "Major")], ("B", "d", "1"): [(2, 7, "minor"), (0, 1, "Neutral")]}
    expected = char_f1([(gold.get(key, []), predicted.get(key, []), len(text)) for key, text in HYPOTHESES.items()])
    found = rows(
        task2_db, "SELECT precision, recall, f1 FROM esa_scores WHERE corpus = 'esa25' AND submission = 'xcomet'"
    )
    assert found == [pytest.approx(expected, abs=1e-9)]


def refused(db: Path, path: Path, capsys, corpus: str = "esa25", *more: str) -> list[str]:
    before = rows(db, "SELECT count(*) FROM annotation_sets")
    assert imported(db, path, *more, corpus=corpus) == 1
    assert rows(db, "SELECT count(*) FROM annotation_sets") == before
    return capsys.readouterr().err.splitlines()


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (
            [HEADER.replace("\terror_types", ""), GOLD_ROWS[0][: GOLD_ROWS[0].rindex("\t")]],
            "line 1: the header has no column",
        ),
        (
            [HEADER, GOLD_ROWS[0].replace("major minor", "major huge")],
            "line 2: the error type 'huge' is not major, minor",
        ),
        ([HEADER, GOLD_ROWS[0].replace("4 8", "4 x")], "line 2: the span 'x'–'11' is not two whole numbers from 0"),
        ([HEADER, GOLD_ROWS[0].replace("4 8", "-4 8")], "line 2: the span '-4'–'7' is not two whole numbers from 0"),
        ([HEADER, GOLD_ROWS[0].replace("4 8", "9 8")], "line 2: the span 9–7 starts after its end"),
        ([HEADER, GOLD_ROWS[0], GOLD_ROWS[0]], "line 3: the item (system_id, doc_id, segment_id) of line 2 again"),
        ([HEADER, GOLD_ROWS[0] + "\textra"], "line 2: 10 field(s) where the header has 9"),
        ([HEADER, GOLD_ROWS[0].replace("d\t1\tofficial\tA", "d\t1\tofficial\t")], "line 2: system_id is empty"),
        ([HEADER, GOLD_ROWS[0].replace("\tA\t", "\tA\u200b\t")], "line 2: the system name"),
    ],
)
def test_bad_task2_files_are_refused_with_file_and_line(db, tmp_path, capsys, lines, message):
    path = write(tmp_path / "bad.tsv", lines)
    found = refused(db, path, capsys, "other")
    assert found[0].startswith(f"{path}: {message}"), found
    assert rows(db, "SELECT count(*) FROM corpora WHERE corpus = 'other'") == [(0,)]


def test_a_task2_prediction_must_rate_texts_of_its_corpus(task2_db, tmp_path, capsys):
    lines = [
        HEADER,
        *[GOLD_ROWS[0].replace("\tA\t", "\tZ\t").replace("d\t", f"d{n}\t", 1) for n in range(3)],
        GOLD_ROWS[1].replace("sat", "sit"),
    ]
    path = write(tmp_path / "elsewhere.tsv", lines)
    assert refused(task2_db, path, capsys, "esa25", "--as", "submission")[:2] == [
        f"{path}: line 2: no text of corpus esa25 has system, doc and seg_id esa25/Z/d0/1 (and 2 more line(s) like it)",
        f"{path}: line 5: the target differs from the text esa25/B/d/1 of corpus esa25",
    ]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ({"doc": "d", "seg_id": "1", "errors": []}, "line 1: system is missing or not a non-empty string"),
        ({"system": "A", "doc": "d", "seg_id": "1", "errors": {}}, "line 1: errors is missing or not a list"),
        (
            {"system": "A", "doc": "d", "seg_id": "1", "errors": [{"start": 4, "end": 23, "severity": "major"}]},
            "line 1: the span 4–23 is not within the target's 22 characters",
        ),
        (
            {"system": "A", "doc": "d", "seg_id": "1", "errors": [{"start": 4, "end": 4, "severity": "major"}]},
            "line 1: the span 4–4 is not within",
        ),
        (
            {"system": "A", "doc": "d", "seg_id": "1", "errors": [{"start": "4", "end": 7, "severity": "major"}]},
            "line 1: an error's start or end is missing or not a whole number",
        ),
        (
            {"system": "A", "doc": "d", "seg_id": "1", "errors": [{"start": 4, "end": 7, "severity": "bad"}]},
            "line 1: the severity 'bad' is not Major, Minor, Critical or Neutral",
        ),
        (
            {"system": "Z", "doc": "d", "seg_id": "1", "errors": []},
            "line 1: no text of corpus esa25 has system, doc and seg_id esa25/Z/d/1",
        ),
    ],
)
def test_bad_predicted_spans_are_refused_with_file_and_line(task2_db, tmp_path, capsys, line, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    found = refused(task2_db, path, capsys, "esa25", "--as", "submission")
    assert found[0].startswith(f"{path}: {message}"), found


def test_many_bad_lines_are_one_line_with_their_count_and_json_lines_are_no_gold(db, tmp_path, capsys):
    path = tmp_path / "bad.jsonl"
    path.write_text("[1]\n" * 40, encoding="utf-8")
    assert imported(db, write(tmp_path / "g.tsv", [HEADER, *GOLD_ROWS])) == 0
    found = refused(db, path, capsys, "esa25", "--as", "submission")
    assert found[0] == f"{path}: line 1: not a JSON object (and 39 more line(s) like it)"
    found = refused(db, path, capsys, "fresh")
    assert (
        found[0]
        == f"{path}: a JSON Lines file of predicted spans has no texts: import it --as submission of an MQM corpus"
    )


def test_a_build_loads_an_imported_task2_prediction_again(task2_db, tmp_path):
    path = write(tmp_path / "again.tsv", [HEADER, task2_line(("A", "d", "1"), "0", "3", "minor")])
    assert imported(task2_db, path, "--as", "submission") == 0
    query = "SELECT submission, precision, recall FROM esa_scores WHERE corpus = 'esa25' ORDER BY ALL"
    before = rows(task2_db, query)
    assert run(["build", "--db", str(task2_db), "--data", str(DATA), "--submissions", str(EXAMPLES)]) == 0
    assert rows(task2_db, query) == before
    assert ("again", 0.0, 0.0) in before
