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
    con: duckdb.DuckDBPyConnection,
    source: Path,
    sha256: str,
    corpus: str,
    lists: list[tuple[str, str, str, int]],
    annotators: list[str | None] | None = None,
) -> list[int]:
    """The rows of annotation_sets of new lists of one file, (kind, name, split, rows) each, in one statement;
    their set_ids, in the same order. annotators: for each list, the human annotator whose own spans it is (None
    for any other list). NameTaken, before anything is written, when an imported metric of the corpus holds the name
    of a submission (a submission is a metric too, queries/marts/metric_scores.sql)."""
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
        "INSERT INTO annotation_sets (kind, name, split, source_file, sha256, row_count, corpus, annotator)"
        " SELECT unnest($kinds), unnest($names), unnest($splits), $source, $sha256, unnest($rows), $corpus,"
        " unnest($annotators)"
        " RETURNING set_id, kind, name, split",
        {
            "kinds": [kind for kind, _, _, _ in lists],
            "names": [name for _, name, _, _ in lists],
            "splits": [split for _, _, split, _ in lists],
            "rows": [rows for _, _, _, rows in lists],
            "source": str(source),
            "sha256": sha256,
            "corpus": corpus,
            "annotators": annotators or [None] * len(lists),
        },
    ).fetchall()
    # the order RETURNING gives is not promised: a list is known by its kind, name and split within its corpus
    set_ids = {(kind, name, split): set_id for set_id, kind, name, split in inserted}
    return [set_ids[kind, name, split] for kind, name, split, _ in lists]


def cover_texts(con: duckdb.DuckDBPyConnection, coverage: dict[int, list[str]]) -> None:
    """Lists that cover part of their split: each one's texts (set_id -> text ids), in list_coverage."""
    if not coverage:
        return
    con.execute("UPDATE annotation_sets SET covers_split = FALSE WHERE set_id = ANY($ids)", {"ids": list(coverage)})
    con.execute(
        "INSERT INTO list_coverage SELECT DISTINCT * FROM (SELECT unnest($set_ids), unnest($text_ids))",
        {
            "set_ids": [set_id for set_id, texts in coverage.items() for _ in texts],
            "text_ids": [text_id for texts in coverage.values() for text_id in texts],
        },
    )


def seal_lists(con: duckdb.DuckDBPyConnection, set_ids: list[int]) -> None:
    """Fingerprint loaded lists by their own content (annotation_sets.content_sha256), once every row of theirs is
    in: what the signature names them by (etl/list_content.sql)."""
    if set_ids:
        con.execute(LIST_CONTENT, {"ids": set_ids})


LIST_CONTENT = (Path(__file__).parent / "list_content.sql").read_text()


def reserve_mistake_ids(con: duckdb.DuckDBPyConnection, count: int) -> int:
    """The first of count ids taken from the sequence as one block. The block is unbroken: the database has one
    writer, which inserts one list (or one file's lists) at a time."""
    return con.execute(
        "SELECT min(id) FROM (SELECT nextval('mistake_ids') AS id FROM range($count))", {"count": count}
    ).fetchall()[0][0]
