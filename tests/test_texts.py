"""Texts are split on whitespace; a sentence ends at a token that is exactly '.'; ids count from 1."""

from __future__ import annotations

import os
from unittest import mock

import duckdb
import pytest
import yaml
from accuracy_db.etl import texts as texts_module
from accuracy_db.etl import token_numbering
from accuracy_db.etl.texts import (
    load_texts,
    lookup_halves,
    lookup_of_the_usual_shape,
    read_block_mapping,
    read_texts,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from shared_data import DATA

from accuracy_db.errors import AccuracyDbError, InputError
from accuracy_db.store import database


@pytest.fixture
def con():
    con = database.open_new(None, models=[])  # the tables alone: the loaders read no view
    yield con
    con.close()


@pytest.mark.parametrize("read_ahead", [1, 2, 256])
def test_a_folder_of_texts_is_read_whole_and_every_bad_file_named_in_order(tmp_path, read_ahead):
    """Every file is read, and every bad one named, whichever files are asked of the kernel ahead: a FIFO or a link
    to nothing ahead is neither opened (nothing blocks) nor an error before its turn."""
    count = 5
    for number in range(count):
        (tmp_path / f"S{number:04}.txt").write_text(f"text {number} .", encoding="utf-8")
    (tmp_path / "notes.md").write_text("not a text", encoding="utf-8")
    digests: dict = {}
    with mock.patch.object(texts_module, "READ_AHEAD", read_ahead):
        texts = read_texts(tmp_path, digests)
    assert texts == {f"S{number:04}": f"text {number} ." for number in range(count)}
    assert sorted(digests) == sorted(str(tmp_path / f"{text_id}.txt") for text_id in texts)
    (tmp_path / "S0001.txt").write_bytes(b"caf\xe9 .")
    (tmp_path / "S0000.txt").unlink()
    (tmp_path / "S0000.txt").mkdir()
    (tmp_path / "S0003.txt").unlink()
    os.mkfifo(tmp_path / "S0003.txt")
    (tmp_path / "S0004.txt").unlink()
    (tmp_path / "S0004.txt").symlink_to(tmp_path / "gone.txt")
    with mock.patch.object(texts_module, "READ_AHEAD", read_ahead), pytest.raises(InputError) as refused:
        read_texts(tmp_path)
    assert [str(problem) for problem in refused.value.problems] == [
        f"{tmp_path / 'S0000.txt'}: not a regular file: it is a directory",
        f"{tmp_path / 'S0001.txt'}: line 1: is not UTF-8 text",
        f"{tmp_path / 'S0003.txt'}: not a regular file: it is a FIFO (named pipe)",
        f"{tmp_path / 'S0004.txt'}: cannot read the file: it is a symbolic link to a file that does not exist",
    ]


def test_tokens_and_sentences(con):
    load_texts(con, "train", {"S001": "The Celtics won .  Thomas\tscored 38 .\n", "S002": "", "S003": "no full stop"})
    assert con.execute(
        "SELECT text_id, doc_token, sentence_id, sent_token, token FROM tokens WHERE text_id = 'S001' ORDER BY doc_token"
    ).fetchall() == [
        ("S001", 1, 1, 1, "The"),
        ("S001", 2, 1, 2, "Celtics"),
        ("S001", 3, 1, 3, "won"),
        ("S001", 4, 1, 4, "."),
        ("S001", 5, 2, 1, "Thomas"),
        ("S001", 6, 2, 2, "scored"),
        ("S001", 7, 2, 3, "38"),
        ("S001", 8, 2, 4, "."),
    ]
    assert con.execute(
        "SELECT text_id, token_count, sentence_count, generated_text FROM texts ORDER BY 1"
    ).fetchall() == [
        ("S001", 8, 2, "The Celtics won . Thomas scored 38 ."),
        ("S002", 0, 0, ""),
        ("S003", 3, 1, "no full stop"),
    ]


def test_character_offsets_give_each_token_of_every_shared_task_text(con):
    """char_start and char_end point into generated_text: slicing it gives the token, for all 90 real texts, and
    every text belongs to the built-in corpus."""
    load_texts(con, "train", read_texts(DATA / "texts"))
    load_texts(con, "test", read_texts(DATA / "test_set/texts"))
    rows = con.execute(
        "SELECT texts.generated_text, tokens.token, tokens.char_start, tokens.char_end, texts.corpus"
        " FROM tokens JOIN texts USING (text_id)"
    ).fetchall()
    assert len(rows) == con.execute("SELECT sum(token_count) FROM texts").fetchall()[0][0] > 0
    assert all(text[start:end] == token for text, token, start, end, _ in rows)
    assert {corpus for *_, corpus in rows} == {"shared-task"}


# Words of several scripts and widths (é in one code point and in two, an emoji beyond the BMP, CJK), runs of full
# stops, and whitespace Python splits on besides the ASCII one (no-break and em spaces, U+001C, NEL).
TEXT_PIECES = st.sampled_from(
    ["a", "b", "é", "e\u0301", "😀", "日本", ".", "..", "-", " ", "\t", "\n", "\xa0", "\u2003", "\x1c", "\x85"]
)


@settings(max_examples=60, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["S001", "S002", "T1", "x"]),
        st.lists(TEXT_PIECES, max_size=24).map("".join) | st.text(max_size=20),
        max_size=4,
    ),
    st.booleans(),
    st.integers(1, 40),
)
def test_tokens_are_numbered_as_the_rule_says(texts, in_sql, batch_characters):
    """doc_token, sentence_id, sent_token and the character offsets (in code points) of every token, and each
    text's counts, against the rule in Python, numbered in polars (in batches of texts of any size) and in SQL."""
    con = database.open_new(None, models=[])  # the tables alone
    with mock.patch.object(token_numbering, "BATCH_CHARACTERS", batch_characters):
        load_texts(con, "train", texts, in_sql=in_sql)
    expected, counts = [], []
    for text_id, text in texts.items():
        sentence, sent_token, char_start = 1, 0, 0
        for doc_token, token in enumerate(text.split(), start=1):
            sent_token += 1
            expected.append((text_id, doc_token, sentence, sent_token, token, char_start, char_start + len(token)))
            char_start += len(token) + 1
            if token == ".":
                sentence, sent_token = sentence + 1, 0
        tokens = [row for row in expected if row[0] == text_id]
        counts.append((text_id, " ".join(text.split()), len(tokens), max((row[2] for row in tokens), default=0)))
    found = con.execute("SELECT * FROM tokens ORDER BY text_id, doc_token").fetchall()
    assert found == sorted(expected)
    texts_found = "SELECT text_id, generated_text, token_count, sentence_count FROM texts ORDER BY text_id"
    assert con.execute(texts_found).fetchall() == sorted(counts)


@pytest.mark.parametrize("in_sql", [False, True])
def test_texts_that_fail_to_load_leave_nothing(con, in_sql):
    """A text already loaded, in the last batch: none of the texts before it, nor their tokens, are left."""
    load_texts(con, "train", {"S002": "kept ."})
    with mock.patch.object(token_numbering, "BATCH_CHARACTERS", 1), pytest.raises(duckdb.ConstraintException):
        load_texts(con, "train", {"S001": "new .", "S002": "again ."}, in_sql=in_sql)
    assert con.execute("SELECT text_id, generated_text, token_count FROM texts").fetchall() == [("S002", "kept .", 2)]
    assert con.execute("SELECT DISTINCT text_id FROM tokens").fetchall() == [("S002",)]


def test_a_token_that_merely_contains_a_full_stop_does_not_end_a_sentence(con):
    load_texts(con, "train", {"S001": "Mr. Smith scored 3.5 ... points ."})
    assert con.execute("SELECT max(sentence_id) FROM tokens").fetchall() == [(1,)]


@pytest.mark.parametrize("path", [DATA / "token_lookup.yaml", DATA / "test_set/token_lookup.yaml"])
def test_the_token_lookup_reader_reads_what_a_yaml_parser_reads(path):
    text = path.read_text()
    assert read_block_mapping(text) == yaml.load(text, Loader=yaml.CSafeLoader)


@pytest.mark.parametrize("path", [DATA / "token_lookup.yaml", DATA / "test_set/token_lookup.yaml"])
def test_the_rows_of_a_shared_task_token_lookup_are_those_of_its_yaml(path):
    text = path.read_text()
    rows = lookup_of_the_usual_shape(text)
    assert rows is not None and rows == lookup_halves(yaml.load(text, Loader=yaml.CSafeLoader))


LOOKUP_KEY = st.sampled_from(["S001", "S001", "T2", "x_1", "yes", "Null", "1"])
LOOKUP_ID = st.sampled_from(["1", "2", "2", "10", "0", "01"])


@st.composite
def token_lookups(draw):
    """Texts in the shape of the shared task's token lookups, with keys given twice, ids YAML reads otherwise (0,
    01) and keys it reads as booleans, nulls or numbers; now and then a line with one space more or less."""
    lines = ["doc_to_sent:"]
    for text_id in draw(st.lists(LOOKUP_KEY, min_size=1, max_size=3)):
        lines.append(f"  {text_id}:")
        for doc_token, sentence_id, token_id in draw(st.lists(st.tuples(LOOKUP_ID, LOOKUP_ID, LOOKUP_ID), min_size=1)):
            lines += [f"    {doc_token}:", f"      sentence_id: {sentence_id}", f"      token_id: {token_id}"]
    lines.append("sent_to_doc:")
    for text_id in draw(st.lists(LOOKUP_KEY, min_size=1, max_size=3)):
        lines.append(f"  {text_id}:")
        for sentence_id in draw(st.lists(LOOKUP_ID, min_size=1, max_size=3)):
            lines.append(f"    {sentence_id}:")
            lines += [
                f"      {key}: {value}" for key, value in draw(st.lists(st.tuples(LOOKUP_ID, LOOKUP_ID), min_size=1))
            ]
    if draw(st.booleans()):
        at = draw(st.integers(0, len(lines) - 1))
        lines[at] = draw(st.sampled_from([" ", ""])) + lines[at][draw(st.integers(0, 1)) :]
    return "\n".join(lines) + "\n"


@settings(max_examples=300, deadline=None)
@given(token_lookups())
def test_the_rows_read_from_the_usual_shape_are_those_of_the_yaml_or_it_is_left_to_yaml(text):
    rows = lookup_of_the_usual_shape(text)
    try:
        lookup = yaml.load(text, Loader=yaml.CSafeLoader)
        expected = lookup_halves(lookup) if isinstance(lookup, dict) else "not a lookup"
    except (yaml.YAMLError, AccuracyDbError):
        expected = "not a lookup"
    assert rows is None or rows == expected


PLAIN_IDS = st.dictionaries(st.integers(1, 30), st.integers(1, 10**9 - 1), min_size=1, max_size=4)


@settings(max_examples=100, deadline=None)
@given(
    st.dictionaries(st.sampled_from(["S001", "T2", "x_1"]), PLAIN_IDS, min_size=1),
    st.dictionaries(
        st.sampled_from(["S001", "T2", "x_1"]), st.dictionaries(st.integers(1, 9), PLAIN_IDS, min_size=1), min_size=1
    ),
)
def test_a_token_lookup_of_the_usual_shape_is_read_by_the_fast_reader(doc_to_sent, sent_to_doc):
    """No key twice, plain keys and ids: the rows come from the fast reader, and are those of the YAML."""
    lines = ["doc_to_sent:"]
    for text_id, doc_tokens in doc_to_sent.items():
        lines.append(f"  {text_id}:")
        for doc_token, id in doc_tokens.items():
            lines += [f"    {doc_token}:", f"      sentence_id: {id}", f"      token_id: {id}"]
    lines.append("sent_to_doc:")
    for text_id, sentences in sent_to_doc.items():
        lines.append(f"  {text_id}:")
        for sentence_id, tokens in sentences.items():
            lines += [f"    {sentence_id}:", *(f"      {key}: {value}" for key, value in tokens.items())]
    text = "\n".join(lines) + "\n"
    assert lookup_of_the_usual_shape(text) == lookup_halves(yaml.load(text, Loader=yaml.CSafeLoader))


@pytest.mark.parametrize(
    "text", ["a: [1, 2]\n", "a: 1\n  b: 2\n", "a: 010\n", "yes: 1\n", "a: 'x'\n", "# note\na: 1\n"]
)
def test_other_yaml_shapes_go_to_the_yaml_parser(text):
    assert read_block_mapping(text) is None


MAPPING_LINE = st.builds(
    lambda indent, key, value, end: f"{indent}{key}:{value}{end}",
    st.sampled_from(["", " ", "  ", "    "]),
    st.sampled_from(["a", "b", "1", "2", "01", "0", "yes", "Null", "a.b", "-", "x_1"]),
    st.sampled_from(["", " 1", " 23", "  007", " 0"]),
    st.sampled_from(["", " "]),
)
OTHER_LINE = st.sampled_from(["", "  ", "\t", "# c", "a: x", "a:\r", "- 1", "a: 1 # c", "a:1", "a: -1"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(MAPPING_LINE, MAPPING_LINE, OTHER_LINE), max_size=12))
def test_the_fast_reader_reads_what_yaml_reads_or_leaves_the_text_to_yaml(lines):
    text = "\n".join(lines) + "\n"
    try:
        expected = yaml.load(text, Loader=yaml.CSafeLoader)
    except yaml.YAMLError:
        expected = "an error"
    found = read_block_mapping(text)
    assert found is None or found == expected


def test_a_token_of_a_sentence_given_twice_is_left_to_yaml():
    """YAML keeps the last of two equal keys; the fast reader must not read both (hypothesis found a second token
    line of a sentence read as a second row)."""
    text = (
        "doc_to_sent:\n  S001:\n    1:\n      sentence_id: 1\n      token_id: 1\n"
        "sent_to_doc:\n  S001:\n    1:\n      1: 1\n      2: 1\n      1: 1\n"
    )
    assert lookup_of_the_usual_shape(text) is None
