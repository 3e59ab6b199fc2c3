"""Load the generated texts and their tokens, and check them against token_lookup.yaml when it is there."""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path, PurePath

import duckdb

from accuracy_db.errors import AccuracyDbError, InputError, Problem
from accuracy_db.regular_files import Digests, advise_will_need, read_text

from .batching import BATCH_CHARACTERS
from .bounded_yaml import load_bounded_yaml

READ_AHEAD = 256  # files asked ahead: quicker, read cold, than 32 (benchmarks/results/code-timings.md)

COUNT_TOKENS = """
UPDATE texts SET
    token_count = counts.token_count,
    sentence_count = counts.sentence_count
FROM (
    SELECT text_id, count(*) AS token_count, max(sentence_id) AS sentence_count
    FROM tokens GROUP BY text_id
) AS counts
WHERE texts.text_id = counts.text_id
"""


def read_texts(texts_dir: Path, digests: Digests | None = None) -> dict[str, str]:
    """text id (the file stem) -> text, for every .txt file of a folder (each a regular UTF-8 file, or an error);
    with digests, each file's digest is recorded there."""
    texts: dict[str, str] = {}
    for batch in text_batches(texts_dir, digests):
        texts.update(batch)
    return texts


def text_batches(texts_dir: Path, digests: Digests | None = None) -> Iterator[dict[str, str]]:
    """The texts of read_texts, in the order of their names, a batch of BATCH_CHARACTERS characters or more at a time
    (but the last), as they are read. After a file that cannot be read, the others are only read to be named too
    if they cannot: InputError with every problem, once all are read."""
    if not texts_dir.is_dir():
        raise AccuracyDbError(f"{texts_dir}: no such folder of texts")
    # One listing, names sorted as strings (as Path objects they sort 20 times slower; the order is the same). One
    # thread reads them: quicker than 8 to 64 threads, which wait on each other for Python's lock, from the page
    # cache and evicted from it alike (benchmarks/results/code-timings.md). The kernel is asked to read each file
    # READ_AHEAD files before it is read instead, which needs no thread of Python's.
    paths = text_paths(texts_dir)
    for path in paths[:READ_AHEAD]:
        advise_will_need(path)
    batch, characters, problems = {}, 0, []
    for path, later in itertools.zip_longest(paths, paths[READ_AHEAD:]):
        if later is not None:
            advise_will_need(later)
        try:
            text = read_text(path, digests=digests)
        except InputError as error:
            problems += error.problems
            continue
        if problems:
            continue
        batch[PurePath(path).stem] = text
        characters += len(text)
        if characters >= BATCH_CHARACTERS:
            yield batch
            batch, characters = {}, 0
    if problems:
        raise InputError(problems)
    if batch:
        yield batch


def text_paths(texts_dir: Path) -> list[str]:
    """The .txt files of a folder of texts, sorted by name (one listing); each file's stem is its text id."""
    with os.scandir(texts_dir) as entries:
        return sorted(entry.path for entry in entries if entry.name.endswith(".txt"))


def check_one_split_a_text(texts_dirs: dict[str, Path]) -> None:
    """A text id is one text (texts.text_id is the key): a file name in the texts of two splits (split -> folder)
    is refused before anything is read, naming both files."""
    first: dict[str, tuple[str, str]] = {}  # text id -> (split, file)
    problems = []
    for split, texts_dir in texts_dirs.items():
        for path in text_paths(texts_dir):
            text_id = PurePath(path).stem
            if text_id in first:
                other_split, other = first[text_id]
                message = f"text {text_id} is a text of the {other_split} split already ({other}): one split a text"
                problems.append(Problem(path, None, message))
            else:
                first[text_id] = (split, path)
    if problems:
        raise InputError(problems)


def load_texts(con: duckdb.DuckDBPyConnection, split: str, texts: dict[str, str], in_sql: bool = False) -> None:
    """Insert texts and their tokens, in one transaction: the tokens of a text are what splitting it on whitespace
    gives, numbered by token_numbering.py in polars, or with in_sql by text_tokens.sql, which spares a process of a
    few texts polars' import (a large share of the drop-in evaluate) and takes 1.5 times its CPU a token. Both number
    alike (tests/test_texts.py)."""
    if in_sql:
        insert_numbered_in_sql(con, split, *generated(texts))
    else:
        load_generated_batches(con, split, [generated(texts)])


def generated(texts: dict[str, str]) -> tuple[list[str], list[str]]:
    """The text ids, and the texts as their tokens give them: the words of each joined by single spaces."""
    return list(texts), [" ".join(text.split()) for text in texts.values()]


def load_generated_batches(
    con: duckdb.DuckDBPyConnection, split: str, batches: Iterable[tuple[list[str], list[str]]]
) -> None:
    """Insert batches of texts (their ids and generated texts, as generated gives them) and their tokens numbered
    in polars, all in one transaction: a failure in making a batch (a text that cannot be read, say) leaves none of
    them. Read and generated in a thread of their own (pipeline.ahead), the batches of scale 1000 take Python's
    work, the reading and the joining of words, off the thread that numbers and inserts them, which then loads the
    texts sooner (benchmarks/results/code-timings.md)."""
    from .frames import insert_all
    from .token_numbering import text_frames

    insert_all(con, (frame for text_ids, texts in batches for frame in text_frames(split, text_ids, texts)))


def insert_numbered_in_sql(
    con: duckdb.DuckDBPyConnection, split: str, text_ids: list[str], generated_texts: list[str]
) -> None:
    """The texts and their tokens, numbered by text_tokens.sql and counted by COUNT_TOKENS."""
    con.begin()
    try:
        con.execute(
            "CREATE OR REPLACE TEMP TABLE new_texts AS"
            " SELECT unnest($text_ids::VARCHAR[]) AS text_id, unnest($generated_texts::VARCHAR[]) AS generated_text",
            {"text_ids": text_ids, "generated_texts": generated_texts},
        )
        con.execute(
            "INSERT INTO texts (text_id, split, generated_text, token_count, sentence_count)"
            " SELECT text_id, $split, generated_text, 0, 0 FROM new_texts",
            {"split": split},
        )
        tokens = resources.files("accuracy_db.etl").joinpath("text_tokens.sql").read_text(encoding="utf-8")
        con.execute(f"INSERT INTO tokens BY NAME {tokens}")
        con.execute("DROP TABLE new_texts")
        con.execute(COUNT_TOKENS)
        con.commit()
    except BaseException:
        con.rollback()
        raise


# token_lookup.yaml is a block mapping of mappings down to whole numbers, one "key: value" or "key:" a line.
# Read that shape directly (ten times faster than a YAML parser on the 1.2 MB file); anything else in the
# file, or a key YAML would not read as a plain string or number, goes to the YAML parser.
BLOCK_MAPPING_LINES = re.compile(r"^( *)([A-Za-z0-9_.-]+):(?: +([0-9]+))? *$", re.MULTILINE)
YAML_WORDS = {"null", "true", "false", "yes", "no", "on", "off", "y", "n"}
YAML_OCTAL = re.compile(r"^ *0[A-Za-z0-9_.-]+:|: +0[0-9]+ *$", re.MULTILINE)  # a key or number YAML reads as octal


def read_block_mapping(text: str) -> dict | None:
    """The nested mapping of a text in the shape above, or None when the text has any other shape."""
    lines = BLOCK_MAPPING_LINES.findall(text)  # one regular-expression pass over the whole text, not one a line
    if not lines or len(lines) != sum(1 for line in text.splitlines() if line.strip(" ")) or YAML_OCTAL.search(text):
        return None  # a line of another shape (the matches are within lines, so fewer of them than lines)
    root: dict = {}
    # [indent of the line that opened it, the mapping (or a scalar: nothing may nest under it), its keys' indent]
    stack: list[list] = [[-1, root, None]]
    opened = []  # (mapping, key) of every "key:" line: YAML reads one with nothing under it as null
    for spaces, key, value in lines:
        indent = len(spaces)
        while stack[-1][0] >= indent:
            stack.pop()
        parent = stack[-1]
        if parent[2] is None:
            parent[2] = indent
        if not isinstance(parent[1], dict) or parent[2] != indent or key.lower() in YAML_WORDS:
            return None  # YAML's errors (a key under a number, keys of one mapping indented unlike) and words
        key = int(key) if key.isdecimal() else key
        if value:
            parent[1][key] = int(value)
            stack.append([indent, value, None])
        else:
            parent[1][key] = {}
            stack.append([indent, parent[1][key], None])
            opened.append((parent[1], key))
    for mapping, key in opened:
        if mapping[key] == {}:
            mapping[key] = None
    return root


# The shape every token_lookup.yaml of the shared task has, exactly: both halves, each text a key of letters, digits
# and underscores, every id a whole number from 1 without leading zeros, two spaces a level. A file of this shape
# (and no key twice in a mapping) is what a YAML parser reads as {doc_to_sent: {text: {doc_token: {sentence_id,
# token_id}}}, sent_to_doc: {text: {sentence: {sent_token: doc_token}}}}, so its lines are turned into rows by
# replacing their fixed parts, a few passes over the text; a file of any other shape goes to the readers above.
ID = "[1-9][0-9]{0,8}"  # at most 9 digits: an INTEGER
TEXT_KEY = re.compile(r"^  ([A-Za-z][A-Za-z0-9_]*):\n", re.MULTILINE)
SENTENCE_KEY = re.compile(rf"^    ({ID}):\n", re.MULTILINE)
TOKEN_KEY = {
    "doc_to_sent": re.compile(rf"^    ({ID}):$", re.MULTILINE),
    "sent_to_doc": re.compile(rf"^      ({ID}):", re.MULTILINE),
}
LOOKUP_SHAPE = re.compile(
    rf"doc_to_sent:\n(?:  [A-Za-z][A-Za-z0-9_]*:\n(?:    {ID}:\n      sentence_id: {ID}\n      token_id: {ID}\n)+)+"
    rf"sent_to_doc:\n(?:  [A-Za-z][A-Za-z0-9_]*:\n(?:    {ID}:\n(?:      {ID}: {ID}\n)+)+)+"
)
# The ids of the rows of each half, in the order its lines give them.
LOOKUP_IDS = {
    "doc_to_sent": ("doc_token", "sentence_id", "sent_token"),
    "sent_to_doc": ("sentence_id", "sent_token", "doc_token"),
}


@dataclass
class LookupHalf:
    """A half of a token lookup: its texts, and its rows as lines "text,id,id,id" (the text by its index in
    text_ids, from 0; the ids those of LOOKUP_IDS, in that order). DuckDB splits the lines: a string is handed to it
    far faster than lists of values."""

    text_ids: list[str]
    rows: str


@dataclass
class TokenLookup:
    doc_to_sent: LookupHalf
    sent_to_doc: LookupHalf


def read_token_lookup(path: Path) -> TokenLookup:
    """Parse token_lookup.yaml: {doc_to_sent: {text: {doc_token: {sentence_id, token_id}}}, sent_to_doc: …}."""
    text = read_text(path)
    rows = lookup_of_the_usual_shape(text)
    if rows is not None:
        return rows
    lookup = read_block_mapping(text)
    if lookup is None:
        lookup = load_bounded_yaml(str(path), text, LOOKUP_DEPTH, "token lookup")
    if not isinstance(lookup, dict) or not {"doc_to_sent", "sent_to_doc"} <= lookup.keys():
        raise AccuracyDbError(f"{path}: not a token lookup (expected the keys doc_to_sent and sent_to_doc)")
    return lookup_halves(lookup, path)


def lookup_of_the_usual_shape(text: str) -> TokenLookup | None:
    """The rows of a token lookup of the shape above, or None when the text has another (or a key twice)."""
    if not LOOKUP_SHAPE.fullmatch(text):
        return None
    middle = text.index("\nsent_to_doc:\n") + 1  # the one line of the shape that starts so
    halves = {
        "doc_to_sent": text[len("doc_to_sent:\n") : middle],
        "sent_to_doc": text[middle + len("sent_to_doc:\n") :],
    }
    read = {}
    for half, lines in halves.items():
        parts = TEXT_KEY.split(lines)  # "", a text id, its lines, a text id, its lines …
        text_ids = parts[1::2]
        if len(set(text_ids)) < len(text_ids) or any(key.lower() in YAML_WORDS for key in text_ids):
            return None  # a text twice (YAML keeps the last), or a key YAML reads as a boolean or null
        text_rows = doc_token_rows if half == "doc_to_sent" else sentence_rows
        rows = [text_rows(index, text_lines) for index, text_lines in enumerate(parts[2::2])]
        if None in rows:
            return None
        read[half] = LookupHalf(text_ids, "".join(rows))
    return TokenLookup(**read)


def distinct(keys: list[str]) -> bool:
    return len(set(keys)) == len(keys)


def doc_token_rows(text: int, lines: str) -> str | None:
    """The doc_to_sent rows of one text's lines ("    7:", "      sentence_id: 1", "      token_id: 7" a token), or
    None when a doc token is given twice."""
    if not distinct(TOKEN_KEY["doc_to_sent"].findall(lines)):
        return None
    return lines.replace(":\n      sentence_id: ", ",").replace("\n      token_id: ", ",").replace("    ", f"{text},")


def sentence_rows(text: int, lines: str) -> str | None:
    """The sent_to_doc rows of one text's lines ("    2:" a sentence, then "      1: 7" a token), or None when a
    sentence, or a token of a sentence, is given twice."""
    parts = SENTENCE_KEY.split(lines)  # "", a sentence, its tokens' lines, …
    sentences = parts[1::2]
    if not distinct(sentences):
        return None
    rows = []
    for sentence, tokens in zip(sentences, parts[2::2]):
        if not distinct(TOKEN_KEY["sent_to_doc"].findall(tokens)):
            return None
        rows.append(tokens.replace(": ", ",").replace("      ", f"{text},{sentence},"))
    return "".join(rows)


LOOKUP_DEPTH = 4  # doc_to_sent: text: doc_token: {sentence_id, token_id}


def lookup_halves(lookup: dict, path: Path | str = "token lookup") -> TokenLookup:
    """Both halves of a token lookup read as a mapping, as rows."""
    try:
        return lookup_rows(lookup)
    except (AttributeError, KeyError, TypeError, ValueError, OverflowError):
        raise AccuracyDbError(
            f"{path}: not a token lookup (expected doc_to_sent: text: doc token: {{sentence_id, token_id}}, and"
            " sent_to_doc: text: sentence: sentence token: doc token, every id a whole number)"
        ) from None


def lookup_rows(lookup: dict) -> TokenLookup:
    doc_to_sent = "".join(
        f"{text},{whole(doc_token)},{whole(ids['sentence_id'])},{whole(ids['token_id'])}\n"
        for text, doc_tokens in enumerate(lookup["doc_to_sent"].values())
        for doc_token, ids in doc_tokens.items()
    )
    sent_to_doc = "".join(
        f"{text},{whole(sentence_id)},{whole(sent_token)},{whole(doc_token)}\n"
        for text, sentences in enumerate(lookup["sent_to_doc"].values())
        for sentence_id, sent_tokens in sentences.items()
        for sent_token, doc_token in sent_tokens.items()
    )
    return TokenLookup(
        LookupHalf([str(text_id) for text_id in lookup["doc_to_sent"]], doc_to_sent),
        LookupHalf([str(text_id) for text_id in lookup["sent_to_doc"]], sent_to_doc),
    )


def whole(value) -> int:
    """An id as a whole number that fits the INTEGER columns (ValueError otherwise)."""
    number = int(value)
    if not -(2**31) <= number < 2**31:
        raise ValueError(f"{number} does not fit an INTEGER")
    return number


def create_lookup_table(con: duckdb.DuckDBPyConnection, name: str, half: str, lookup: LookupHalf) -> None:
    """A temporary table (text_id, doc_token, sentence_id, sent_token) of the rows of a half of a token lookup."""
    ids = ", ".join(f"fields[{number}]::INTEGER AS {column}" for number, column in enumerate(LOOKUP_IDS[half], start=2))
    con.execute(
        f"""
        CREATE OR REPLACE TEMP TABLE {name} AS
        SELECT text_id, doc_token, sentence_id, sent_token
        FROM (
            SELECT ($text_ids::VARCHAR[])[fields[1]::INTEGER + 1] AS text_id, {ids}
            FROM (
                SELECT string_split(line, ',') AS fields
                FROM unnest(string_split($rows::VARCHAR, chr(10))) AS lines(line)
            )
            WHERE fields <> ['']  -- the end of the last line
        )
        """,
        {"text_ids": lookup.text_ids, "rows": lookup.rows},
    )


def load_token_lookup(con: duckdb.DuckDBPyConnection, split: str, lookup: TokenLookup, path: Path) -> None:
    """Insert texts and tokens known only by their ids (no token text), from a token lookup."""
    create_lookup_table(con, "lookup_tokens", "doc_to_sent", lookup.doc_to_sent)
    con.execute(
        "INSERT INTO tokens (text_id, doc_token, sentence_id, sent_token)"
        " SELECT text_id, doc_token, sentence_id, sent_token FROM lookup_tokens"
    )
    con.execute(
        "INSERT INTO texts (text_id, split, token_count, sentence_count)"
        " SELECT text_id, ?, count(*), max(sentence_id) FROM lookup_tokens GROUP BY text_id",
        [split],
    )
    con.execute("DROP TABLE lookup_tokens")


def check_token_lookup(con: duckdb.DuckDBPyConnection, path: Path, split: str, lookup: TokenLookup) -> None:
    """Fail loudly where token_lookup.yaml and the tokenization of the texts of a split disagree."""
    differences = []
    for half, rows in (("doc_to_sent", lookup.doc_to_sent), ("sent_to_doc", lookup.sent_to_doc)):
        create_lookup_table(con, "lookup_half", half, rows)
        try:
            rows = con.execute(
                """
                WITH tokenized AS (
                    SELECT text_id, doc_token, sentence_id, sent_token
                    FROM tokens JOIN texts USING (text_id) WHERE texts.split = $split
                ),
                only_in_texts AS (SELECT * FROM tokenized EXCEPT SELECT * FROM lookup_half),
                only_in_lookup AS (SELECT * FROM lookup_half EXCEPT SELECT * FROM tokenized)
                SELECT 'the texts give', * FROM only_in_texts
                UNION ALL
                SELECT 'the lookup gives', * FROM only_in_lookup
                ORDER BY 2, 3, 1
                """,
                {"split": split},
            ).fetchall()
        finally:
            con.execute("DROP TABLE lookup_half")
        differences += [
            f"{half}: {source} {text_id} token {doc_token} = sentence {sentence_id} token {sent_token}"
            for source, text_id, doc_token, sentence_id, sent_token in rows
        ]
    if differences:
        shown = "\n  ".join(differences[:10])
        more = f"\n  … and {len(differences) - 10} more" if len(differences) > 10 else ""
        raise AccuracyDbError(
            f"{path}: {len(differences)} token ids differ from the tokenization of the texts:\n  {shown}{more}"
        )
