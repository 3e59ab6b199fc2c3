"""Score any annotation set against any other with the shared task's matching, as if the first were the gold list.

The models of queries/ pair each submission with the gold list of its split (queries/intermediate/evaluations.sql).
To score other pairs (two submissions, a submission as the reference of the gold list, the same set against many)
without a second copy of the matching, each ordered pair is loaded into an in-memory database as a gold list and a
submission of a split of its own ("pair 1", "pair 2", …), and the same views score it there, as the evaluate command
scores its two files. Only what the matching reads is copied: the spans, their categories and their neighbours.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

import duckdb

from . import database
from .errors import AccuracyDbError
from .scores import SPLIT_ALIASES, fetch_dicts


@dataclass(frozen=True)
class AnnotationSet:
    """A loaded mistake list: the gold list of a split or a submission (a row of annotation_sets)."""

    set_id: int
    name: str
    kind: str
    split: str
    sha256: str


SET_COLUMNS = "set_id, name, kind, split, sha256"


def find_set(con: duckdb.DuckDBPyConnection, name: str, split: str | None = None) -> AnnotationSet:
    """The loaded list of that name (gold names a split's gold list), in that split when given."""
    split = SPLIT_ALIASES.get(split, split)
    found = fetch_dicts(
        con,
        f"SELECT {SET_COLUMNS} FROM annotation_sets WHERE name = $name AND ($split IS NULL OR split = $split)"
        " ORDER BY split DESC, kind",
        {"name": name, "split": split},
    )
    if len(found) == 1:
        return AnnotationSet(**found[0])
    if len(found) > 1:
        where = " and ".join(f"{row['kind']} of the {row['split']} split" for row in found)
        hint = ": give --split" if len({row["split"] for row in found}) > 1 else ""
        raise AccuracyDbError(f"{name!r} names more than one list ({where}){hint}")
    names = [row[0] for row in con.execute("SELECT DISTINCT name FROM annotation_sets").fetchall()]
    close = difflib.get_close_matches(name, names, n=1)
    hint = f"did you mean {close[0]}? " if close else ""
    in_split = f" in the {split} split" if split else ""
    raise AccuracyDbError(f"no list named {name!r}{in_split}: {hint}`accuracy-db leaderboard` lists the submissions")


def find_sets(con: duckdb.DuckDBPyConnection, names: list[str], split: str | None = None) -> list[AnnotationSet]:
    """The named lists, which must be distinct and of one split (the same texts). Without a split, a name of lists
    in both (gold) takes the split of the names that have one only."""
    if len(set(names)) < len(names):
        raise AccuracyDbError("a list is named twice: name each list once")
    if split is None:
        splits = con.execute(
            "SELECT name, list(DISTINCT split) FROM annotation_sets WHERE name = ANY($names) GROUP BY name",
            {"names": names},
        ).fetchall()
        only = {found[0] for _, found in splits if len(found) == 1}
        split = only.pop() if len(only) == 1 else None
    sets = [find_set(con, name, split) for name in names]
    splits = sorted({annotation_set.split for annotation_set in sets})
    if len(splits) > 1:
        listed = ", ".join(f"{s.name} ({s.split})" for s in sets)
        raise AccuracyDbError(f"the lists are of different splits ({listed}): they must annotate the same texts")
    return sets


@dataclass
class PairScoring:
    """An in-memory database in which each ordered pair (reference, compared) is an evaluation: the reference as
    the gold list, the compared set as the submission, of the split `pair N`; submission_ids[i] is the
    submission_id of pairs[i] in it."""

    con: duckdb.DuckDBPyConnection
    pairs: list[tuple[AnnotationSet, AnnotationSet]]
    submission_ids: list[int]


def score_pairs(
    source: duckdb.DuckDBPyConnection,
    pairs: list[tuple[AnnotationSet, AnnotationSet]],
    models: list[str] | None = None,
) -> PairScoring:
    """Score each (reference, compared) pair of lists of the source database with the views of queries/: every
    view, or only the models given and what they read (only their incremental tables are then filled)."""
    set_ids = sorted({s.set_id for pair in pairs for s in pair})
    spans = source.sql(
        "SELECT set_id, line_number, text_id, sentence_id, sent_token_start, sent_token_end, doc_token_start,"
        " doc_token_end, category, previous_end, next_start FROM mistakes WHERE set_id = ANY($ids)",
        params={"ids": set_ids},
    ).to_arrow_table()
    con = database.open_new(None, models)
    copies, submission_ids = [], []
    for number, (reference, compared) in enumerate(pairs, start=1):
        gold_id, submission_id = 2 * number - 1, 2 * number
        for set_id, kind, annotation_set in ((gold_id, "gold", reference), (submission_id, "submission", compared)):
            con.execute(
                "INSERT INTO annotation_sets (set_id, kind, name, split, source_file, sha256, row_count)"
                " VALUES ($set_id, $kind, $name, $split, '', $sha256, 0)",
                {
                    "set_id": set_id,
                    "kind": kind,
                    "name": annotation_set.name,
                    "split": f"pair {number}",
                    "sha256": annotation_set.sha256,
                },
            )
            copies.append((annotation_set.set_id, set_id))
        submission_ids.append(submission_id)
    con.execute("CREATE TEMP TABLE copies (source_set_id INTEGER, set_id INTEGER)")
    con.executemany("INSERT INTO copies VALUES (?, ?)", copies)
    con.register("source_spans", spans)
    con.execute(
        "INSERT INTO mistakes (set_id, line_number, text_id, sentence_id, sent_token_start, sent_token_end,"
        " doc_token_start, doc_token_end, category, previous_end, next_start)"
        " SELECT copies.set_id, line_number, text_id, sentence_id, sent_token_start, sent_token_end, doc_token_start,"
        " doc_token_end, category, previous_end, next_start"
        " FROM source_spans JOIN copies ON copies.source_set_id = source_spans.set_id"
    )
    con.unregister("source_spans")
    con.execute(
        "UPDATE annotation_sets SET row_count = (SELECT count(*) FROM mistakes WHERE set_id = annotation_sets.set_id)"
    )
    database.materialize(con, submission_ids)
    return PairScoring(con, pairs, submission_ids)


# The figures of each ordered pair under the shared task's scheme: the views scores and category_agreement of the
# pair's evaluation. A match scheme (issue 13, item 1) plugs in here: its own view of the same evaluations.
FIGURE_MODELS = ["scores", "category_agreement"]  # what FIGURES reads: score_pairs(…, FIGURE_MODELS) makes only those
FIGURES = """
SELECT
    scores.submission_id, scores.scope, scores.position, scores.recall, scores.precision, scores.f1,
    scores.token_recall, scores.token_precision, scores.token_f1, scores.matched,
    scores.gold_total AS reference_total, scores.submitted_total AS compared_total,
    agreement.pairs AS kappa_pairs, agreement.kappa
FROM scores
JOIN category_agreement AS agreement USING (submission_id, scope)
WHERE scores.submission_id = ANY($ids)
ORDER BY scores.submission_id, scores.position
"""


def pair_figures(scoring: PairScoring, scheme: str = "shared-task") -> list[dict]:
    """Every figure of every ordered pair and scope, the reference's and the compared set's names first. kappa is
    Cohen's kappa of the categories of the pairs matched in the ALL scope (in a category's scope, that category
    against the rest), from the view category_agreement."""
    if scheme != "shared-task":
        raise AccuracyDbError(f"unknown match scheme {scheme!r}")
    by_id = dict(zip(scoring.submission_ids, scoring.pairs))
    rows = fetch_dicts(scoring.con, FIGURES, {"ids": scoring.submission_ids})
    for row in rows:
        reference, compared = by_id[row.pop("submission_id")]
        row["reference"], row["compared"] = reference.name, compared.name
    return [{"reference": r.pop("reference"), "compared": r.pop("compared"), **r} for r in rows]


def outcomes(scoring: PairScoring, number: int, text_id: str | None = None) -> list[dict]:
    """What became of every span of the ordered pair pairs[number] (in one text, or all) in the ALL scope, from the
    view mistake_outcomes: side gold is the reference's, side submitted the compared set's."""
    return fetch_dicts(
        scoring.con,
        "SELECT side, text_id, doc_token_start, doc_token_end, category, outcome FROM mistake_outcomes"
        " WHERE submission_id = $id AND scope = 'ALL' AND ($text IS NULL OR text_id = $text)"
        " ORDER BY side, text_id, doc_token_start",
        {"id": scoring.submission_ids[number], "text": text_id},
    )
