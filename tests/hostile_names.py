"""Submission names that Markdown or HTML would interpret, for the dashboard's tests (tests/test_dashboard.py,
tests/test_dashboard_browser.py): each must be shown as it is, and none may make the browser fetch anything."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from shared_data import DATA, EXAMPLES

from accuracy_db.ingest.build import build

# Names a submitter chooses, which Markdown would turn into an image fetched from elsewhere (Chrome reads the
# backslashes as slashes: http://example.com/x.png), a tag, maths, code, a link, coloured or bold text.
IMAGE_NAME = "![x](http:\\\\example.com\\x.png)"
TAG_NAME = "<img src=http:\\\\example.com\\y.png>"
MARKUP_NAME = "[brackets] $x^2$ `tick` :red[red] **bold**"
REFUSED_NAME = "![r](http:\\\\example.com\\r.png)"
HOSTILE_NAMES = (IMAGE_NAME, TAG_NAME, MARKUP_NAME)
HOSTILE_TEAM = "![t](http:\\\\example.com\\t.png) <b>team</b>"
# What must never reach Markdown unescaped.
MARKUP_FRAGMENTS = ("](http:", "<img src=", "<b>", "$x^2$", "`tick`", ":red[", "**bold**", "[brackets] $")


def build_hostile(folder: Path) -> Path:
    """A database whose submissions are the example submission under the hostile names, one with a hostile
    metadata sidecar and one whose sidecar is refused, and a refused submission with a hostile name."""
    submissions = folder / "submissions"
    submissions.mkdir()
    for name in HOSTILE_NAMES:
        shutil.copy(EXAMPLES / "submission.csv", submissions / f"{name}.csv")
    sidecar = {"team": HOSTILE_TEAM, "system": "`code`", "url": "javascript:alert(1)"}
    (submissions / f"{IMAGE_NAME}.json").write_text(json.dumps(sidecar))
    (submissions / f"{TAG_NAME}.json").write_text("{ not json")
    (submissions / f"{REFUSED_NAME}.csv").write_text("not,a,mistake list\n")
    path = folder / "accuracy.duckdb"
    build(DATA, path, submissions, check=False)  # the hostile names alone (no box-score checker's list)
    return path
