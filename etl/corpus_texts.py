"""Corpora other than the shared task: create one with its categories, and insert its texts with their tokens.

A text of such a corpus is kept as given (character offsets count in it); its tokens are its runs of
non-whitespace, each with its character offsets, and a sentence ends at a token that is exactly "." (the shared
task's rule, etl/texts.py).
"""

from __future__ import annotations

from dataclasses import dataclass

import duckdb
import polars as pl

from .char_spans import token_offsets
from .frames import insert_frame


@dataclass(frozen=True)
class Category:
    name: str
    description: str
    colour: str | None


@dataclass(frozen=True)
class CorpusText:
    text_id: str
    split: str
    text: str
    source_data: str | None = None  # JSON text


def corpus_categories(con: duckdb.DuckDBPyConnection, corpus: str) -> list[str] | None:
    """The corpus's category names in order; None when there is no such corpus."""
    if not con.execute("SELECT 1 FROM corpora WHERE corpus = ?", [corpus]).fetchall():
        return None
    rows = con.execute("SELECT category FROM categories WHERE corpus = ? ORDER BY position", [corpus]).fetchall()
    return [name for (name,) in rows]


def held_texts(con: duckdb.DuckDBPyConnection, text_ids: list[str]) -> dict[str, str]:
    """The texts of text_ids the database holds already (texts.text_id is a key across corpora), each with where it
    came from: its corpus, and the folder the corpus was imported from, or for the shared task the text's file."""
    rows = con.execute(
        """
        SELECT text_id, corpus, coalesce(corpora.source, files.path, 'the data folder')
        FROM texts JOIN corpora USING (corpus)
        LEFT JOIN source_files AS files ON files.role = 'data'
            AND files.name = (CASE split WHEN 'test' THEN 'test_set/' ELSE '' END) || 'texts/' || text_id || '.txt'
        WHERE text_id = ANY($ids)
        ORDER BY text_id
        """,
        {"ids": text_ids},
    ).fetchall()
    return {text_id: f"corpus {corpus} ({source})" for text_id, corpus, source in rows}


def create_corpus(
    con: duckdb.DuckDBPyConnection, corpus: str, description: str, source: str, categories: list[Category]
) -> None:
    con.execute("INSERT INTO corpora VALUES (?, ?, ?)", [corpus, description, source])
    con.executemany(
        "INSERT INTO categories (corpus, category, position, description, colour) VALUES (?, ?, ?, ?, ?)",
        [[corpus, c.name, position, c.description, c.colour] for position, c in enumerate(categories, start=1)],
    )


def insert_texts(con: duckdb.DuckDBPyConnection, corpus: str, texts: list[CorpusText]) -> None:
    """Insert texts of a corpus, and their tokens with their character offsets."""
    token_rows: dict[str, list] = {name: [] for name in ("text_id", "doc_token", "sentence_id", "sent_token")}
    token_rows |= {"token": [], "char_start": [], "char_end": []}
    counts = []
    for text in texts:
        sentence, in_sentence, ended = 1, 0, False
        offsets = token_offsets(text.text)
        for number, (start, end) in enumerate(offsets, start=1):
            if ended:
                sentence, in_sentence = sentence + 1, 0
            in_sentence += 1
            token = text.text[start:end]
            ended = token == "."
            for column, value in zip(
                token_rows, (text.text_id, number, sentence, in_sentence, token, start, end), strict=True
            ):
                token_rows[column].append(value)
        counts.append((len(offsets), sentence if offsets else 0))
    frame = pl.DataFrame(
        {
            "text_id": [t.text_id for t in texts],
            "corpus": [corpus] * len(texts),
            "split": [t.split for t in texts],
            "generated_text": [t.text for t in texts],
            "token_count": [c[0] for c in counts],
            "sentence_count": [c[1] for c in counts],
            "source_data": [t.source_data for t in texts],
        },
        schema={
            "text_id": pl.String,
            "corpus": pl.String,
            "split": pl.String,
            "generated_text": pl.String,
            "token_count": pl.Int32,
            "sentence_count": pl.Int32,
            "source_data": pl.String,
        },
    )
    insert_frame(con, frame, "INSERT INTO texts BY NAME SELECT * FROM new_rows")
    tokens = pl.DataFrame(
        token_rows,
        schema={
            "text_id": pl.String,
            "doc_token": pl.Int32,
            "sentence_id": pl.Int32,
            "sent_token": pl.Int32,
            "token": pl.String,
            "char_start": pl.Int32,
            "char_end": pl.Int32,
        },
    )
    insert_frame(con, tokens, "INSERT INTO tokens BY NAME SELECT * FROM new_rows")
