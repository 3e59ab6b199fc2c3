"""The command line's tables for people: a p-value written one way (formatting.p_value_text), an undefined figure
named one way, and tables that fit a terminal: no submission's name cut, no line wider than the terminal, one
leaderboard per split, each signature beside what it signs, compare naming A and B."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from rich.cells import cell_len
from rich.console import Console
from shared_data import DATA, EXAMPLES

from accuracy_db.cli import main as cli
from accuracy_db.cli import render
from accuracy_db.formatting import UNDEFINED, p_value_text, to_markdown
from accuracy_db.printable import printable

WIDTH = 100


def floor_p(trials: int) -> float:
    """The p-value of a test whose every trial falls short of the observed difference, counted as the statistics
    tests count it (tests/test_statistics.py): (trials at least as extreme + 1) / (trials + 1)."""
    differences = np.zeros(trials)
    observed = 1.0
    return (np.sum(np.abs(differences) >= abs(observed)) + 1) / (len(differences) + 1)


@pytest.mark.parametrize(
    "trials, written",
    [(9_999, "< 0.0001"), (10_000, "< 0.0001"), (1_000, "< 0.001"), (99, "< 0.01"), (200, "< 0.00498")],
)
def test_a_p_value_at_the_floor_of_its_trials_is_below_one_in_trials_plus_one(trials, written):
    assert p_value_text(floor_p(trials), trials) == written
    assert p_value_text(0.0, trials) == written  # PERM-BOTH counts no trial as 0


@given(st.integers(1, 10**7))
def test_the_floor_is_written_as_a_bound_at_three_significant_digits(trials):
    text = p_value_text(1 / (trials + 1), trials)
    assert text.startswith("< ")
    bound = float(text[2:])
    floor = 1 / (trials + 1)
    digits = re.sub(r"e.*|^0\.0*|\.", "", text[2:])  # the significant digits as written
    assert len(digits.rstrip("0")) <= 3
    assert floor <= bound * (1 + 1e-12)  # a bound, never below the floor
    assert bound <= max(floor * 1.01, 0.0001)  # and as tight as 3 digits allow, down to 0.0001


@pytest.mark.parametrize(
    "p, written",
    [(0.0312, "0.0312"), (0.55, "0.550"), (1.0, "1.00"), (0.000123, "0.000123"), (0.0001, "0.000100")],
)
def test_an_analytic_p_value_has_three_significant_digits(p, written):
    assert p_value_text(p) == written


@given(st.one_of(st.just(0.0), st.floats(0.0, 0.0001, exclude_max=True)), st.sampled_from([None, 100_000, 10**7]))
def test_a_p_value_below_one_in_ten_thousand_is_written_as_the_leaderboard_writes_it(p, trials):
    """Not 4.04e-06 on one page and 0.00 on another (issue 51): below 0.0001, by formula or by many trials."""
    assert p_value_text(p, trials) == "< 0.0001"


@given(st.floats(0.0001, 1.0))
def test_any_other_p_value_is_within_half_a_unit_of_its_third_significant_digit(p):
    text = p_value_text(p)
    unit = 10 ** (math.floor(math.log10(p)) - 2)
    assert abs(float(text) - p) <= unit / 2 * (1 + 1e-9)
    mantissa = text.split("e")[0].lstrip("0.")
    assert len(mantissa.replace(".", "")) == 3


def test_above_the_floor_a_permutation_p_value_is_a_number():
    assert p_value_text(2 / 10_001, 10_000) == "0.000200"
    assert p_value_text(None, 10_000) == p_value_text(None) == UNDEFINED


# --- the commands at 100 columns, on the shared-task data with the example submissions ---


@pytest.fixture
def terminal(monkeypatch):
    """A terminal WIDTH columns wide for every table the commands print."""
    monkeypatch.setattr(render, "make_console", lambda: Console(width=WIDTH, highlight=False))


def printed(capsys, *args) -> str:
    assert cli.run([str(arg) for arg in args]) == 0
    return capsys.readouterr().out


def assert_fits(text: str) -> None:
    too_wide = [line for line in text.splitlines() if cell_len(line) > WIDTH]
    assert not too_wide, "\n".join(too_wide)
    assert "…" not in text  # nothing cut


def printed_signatures(text: str) -> dict[str, str]:
    """The signatures a command printed, by what each signs: a label, then the signature, its lines broken after a |
    and indented under its first. Rows of one signature (lists of the same content, scored the same way) share one,
    their labels joined by commas: each label is given it."""
    found: dict[str, str] = {}
    label = None
    for line in text.splitlines():
        if start := re.match(r"^(\S.*?) +(accuracy-db:\S+)\s*$", line):
            label = start[1]
            found[label] = start[2]
        elif label and (more := re.match(r"^ +(\S+)\s*$", line)) and found[label].endswith("|"):
            found[label] += more[1]
        else:
            label = None
    return {name: stamp for label, stamp in found.items() for name in label.split(", ")}


def names_in_cells(text: str) -> list[str]:
    """Every submission name as a table's cell holds it: the first text column after the rank."""
    return re.findall(r"^│ +\d+ │ (\S+) +│", text, flags=re.MULTILINE)


@pytest.fixture(scope="module")
def submissions(built_db) -> dict[str, list[str]]:
    """The submissions of each split (the box-score checker's list is of both)."""
    from accuracy_db.store import database

    con = database.open_existing(built_db)
    try:
        rows = con.execute("SELECT split, submission FROM evaluations ORDER BY split, submission").fetchall()
    finally:
        con.close()
    by_split: dict[str, list[str]] = {}
    for split, name in rows:
        by_split.setdefault(split, []).append(name)
    return by_split


def test_leaderboard_ci_fits_100_columns_with_every_name_whole(built_db, submissions, capsys, terminal):
    text = printed(capsys, "leaderboard", "--db", built_db, "--ci")
    assert_fits(text)
    rows = json.loads(printed(capsys, "leaderboard", "--db", built_db, "--ci", "--format", "json"))
    parts = {split: text.count(f"Leaderboard, scope ALL, split {split}") for split in submissions}
    assert min(parts.values()) >= 2  # the figures did not fit beside the names in one table: they went on in another
    expected = [name for split, names in submissions.items() for name in names * parts[split]]
    assert sorted(names_in_cells(text)) == sorted(expected)  # in every part, whole
    for row in rows:  # each figure with its interval
        assert f"{row['recall']:.3f} [{row['recall_ci'][0]:.2f}, {row['recall_ci'][1]:.2f}]" in text
    assert printed_signatures(text) == {row["submission"]: row["signature"] for row in rows}  # beside each name


def test_validity_fits_100_columns_one_table_per_level_without_empty_rows(built_db, capsys, terminal):
    args = ("validity", "submission_doc_based", "--db", built_db, "--resamples", "200")
    text = printed(capsys, *args)
    assert_fits(text)
    results = json.loads(printed(capsys, *args, "--format", "json"))
    for level in ("text", "system", "category"):
        assert text.count(f"Validity of submission_doc_based, {level} level") == 1
    shown_scopes = re.findall(r"^│ (\w+) +│ +-?\d\.\d{3}", text, flags=re.MULTILINE)
    empty = {
        (r["scope"], r["level"])
        for r in results
        if all(o["value"] is None for o in results if (o["scope"], o["level"]) == (r["scope"], r["level"]))
    }
    assert empty == {
        (scope, level) for scope in ("WORD", "CONTEXT", "NOT_CHECKABLE", "OTHER") for level in ("text", "system")
    }
    assert len(shown_scopes) == 3 + 3 + 7  # text and system: ALL, NAME, NUMBER; category: every scope
    reason, running = "the submission's count is the same (0) for every", re.sub(r"\s+", " ", text)
    assert running.count(reason) == 2  # once per level, naming the four scopes
    for unit in ("text", "system"):
        assert f"undefined in WORD, CONTEXT, NOT_CHECKABLE, OTHER: {reason} {unit}" in running
    for r in results:  # every p-value written as everywhere
        if r["p_value"] is not None:
            assert f"p {p_value_text(r['p_value'])}" in text
    assert printed_signatures(text) == {f"scope {r['scope']}": r["signature"] for r in results}


def test_compare_fits_100_columns_and_names_a_and_b(built_db, capsys, terminal):
    args = ("compare", "submission_sent_based", "gsml_doc_based", "--db", built_db)
    text = printed(capsys, *args)
    assert_fits(text)
    result = json.loads(printed(capsys, *args, "--format", "json"))
    assert "submission_sent_based (A)" in text and "gsml_doc_based (B)" in text
    assert re.search(r"│ A: submission_sent_based +│ +0\.288 │", text)
    assert re.search(r"│ B: gsml_doc_based +│ +1\.000 │", text)
    p_text = p_value_text(result["p_value"], result["trials"] - result["excluded_trials"])
    assert p_text == "< 0.0001"  # 1 - 0.288 is a difference no swap of texts comes near
    assert re.search(rf"│ p-value \(permutation, 10,000 trials\) +│ +{re.escape(p_text)} │", text)
    assert printed_signatures(text) == {"signature": result["signature"]}


def test_a_leaderboard_of_two_splits_is_two_tables(capsys, terminal):
    """Each split its own table, its ranks from 1, titled with its split."""
    rows = [
        {"rank": rank, "submission": name, "split": split, "recall": recall, "signature": f"sig-{name}"}
        for rank, name, split, recall in [(1, "a", "test", 0.5), (2, "b", "test", None), (1, "c", "train", 0.25)]
    ]
    render.print_rows(rows, "table", title="Leaderboard")
    text = capsys.readouterr().out
    test, train = text.split("Leaderboard, split train")
    assert "Leaderboard, split test" in test and "│ b " in test and "c " not in test.split("sig-a")[0]
    assert "│    1 │ c " in train and "split" not in re.sub(r"Leaderboard, split \w+", "", text)
    assert f"│ {UNDEFINED} │" in test and f"{UNDEFINED}: nothing to divide by" in test
    assert re.search(r"^b +sig-b *$", test, flags=re.MULTILINE)


@settings(deadline=None, max_examples=60)
@given(
    st.lists(st.text("abcdefghij_-", min_size=1, max_size=30), min_size=1, max_size=5, unique=True),
    st.integers(40, 140),
)
@example(["_" * 26], 40)  # found on a CI run: the header folded where the column was narrower than it
def test_fitted_tables_keep_every_name_whole_and_fit_the_console(names, width):
    """Each part of a table too wide for the console has the names, whole, and as many figures as fit beside them;
    a figure wraps only when it alone does not fit beside the longest name."""
    console = Console(width=width, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    columns = [render.Column("submission", names)] + [
        # headers as short as a cell's shortest line: a column narrower than its header folds it (width 40 beside
        # a name of 26 leaves "figure 0" 7 characters)
        render.Column(f"f{k}", [f"0.{k}00 [0.{k}0, 0.{k}9]" for _ in names], "right")
        for k in range(8)
    ]
    render.print_fitted(console, columns, keys=1, title="figures")
    text = console.export_text()
    assert max(cell_len(line) for line in text.splitlines()) <= width
    cells = re.findall(r"^│ (\S+) +│", text, flags=re.MULTILINE)
    parts = text.count("figures")
    assert sorted(cells) == sorted(names * parts)
    figure_fits = max(map(len, names)) + len("0.000 [0.00, 0.00]") + 7 <= width  # 7: the table's rules and padding
    for k in range(8):  # each figure column once
        assert text.count(f"f{k}") == 1
        assert text.count(f"0.{k}00 [0.{k}0, 0.{k}9]") == (len(names) if figure_fits else 0)


COLUMNS = st.builds(
    render.Column,
    st.text("ab 漢-", max_size=12),
    st.lists(st.text("ab 0.1[]漢é-", max_size=20), min_size=3, max_size=3),
    st.sampled_from(["left", "right"]),
    st.booleans(),
)


@settings(deadline=None, max_examples=60)
@given(st.lists(COLUMNS, min_size=1, max_size=6))
def test_a_table_is_as_wide_as_its_columns_alone_less_the_borders_they_share(columns):
    """What print_fitted relies on to measure each column once: rich's width of the whole table."""
    console = Console(width=100, file=open("/dev/null", "w"))  # noqa: SIM115
    alone = [render.table_width(console, [column]) for column in columns]
    assert render.table_width(console, columns) == sum(alone) - len(columns) + 1


@given(st.lists(st.text("abc:0123", min_size=1, max_size=20), min_size=1, max_size=12), st.integers(10, 80))
def test_a_signature_breaks_after_a_bar_and_loses_nothing(fields, width):
    stamp = "|".join(fields)
    lines = render.signature_lines(stamp, width)
    assert "".join(lines) == stamp
    assert all(len(line) <= width or "|" not in line.rstrip("|") for line in lines)
    assert all(line.endswith("|") for line in lines[:-1])


def test_agreement_writes_its_analytic_p_values_as_everywhere(built_db, capsys, terminal):
    args = ("agreement", "gold", "submission", "--db", built_db, "--scope", "ALL", "--scope", "WORD")
    text = printed(capsys, *args)
    assert_fits(text)
    correlations = json.loads(printed(capsys, *args, "--format", "json"))["correlations"]
    rows = re.findall(
        r"^│ gold +│ submission +│ (\w+) +│ (\w+) +│ +(\S+) │ (\S+(?: \S+)?) +│", text, flags=re.MULTILINE
    )
    assert rows == [
        (r["scope"], r["measure"], UNDEFINED if r["value"] is None else f"{r['value']:.3f}", p_value_text(r["p_value"]))
        for r in correlations
    ]
    assert ("ALL", "pearson", "0.556", "< 0.0001") in rows and ("WORD", "pearson", UNDEFINED, UNDEFINED) in rows


def test_metrics_compare_writes_its_permutation_p_value_as_everywhere(built_db, capsys, terminal):
    args = ("metrics", "compare", "length", "bleu", "--measure", "pearson", "--split", "train", "--db", built_db)
    text = printed(capsys, *args, "--trials", "200")
    assert_fits(text)
    (result,) = json.loads(printed(capsys, *args, "--trials", "200", "--format", "json"))
    assert result["p_value"] == 0  # length tracks the gold counts far better than BLEU: no trial reached it
    assert re.search(r"│ length +│ bleu +│ pearson +│ \S+ +│ \S+ +│ \S+ +│ < 0\.00498 +│", text)
    assert p_value_text(result["p_value"], result["trials"]) == "< 0.00498"  # 1/201, rounded up


def test_markdown_names_an_undefined_figure_and_csv_keeps_it_empty(capsys):
    """Markdown is read by people: an undefined figure is written as on every table; CSV, for programs, is as it
    was (an empty cell)."""
    args = ("evaluate", "--gsml", DATA / "gsml.csv", "--submitted", EXAMPLES / "submission.csv")
    markdown = printed(capsys, *args, "--format", "markdown")
    (word,) = [line for line in markdown.splitlines() if line.startswith("| WORD |")]
    assert word.startswith(f"| WORD | 0.000 | {UNDEFINED} | 0.000 | {UNDEFINED} | 0 | 334 | 0 |")
    (word,) = [line for line in printed(capsys, *args, "--format", "csv").splitlines() if line.startswith("WORD,")]
    assert word.startswith("WORD,0.0,,0.0,,0,334,0,")


def markdown_table(text: str) -> list[list[str]]:
    """The rows of the one table of a Markdown text, as markdown-it reads it with GitHub's tables: each a list of
    its cells' text."""
    rows, cells = [], []
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    assert [token.type for token in tokens].count("table_open") == 1
    for token, following in zip(tokens, tokens[1:]):
        if token.type == "tr_close":
            rows.append(cells)
            cells = []
        elif token.type in ("th_open", "td_open"):
            cells.append("".join(child.content for child in following.children or []))
    return rows


HOSTILE = ["a|b", "|", "||", "a\\|b", "\\", "a\\", "two\nlines", "\r\n|", " | --- | ", "x\\\\|y", ""]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.text(alphabet="ab|\\ \n\r\t-:", min_size=1, max_size=8), min_size=1, max_size=4, unique=True),
    st.lists(st.lists(st.text(alphabet="ab|\\ \n\r\t-:", max_size=8), min_size=4, max_size=4), max_size=4),
)
@example(columns=HOSTILE[:4], values=[HOSTILE[4:8], HOSTILE[7:]])
def test_markdown_gives_every_row_a_cell_per_column_whatever_the_values_hold(columns, values):
    # Issue 52: a value holding | split its cell (a row of more cells than the header's), a name holding a line
    # break ended the header. Each cell reads back as the value's printable text (a line break shown as \n).
    rows = [dict(zip(columns, row)) for row in values]
    table = markdown_table(to_markdown(rows, columns))
    assert table == [
        [printable(text).strip() for text in row] for row in [columns, *[r[: len(columns)] for r in values]]
    ]
