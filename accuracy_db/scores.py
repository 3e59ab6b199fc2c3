"""Read scores from the views: the one place Python asks for figures, for the CLI and the dashboard alike."""

from __future__ import annotations

import duckdb

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


def fetch_dicts(con: duckdb.DuckDBPyConnection, sql: str, params=None) -> list[dict]:
    cursor = con.execute(sql, params or {})
    columns = [column[0] for column in cursor.description]
    return [dict(zip(columns, row)) for row in cursor.fetchall()]


def submission_report(con: duckdb.DuckDBPyConnection, submission_id: int) -> list[dict]:
    """One submission's figures in the seven scopes, ALL first, each with its signature: the evaluate command's
    report."""
    from .signature import signature

    rows = fetch_dicts(
        con,
        f"SELECT scope AS categories, {', '.join(REPORT_KEYS)}, gold_sha256, submission_sha256 FROM scores"
        " WHERE submission_id = $submission_id ORDER BY position",
        {"submission_id": submission_id},
    )
    for row in rows:
        row["signature"] = signature(row.pop("gold_sha256"), row.pop("submission_sha256"), row["categories"])
    return rows


def leaderboard(con: duckdb.DuckDBPyConnection, split: str | None = None, scope: str = "ALL") -> list[dict]:
    """Every scored submission of a split (or of all splits) ranked in one scope, with the ids and fingerprints
    the statistics and the signature need (submission_id, gold_sha256, submission_sha256)."""
    split = SPLIT_ALIASES.get(split, split)
    return fetch_dicts(
        con,
        f"SELECT rank, submission, split, scope AS categories, {', '.join(REPORT_KEYS)},"
        " submission_id, gold_sha256, submission_sha256 FROM leaderboard"
        " WHERE scope = $scope AND ($split IS NULL OR split = $split)"
        " ORDER BY split DESC, rank, submission",
        {"scope": scope, "split": split},
    )
