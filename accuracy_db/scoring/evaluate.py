"""Score one submission against a gold list, as the shared task's evaluate.py does, in an in-memory database."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from accuracy_db.errors import AccuracyDbError, InputError, Problem
from accuracy_db.etl import format_hints, mistake_lists, texts
from accuracy_db.etl.data_folder import splits
from accuracy_db.printable import utf8_text
from accuracy_db.scoring import schemes
from accuracy_db.scoring.signature import SCHEME
from accuracy_db.store import database

SPLIT = "evaluate"  # the split label of the texts handed to this command, when the gold list is in no data folder


@dataclass
class Evaluation:
    """The seven scope reports (ALL, NAME, … OTHER), and what was accepted with a warning."""

    report: list[dict]
    warnings: list[Problem]


# The views the report reads (materialize reads evaluations, which the esa scheme's views do not).
MODELS = {SCHEME: ["scores"], schemes.ESA: ["esa_scores", "evaluations"]}


def load_tokens(con, gsml: Path, token_lookup: Path | None, text_dir: Path | None, split: str) -> None:
    """The tokens come from --text_dir, or --token_lookup, or else whichever sits next to the gold list."""
    if text_dir is None and token_lookup is None:
        text_dir = gsml.parent / "texts" if (gsml.parent / "texts").is_dir() else None
        token_lookup = gsml.parent / "token_lookup.yaml" if text_dir is None else None
        if token_lookup is not None and not os.path.lexists(token_lookup):
            raise AccuracyDbError(
                f"no tokens for the texts: give --text_dir or --token_lookup (none found next to {gsml})"
            )
    if text_dir is not None:
        texts.load_texts(con, split, texts.read_texts(text_dir), in_sql=True)
        if token_lookup is not None:
            texts.check_token_lookup(con, token_lookup, split, texts.read_token_lookup(token_lookup))
    else:
        texts.load_token_lookup(con, split, texts.read_token_lookup(token_lookup), token_lookup)


def gold_split(gsml: Path) -> tuple[str, dict[str, str]]:
    """The split of the gold list when it sits in a shared-task data folder (else SPLIT), and the text ids of the
    folder's other splits (by file name only), so that a submission of another split is told so."""
    folder = gsml.parent.resolve()
    for root in (folder.parent, folder):  # the test split's folder is in the train split's
        found = splits(root)
        own = [split_files.split for split_files in found if split_files.folder.resolve() == folder]
        if own:
            others = {
                utf8_text(path.stem): split_files.split  # (names only: a text not UTF-8 is refused when read)
                for split_files in found
                if split_files.split != own[0]
                for path in split_files.texts_dir.glob("*.txt")
            }
            return own[0], others
    return SPLIT, {}


def evaluate_with_warnings(
    gsml: Path,
    submitted: Path,
    token_lookup: Path | None = None,
    text_dir: Path | None = None,
    strict: bool = False,
    scheme: str = SCHEME,
    threshold: float | None = None,
    partial_credit: float | None = None,
) -> Evaluation:
    """Score a submission against a gold list. What the shared task's scorer scores anyway (TOKENS that differ
    from the text, a TYPE that is no category) is scored as it does, with a warning; strict refuses it. threshold:
    the rows with a PROBABILITY are scored when it is at or above this one (default 0.5). partial_credit: the esa
    scheme's credit for a count at the wrong severity (default 0.5)."""
    for path in (gsml, submitted):
        format_hints.refuse_mushroom_file(path, "a mistake list", format_hints.EVALUATE)
    schemes.check_threshold_scheme(threshold, scheme)
    schemes.check_partial_credit_scheme(partial_credit, scheme)
    if threshold is not None:
        database.check_threshold(threshold)
    if partial_credit is not None:
        database.check_partial_credit(partial_credit)
    split, other_split_texts = gold_split(gsml)
    # the report reads scores alone (scheme_scores under another scheme); two lists of a few thousand rows are
    # checked and scored quicker by one thread than by several, which coordinate (and wait for a core on a busy machine)
    con = database.open_new(None, models=MODELS.get(scheme, ["scheme_scores"]), threads=1)
    if threshold is not None:
        database.set_threshold(con, threshold)
    load_tokens(con, gsml, token_lookup, text_dir, split)
    problems, warnings = [], []
    submission_id = None
    for path, kind in ((gsml, "gold"), (submitted, "submission")):
        try:
            loaded = mistake_lists.load_mistake_list(
                con, path, kind, kind, split, scorable=not strict, other_split_texts=other_split_texts
            )
        except InputError as error:
            problems += error.problems
        else:
            warnings += loaded.warnings
            submission_id = loaded.set_id if kind == "submission" else submission_id
    if problems:
        raise InputError(problems)
    database.materialize(con)
    with database.credited(con, partial_credit):
        report = schemes.submission_report(con, submission_id, scheme, threshold, partial_credit)
    return Evaluation(report, warnings)


def evaluate(
    gsml: Path, submitted: Path, token_lookup: Path | None = None, text_dir: Path | None = None, strict: bool = False
) -> list[dict]:
    """The seven scope reports (ALL, NAME, … OTHER) of a submission against a gold list."""
    return evaluate_with_warnings(gsml, submitted, token_lookup, text_dir, strict).report


def evaluate_mushroom(reference: Path, predicted: Path, strict: bool = False) -> Evaluation:
    """Score a Mu-SHROOM prediction file against a labelled file, as the task's scorer does: iou and cor averaged
    over the reference's texts (queries/marts/mushroom_scores.sql), in an in-memory database. strict: refuse what
    the files leave out (empty spans, annotations that cannot be read) rather than count it in a warning."""
    from accuracy_db.etl import mushroom_files  # (polars: only this scheme's drop-in takes its import time)

    con = database.open_new(None, models=["mushroom_scores"], threads=1)
    gold = mushroom_files.load_gold(con, reference, SPLIT, annotators=False, strict=strict)
    loaded = mushroom_files.load_prediction(con, predicted, SPLIT, "submission", strict)
    rows = con.execute(
        "SELECT sum(texts)::BIGINT AS texts, sum(iou * texts) / sum(texts) AS iou, sum(cor * texts) / sum(texts) AS cor"
        " FROM mushroom_scores WHERE submission = 'submission'"
    ).fetchall()
    return Evaluation([dict(zip(("texts", "iou", "cor"), rows[0], strict=True))], gold.warnings + loaded.warnings)
