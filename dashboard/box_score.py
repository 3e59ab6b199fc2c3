"""A game's box score as HTML for the document view: the two team lines and the players of each team, compact
enough to show every column at 1440 px without scrolling sideways, and the rows each mistake names lit up while
the mistake is under the cursor or has the focus (a click or a tap on it).

A mistake names a row when its tokens, its correction or its comment hold the player's full name or surname, or
the team's name or city, as whole words ("Horford was the 4th highest scorer" names Al Horford). The lighting is
CSS alone: one rule a mistake, `body:has(.adb-m-G4:hover) .adb-row-p3`, since the page runs no script of ours.

The cells the box-score checker's findings contradict (queries/marts/boxscore_finding_cells.sql) are highlighted
at all times: a thick outline and bold figures (so also without colour), the finding in their tooltip."""

from __future__ import annotations

import re
from html import escape

import polars as pl

from .spans import Span

TEAM_COLUMNS = ["record", "Q1", "Q2", "Q3", "Q4", "PTS", "FG%", "3P%", "FT%", "REB", "AST", "TOV"]
PLAYER_COLUMNS = ["pos", "MIN", "PTS", "FG", "3P", "FT", "REB", "AST", "STL", "BLK", "TOV", "PF"]
HIGHLIGHT = "#fde68a"
FINDING = "#D55E00"  # a contradicted cell's outline (Okabe–Ito vermillion)
# The column of the box score each statistic of the checker (checker_box_score.stat) is read in.
PLAYER_STAT_COLUMNS = {
    "minutes": "MIN", "pts": "PTS", "pts_rank": "PTS", "fgm": "FG", "fga": "FG", "fg_pct": "FG", "fg3m": "3P",
    "fg3a": "3P", "fg3_pct": "3P", "ftm": "FT", "fta": "FT", "ft_pct": "FT", "reb": "REB", "oreb": "REB",
    "dreb": "REB", "ast": "AST", "stl": "STL", "blk": "BLK", "tov": "TOV", "pf": "PF",
}  # fmt: skip
TEAM_STAT_COLUMNS = {
    "wins": "record", "losses": "record", "pts_qtr1": "Q1", "pts_qtr2": "Q2", "pts_qtr3": "Q3", "pts_qtr4": "Q4",
    "pts_half1": "Q2", "pts_half2": "Q4", "pts": "PTS", "fg_pct": "FG%", "fg3_pct": "3P%", "ft_pct": "FT%",
    "reb": "REB", "ast": "AST", "tov": "TOV",
}  # fmt: skip
STYLE = """<style>
.adb-box table { border-collapse: collapse; width: 100%; font-size: 0.8rem; margin-bottom: 0.8rem; }
.adb-box th, .adb-box td { padding: 0.12rem 0.3rem; border-bottom: 1px solid #e6e6e6; white-space: nowrap; }
.adb-box td { text-align: right; font-variant-numeric: tabular-nums; }
.adb-box td.adb-name, .adb-box th.adb-name { text-align: left; white-space: normal; }
.adb-box table.adb-findings th { text-align: left; }
.adb-box thead th { text-align: right; color: #555; font-weight: 600; }
.adb-box tr.adb-team th { text-align: left; background: #f3f3f3; }
.adb-box td.adb-finding { outline: 3px solid #D55E00; outline-offset: -3px; font-weight: 700; }
</style>"""


def _cell(value) -> str:
    return "–" if value is None else escape(str(value))


def finding_cells(cells: pl.DataFrame, findings: pl.DataFrame) -> dict[tuple, dict[str, str]]:
    """The cells to highlight, by row ((kind, side, player_index), as boxscore_finding_cells names it) and column,
    each with what its findings say (their tokens, claimed and actual values, rule)."""
    said = {
        row["doc_token_start"]: f"{row['tokens']}: the text says {row['claimed']}, the box score {row['actual']}"
        f" ({row['stat']}, rule {row['rule']})"
        for row in findings.iter_rows(named=True)
    }
    marked: dict[tuple, dict[str, str]] = {}
    for cell in cells.iter_rows(named=True):
        columns = PLAYER_STAT_COLUMNS if cell["kind"] == "player" else TEAM_STAT_COLUMNS
        if cell["stat"] in columns:
            row = marked.setdefault((cell["kind"], cell["side"], cell["player_index"]), {})
            column = columns[cell["stat"]]
            row[column] = "\n".join(filter(None, (row.get(column), said.get(cell["doc_token_start"]))))
    return marked


def _td(value, finding: str | None) -> str:
    if finding is None:
        return f"<td>{_cell(value)}</td>"
    return f'<td class="adb-finding" title="{escape(finding)}">{_cell(value)}</td>'


def _names_in(text: str, name: str | None) -> bool:
    """Whether a name appears in the text as whole words."""
    return bool(name) and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None


def named_rows(span: Span, teams: pl.DataFrame, players: pl.DataFrame) -> list[str]:
    """The rows of the box score (t0, t1 for the teams; p0, p1… for the players) that the mistake names."""
    text = " ".join(filter(None, (span.tokens, span.correction, span.comment)))
    rows = [
        f"t{index}"
        for index, team in enumerate(teams.iter_rows(named=True))
        if _names_in(text, team["team"]) or _names_in(text, team["city"])
    ]
    rows += [
        f"p{index}"
        for index, player in enumerate(players.iter_rows(named=True))
        if _names_in(text, player["player"]) or _names_in(text, player["surname"])
    ]
    return rows


def highlight_css(spans: list[Span], teams: pl.DataFrame, players: pl.DataFrame) -> str:
    """The rules that light up the rows a mistake names while it is hovered or focused."""
    rules = []
    for span in spans:
        rows = ", ".join(f".adb-row-{row}" for row in named_rows(span, teams, players))
        if rows:
            marked = f".adb-m-{span.label}"
            rules.append(f"body:has({marked}:hover, {marked}:focus) :is({rows}) {{ background: {HIGHLIGHT}; }}")
    return "<style>\n" + "\n".join(rules) + "\n</style>" if rules else ""


FINDING_COLUMNS = ["tokens", "category", "entity", "stat", "claimed", "actual", "rule"]


def findings_html(findings: pl.DataFrame) -> str:
    """The checker's findings as a table whose cells wrap (it shares the box score's half of the page)."""
    head = "".join(f"<th>{escape(column)}</th>" for column in FINDING_COLUMNS)
    rows = "".join(
        "<tr>" + "".join(f'<td class="adb-name">{_cell(finding[column])}</td>' for column in FINDING_COLUMNS) + "</tr>"
        for finding in findings.iter_rows(named=True)
    )
    return (
        f'{STYLE}<div class="adb-box"><table class="adb-findings"><thead><tr>{head}</tr></thead>'
        f"<tbody>{rows}</tbody></table></div>"
    )


def box_score_html(
    teams: pl.DataFrame, players: pl.DataFrame, findings: dict[tuple, dict[str, str]] | None = None
) -> str:
    """Both team lines, then the players under their team's name; the cells of findings (finding_cells)
    highlighted."""
    findings = findings or {}
    head = "".join(f"<th>{escape(column)}</th>" for column in TEAM_COLUMNS)
    lines = [
        f'<tr class="adb-row-t{index}"><td class="adb-name">{_cell(team["team"])}</td>'
        + "".join(
            _td(team[column], findings.get(("team", team["side"], None), {}).get(column)) for column in TEAM_COLUMNS
        )
        + "</tr>"
        for index, team in enumerate(teams.iter_rows(named=True))
    ]
    team_table = f'<table class="adb-teams"><thead><tr><th class="adb-name">team</th>{head}</tr></thead>'
    team_table += f"<tbody>{''.join(lines)}</tbody></table>"

    head = "".join(f"<th>{escape(column)}</th>" for column in PLAYER_COLUMNS)
    rows, team = [], object()
    for index, player in enumerate(players.iter_rows(named=True)):
        if player["team"] != team:
            team = player["team"]
            rows.append(f'<tr class="adb-team"><th colspan="{len(PLAYER_COLUMNS) + 1}">{_cell(team)}</th></tr>')
        rows.append(
            f'<tr class="adb-row-p{index}"><td class="adb-name">{_cell(player["player"])}</td>'
            + "".join(
                _td(player[column], findings.get(("player", player["side"], player["player_index"]), {}).get(column))
                for column in PLAYER_COLUMNS
            )
            + "</tr>"
        )
    player_table = f'<table class="adb-players"><thead><tr><th class="adb-name">player</th>{head}</tr></thead>'
    player_table += f"<tbody>{''.join(rows)}</tbody></table>"
    return f'{STYLE}<div class="adb-box">{team_table}{player_table}</div>'
