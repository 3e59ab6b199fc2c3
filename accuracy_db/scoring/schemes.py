"""The match schemes: their names, and where Python reads their figures (queries/marts/scheme_scores.sql and
scheme_leaderboard.sql define them)."""

from __future__ import annotations

import duckdb

from accuracy_db.errors import AccuracyDbError
from accuracy_db.scoring.scores import REPORT_KEYS, described, fetch_dicts, find_submission, resolve_split
from accuracy_db.scoring.signature import SCHEME, partial_credit_setting, signature, threshold_setting
from accuracy_db.store.database import DEFAULT_PARTIAL_CREDIT, DEFAULT_THRESHOLD

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
PAIR_SCHEMES = (*SCHEMES, ESA)  # those agreement takes: esa scores one rater's list against another's too
ONE_SCOPE_SCHEMES = (MUSHROOM, ESA)  # they score every span whatever its category: their one scope is ALL
MUSHROOM_KEYS = ["texts", "iou", "cor", "iou_loo", "cor_loo"]
ESA_KEYS = ["texts", "precision", "recall", "f1", "matched", "gold_total", "submitted_total"]
ESA_DESCRIPTION = (
    "esa: WMT25's character F1 with severities (major, minor; half a credit for the wrong one), overlapping spans"
    " counted."
)
MUSHROOM_DESCRIPTION = (
    "mushroom: Mu-SHROOM's iou and cor (means over texts) of the lists read with character labels (import mushroom;"
    f" evaluate: --gsml the labelled JSON Lines file, --submitted the predictions). {ESA_DESCRIPTION}"
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
    con: duckdb.DuckDBPyConnection,
    submission_id: int,
    scheme: str = SCHEME,
    threshold: float | None = None,
    partial_credit: float | None = None,
) -> list[dict]:
    """One submission's figures under a scheme in its corpus's scopes, ALL first, each with its signature (which
    names the threshold the database scores at and the esa scheme's partial credit, when given and not the
    default): the evaluate command's report."""
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
            **partial_credit_setting(partial_credit, DEFAULT_PARTIAL_CREDIT),
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


def check_partial_credit_scheme(credit: float | None, scheme: str) -> None:
    """A partial credit for a wrong severity is the esa scheme's."""
    if credit is not None and scheme != ESA:
        raise AccuracyDbError(f"--partial-credit is the esa scheme's (a count at the wrong severity), not {scheme}'s")


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


def scoring_schemes(con: duckdb.DuckDBPyConnection, corpus: str) -> list[str]:
    """The schemes that rank some list of a corpus, the one it opens on first: the mushroom scheme where its gold
    list is read with character labels (its lists were made for it, and may lie inside one token, which the match
    schemes cannot score), then the match schemes where they score a list of it."""

    def scores(relation: str) -> bool:
        return bool(con.execute(f"SELECT 1 FROM {relation} WHERE corpus = ? LIMIT 1", [corpus]).fetchall())

    mushroom = has_character_labels(con, corpus) and scores("mushroom_leaderboard")
    return [*([MUSHROOM] if mushroom else []), *(SCHEMES if scores("evaluations") else [])]


def opening_scheme(
    con: duckdb.DuckDBPyConnection, corpus: str | None, scheme: str | None = None, threshold: float | None = None
) -> str:
    """The scheme given, else the one a corpus opens on (the first of scoring_schemes; the shared task's when none
    scores a list of it, or no corpus is named, or a probability threshold is given: the match schemes' setting)."""
    if scheme is not None:
        return scheme
    if threshold is not None or corpus is None:
        return SCHEME
    return next(iter(scoring_schemes(con, corpus)), SCHEME)


def not_scored(con: duckdb.DuckDBPyConnection, corpus: str | None, split: str | None, scheme: str) -> str:
    """Why no submission of a corpus (of its split) is ranked under a scheme, in one line, with the scheme that
    ranks them when one does. No corpus: the first (the shared task first) that has the split."""
    if corpus is None:
        found = con.execute(
            "SELECT corpus FROM texts WHERE $split IS NULL OR split = $split"
            " GROUP BY corpus ORDER BY corpus <> 'shared-task', corpus LIMIT 1",
            {"split": resolve_split(con, split)},
        ).fetchall()
        corpus = found[0][0] if found else "shared-task"
    where = described(corpus, resolve_split(con, split, corpus))
    gold, submissions, refused, gold_refused = con.execute(
        "SELECT count(*) FILTER (kind = 'gold'), count(*) FILTER (kind = 'submission'),"
        " count(*) FILTER (refusal.set_id IS NOT NULL),"
        " count(*) FILTER (kind = 'gold' AND refusal.set_id IS NOT NULL)"
        " FROM annotation_sets AS lists LEFT JOIN (SELECT DISTINCT set_id FROM scheme_refusals) AS refusal"
        " USING (set_id) WHERE corpus = $corpus AND ($split IS NULL OR split = $split)",
        {"corpus": corpus, "split": resolve_split(con, split, corpus)},
    ).fetchone()
    others = [name for name in scoring_schemes(con, corpus) if name != scheme]
    ranks = f"; the {others[0]} scheme ranks them" if others and submissions else ""
    if not submissions:
        return f"{where} has no submission to rank: `accuracy-db build --submissions` or `import` loads some"
    if not gold:
        return f"{where} has no gold list to score its {submissions} submission(s) against"
    if scheme == MUSHROOM:
        return (
            f"no submission of {where} is read with character labels, which the mushroom scheme scores"
            f" (`import mushroom` reads them){ranks}"
        )
    whose = "its gold list" + (f" and {refused - 1} of its {submissions} submission(s)" if refused > 1 else "")
    if not gold_refused:
        whose = f"all {submissions} of its submission(s)"
    have = "has" if refused == 1 else "have"
    return (
        f"no submission of {where} is scored under the {scheme} scheme: {whose} {have} spans that overlap within the"
        f" list ({refused} list(s), named in scheme_refusals), which the match schemes do not score{ranks}"
        if refused
        else f"no submission of {where} is scored under the {scheme} scheme{ranks}"
    )


def scheme_of_lists(
    con: duckdb.DuckDBPyConnection,
    scheme: str | None,
    corpus: str | None,
    names: list[str],
    threshold: float | None = None,
) -> str:
    """opening_scheme of the lists' corpus: the corpus given, else the one corpus the names are lists of (the
    shared task's scheme when they are in several, or none)."""
    if scheme is None and corpus is None:
        found = con.execute(
            "SELECT DISTINCT corpus FROM annotation_sets WHERE list_contains($names, name)", {"names": names}
        ).fetchall()
        corpus = found[0][0] if len(found) == 1 else None
    return opening_scheme(con, corpus, scheme, threshold)
