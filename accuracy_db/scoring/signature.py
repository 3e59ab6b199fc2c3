"""The signature printed with every figure, as sacreBLEU prints one: what was scored, how, with which settings.

accuracy-db:0.2.0|scheme:shared-task|gold:1a2b3c4d5e6f|sub:0f9e8d7c6b5a|scope:ALL|bs:1000|seed:12345|ci:95
The lists are named by the first 12 hex digits of their files' SHA-256 (two submissions joined by +). Two figures
with the same signature were computed from the same files the same way.
"""

from __future__ import annotations

from accuracy_db.defaults import VERSION

SCHEME = "shared-task"  # the default match scheme: the shared task's (accuracy_db/scoring/schemes.py lists them all)


def signature(
    gold_sha256: str, submission_sha256: str | list[str], scope: str, scheme: str = SCHEME, **settings
) -> str:
    """The signature of figures of a submission (or of two, compared) against a gold list under a match scheme,
    with the settings that made them (bs, seed, ci, test, trials…) in the order given."""
    submissions = [submission_sha256] if isinstance(submission_sha256, str) else submission_sha256
    parts = [
        f"accuracy-db:{VERSION}",
        f"scheme:{scheme}",
        f"gold:{gold_sha256[:12]}",
        "sub:" + "+".join(sha256[:12] for sha256 in submissions),
        f"scope:{scope}",
    ]
    return "|".join(parts + [f"{key}:{value}" for key, value in settings.items()])


def partial_credit_setting(credit: float | None, default: float) -> dict:
    """The esa scheme's partial credit as a signature names it: only when it is not the default (--partial-credit)."""
    return {} if credit is None or credit == default else {"partial_credit": f"{credit:g}"}


def threshold_setting(threshold: float | None, default: float) -> dict:
    """The threshold as a signature names it: only when it is not the default, at which every figure is computed
    unless a command is given another (--threshold)."""
    return {} if threshold is None or threshold == default else {"threshold": f"{threshold:g}"}
