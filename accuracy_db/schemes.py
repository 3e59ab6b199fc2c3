"""The match schemes: their names, and where Python reads their figures (queries/marts/scheme_scores.sql and
scheme_leaderboard.sql define them)."""

from __future__ import annotations

import duckdb

from .scores import fetch_dicts, resolve_split
from .signature import SCHEME, signature

NERVALUATE_SCHEMES = ("strict", "exact", "partial", "ent_type")
UNIT_SCHEMES = ("token-hard", "token-soft", "char-hard", "char-soft")
SCHEMES = (SCHEME, *NERVALUATE_SCHEMES, *UNIT_SCHEMES)

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
    if row["matched"] is not None and float(row["matched"]).is_integer():
        row["matched"] = int(row["matched"])
    return row


def submission_report(con: duckdb.DuckDBPyConnection, submission_id: int, scheme: str) -> list[dict]:
    """One submission's figures under a scheme in the seven scopes, ALL first, each with its signature."""
    rows = fetch_dicts(
        con,
        f"SELECT scope AS categories, {', '.join(report_keys(scheme))}, gold_sha256, submission_sha256"
        " FROM scheme_scores WHERE submission_id = $submission_id AND scheme = $scheme ORDER BY position",
        {"submission_id": submission_id, "scheme": scheme},
    )
    for row in rows:
        row["signature"] = signature(row.pop("gold_sha256"), row.pop("submission_sha256"), row["categories"], scheme)
    return [whole_counts(row) for row in rows]


def ranked(
    con: duckdb.DuckDBPyConnection, split: str | None, scope: str, scheme: str, corpus: str = "shared-task"
) -> list[dict]:
    """Every scored submission of a corpus's split (or of all its splits) ranked under a scheme in one scope, with
    the ids and fingerprints the statistics and the signature need (submission_id, gold_sha256,
    submission_sha256)."""
    split = resolve_split(con, split, corpus)
    rows = fetch_dicts(
        con,
        f"SELECT rank, submission, split, scope AS categories, {', '.join(report_keys(scheme))},"
        " submission_id, gold_sha256, submission_sha256 FROM scheme_leaderboard"
        " WHERE scheme = $scheme AND corpus = $corpus AND scope = $scope AND ($split IS NULL OR split = $split)"
        " ORDER BY split DESC, rank, submission",
        {"scheme": scheme, "corpus": corpus, "scope": scope, "split": split},
    )
    return [whole_counts(row) for row in rows]
