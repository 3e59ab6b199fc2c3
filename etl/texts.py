"""Load the generated texts and their tokens, and check them against token_lookup.yaml when it is there."""

from __future__ import annotations

import re
from pathlib import Path

import duckdb
import polars as pl

from accuracy_db.errors import AccuracyDbError, InputError
from accuracy_db.regular_files import read_text

from .bounded_yaml import load_bounded_yaml
from .frames import create_temp_table

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


def read_texts(texts_dir: Path) -> dict[str, str]:
    """text id (the file stem) -> text, for every .txt file of a folder (each a regular UTF-8 file, or an error)."""
    if not texts_dir.is_dir():
        raise AccuracyDbError(f"{texts_dir}: no such folder of texts")
    texts, problems = {}, []
    for path in sorted(texts_dir.glob("*.txt")):
        try:
            texts[path.stem] = read_text(path)
        except InputError as error:
            problems += error.problems
    if problems:
        raise InputError(problems)
    return texts


def load_texts(con: duckdb.DuckDBPyConnection, split: str, texts: dict[str, str]) -> None:
    """Insert texts and their tokens: the tokens of a text are what splitting it on whitespace gives."""
    new_texts = pl.DataFrame(
        {"text_id": list(texts), "split": split, "generated_text": [" ".join(text.split()) for text in texts.values()]},
        schema={"text_id": pl.String, "split": pl.String, "generated_text": pl.String},
    )
    insert_frame(
        con,
        new_texts,
        "INSERT INTO texts (text_id, split, generated_text, token_count, sentence_count)"
        " SELECT text_id, split, generated_text, 0, 0 FROM new_rows",
    )
    insert_frame(con, number_tokens(new_texts), "INSERT INTO tokens BY NAME SELECT * FROM new_rows")
    con.execute(COUNT_TOKENS)


def number_tokens(new_texts: pl.DataFrame) -> pl.DataFrame:
    """The tokens rows of texts (text_id, generated_text: the tokens joined by single spaces)."""
    tokens = (
        new_texts.select("text_id", token=pl.col("generated_text").str.split(" "))
        .with_columns(doc_token=pl.int_ranges(1, pl.col("token").list.len() + 1, dtype=pl.Int32))
        .explode("token", "doc_token")
        .filter(pl.col("token") != "")  # an empty text splits into one empty string: it has no tokens
    )
    # The tokens of a text are now consecutive rows, in order: number them with running sums and forward fills
    # over the whole frame, which needs no grouping or sorting by text.
    starts_text = pl.col("doc_token") == 1
    starts_sentence = starts_text | (pl.col("token") == ".").shift(1, fill_value=True)
    sentence = starts_sentence.cum_sum()  # the sentences of all the texts, counted from 1
    row = pl.int_range(pl.len())
    # generated_text is the tokens joined by single spaces: a token starts one past the end of the one before.
    width = pl.col("token").str.len_chars() + 1
    running_start = width.cum_sum() - width
    char_start = running_start - pl.when(starts_text).then(running_start).forward_fill()
    return tokens.select(
        "text_id",
        "doc_token",
        sentence_id=(sentence - pl.when(starts_text).then(sentence).forward_fill() + 1).cast(pl.Int32),
        sent_token=(row - pl.when(starts_sentence).then(row).forward_fill() + 1).cast(pl.Int32),
        token="token",
        char_start=char_start.cast(pl.Int32),
        char_end=(char_start + width - 1).cast(pl.Int32),
    )


def insert_frame(con: duckdb.DuckDBPyConnection, frame: pl.DataFrame, insert: str) -> None:
    """Run an INSERT that reads the frame as new_rows, through its Arrow C stream (so pyarrow is never imported)."""
    con.register("new_rows", frame.__arrow_c_stream__())
    try:
        con.execute(insert)
    finally:
        con.unregister("new_rows")


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


def read_token_lookup(path: Path) -> dict:
    """Parse token_lookup.yaml: {doc_to_sent: {text: {doc_token: {sentence_id, token_id}}}, sent_to_doc: …}."""
    text = read_text(path)
    lookup = read_block_mapping(text)
    if lookup is None:
        lookup = load_bounded_yaml(str(path), text, LOOKUP_DEPTH, "token lookup")
    if not isinstance(lookup, dict) or not {"doc_to_sent", "sent_to_doc"} <= lookup.keys():
        raise AccuracyDbError(f"{path}: not a token lookup (expected the keys doc_to_sent and sent_to_doc)")
    return lookup


LOOKUP_DEPTH = 4  # doc_to_sent: text: doc_token: {sentence_id, token_id}


def lookup_halves(lookup: dict, path: Path | str = "token lookup") -> tuple[pl.DataFrame, pl.DataFrame]:
    """Both halves of a token lookup as rows (text_id, doc_token, sentence_id, sent_token)."""
    try:
        return lookup_rows(lookup)
    except (AttributeError, KeyError, TypeError, ValueError, OverflowError, pl.exceptions.PolarsError):
        raise AccuracyDbError(
            f"{path}: not a token lookup (expected doc_to_sent: text: doc token: {{sentence_id, token_id}}, and"
            " sent_to_doc: text: sentence: sentence token: doc token, every id a whole number)"
        ) from None


def lookup_rows(lookup: dict) -> tuple[pl.DataFrame, pl.DataFrame]:
    schema = {"text_id": pl.String, "doc_token": pl.Int32, "sentence_id": pl.Int32, "sent_token": pl.Int32}
    doc_to_sent = [
        (str(text_id), int(doc_token), int(ids["sentence_id"]), int(ids["token_id"]))
        for text_id, doc_tokens in lookup["doc_to_sent"].items()
        for doc_token, ids in doc_tokens.items()
    ]
    sent_to_doc = [
        (str(text_id), int(doc_token), int(sentence_id), int(sent_token))
        for text_id, sentences in lookup["sent_to_doc"].items()
        for sentence_id, sent_tokens in sentences.items()
        for sent_token, doc_token in sent_tokens.items()
    ]
    return (
        pl.DataFrame(doc_to_sent, schema=schema, orient="row"),
        pl.DataFrame(sent_to_doc, schema=schema, orient="row"),
    )


def load_token_lookup(con: duckdb.DuckDBPyConnection, split: str, lookup: dict, path: Path) -> None:
    """Insert texts and tokens known only by their ids (no token text), from a token lookup."""
    doc_to_sent, _ = lookup_halves(lookup, path)
    create_temp_table(con, "lookup_tokens", doc_to_sent)
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


def check_token_lookup(con: duckdb.DuckDBPyConnection, path: Path, split: str, lookup: dict) -> None:
    """Fail loudly where token_lookup.yaml and the tokenization of the texts of a split disagree."""
    differences = []
    for half, frame in zip(("doc_to_sent", "sent_to_doc"), lookup_halves(lookup, path)):
        create_temp_table(con, "lookup_half", frame)
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
