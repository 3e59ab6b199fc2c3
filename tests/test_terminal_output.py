"""What the commands print: a submission's file name, a cell of a list or a team's name may hold characters a
terminal acts on instead of showing (it sets its title, writes its clipboard, clears the screen, writes over a
line, reverses what follows) or rich's markup. Whoever can drop a file into the inbox chooses them; every command
shows them as escapes and text, and prints nothing a terminal would act on."""

from __future__ import annotations

import json
import shutil
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared_data import DATA, EXAMPLES

from accuracy_db.cli import main as cli
from accuracy_db.printable import printable

BIDI_CONTROLS = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# OSC 52 writes the clipboard, OSC 0 the title; CSI 2J clears the screen, CR writes over the line; C1's CSI; RLO
CLIPBOARD = "clip\x1b]52;c;ZWNobyBwd25lZA==\x07board"
SCREEN = "clear\x1b[2J\x1b[Hscreen\rover [bold red]markup"
REFUSED = "title\x1b]0;pwned\x07\x9b2J\u202egnp.exe\nline 2: forged"
TEAM = "team\x1b]52;c;eA==\x07\x1b[8m"
HIDDEN = "see\x1b[8mhidden\x1b[0m"  # a COMMENT cell: SGR 8 conceals what follows


def acted_on(text: str) -> list[str]:
    """The characters of printed text a terminal acts on: control characters (but the newline that ends a line,
    and the tab) and bidirectional controls (counted by Unicode's categories, not by printable's own list)."""
    return [c for c in text if (unicodedata.category(c) == "Cc" and c not in "\n\t") or c in BIDI_CONTROLS]


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_printable_text_holds_nothing_a_terminal_acts_on_and_keeps_the_rest(text):
    shown = printable(text)
    assert acted_on(shown) == [] and "\n" not in shown  # a newline in a name would forge a line of its own
    assert printable(shown) == shown
    if not acted_on(text) and "\n" not in text:
        assert shown == text


def test_each_character_is_shown_as_its_escape():
    assert printable(CLIPBOARD) == "clip\\x1b]52;c;ZWNobyBwd25lZA==\\x07board"
    assert printable("a\tb\rc\nd\x9b\u202e") == "a\tb\\rc\\nd\\x9b\\u202e"


@pytest.fixture(scope="module")
def inbox(tmp_path_factory):
    """Submissions whose cells and sidecar hold terminal escapes, and submissions whose names do (refused: a name is
    visible text, accuracy_db/names.py), built into a database by the build command."""
    folder = tmp_path_factory.mktemp("terminal")
    submissions = folder / "submissions"
    submissions.mkdir()
    for name in (CLIPBOARD, SCREEN, REFUSED, "clip"):
        shutil.copy(EXAMPLES / "submission.csv", submissions / f"{name}.csv")
    (submissions / "clip.json").write_text(json.dumps({"team": TEAM, "system": TEAM}))
    header, first, *rest = (EXAMPLES / "submission.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    cells = first.rstrip("\n").split(",")
    cells[-1] = HIDDEN  # COMMENT
    (submissions / "screen.csv").write_text(header + ",".join(cells) + "\n" + "".join(rest), encoding="utf-8")
    cells[-3] = "NAME\x1b[2J"  # TYPE: refused, and its message quotes it
    (submissions / "type.csv").write_text(header + ",".join(cells) + "\n" + "".join(rest), encoding="utf-8")
    db = folder / "accuracy.duckdb"
    return submissions, db


def printed(capsys, *args) -> tuple[int, str]:
    status = cli.run([str(arg) for arg in args])
    captured = capsys.readouterr()
    return status, captured.out + captured.err


def test_no_command_prints_what_a_terminal_would_act_on(inbox, capsys):
    submissions, db = inbox
    runs = {
        "build": ["build", "--data", DATA, "--db", db, "--submissions", submissions],
        "refresh": ["refresh", "--data", DATA, "--db", db, "--submissions", submissions],
        "leaderboard": ["leaderboard", "--db", db, "--split", "train"],
        "leaderboard markdown": ["leaderboard", "--db", db, "--split", "train", "--format", "markdown"],
        "rejections": ["rejections", "--db", db],
        "query": [
            "query",
            "--db",
            db,
            "SELECT name, comment FROM listed_mistakes WHERE kind <> 'gold' AND comment <> ''",
        ],
        "sidecar": ["query", "--db", db, "SELECT * FROM submission_metadata"],
        "compare": ["compare", "clip", "screen", "--db", db, "--trials", 100, "--resamples", 100],
        "compare unknown": ["compare", CLIPBOARD, SCREEN, "--db", db, "--trials", 100, "--resamples", 100],
        "agreement": ["agreement", "gold", CLIPBOARD, "--db", db, "--scope", "ALL"],
        "validity": ["validity", SCREEN, "--db", db, "--scope", "ALL", "--resamples", 100],
        "difficulty": ["difficulty", "--db", db, "--split", "train"],
        "evaluate": ["evaluate", "--gsml", DATA / "gsml.csv", "--submitted", submissions / "type.csv"],
        "import": ["import", "corpus", submissions, "--corpus", REFUSED, "--db", db],
    }
    outputs = {name: printed(capsys, *args) for name, args in runs.items()}
    refused = ("compare unknown", "agreement", "validity", "import")  # a name no list has, or no corpus may have
    assert {name: status for name, (status, _) in outputs.items()} == {name: int(name in refused) for name in runs}
    assert {name: acted_on(text) for name, (_, text) in outputs.items()} == {name: [] for name in runs}
    # each name, cell and message is shown, as escapes
    assert "refused submission title\\x1b]0;pwned\\x07\\x9b2J\\u202egnp.exe\\nline 2: forged" in outputs["build"][1]
    assert "clip\\x1b]52;c;ZWNobyBwd25lZA==\\x07board" in outputs["rejections"][1]
    assert "TYPE 'NAME\\x1b[2J' is not a category" in outputs["build"][1]
    assert "see\\x1b[8mhidden\\x1b[0m" in outputs["query"][1]
    assert "team\\x1b]52;c;eA==\\x07\\x1b[8m" in outputs["sidecar"][1]
    assert "clip\\x1b]52;c;ZWNobyBwd25lZA==\\x07board" in outputs["compare unknown"][1]
    assert "clear\\x1b[2J\\x1b[Hscreen\\rover [bold red]markup" in outputs["validity"][1]
    assert "--corpus: the corpus name 'title\\x1b]0;pwned" in outputs["import"][1]
