"""Score any annotation set against any other with the shared task's matching, as if the first were the gold list.

The models of queries/ pair each submission with the gold list of its split (queries/intermediate/evaluations.sql).
To score other pairs (two submissions, a submission as the reference of the gold list, the same set against many)
without a second copy of the matching, each ordered pair is loaded into an in-memory database as a gold list and a
submission of a split of its own ("pair 1", "pair 2", …), and the same views score it there, as the evaluate command
scores its two files. Only what the matching reads is copied: the spans, their categories and their neighbours.
"""

from __future__ import annotations

from dataclasses import dataclass

import duckdb

from accuracy_db.errors import AccuracyDbError
from accuracy_db.etl.annotation_sets import cover_texts
from accuracy_db.scoring.schemes import ESA, report_keys, whole_counts
from accuracy_db.scoring.scores import ambiguity, fetch_dicts, resolve_split, unknown_name
from accuracy_db.scoring.signature import SCHEME
from accuracy_db.store import database


@dataclass(frozen=True)
class AnnotationSet:
    """A loaded mistake list: the gold list of a split or a submission (a row of annotation_sets)."""

    set_id: int
    name: str
    kind: str
    split: str
    sha256: str
    corpus: str = "shared-task"


# a list is named in a signature by its own content (annotation_sets.content_sha256)
SET_COLUMNS = "set_id, name, kind, split, coalesce(content_sha256, sha256) AS sha256, corpus"


def find_set(
    con: duckdb.DuckDBPyConnection, name: str, split: str | None = None, corpus: str | None = None
) -> AnnotationSet:
    """The loaded list of that name (gold names a split's gold list), in that split and corpus when given."""
    split = resolve_split(con, split, corpus)
    found = fetch_dicts(
        con,
        f"SELECT {SET_COLUMNS} FROM annotation_sets WHERE name = $name AND ($split IS NULL OR split = $split)"
        " AND ($corpus IS NULL OR corpus = $corpus) ORDER BY corpus, split DESC, kind",
        {"name": name, "split": split, "corpus": corpus},
    )
    if len(found) == 1:
        return AnnotationSet(**found[0])
    if len({(row["corpus"], row["split"]) for row in found}) > 1:
        raise ambiguity(name, found, "list")
    if found:  # a gold list and a submission of the same name
        raise AccuracyDbError(f"{name!r} names more than one list ({' and '.join(row['kind'] for row in found)})")
    raise unknown_name(con, "annotation_sets", "name", name, "list", corpus, split, "lists the submissions")


def only_value(con: duckdb.DuckDBPyConnection, names: list[str], column: str, corpus: str | None) -> str | None:
    """The corpus (or split) of the named lists, when those of the names found in one only agree on it."""
    found = con.execute(
        f"SELECT list(DISTINCT {column}) FROM annotation_sets WHERE name = ANY($names)"
        " AND ($corpus IS NULL OR corpus = $corpus) GROUP BY name",
        {"names": names, "corpus": corpus},
    ).fetchall()
    only = {values[0] for (values,) in found if len(values) == 1}
    return only.pop() if len(only) == 1 else None


def find_sets(
    con: duckdb.DuckDBPyConnection, names: list[str], split: str | None = None, corpus: str | None = None
) -> list[AnnotationSet]:
    """The named lists, which must be distinct and of one corpus and split (the same texts). Without a corpus or
    a split, a name of lists in several (gold) takes the one of the names that are in one only."""
    if len(set(names)) < len(names):
        raise AccuracyDbError("a list is named twice: name each list once")
    corpus = corpus or only_value(con, names, "corpus", None)
    split = split or only_value(con, names, "split", corpus)
    sets = [find_set(con, name, split, corpus) for name in names]
    if len({(s.corpus, s.split) for s in sets}) > 1:
        listed = ", ".join(f"{s.name} ({s.corpus}, {s.split})" for s in sets)
        raise AccuracyDbError(
            f"the lists are of different corpora or splits ({listed}): they must annotate the same texts"
        )
    return sets


def sets_by_id(con: duckdb.DuckDBPyConnection, set_ids: list[int]) -> list[AnnotationSet]:
    """The lists of these ids, in that order; they must be of one corpus and split (the same texts)."""
    found = {
        row["set_id"]: AnnotationSet(**row)
        for row in fetch_dicts(
            con, f"SELECT {SET_COLUMNS} FROM annotation_sets WHERE set_id = ANY($ids)", {"ids": set_ids}
        )
    }
    missing = [set_id for set_id in set_ids if set_id not in found]
    if missing:
        raise AccuracyDbError(f"no list with id {missing[0]}")
    sets = [found[set_id] for set_id in set_ids]
    if len({(s.corpus, s.split) for s in sets}) > 1:
        raise AccuracyDbError("the lists are of different corpora or splits: they must annotate the same texts")
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
    text_ids: list[str] | None = None,
    models: list[str] | None = None,
    with_tokens: bool = False,
) -> PairScoring:
    """Score each (reference, compared) pair of lists of the source database with the views of queries/, in the
    scopes of their corpus: every view, or only the models given and what they read (only their incremental tables
    are then filled); in some texts only, when told which (a text's matching reads that text's spans alone).
    with_tokens copies the tokens of the texts the spans lie in, which the character-level schemes count."""
    chosen = {"ids": sorted({s.set_id for pair in pairs for s in pair}), "texts": text_ids}
    con = database.open_new(None, models)
    # Another corpus brings its categories: the scopes the views score in.
    for corpus in sorted({s.corpus for pair in pairs for s in pair} - {"shared-task"}):
        con.execute("INSERT INTO corpora VALUES ($corpus, '', NULL)", {"corpus": corpus})
        rows = source.execute(
            "SELECT corpus, category, position, description, colour FROM categories WHERE corpus = $corpus",
            {"corpus": corpus},
        ).fetchall()
        con.executemany("INSERT INTO categories VALUES (?, ?, ?, ?, ?)", rows)
    copies, submission_ids = [], []
    for number, (reference, compared) in enumerate(pairs, start=1):
        gold_id, submission_id = 2 * number - 1, 2 * number
        for set_id, kind, annotation_set in ((gold_id, "gold", reference), (submission_id, "submission", compared)):
            con.execute(
                "INSERT INTO annotation_sets (set_id, kind, name, split, source_file, sha256, row_count, corpus)"
                " VALUES ($set_id, $kind, $name, $split, '', $sha256, 0, $corpus)",
                {
                    "set_id": set_id,
                    "kind": kind,
                    "name": annotation_set.name,
                    "split": f"pair {number}",
                    "sha256": annotation_set.sha256,
                    "corpus": annotation_set.corpus,
                },
            )
            copies.append((annotation_set.set_id, set_id))
        submission_ids.append(submission_id)
    con.execute("CREATE TEMP TABLE copies (source_set_id INTEGER, set_id INTEGER)")
    con.executemany("INSERT INTO copies VALUES (?, ?)", copies)
    # a copy's mistake_id is its number among the copies: an MQM span's characters (mqm_errors) follow it there
    copy_rows(
        source,
        "SELECT mistake_id, set_id, line_number, text_id, sentence_id, sent_token_start, sent_token_end,"
        " doc_token_start, doc_token_end, category, previous_end, next_start, severity FROM mistakes"
        " WHERE set_id = ANY($ids) AND ($texts IS NULL OR list_contains($texts, text_id))",
        chosen,
        con,
        "CREATE TEMP TABLE copied_mistakes AS SELECT row_number() OVER () AS mistake_id, copies.set_id,"
        " source_rows.mistake_id AS source_mistake_id, line_number, text_id, sentence_id, sent_token_start,"
        " sent_token_end, doc_token_start, doc_token_end, category, previous_end, next_start, severity"
        " FROM source_rows JOIN copies ON copies.source_set_id = source_rows.set_id",
    )
    con.execute(
        "INSERT INTO mistakes (mistake_id, set_id, line_number, text_id, sentence_id, sent_token_start,"
        " sent_token_end, doc_token_start, doc_token_end, category, previous_end, next_start, severity)"
        " SELECT * EXCLUDE (source_mistake_id) FROM copied_mistakes"
    )
    if with_tokens:
        copy_rows(
            source,
            "SELECT mistake_id, text_id, rater, line_number, error_index, category, severity, side, char_start,"
            " char_end FROM mqm_errors WHERE set_id = ANY($ids) AND mistake_id IS NOT NULL",
            {"ids": chosen["ids"]},
            con,
            "INSERT INTO mqm_errors (set_id, text_id, rater, line_number, error_index, category, severity, side,"
            " char_start, char_end, mistake_id)"
            " SELECT copied.set_id, source_rows.text_id, rater, source_rows.line_number, error_index,"
            " source_rows.category, source_rows.severity, side, char_start, char_end, copied.mistake_id"
            " FROM source_rows JOIN copied_mistakes AS copied ON copied.source_mistake_id = source_rows.mistake_id",
        )
    if with_tokens:
        copy_rows(
            source,
            "SELECT text_id, doc_token, sentence_id, sent_token, token FROM tokens"
            " WHERE text_id IN (SELECT text_id FROM mistakes WHERE set_id = ANY($ids))"
            " AND ($texts IS NULL OR list_contains($texts, text_id))",
            chosen,
            con,
            "INSERT INTO tokens (text_id, doc_token, sentence_id, sent_token, token)"
            " SELECT text_id, doc_token, sentence_id, sent_token, token FROM source_rows",
        )
    cover_shared_texts(source, con, pairs, submission_ids)
    con.execute(
        "UPDATE annotation_sets SET row_count = (SELECT count(*) FROM mistakes WHERE set_id = annotation_sets.set_id)"
    )
    database.materialize(con, submission_ids)
    return PairScoring(con, pairs, submission_ids)


def cover_shared_texts(
    source: duckdb.DuckDBPyConnection,
    con: duckdb.DuckDBPyConnection,
    pairs: list[tuple[AnnotationSet, AnnotationSet]],
    submission_ids: list[int],
) -> None:
    """A pair of which either list covers only some texts of its split (an annotator's) is compared on the texts
    both cover (list_texts): the compared list's copy covers those alone, which leaves out the reference's mistakes
    in the others, and its own mistakes in texts the reference did not see are dropped."""
    for (reference, compared), submission_id in zip(pairs, submission_ids):
        shared = source.execute(
            "SELECT text_id FROM list_texts WHERE set_id = $reference"
            " INTERSECT SELECT text_id FROM list_texts WHERE set_id = $compared",
            {"reference": reference.set_id, "compared": compared.set_id},
        ).fetchall()
        partial = source.execute(
            "SELECT count(*) FROM annotation_sets WHERE set_id = ANY($ids) AND NOT covers_split",
            {"ids": [reference.set_id, compared.set_id]},
        ).fetchall()[0][0]
        if partial:
            texts = [text_id for (text_id,) in shared]
            con.execute(
                "DELETE FROM mistakes WHERE set_id = $id AND NOT list_contains($texts, text_id)",
                {"id": submission_id, "texts": texts},
            )
            cover_texts(con, {submission_id: texts})


def copy_rows(
    source: duckdb.DuckDBPyConnection, query: str, params: dict, con: duckdb.DuckDBPyConnection, insert: str
) -> None:
    """The rows of a query on the source database, inserted into con by a statement that reads them as source_rows."""
    con.register("source_rows", source.sql(query, params=params).to_arrow_table())
    try:
        con.execute(insert)
    finally:
        con.unregister("source_rows")


# The figures of each ordered pair: under the shared task's scheme those of the view scores (with the token-level
# ones), under another those of scheme_scores; Cohen's kappa is always that of the shared task's matched pairs
# (category_agreement).
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
SCHEME_FIGURES = """
SELECT
    figures.submission_id, figures.scope, figures.position, figures.recall, figures.precision, figures.f1,
    figures.matched, figures.gold_total AS reference_total, figures.submitted_total AS compared_total,
    figures.correct, figures.incorrect, figures.partial, figures.missed, figures.spurious,
    agreement.pairs AS kappa_pairs, agreement.kappa
FROM scheme_scores AS figures
JOIN category_agreement AS agreement USING (submission_id, scope)
WHERE figures.submission_id = ANY($ids) AND figures.scheme = $scheme
ORDER BY figures.submission_id, figures.position
"""


ESA_FIGURES = """
SELECT
    figures.submission_id, figures.scope, figures.position, figures.texts, figures.recall, figures.precision,
    figures.f1, figures.matched, figures.gold_total AS reference_total, figures.submitted_total AS compared_total,
    agreement.pairs AS kappa_pairs, agreement.kappa
FROM esa_scores AS figures
JOIN category_agreement AS agreement USING (submission_id, scope)
WHERE figures.submission_id = ANY($ids)
ORDER BY figures.submission_id
"""


def figure_models(scheme: str = SCHEME) -> list[str]:
    """What pair_figures reads under a scheme: score_pairs(…, figure_models(scheme)) makes only those."""
    figures = {SCHEME: "scores", ESA: "esa_scores"}.get(scheme, "scheme_scores")
    return [figures, "category_agreement"]


def pair_figures(scoring: PairScoring, scheme: str = SCHEME) -> list[dict]:
    """Every figure of every ordered pair and scope under a match scheme, the reference's and the compared set's
    names first; under nervaluate's schemes their counts too. kappa is Cohen's kappa of the categories of the pairs
    the shared task's matching makes in the ALL scope (in a category's scope, that category against the rest),
    from the view category_agreement."""
    if scheme == SCHEME:
        rows = fetch_dicts(scoring.con, FIGURES, {"ids": scoring.submission_ids})
    elif scheme == ESA:  # two raters who share no item have no figure (the task's 1 would read as agreement)
        rows = [
            whole_counts(row | (dict.fromkeys(("recall", "precision", "f1")) if row["texts"] == 0 else {}))
            for row in fetch_dicts(scoring.con, ESA_FIGURES, {"ids": scoring.submission_ids})
        ]
    else:
        kept = {"submission_id", "scope", "position", "reference_total", "compared_total", "kappa_pairs", "kappa"}
        kept |= set(report_keys(scheme))
        rows = [
            whole_counts({key: value for key, value in row.items() if key in kept})
            for row in fetch_dicts(scoring.con, SCHEME_FIGURES, {"ids": scoring.submission_ids, "scheme": scheme})
        ]
    by_id = dict(zip(scoring.submission_ids, scoring.pairs))
    for row in rows:
        reference, compared = by_id[row.pop("submission_id")]
        row["reference"], row["compared"] = reference.name, compared.name
    return [{"reference": r.pop("reference"), "compared": r.pop("compared"), **r} for r in rows]


def counts_characters(scheme: str) -> bool:
    """Whether a scheme counts characters (char-hard, char-soft, esa), which score_pairs then needs the tokens (and
    an MQM span's own characters, mqm_errors) for."""
    return scheme.startswith("char-") or scheme == ESA


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
