"""The box-score checker's list (docs/checker.md): the findings of the view boxscore_findings (queries/marts/), put
in as a submission of each split, named boxscore by default, which every scheme scores as it scores a submission's
CSV. build puts it in (unless --no-check), and `accuracy-db check` puts it in again, under the name given."""

from __future__ import annotations

import hashlib

import duckdb

from accuracy_db.errors import AccuracyDbError
from accuracy_db.etl.annotation_sets import insert_annotation_sets, reserve_mistake_ids, seal_lists
from accuracy_db.names import name_problem
from accuracy_db.store import database

NAME = "boxscore"
SOURCE = "accuracy_db/queries: boxscore_findings"  # the list's source_file: no file, the view


def definitions_sha256() -> str:
    """The digest of the checker's models: the list's sha256, which says which rules found it."""
    models = database.with_what_they_read(database.view_definitions(), ["boxscore_findings"])
    return hashlib.sha256("\n".join(models[name] for name in sorted(models)).encode()).hexdigest()


def is_checker_list(con: duckdb.DuckDBPyConnection, name: str) -> bool | None:
    """Whether the shared task's submissions named so are a checker list (None: there is none of that name)."""
    sources = con.execute(
        "SELECT DISTINCT source_file FROM annotation_sets WHERE kind = 'submission' AND name = $name"
        " AND corpus = 'shared-task'",
        {"name": name},
    ).fetchall()
    return None if not sources else all(source == SOURCE for (source,) in sources)


def put_in(con: duckdb.DuckDBPyConnection, name: str = NAME, split: str | None = None) -> dict[str, int]:
    """Insert the checker's findings of a split (None: every split with texts) as the submission name, in place of
    the checker list of that name and split; return the findings by split. A submission of that name loaded from a
    file is not replaced: an error. The lists are not scored here (build and check score them)."""
    if wrong := name_problem(name, "list"):
        raise AccuracyDbError(wrong)
    if is_checker_list(con, name) is False:
        raise AccuracyDbError(f"{name}: a submission of that name is loaded from a file: give the checker another name")
    splits = [
        split_name
        for (split_name,) in con.execute(
            "SELECT DISTINCT split FROM texts WHERE corpus = 'shared-task' AND ($split IS NULL OR split = $split)"
            " ORDER BY split",
            {"split": split},
        ).fetchall()
    ]
    if not splits:
        raise AccuracyDbError(
            "no shared-task texts in the database"
            if split is None
            else f"no texts of the split {split} in the database"
        )
    old = [
        set_id
        for (set_id,) in con.execute(
            "SELECT set_id FROM annotation_sets WHERE kind = 'submission' AND name = $name AND corpus = 'shared-task'"
            " AND split = ANY($splits)",
            {"name": name, "splits": splits},
        ).fetchall()
    ]
    con.execute(
        "CREATE OR REPLACE TEMP TABLE checker_list AS SELECT *, row_number() OVER (PARTITION BY split"
        " ORDER BY text_id, doc_token_start) + 1 AS line_number FROM boxscore_findings"
        " WHERE corpus = 'shared-task' AND split = ANY($splits)",
        {"splits": splits},
    )
    try:
        counts = dict(con.execute("SELECT split, count(*) FROM checker_list GROUP BY split").fetchall())
        con.begin()
        try:
            if old:
                database.forget(con, old)
                con.execute("DELETE FROM mistakes WHERE set_id = ANY($ids)", {"ids": old})
                con.execute("DELETE FROM annotation_sets WHERE set_id = ANY($ids)", {"ids": old})
            sha256 = definitions_sha256()
            set_ids = insert_annotation_sets(
                con,
                SOURCE,
                sha256,
                "shared-task",
                [("submission", name, split_name, counts.get(split_name, 0)) for split_name in splits],
            )
            for split_name, set_id in zip(splits, set_ids, strict=True):
                insert_findings(con, set_id, split_name, counts.get(split_name, 0))
            seal_lists(con, set_ids)  # the content_sha256 a signature names the list by
            con.commit()
        except BaseException:
            con.rollback()
            raise
    finally:
        con.execute("DROP TABLE IF EXISTS checker_list")
    return {split_name: counts.get(split_name, 0) for split_name in splits}


def insert_findings(con: duckdb.DuckDBPyConnection, set_id: int, split: str, count: int) -> None:
    """A split's findings as the mistakes of its list, a line each (from 2, as a CSV's rows under its header), with
    their sentence ids and their neighbours in the text (previous_end, next_start) as the loaders store them."""
    first_id = reserve_mistake_ids(con, count + 1)
    con.execute(
        """
        INSERT INTO mistakes (mistake_id, set_id, line_number, text_id, annotation_id, tokens, sentence_id,
            sent_token_start, sent_token_end, doc_token_start, doc_token_end, category, correction, comment,
            previous_end, next_start, probability)
        SELECT
            $first_id + findings.line_number - 1,
            $set_id,
            findings.line_number,
            findings.text_id,
            NULL,
            findings.tokens,
            findings.sentence_id,
            starts.sent_token,
            ends.sent_token,
            findings.doc_token_start,
            findings.doc_token_end,
            findings.category,
            findings.actual,
            findings.rule || ': ' || findings.entity || ' ' || findings.stat || ' is ' || coalesce(findings.actual, '?')
            || ', not ' || findings.claimed,
            coalesce(lag(findings.doc_token_end) OVER text, 0),
            coalesce(lead(findings.doc_token_start) OVER text, texts.token_count + 1),
            NULL
        FROM checker_list AS findings
        JOIN texts ON texts.text_id = findings.text_id
        JOIN tokens AS starts ON starts.text_id = findings.text_id AND starts.doc_token = findings.doc_token_start
        JOIN tokens AS ends ON ends.text_id = findings.text_id AND ends.doc_token = findings.doc_token_end
        WHERE findings.split = $split
        WINDOW text AS (PARTITION BY findings.text_id ORDER BY findings.doc_token_start)
        """,
        {"first_id": first_id, "set_id": set_id, "split": split},
    )
