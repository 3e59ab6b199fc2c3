"""Score one submission against a gold list, as the shared task's evaluate.py does, in an in-memory database."""

from __future__ import annotations

import os
from pathlib import Path

from . import database, scores
from .errors import AccuracyDbError, InputError
from .etl import mistake_lists, texts

SPLIT = "evaluate"  # the split label of the texts handed to this command


def load_tokens(con, gsml: Path, token_lookup: Path | None, text_dir: Path | None) -> None:
    """The tokens come from --text_dir, or --token_lookup, or else whichever sits next to the gold list."""
    if text_dir is None and token_lookup is None:
        text_dir = gsml.parent / "texts" if (gsml.parent / "texts").is_dir() else None
        token_lookup = gsml.parent / "token_lookup.yaml" if text_dir is None else None
        if token_lookup is not None and not os.path.lexists(token_lookup):
            raise AccuracyDbError(
                f"no tokens for the texts: give --text_dir or --token_lookup (none found next to {gsml})"
            )
    if text_dir is not None:
        texts.load_texts(con, SPLIT, texts.read_texts(text_dir))
        if token_lookup is not None:
            texts.check_token_lookup(con, token_lookup, SPLIT, texts.read_token_lookup(token_lookup))
    else:
        texts.load_token_lookup(con, SPLIT, texts.read_token_lookup(token_lookup), token_lookup)


def evaluate(gsml: Path, submitted: Path, token_lookup: Path | None = None, text_dir: Path | None = None) -> list[dict]:
    """The seven scope reports (ALL, NAME, … OTHER) of a submission against a gold list."""
    con = database.open_new(None)
    load_tokens(con, gsml, token_lookup, text_dir)
    problems = []
    submission_id = None
    for path, kind in ((gsml, "gold"), (submitted, "submission")):
        try:
            set_id = mistake_lists.load_mistake_list(con, path, kind, kind, SPLIT)
        except InputError as error:
            problems += error.problems
        else:
            submission_id = set_id if kind == "submission" else submission_id
    if problems:
        raise InputError(problems)
    database.materialize(con)
    return scores.submission_report(con, submission_id)
