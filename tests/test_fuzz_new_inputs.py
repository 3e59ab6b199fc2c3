"""The inputs of issue 37 and 34 fuzzed as the mistake lists are (test_bad_input.py; issue 36, item 8): files of
scores and Mu-SHROOM files made of random bytes, random shapes of CSV and JSON Lines, huge numbers, deep JSON, text
that is not UTF-8 and offsets at the edges of the text. Each loads whole, or is refused whole: an InputError whose
problems name the file, nothing written to the database, no other exception."""

from __future__ import annotations

import itertools
import json
import math
import re
import subprocess
import sys

import pytest
from accuracy_db.etl import mushroom_files
from accuracy_db.etl.score_files import ScoreFile, load_score_file
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_bad_input import TEXTS

from accuracy_db.errors import InputError
from accuracy_db.store import database

SCORE_CELLS = st.sampled_from(
    ["", "text_id", "score", "bleurt", "S001", "S001.txt", "S002", "S003", "T001", "1", "-0", "0.5", "1e308", "1e309",
     "-1e400", "nan", "inf", "-inf", "NaN", "Infinity", "0x10", "1_000", " 2", "é", "\ufeff", "\x00", '"', ",", "\r",
     "9" * 400, "-" + "9" * 400 + ".5", "1" + "0" * 5000]
)  # fmt: skip
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**30), 10**30)
    | st.sampled_from([10**400, -(10**400)])
    | st.floats()
    | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
SCORE_KEYS = st.sampled_from(["text_id", "score", "bleurt", "S001", ""])
SHAPES = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def mushroom_gold(tmp_path_factory):
    """A database with the corpus mushroom of GOLD, that predictions are read against, shared by the examples; and
    a counter that gives each example's corpus or list a name of its own."""
    gold = tmp_path_factory.mktemp("mushroom") / "gold.jsonl"
    gold.write_text("\n".join(json.dumps(line) for line in GOLD), encoding="utf-8")
    con = database.open_new(None)
    mushroom_files.load_gold(con, gold, "mushroom")
    yield con, itertools.count()
    con.close()


def rows_of(con) -> tuple:
    return tuple(
        con.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        for table in ("corpora", "metrics", "text_scores", "annotation_sets", "mistakes", "texts")
    )


def score_files():
    csv_shapes = st.lists(st.lists(SCORE_CELLS, max_size=5), max_size=5).map(
        lambda rows: "\n".join(",".join(row) for row in rows).encode("utf-8", "surrogatepass")
    )
    jsonl_shapes = st.lists(
        st.one_of(st.dictionaries(SCORE_KEYS, JSON_VALUES | SCORE_CELLS, max_size=4), JSON_VALUES), max_size=4
    ).map(lambda lines: "\n".join(json.dumps(line) for line in lines).encode())
    deep = st.integers(1, 100_000).map(lambda depth: b"[" * depth + b"]" * depth)
    return st.tuples(
        st.sampled_from(["csv", "jsonl"]), st.one_of(st.binary(max_size=300), csv_shapes, jsonl_shapes, deep)
    )


@SHAPES
@given(score_files())
def test_a_file_of_scores_loads_whole_or_is_refused_whole(tmp_path_factory, train_texts, case):
    suffix, data = case
    path = tmp_path_factory.mktemp("scores") / f"random.{suffix}"
    path.write_bytes(data)
    con = train_texts
    before = rows_of(con)
    try:
        loaded = load_score_file(con, ScoreFile(path, higher_is_better=True))
    except InputError as refused:
        assert refused.problems and all(problem.file == str(path) for problem in refused.problems)
        assert rows_of(con) == before
    else:  # every text of the split, one finite number each, for each metric
        assert loaded.texts == len(TEXTS)
        scored = "FROM text_scores WHERE list_contains($metrics, metric)"
        assert con.execute(
            f"SELECT count(*), bool_and(isfinite(score)) {scored}", {"metrics": loaded.metrics}
        ).fetchone() == (
            len(TEXTS) * len(loaded.metrics),
            True,
        )
        con.execute(f"DELETE {scored}", {"metrics": loaded.metrics})  # the next example starts from the same rows
        con.execute("DELETE FROM metrics WHERE list_contains($metrics, metric)", {"metrics": loaded.metrics})


EDGE_NUMBERS = st.sampled_from(
    [0, -0.0, 5e-324, 1.7976931348623157e308, 1e308, 10**308, 10**309, -(10**400), 2**1024, 10**4000, float("nan"),
     float("inf"), float("-inf")]
) | st.floats()  # fmt: skip


@SHAPES
@given(st.sampled_from(["csv", "jsonl"]), st.lists(EDGE_NUMBERS, min_size=len(TEXTS), max_size=len(TEXTS)))
def test_numbers_at_the_edge_of_the_doubles_load_exactly_or_are_refused_on_their_line(
    tmp_path_factory, train_texts, suffix, numbers
):
    """Issue 48, finding 5: a JSON integer past a double's range ended in an OverflowError. Every number of a whole
    file of scores loads as the double it is, or the file is refused on the first line that holds one that is not
    finite as a double."""
    path = tmp_path_factory.mktemp("edges") / f"edge.{suffix}"
    if suffix == "csv":
        lines = ["text_id,score", *(f"{text_id},{number!r}" for text_id, number in zip(TEXTS, numbers))]
    else:
        lines = [json.dumps({"text_id": text_id, "score": number}) for text_id, number in zip(TEXTS, numbers)]
    path.write_text("\n".join(lines) + "\n")
    con = train_texts
    doubles = [float(n) if isinstance(n, float) or abs(n) < 2**1024 else float("inf") for n in numbers]
    bad = next(
        (line for line, number in enumerate(doubles, start=1 + (suffix == "csv")) if not math.isfinite(number)), None
    )
    try:
        loaded = load_score_file(con, ScoreFile(path, higher_is_better=True))
    except InputError as refused:
        assert [(problem.file, problem.line) for problem in refused.problems] == [(str(path), bad)]
    else:
        assert bad is None
        scores = con.execute("SELECT text_id, score FROM text_scores WHERE metric = 'edge' ORDER BY text_id").fetchall()
        assert scores == sorted(zip(TEXTS, doubles))
        con.execute("DELETE FROM text_scores WHERE metric = 'edge'")
        con.execute("DELETE FROM metrics WHERE metric = 'edge'")
        assert loaded.metrics == ["edge"]


GOLD = [
    {"id": "a", "lang": "EN", "model_input": "q", "model_output_text": "ab 中文😀", "hard_labels": [[0, 2]],
     "soft_labels": [{"start": 0, "end": 2, "prob": 0.8}]},
    {"id": "b", "lang": "EN", "model_input": "q", "model_output_text": "x y", "hard_labels": [], "soft_labels": []},
]  # fmt: skip
OFFSETS = st.sampled_from([-1, 0, 1, 2, 5, 6, 7, 2**31, 2**63, 10**30, 10**400, 1e300, 1.5, "1", None, True])
LABEL_KEYS = st.sampled_from(["id", "lang", "model_input", "model_output_text", "hard_labels", "soft_labels",
                              "annotations", "start", "end", "prob"])  # fmt: skip


def mushroom_lines():
    spans = st.lists(st.lists(OFFSETS, max_size=3), max_size=3)
    soft = st.lists(
        st.dictionaries(st.sampled_from(["start", "end", "prob"]), OFFSETS | st.floats(), max_size=3), max_size=3
    )
    line = st.fixed_dictionaries(
        {"id": st.sampled_from(["a", "b", "c", 1, None]), "model_output_text": st.sampled_from(["ab 中文😀", "x y", "", 5])},
        optional={"hard_labels": spans | JSON_VALUES, "soft_labels": soft | JSON_VALUES, "lang": st.sampled_from(["EN", 3]),
                  "annotations": st.dictionaries(st.text(max_size=4), spans, max_size=2) | JSON_VALUES},
    )  # fmt: skip
    shaped = st.lists(line | st.dictionaries(LABEL_KEYS, JSON_VALUES, max_size=5), min_size=1, max_size=4).map(
        lambda lines: "\n".join(json.dumps(entry) for entry in lines).encode()
    )
    deep = st.integers(1, 100_000).map(lambda depth: b"[" * depth + b"]" * depth)
    return st.one_of(st.binary(max_size=300), shaped, deep)


@SHAPES
@given(st.booleans(), mushroom_lines())
def test_a_mushroom_file_loads_whole_or_is_refused_whole(tmp_path_factory, mushroom_gold, as_gold, data):
    con, numbers = mushroom_gold
    path = tmp_path_factory.mktemp("mushroom") / "random.jsonl"
    path.write_bytes(data)
    before = rows_of(con)
    name = f"random{next(numbers)}"  # what the examples before this one loaded stays: a name of its own
    try:
        if as_gold:
            mushroom_files.load_gold(con, path, name)
        else:
            mushroom_files.load_prediction(con, path, "mushroom", name)
    except InputError as refused:
        assert refused.problems and all(problem.file == str(path) for problem in refused.problems)
        assert rows_of(con) == before
    else:
        assert rows_of(con) != before  # a list was written


# Sizes (issue 48, finding 6): a file of scores is read a line at a time and never past its first problem, so what a
# load takes is bounded whatever the file's size. Each file is loaded in a process of its own, which reports its peak
# resident memory (VmHWM of /proc/self/status: that of its own program, where ru_maxrss would count the test's, whose
# memory it shared until it ran Python anew); Python with DuckDB and polars imported takes about 120 MB.
PEAK_BOUND_KB = 300 * 1024
ROW = "S002,0.5\n"
FILLER = 30_000_000  # bytes of rows after the problem: tens of MB (before, 20 MB peaked at 864 MB)
SIZED = {
    "tens of MB, an unknown text on line 3": (
        "scores.csv",
        lambda: ["text_id,score\nS001,1\nX999,1\n", ROW * (FILLER // len(ROW))],
        ": line 3: text_id 'X999' is not a text of corpus shared-task",
    ),
    "tens of MB, a huge integer on line 1": (
        "scores.jsonl",
        lambda: [f'{{"text_id": "S001", "score": {"9" * 400}}}\n', '{"text_id": "S002", "score": 1}\n' * 900_000],
        ": line 1: score is too large to be a finite number",
    ),
    "tens of MB, a huge integer in CSV": (
        "scores.csv",
        lambda: [f"text_id,score\nS001,{'9' * 400}\n", ROW * (FILLER // len(ROW))],
        f": line 2: score is '{'9' * 39}…, too large to be a finite number",
    ),
    "a cell of 256 MiB": (
        "scores.csv",
        lambda: ["text_id,score\nS001,", *["1" * (1 << 20)] * 256, "\nS002,1\n"],
        ": line 2: a row of more than 1,048,576 bytes: too long",
    ),
    "a text id of 256 MiB": (
        "scores.jsonl",
        lambda: ['{"text_id": "', *["S" * (1 << 20)] * 256, '", "score": 1}\n'],
        ": line 1: a row of more than 1,048,576 bytes: too long",
    ),
}
LOAD_IN_CHILD = """
import sys
from pathlib import Path
from accuracy_db.errors import InputError
from accuracy_db.etl.score_files import ScoreFile, load_score_file
from accuracy_db.store import database
con = database.connect_writable(sys.argv[1])
try:
    load_score_file(con, ScoreFile(Path(sys.argv[2]), higher_is_better=True))
except InputError as refused:
    print(refused)
    sys.exit(1)
finally:
    status = Path("/proc/self/status").read_text()
    print(next(line for line in status.splitlines() if line.startswith("VmHWM:")), file=sys.stderr)
"""


@pytest.fixture(scope="module")
def texts_file(tmp_path_factory):
    """A database file with the train texts of test_bad_input.TEXTS, for the loads in processes of their own."""
    from accuracy_db.etl.texts import load_texts

    path = tmp_path_factory.mktemp("sized") / "texts.duckdb"
    con = database.open_new(path, models=[])
    load_texts(con, "train", TEXTS)
    con.close()
    return path


@pytest.mark.parametrize("case", SIZED)
def test_a_large_file_of_scores_is_refused_at_its_problem_in_bounded_memory(case, texts_file, tmp_path):
    name, parts, message = SIZED[case]
    path = tmp_path / name
    with path.open("w", encoding="utf-8") as file:
        for part in parts():
            file.write(part)
    child = subprocess.run(
        [sys.executable, "-c", LOAD_IN_CHILD, str(texts_file), str(path)], capture_output=True, timeout=600
    )
    assert child.returncode == 1, child.stderr[-2000:]
    # one line naming the file and the line, a cell quoted in a few dozen characters
    assert child.stdout.decode() == f"{path}{message}\n"
    (peak,) = re.fullmatch(rb"VmHWM:\s+(\d+) kB\n", child.stderr).groups()
    assert int(peak) < PEAK_BOUND_KB, f"peak {int(peak) / 1024:.0f} MB"


# A Mu-SHROOM file is read a line at a time too (etl/corpus_files.jsonl_objects): what a line gives that the scorer
# never reads (model_output_logits: thousands of numbers a line) is let go with its line. Before, a prediction file of
# 30 MB whose first line names no text of the gold peaked at 860 MB.
LOAD_MUSHROOM_IN_CHILD = """
import sys
from pathlib import Path
from accuracy_db.errors import InputError
from accuracy_db.etl import mushroom_files
from accuracy_db.store import database
con = database.open_new(None, models=[], threads=1)
mushroom_files.load_gold(con, Path(sys.argv[1]), "mu")
try:
    mushroom_files.load_prediction(con, Path(sys.argv[2]), "mu", "big")
except InputError as refused:
    print(refused)
    sys.exit(1)
finally:
    status = Path("/proc/self/status").read_text()
    print(next(line for line in status.splitlines() if line.startswith("VmHWM:")), file=sys.stderr)
"""


def test_a_large_mushroom_file_is_refused_in_bounded_memory(tmp_path):
    texts = [f"Paris is the capital of country number {n}." for n in range(2_000)]
    gold = tmp_path / "gold.jsonl"
    gold.write_text(
        "".join(
            json.dumps({"id": f"t-{n}", "lang": "EN", "model_output_text": text, "hard_labels": [[0, 5]]}) + "\n"
            for n, text in enumerate(texts)
        )
    )
    logits = [round(0.001 * k, 3) for k in range(2_500)]  # about 25 kB a line
    predicted = tmp_path / "big.jsonl"
    with predicted.open("w") as file:
        file.write(json.dumps({"id": "nowhere", "hard_labels": []}) + "\n")
        for n in range(2_000):
            file.write(json.dumps({"id": f"t-{n}", "hard_labels": [[0, 5]], "model_output_logits": logits}) + "\n")
    assert predicted.stat().st_size > 30_000_000
    child = subprocess.run(
        [sys.executable, "-c", LOAD_MUSHROOM_IN_CHILD, str(gold), str(predicted)], capture_output=True, timeout=600
    )
    assert child.returncode == 1, child.stderr[-2000:]
    assert child.stdout.decode() == f"{predicted}: line 1: id nowhere is not a text of the gold\n"
    (peak,) = re.fullmatch(rb"VmHWM:\s+(\d+) kB\n", child.stderr).groups()
    assert int(peak) < PEAK_BOUND_KB, f"peak {int(peak) / 1024:.0f} MB"
