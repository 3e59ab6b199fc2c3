"""Load the generated texts and their tokens, and check them against token_lookup.yaml when it is there."""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl

from accuracy_db.errors import AccuracyDbError

from .frames import create_temp_table

# Numbering in SQL: a sentence ends at a token that is exactly '.', ids count from 1.
NUMBER_TOKENS = """
INSERT INTO tokens
SELECT
    text_id,
    doc_token,
    1 + coalesce(sum(CASE WHEN token = '.' THEN 1 ELSE 0 END) OVER before, 0) AS sentence_id,
    doc_token - coalesce(max(CASE WHEN token = '.' THEN doc_token END) OVER before, 0) AS sent_token,
    token
FROM (
    SELECT text_id, unnest(token_list) AS token, generate_subscripts(token_list, 1) AS doc_token
    FROM new_texts
)
WINDOW before AS (PARTITION BY text_id ORDER BY doc_token ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
"""

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
    """text id (the file stem) -> text, for every .txt file of a folder."""
    if not texts_dir.is_dir():
        raise AccuracyDbError(f"{texts_dir}: no such folder of texts")
    return {path.stem: path.read_text(encoding="utf-8-sig") for path in sorted(texts_dir.glob("*.txt"))}


def load_texts(con: duckdb.DuckDBPyConnection, split: str, texts: dict[str, str]) -> None:
    """Insert texts and their tokens: the tokens of a text are what splitting it on whitespace gives."""
    new_texts = pl.DataFrame(
        {
            "text_id": list(texts),
            "split": split,
            "generated_text": [" ".join(text.split()) for text in texts.values()],
            "token_list": [text.split() for text in texts.values()],
        },
        schema={"text_id": pl.String, "split": pl.String, "generated_text": pl.String, "token_list": pl.List(pl.String)},
    )
    create_temp_table(con, "new_texts", new_texts)
    con.execute(
        "INSERT INTO texts (text_id, split, generated_text, token_count, sentence_count)"
        " SELECT text_id, split, generated_text, 0, 0 FROM new_texts"
    )
    con.execute(NUMBER_TOKENS)
    con.execute(COUNT_TOKENS)
    con.execute("DROP TABLE new_texts")


def read_token_lookup(path: Path) -> dict:
    """Parse token_lookup.yaml (with libyaml when it is there: the train split's file is 1.2 MB)."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        with path.open(encoding="utf-8") as stream:
            lookup = yaml.load(stream, Loader=loader)
    except (OSError, yaml.YAMLError) as error:
        mark = getattr(error, "problem_mark", None)
        where = f": line {mark.line + 1}" if mark else ""
        raise AccuracyDbError(f"{path}{where}: cannot read the token lookup ({error})") from None
    if not isinstance(lookup, dict) or not {"doc_to_sent", "sent_to_doc"} <= lookup.keys():
        raise AccuracyDbError(f"{path}: not a token lookup (expected the keys doc_to_sent and sent_to_doc)")
    return lookup


def lookup_halves(lookup: dict) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Both halves of a token lookup as rows (text_id, doc_token, sentence_id, sent_token)."""
    columns = ["text_id", "doc_token", "sentence_id", "sent_token"]
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
        pl.DataFrame(doc_to_sent, schema=columns, orient="row"),
        pl.DataFrame(sent_to_doc, schema=columns, orient="row"),
    )


def load_token_lookup(con: duckdb.DuckDBPyConnection, split: str, lookup: dict) -> None:
    """Insert texts and tokens known only by their ids (no token text), from a token lookup."""
    doc_to_sent, _ = lookup_halves(lookup)
    create_temp_table(con, "lookup_tokens", doc_to_sent)
    con.execute("INSERT INTO tokens SELECT text_id, doc_token, sentence_id, sent_token, NULL FROM lookup_tokens")
    con.execute(
        "INSERT INTO texts (text_id, split, token_count, sentence_count)"
        " SELECT text_id, ?, count(*), max(sentence_id) FROM lookup_tokens GROUP BY text_id",
        [split],
    )
    con.execute("DROP TABLE lookup_tokens")


def check_token_lookup(con: duckdb.DuckDBPyConnection, path: Path, split: str, lookup: dict) -> None:
    """Fail loudly where token_lookup.yaml and the tokenization of the texts of a split disagree."""
    differences = []
    for half, frame in zip(("doc_to_sent", "sent_to_doc"), lookup_halves(lookup)):
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
