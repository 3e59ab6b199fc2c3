"""The match schemes: their names, and where Python reads their figures (queries/marts/scheme_scores.sql and
scheme_leaderboard.sql define them)."""

from __future__ import annotations

import duckdb

from accuracy_db.errors import AccuracyDbError
from accuracy_db.scoring.scores import REPORT_KEYS, fetch_dicts, find_submission, resolve_split
from accuracy_db.scoring.signature import SCHEME, signature, threshold_setting
from accuracy_db.store.database import DEFAULT_THRESHOLD

NERVALUATE_SCHEMES = ("strict", "exact", "partial", "ent_type")
UNIT_SCHEMES = ("token-hard", "token-soft", "char-hard", "char-soft")
SCHEMES = (SCHEME, *NERVALUATE_SCHEMES, *UNIT_SCHEMES)
# SemEval-2025 Task 3's figures over characters (queries/marts/mushroom_scores.sql), of the lists read with character
# labels alone: not a match scheme of two span lists (agreement and the dashboard's pair pages do not take it).
MUSHROOM = "mushroom"
# WMT25's error-span task's character F1 with severities (queries/marts/esa_scores.sql), of any list against the gold
# of its corpus, overlapping spans counted: not a match scheme of two span lists either.
ESA = "esa"
RANKING_SCHEMES = (*SCHEMES, MUSHROOM, ESA)  # those evaluate, leaderboard and compare take
ONE_SCOPE_SCHEMES = (MUSHROOM, ESA)  # they score every span whatever its category: their one scope is ALL
MUSHROOM_KEYS = ["texts", "iou", "cor", "iou_loo", "cor_loo"]
ESA_KEYS = ["texts", "precision", "recall", "f1", "matched", "gold_total", "submitted_total"]
MUSHROOM_DESCRIPTION = (
    "mushroom: Mu-SHROOM's iou and cor (means over texts) of the lists read with character labels (import mushroom;"
    " evaluate: --gsml the labelled JSON Lines file, --submitted the predictions). esa: WMT25's character F1 with"
    " severities (major, minor; half a credit for the wrong one), overlapping spans counted."
)

# The keys of a scheme's report, after the scope: the figures, their counts, and nervaluate's counts.
FIGURE_KEYS = ["recall", "precision", "f1", "matched", "gold_total", "submitted_total"]
NERVALUATE_KEYS = ["correct", "incorrect", "partial", "missed", "spurious"]
HALF_COUNT_SCHEMES = ("partial", "ent_type")  # their matched is COR + 0.5 PAR (scheme_scores.matched)
# What the schemes are, in a sentence: the help of --scheme and of the dashboard's scheme selectors.
DESCRIPTION = (
    "The shared task's, nervaluate's strict, exact, partial and ent_type, or F1 over tokens or characters with (hard) "
    "or without (soft) agreement of category: docs/scoring.md's Match schemes defines each."
)


def report_keys(scheme: str) -> list[str]:
    return FIGURE_KEYS + (NERVALUATE_KEYS if scheme in NERVALUATE_SCHEMES else [])


def whole_counts(row: dict) -> dict:
    """matched is COR + 0.5 PAR under HALF_COUNT_SCHEMES: a whole number is shown as one."""
    if row.get("matched") is not None and float(row["matched"]).is_integer():
        row["matched"] = int(row["matched"])
    return row


def figures_of(scheme: str, shared_task_view: str, schemes_view: str) -> tuple[str, str, dict]:
    """The keys a scheme reports, the relation its rows are read from with the condition that keeps them, and that
    condition's parameters: the shared task's own views (the only ones the drop-in evaluate creates), the mushroom
    scheme's leaderboard, or the views of the other schemes filtered to it."""
    if scheme == SCHEME:
        return ", ".join(REPORT_KEYS), f"{shared_task_view} WHERE true", {}
    if scheme == MUSHROOM:
        return ", ".join(MUSHROOM_KEYS), "mushroom_leaderboard WHERE true", {}
    if scheme == ESA:
        return ", ".join(ESA_KEYS), "esa_scores WHERE true", {}
    return ", ".join(report_keys(scheme)), f"{schemes_view} WHERE scheme = $scheme", {"scheme": scheme}


def submission_report(
    con: duckdb.DuckDBPyConnection, submission_id: int, scheme: str = SCHEME, threshold: float | None = None
) -> list[dict]:
    """One submission's figures under a scheme in its corpus's scopes, ALL first, each with its signature (which
    names the threshold the database scores at, when given and not the default): the evaluate command's report."""
    keys, source, params = figures_of(scheme, "scores", "scheme_scores")
    rows = fetch_dicts(
        con,
        f"SELECT scope AS categories, {keys}, gold_sha256, submission_sha256"
        f" FROM {source} AND submission_id = $submission_id ORDER BY position",
        {**params, "submission_id": submission_id},
    )
    for row in rows:
        row["signature"] = signature(
            row.pop("gold_sha256"),
            row.pop("submission_sha256"),
            row["categories"],
            scheme,
            **threshold_setting(threshold, DEFAULT_THRESHOLD),
        )
    return [whole_counts(row) for row in rows]


def ranked(
    con: duckdb.DuckDBPyConnection,
    split: str | None,
    scope: str,
    scheme: str = SCHEME,
    corpus: str = "shared-task",
) -> list[dict]:
    """Every scored submission of a corpus's split (or of all its splits) ranked under a scheme in one scope, with
    the ids and fingerprints the statistics and the signature need (submission_id, gold_sha256,
    submission_sha256, covers_split): each row says what the list is (kind) and on how many texts it is scored
    (list_roles). The mushroom and esa schemes' one scope is ALL."""
    if scheme in ONE_SCOPE_SCHEMES:
        check_mushroom_scope(scope, scheme)
    if scheme == MUSHROOM:
        if not has_character_labels(con, corpus):
            raise AccuracyDbError(
                f"corpus {corpus} has no list read with character labels: `import mushroom` reads some"
            )
    keys, source, params = figures_of(scheme, "leaderboard", "scheme_leaderboard")
    # every scheme's rows say what each list is and on how many texts it is scored (list_roles)
    figures = ", ".join(f"scored.{key}" for key in keys.split(", ") if key != "texts")
    rows = fetch_dicts(
        con,
        "SELECT scored.rank, list_roles.kind, scored.submission, scored.split, scored.scope AS categories,"
        f" list_roles.texts, {figures}, scored.submission_id, scored.gold_sha256, scored.submission_sha256,"
        " list_roles.covers_split"
        f" FROM (SELECT * FROM {source} AND corpus = $corpus AND scope = $scope"
        " AND ($split IS NULL OR split = $split)) AS scored"
        " JOIN list_roles ON list_roles.set_id = scored.submission_id"
        " ORDER BY scored.split DESC, scored.rank, scored.submission",
        {**params, "corpus": corpus, "scope": scope, "split": resolve_split(con, split, corpus)},
    )
    return [whole_counts(row) for row in rows]


def check_threshold_scheme(threshold: float | None, scheme: str) -> None:
    """A probability threshold is for the match schemes; the mushroom scheme reads the probabilities themselves."""
    if threshold is not None and scheme == MUSHROOM:
        raise AccuracyDbError(
            "the mushroom scheme reads the probabilities themselves: --threshold is the other schemes'"
        )


def check_mushroom_scope(scope: str, scheme: str = MUSHROOM) -> None:
    if scope != "ALL":
        what = "label" if scheme == MUSHROOM else "span"
        raise AccuracyDbError(f"the {scheme} scheme scores every {what}: its one scope is ALL, not {scope!r}")


def has_character_labels(con: duckdb.DuckDBPyConnection, corpus: str) -> bool:
    """Whether a corpus has a gold list read with character labels, which the mushroom scheme scores against."""
    return bool(
        con.execute(
            "SELECT 1 FROM annotation_sets JOIN character_label_lists USING (set_id)"
            " WHERE corpus = ? AND kind = 'gold'",
            [corpus],
        ).fetchall()
    )


def find_scored(
    con: duckdb.DuckDBPyConnection, name: str, split: str | None, corpus: str | None, scope: str, scheme: str
) -> dict:
    """find_submission among the lists a scheme scores: under the mushroom scheme, those read with character labels
    (whose token spans may overlap, which the other schemes refuse), in scope ALL; under the esa scheme, every
    submission (overlaps counted), in scope ALL."""
    if scheme == ESA:
        check_mushroom_scope(scope, scheme)
        return find_submission(con, name, split, corpus, scored_in="esa_scores")
    if scheme != MUSHROOM:
        return find_submission(con, name, split, corpus)
    check_mushroom_scope(scope)
    lists = "SELECT 1 FROM {} WHERE {} = $name AND ($corpus IS NULL OR corpus = $corpus)"
    params = {"name": name, "corpus": corpus}
    if not con.execute(lists.format("mushroom_leaderboard", "submission"), params).fetchall() and (
        con.execute(lists.format("annotation_sets", "kind = 'submission' AND name"), params).fetchall()
    ):
        raise AccuracyDbError(
            f"{name} was not read with character labels: the mushroom scheme scores the lists `import mushroom` reads"
        )
    return find_submission(con, name, split, corpus, scored_in="mushroom_leaderboard")
