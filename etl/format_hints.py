"""Tell a Mu-SHROOM file given where another format was expected (a shared-task CSV list, a corpus folder, a
factgenie campaign, a file of scores), so that the command can say in one line which command or flag reads it.

Only the first line is read, and only from a regular file (regular_files.py): a Mu-SHROOM line is a JSON object with
hard_labels or soft_labels. A file that cannot be read so is not one; its own reader says what is wrong with it.
"""

from __future__ import annotations

import json
from pathlib import Path

from accuracy_db.errors import AccuracyDbError, InputError
from accuracy_db.regular_files import open_regular

LABELS = ("hard_labels", "soft_labels")  # one of them is on every line of a Mu-SHROOM file
MAX_FIRST_LINE = 10_000_000  # bytes: a published line with its model_output_logits has some 20,000
IMPORT = (
    "import it with `accuracy-db import mushroom FILE --as gold` (a labelled file: a new corpus) or "
    "`accuracy-db import mushroom FILE --corpus C` (predictions of a corpus C imported so)"
)
EVALUATE = "give --scheme mushroom to score it as the task's scorer does"


def is_mushroom_file(path: Path) -> bool:
    """Whether the file's first line is a JSON object with hard_labels or soft_labels."""
    try:
        with open_regular(path) as stream:
            first = stream.readline(MAX_FIRST_LINE)
    except (InputError, OSError):
        return False
    if not first.lstrip().startswith(b"{"):  # (a CSV list: not parsed)
        return False
    try:
        value = json.loads(first)
    except (ValueError, RecursionError):
        return False
    return isinstance(value, dict) and any(key in value for key in LABELS)


def refuse_mushroom_file(path: Path, what: str, hint: str = IMPORT) -> None:
    """AccuracyDbError, in one line, when a Mu-SHROOM file was given where what was expected."""
    if is_mushroom_file(path):
        raise AccuracyDbError(f"{path} is a Mu-SHROOM file, not {what}: {hint}")
