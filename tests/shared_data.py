"""Where the shared-task data is (read in place, never copied) and the official scorer's figures for it."""

from __future__ import annotations

import json
import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# ACCURACY_DB_TEST_SHARED stands in for ../shared/data: tests/test_without_data.py points it at an empty folder.
SHARED = Path(os.environ.get("ACCURACY_DB_TEST_SHARED") or REPO.parent / "shared" / "data")
DATA = SHARED / "accuracy-shared-task"
EXPECTED = SHARED / "expected"
EXAMPLES = DATA / "example_submissions"


def expected_report(case: str) -> list[dict]:
    """What the shared task's own scorer reported for a case of ../shared/data/expected/."""
    return json.loads((EXPECTED / f"{case}.json").read_text())
