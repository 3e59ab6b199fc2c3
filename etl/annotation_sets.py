"""A new list's row of annotation_sets and the block of mistake ids its rows take: what every loader of a list
does first, CSV mistake lists (mistake_lists.py) and span lists (span_lists.py) alike. Kept apart from both, with
no polars: the drop-in evaluate races the shared task's scorer and never imports it."""

from __future__ import annotations

from pathlib import Path

import duckdb

from accuracy_db.errors import NameTaken, Problem, quoted


def insert_annotation_set(
    con: duckdb.DuckDBPyConnection, kind: str, name: str, split: str, source: Path, sha256: str, rows: int, corpus: str
) -> int:
    """A new list's row of annotation_sets (every loader's, CSV mistake lists and span lists alike); its set_id."""
    return insert_annotation_sets(con, source, sha256, corpus, [(kind, name, split, rows)])[0]


def insert_annotation_sets(
    con: duckdb.DuckDBPyConnection, source: Path, sha256: str, corpus: str, lists: list[tuple[str, str, str, int]]
) -> list[int]:
    """The rows of annotation_sets of new lists of one file, (kind, name, split, rows) each, in one statement;
    their set_ids, in the same order. NameTaken, before anything is written, when an imported metric of the corpus
    holds the name of a submission (a submission is a metric too, queries/marts/metric_scores.sql)."""
    held = con.execute(
        "SELECT metric, coalesce(source_file, kind) FROM metrics WHERE kind = 'import' AND corpus = $corpus"
        " AND metric = ANY($names) ORDER BY metric, split LIMIT 1",
        {"corpus": corpus, "names": [name for kind, name, _, _ in lists if kind == "submission"]},
    ).fetchall()
    if held:
        ((name, held_by),) = held
        raise NameTaken(
            [
                Problem(
                    str(source),
                    None,
                    f"the list name {quoted(name, 60)} is a metric's of corpus {corpus} (imported from {held_by}):"
                    " rename the list",
                )
            ]
        )
    inserted = con.execute(
        "INSERT INTO annotation_sets (kind, name, split, source_file, sha256, row_count, corpus)"
        " SELECT unnest($kinds), unnest($names), unnest($splits), $source, $sha256, unnest($rows), $corpus"
        " RETURNING set_id, kind, name, split",
        {
            "kinds": [kind for kind, _, _, _ in lists],
            "names": [name for _, name, _, _ in lists],
            "splits": [split for _, _, split, _ in lists],
            "rows": [rows for _, _, _, rows in lists],
            "source": str(source),
            "sha256": sha256,
            "corpus": corpus,
        },
    ).fetchall()
    # the order RETURNING gives is not promised: a list is known by its kind, name and split within its corpus
    set_ids = {(kind, name, split): set_id for set_id, kind, name, split in inserted}
    return [set_ids[kind, name, split] for kind, name, split, _ in lists]


def reserve_mistake_ids(con: duckdb.DuckDBPyConnection, count: int) -> int:
    """The first of count ids taken from the sequence as one block. The block is unbroken: the database has one
    writer, which inserts one list (or one file's lists) at a time."""
    return con.execute(
        "SELECT min(id) FROM (SELECT nextval('mistake_ids') AS id FROM range($count))", {"count": count}
    ).fetchall()[0][0]
