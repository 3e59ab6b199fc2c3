"""The box-score checker's evidence on the dashboard (issue 50, item 2), run by Streamlit's AppTest on the shared task
built with the checker's list: the Document view's findings and the cells of the box score they contradict, and the
Errors browser's evidence for a matched finding and for a missed gold NUMBER or NAME mistake, each figure read back
from the game's record in shared_task.jsonl here, not through the database."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from shared_data import DATA, EXAMPLES
from test_dashboard import (  # noqa: F401  (fresh_caches: autouse)
    fresh_caches,
    labelled,
    open_page,
    select_rows,
    sql,
    table,
)
from test_dashboard_corpora import opened_at

from accuracy_db.ingest.build import build

# The checker's statistics (checker_box_score.stat) as the Rotowire JSON's box_score and line keys name them.
PLAYER_KEYS = {
    "pts": "PTS", "reb": "REB", "ast": "AST", "stl": "STL", "blk": "BLK", "tov": "TO", "minutes": "MIN",
    "fgm": "FGM", "fga": "FGA", "fg3m": "FG3M", "fg3a": "FG3A", "ftm": "FTM", "fta": "FTA", "fg_pct": "FG_PCT",
    "fg3_pct": "FG3_PCT", "ft_pct": "FT_PCT", "oreb": "OREB", "dreb": "DREB", "pf": "PF",
}  # fmt: skip
# The box score's columns as the page heads them, and the JSON keys whose values a cell of the column shows.
PLAYER_COLUMN_KEYS = {
    "MIN": ["MIN"], "PTS": ["PTS"], "FG": ["FGM", "FGA", "FG_PCT"], "3P": ["FG3M", "FG3A", "FG3_PCT"],
    "FT": ["FTM", "FTA", "FT_PCT"], "REB": ["REB", "OREB", "DREB"], "AST": ["AST"], "STL": ["STL"], "BLK": ["BLK"],
    "TOV": ["TO"], "PF": ["PF"],
}  # fmt: skip


@pytest.fixture(scope="module")
def checked_db(tmp_path_factory) -> Path:
    """The shared task with the example submissions and the box-score checker's list (build's default)."""
    path = tmp_path_factory.mktemp("checked") / "accuracy.duckdb"
    build(DATA, path, EXAMPLES)
    return path


def game(text_id: str) -> dict:
    """The text's game as shared_task.jsonl records it (the test split's under test_set/)."""
    folder = DATA / "test_set" if text_id.startswith("T") else DATA
    with (folder / "shared_task.jsonl").open(encoding="utf-8") as stream:
        return next(record for record in map(json.loads, stream) if record["shared_task_text_id"] == text_id)


def is_player(record: dict, name: str) -> bool:
    return name in record["box_score"]["PLAYER_NAME"].values()


def player_value(record: dict, name: str, key: str) -> str:
    """A player's value of a box-score key, by his full name."""
    [index] = [i for i, full in record["box_score"]["PLAYER_NAME"].items() if full == name]
    return record["box_score"][key][index]


def highlighted(html: str) -> list[tuple[str, str, str, str]]:
    """The cells of the box score drawn as contradicted: (row's name, column, cell, finding), columns named by the
    headings of the cell's table."""
    found = []
    for table_html in re.findall(r"<table.*?</table>", html, re.S):
        headings = re.findall(r"<th[^>]*>([^<]*)</th>", table_html.split("</thead>")[0])
        for row in re.findall(r'<tr class="adb-row-\w+">(.*?)</tr>', table_html, re.S):
            cells = re.findall(r'<td( class="adb-finding" title="[^"]*")?[^>]*>([^<]*)</td>', row)
            for column, (marked, value) in zip(headings, cells, strict=True):
                if marked:
                    found.append((cells[0][1], column, value, marked.split('title="')[1][:-1]))
    return found


def test_document_view_shows_the_findings_beside_the_box_score_with_their_cells_highlighted(checked_db, monkeypatch):
    at = opened_at(checked_db, monkeypatch, "document", text="S001")
    [listed] = at.get_by_key("document_findings").get("html")
    findings = [
        tuple(html.unescape(cell) for cell in re.findall(r"<td[^>]*>([^<]*)</td>", row))
        for row in re.findall(r"<tr>(.*?)</tr>", listed.value.split("<tbody>")[1])
    ]
    expected = sql(
        checked_db,
        "SELECT doc_token_start, tokens, category, entity, stat, claimed, actual, rule FROM boxscore_findings"
        " WHERE text_id = 'S001' ORDER BY doc_token_start",
    )
    assert findings == [tuple("–" if value is None else value for value in row[1:]) for row in expected]
    [element] = at.get_by_key("box_score").get("html")
    cells = highlighted(element.value)
    record = game("S001")
    players = set(record["box_score"]["PLAYER_NAME"].values())
    player_findings = [row for row in expected if row[2] == "NUMBER" and row[3] in players and row[4] in PLAYER_KEYS]
    assert len(player_findings) >= 4
    for _, tokens, _, entity, stat, claimed, actual, rule in player_findings:
        # the game's own record gives the value the finding calls actual, not the claimed one
        assert player_value(record, entity, PLAYER_KEYS[stat]) == actual != claimed
        said = f"{tokens}: the text says {claimed}, the box score {actual} ({stat}, rule {rule})"
        [(column, value)] = [
            (column, value) for name, column, value, title in cells if name == entity and said in title
        ]
        # the cell is the player's, in the statistic's column, and shows the value
        assert PLAYER_KEYS[stat] in PLAYER_COLUMN_KEYS[column]
        assert actual in re.split(r"[-–]", value)
    # a team's figure: the margin of the game outlines both teams' points
    teams = {name for name, column, _, title in cells if column == "PTS" and "rule margin" in title}
    assert teams == {record["home_name"], record["vis_name"]}
    assert "thick outline" in " ".join(caption.value for caption in at.caption)


def detail_lines(at) -> list[str]:
    return [element.value for element in at.get_by_key("error_detail").markdown]


def unescaped(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def with_player_evidence(db: Path, rows, evidence: str, side: str) -> list[int]:
    """The rows of a page (by number) whose mistake (side: the row's own, or its counterpart's) has evidence of this kind about a player's statistic, as the
    view gives it: only to choose which rows to click (what the detail says is checked against the game's JSON)."""
    known = {
        mistake_id
        for mistake_id, text_id, entity in sql(
            db,
            "SELECT e.mistake_id, m.text_id, e.entity FROM mistake_box_evidence AS e"
            f" JOIN mistakes AS m USING (mistake_id) WHERE e.evidence = '{evidence}'"
            f" AND e.stat IN ({', '.join(repr(stat) for stat in PLAYER_KEYS)})",
        )
        if is_player(game(text_id), entity)
    }
    return [number for number, mistake_id in enumerate(rows[side]) if mistake_id in known]


EVIDENCE = r"\*{kind}\* (.+) · (\w+): the text says (\S+), the box score (\S+) \(rule: (.+)\)"


def test_errors_detail_says_what_a_matched_finding_compared(checked_db, monkeypatch):
    at = opened_at(checked_db, monkeypatch, "errors", split="test", submission="boxscore")
    labelled(at.multiselect, "Categories").set_value(["NUMBER"])
    labelled(at.multiselect, "Outcomes").set_value(["matched"]).run()
    rows = table(at, "error_rows")
    # a matched row is its gold mistake's: the finding is its counterpart's, the checker's own mistake
    [number, *_] = with_player_evidence(checked_db, rows, "finding", "counterpart_id")
    at = select_rows(at, "error_rows", [number])
    lines = [unescaped(line) for line in detail_lines(at)]
    [evidence] = [line for line in lines if line.startswith("*The checker's finding:*")]
    entity, stat, claimed, actual, _ = re.fullmatch(EVIDENCE.format(kind="The checker's finding:"), evidence).groups()
    assert player_value(game(rows["text_id"][number]), entity, PLAYER_KEYS[stat]) == actual != claimed
    assert rows["outcome"][number] == "matched" and rows["category"][number] == "NUMBER"


def test_errors_detail_gives_the_box_score_value_of_a_missed_gold_mistake(checked_db, monkeypatch):
    at = opened_at(checked_db, monkeypatch, "errors", split="test", submission="boxscore")
    labelled(at.multiselect, "Categories").set_value(["NUMBER"])
    labelled(at.multiselect, "Outcomes").set_value(["missed"]).run()
    rows = table(at, "error_rows")
    chosen = with_player_evidence(checked_db, rows, "box score", "mistake_id")[:3]
    assert len(chosen) == 3
    for number in chosen:
        at = select_rows(at, "error_rows", [number])
        lines = [unescaped(line) for line in detail_lines(at)]
        assert not any(line.startswith("*The checker's finding:*") for line in lines)  # missed: no finding
        [evidence] = [line for line in lines if line.startswith("*In the box score:*")]
        entity, stat, _, actual, _ = re.fullmatch(EVIDENCE.format(kind="In the box score:"), evidence).groups()
        assert player_value(game(rows["text_id"][number]), entity, PLAYER_KEYS[stat]) == actual
    # A missed NAME mistake: the name, and the roster it is read against.
    labelled(at.multiselect, "Categories").set_value(["NAME"]).run()
    rows = table(at, "error_rows")
    named = {mistake_id for (mistake_id,) in sql(
        checked_db, "SELECT mistake_id FROM mistake_box_evidence WHERE stat = 'roster' AND evidence = 'box score'"
    )}  # fmt: skip
    number = next(n for n, mistake_id in enumerate(rows["mistake_id"]) if mistake_id in named)
    at = select_rows(at, "error_rows", [number])
    [evidence] = [unescaped(line) for line in detail_lines(at) if line.startswith("*In the box score:*")]
    record = game(rows["text_id"][number])
    assert " · roster: the text says " in evidence
    assert re.search(r"\(rule: (player|team) of (this|another) game\)$", evidence)
    assert any(name in evidence.split("the box score ")[1] for name in (record["home_name"], record["vis_name"]))
