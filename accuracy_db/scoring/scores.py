"""Read scores from the views: the one place Python asks for figures, for the CLI and the dashboard alike."""

from __future__ import annotations

import difflib
from collections.abc import Sequence

import duckdb

from accuracy_db.errors import AccuracyDbError

# The keys of the shared task scorer's figures, in its order, then the F1 scores it did not report.
REPORT_KEYS = [
    "recall",
    "precision",
    "token_recall",
    "token_precision",
    "matched",
    "gold_total",
    "submitted_total",
    "token_matched",
    "gold_tokens",
    "submitted_tokens",
    "f1",
    "token_f1",
]
SPLIT_ALIASES = {"dev": "train"}


def resolve_split(con: duckdb.DuckDBPyConnection, split: str | None, corpus: str | None = None) -> str | None:
    """A split as given, or the split its alias names (dev: the shared task's train) when no text (of the corpus,
    when given) has a split of that name: another corpus may call a split of its own dev."""
    if split not in SPLIT_ALIASES:
        return split
    [(texts,)] = con.execute(
        "SELECT count(*) FROM texts WHERE split = $split AND ($corpus IS NULL OR corpus = $corpus)",
        {"split": split, "corpus": corpus},
    ).fetchall()
    return split if texts else SPLIT_ALIASES[split]


def fetch_dicts(con: duckdb.DuckDBPyConnection, sql: str, params=None) -> list[dict]:
    cursor = con.execute(sql, params or {})
    columns = [column[0] for column in cursor.description]
    return [dict(zip(columns, row)) for row in cursor.fetchall()]


def check_corpus_choice(
    con: duckdb.DuckDBPyConnection, corpus: str | None, split: str | None = None, scopes: Sequence[str] = ()
) -> None:
    """A clear error when the corpus, a split or a scope is not one the database has (for the corpus, when one is
    named: without it, a split of any corpus): every command checks its --corpus, --split and --scope here."""
    corpora = [name for (name,) in con.execute("SELECT corpus FROM corpora ORDER BY 1").fetchall()]
    if corpus is not None and corpus not in corpora:
        raise AccuracyDbError(f"no corpus named {corpus!r} (the corpora: {', '.join(corpora)})")
    if corpus is not None:
        check_scopes(con, corpus, list(scopes))
    if split is None:
        return
    splits = fetch_dicts(
        con,
        "SELECT corpus, string_agg(DISTINCT split, ', ' ORDER BY split) AS splits,"
        " bool_or(split = $split) AS has_it FROM texts"
        " WHERE $corpus IS NULL OR corpus = $corpus GROUP BY corpus ORDER BY corpus",
        {"corpus": corpus, "split": resolve_split(con, split, corpus)},
    )
    if any(row["has_it"] for row in splits):
        return
    if corpus is not None:
        known = splits[0]["splits"] if splits else "none"
        raise AccuracyDbError(f"split {split!r} is not a split of corpus {corpus} ({known})")
    known = "; ".join(f"{row['corpus']}: {row['splits']}" for row in splits) or "none"
    raise AccuracyDbError(f"split {split!r} is not a split of any corpus ({known})")


DIFFICULTY_MEASURES = ("found_by", "annotators")


def recall_by_difficulty(
    con: duckdb.DuckDBPyConnection, measure: str, split: str | None = None, corpus: str | None = None
) -> list[dict]:
    """Each submission's recall over the gold mistakes of each difficulty level (recall_by_difficulty): found by k
    submissions of its split (measure found_by), or marked by k annotators (annotators; None: not in the
    curation). Submissions in leaderboard order, levels from the easiest: most finders first."""
    if measure not in DIFFICULTY_MEASURES:
        raise ValueError(f"measure is {measure!r}: expected one of {DIFFICULTY_MEASURES}")
    split = resolve_split(con, split, corpus)
    return fetch_dicts(
        con,
        f"SELECT difficulty.submission, difficulty.split, difficulty.level AS {measure}, difficulty.recall,"
        " difficulty.matched, difficulty.gold AS gold_total"
        " FROM recall_by_difficulty AS difficulty"
        " JOIN leaderboard USING (submission_id)"
        " WHERE leaderboard.scope = 'ALL' AND difficulty.measure = $measure"
        " AND ($split IS NULL OR difficulty.split = $split) AND ($corpus IS NULL OR leaderboard.corpus = $corpus)"
        " ORDER BY difficulty.split DESC, leaderboard.rank, difficulty.submission, difficulty.level DESC NULLS LAST",
        {"measure": measure, "split": split, "corpus": corpus},
    )


def described(corpus: str | None, split: str | None) -> str:
    """A corpus and a split as a message names them: 'corpus weather, the test split', or '' for neither."""
    return ", ".join(filter(None, [f"corpus {corpus}" if corpus else "", f"the {split} split" if split else ""]))


def place(corpus: str | None, split: str | None) -> str:
    """Where a name was looked for, for a message: ' in corpus weather, the test split', or ''."""
    where = described(corpus, split)
    return f" in {where}" if where else ""


def ambiguity(name: str, found: list[dict], what: str) -> AccuracyDbError:
    """The error for a name of several lists: which option tells them apart."""
    corpora = sorted({row["corpus"] for row in found})
    if len(corpora) > 1:
        return AccuracyDbError(f"{name!r} is a {what} of the corpora {' and '.join(corpora)}: give --corpus")
    splits = " and ".join(row["split"] for row in found)
    return AccuracyDbError(f"{name!r} is a {what} of the {splits} splits: give --split")


def not_here(name: str, what: str, corpus: str | None, split: str | None, elsewhere: list[dict]) -> AccuracyDbError:
    """The error for a name that is in other corpora or splits (elsewhere: their rows) than the ones asked for."""
    where = " and ".join(sorted({described(row["corpus"] if corpus else None, row["split"]) for row in elsewhere}))
    return AccuracyDbError(f"no {what} named {name!r}{place(corpus, split)}: it is in {where}")


def unknown_name(
    con: duckdb.DuckDBPyConnection,
    relation: str,
    name_column: str,
    name: str,
    what: str,
    corpus: str | None,
    split: str | None,
    listed_by: str,
) -> AccuracyDbError:
    """The error for a name that no row of relation (evaluations, annotation_sets) has in the corpus and split
    asked for: where it is instead, or the closest name and the command that lists them."""
    elsewhere = fetch_dicts(con, f"SELECT corpus, split FROM {relation} WHERE {name_column} = $name", {"name": name})
    if elsewhere:
        return not_here(name, what, corpus, split, elsewhere)
    names = [n for (n,) in con.execute(f"SELECT DISTINCT {name_column} FROM {relation}").fetchall()]
    close = difflib.get_close_matches(name, names, n=1)
    hint = f"did you mean {close[0]}? " if close else ""
    listing = f"`accuracy-db leaderboard{f' --corpus {corpus}' if corpus else ''}` {listed_by}"  # (it ranks one corpus)
    return AccuracyDbError(f"no {what} named {name!r}{place(corpus, split)}: {hint}{listing}")


def find_submission(
    con: duckdb.DuckDBPyConnection,
    name: str,
    split: str | None = None,
    corpus: str | None = None,
    scored_in: str = "evaluations",
) -> dict:
    """The loaded submission of that name (in that split, of that corpus) among those a relation scores
    (evaluations, or mushroom_leaderboard for the lists read with character labels): its id, corpus, split and
    the hashes of its two files."""
    split = resolve_split(con, split, corpus)
    found = fetch_dicts(
        con,
        "SELECT submission_id, submission, corpus, split, gold_id, submission_sha256, gold_sha256"
        f" FROM {scored_in}"
        " WHERE submission = $name AND ($split IS NULL OR split = $split) AND ($corpus IS NULL OR corpus = $corpus)"
        " ORDER BY corpus, split DESC",
        {"name": name, "split": split, "corpus": corpus},
    )
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        raise ambiguity(name, found, "submission")
    if scored_in == "evaluations" and (why := why_unscored(con, name, split, corpus)):
        raise AccuracyDbError(why)
    raise unknown_name(con, scored_in, "submission", name, "submission", corpus, split, "lists them")


def why_unscored(con: duckdb.DuckDBPyConnection, name: str, split: str | None, corpus: str | None) -> str | None:
    """Why a loaded submission of that name (in that split, of that corpus) is not scored under the match schemes,
    in one line: its spans, or its gold list's, overlap within the list (scheme_refusals), or its split has no gold
    list. None when no such submission is loaded."""
    found = fetch_dicts(
        con,
        "SELECT corpus, split, set_id IN (SELECT set_id FROM scheme_refusals) AS refused,"
        " (SELECT max(gold.set_id IN (SELECT set_id FROM scheme_refusals)) FROM annotation_sets AS gold"
        "  WHERE gold.kind = 'gold' AND gold.corpus = lists.corpus AND gold.split = lists.split) AS gold_refused,"
        " EXISTS (SELECT 1 FROM character_label_lists WHERE set_id = lists.set_id) AS character_labels"
        " FROM annotation_sets AS lists"
        " WHERE kind = 'submission' AND name = $name AND ($split IS NULL OR split = $split)"
        " AND ($corpus IS NULL OR corpus = $corpus) ORDER BY corpus, split DESC LIMIT 1",
        {"name": name, "split": split, "corpus": corpus},
    )
    if not found:
        return None
    [row] = found
    if row["refused"] or row["gold_refused"]:
        whose = "its spans" if row["refused"] else "its gold list's spans"
        why = f"{whose} overlap within the list (scheme_refusals names them), which the match schemes do not score"
    else:
        why = "its split has no gold list"
    mushroom = "; `leaderboard` and `compare` score it under the mushroom scheme" if row["character_labels"] else ""
    return f"{name} ({described(row['corpus'], row['split'])}) is loaded but not scored: {why}{mushroom}"


def check_scopes(con: duckdb.DuckDBPyConnection, corpus: str, scopes: list[str]) -> list[str]:
    """The scopes given, each checked to be ALL or a category of the corpus; all of the corpus's when none is."""
    known = [
        n for (n,) in con.execute("SELECT scope FROM scopes WHERE corpus = ? ORDER BY position", [corpus]).fetchall()
    ]
    for scope in scopes:
        if scope not in known:
            raise AccuracyDbError(f"scope {scope!r} is not a scope of corpus {corpus} ({', '.join(known)})")
    return list(scopes) or known
