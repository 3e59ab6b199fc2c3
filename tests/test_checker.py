"""The box-score checker (queries: checker_* and boxscore_findings; docs/checker.md): each rule on constructed
sentences against a constructed box score, and the evidence of every finding on the shared-task data read back from
the games' JSON records (shared_task.jsonl) in plain Python; the list it puts in at build and with `check`."""

from __future__ import annotations

import csv
import json
from datetime import date

import pytest
from shared_data import DATA, EXAMPLES, REPO

from accuracy_db.cli.main import run
from accuracy_db.errors import AccuracyDbError
from accuracy_db.ingest import checker
from accuracy_db.ingest.build import build
from accuracy_db.ingest.check import check
from accuracy_db.store import database

# A constructed game: the Celtics (home, 32 - 18) beat the Lakers (17 - 36) 113 - 107 on Friday 3 February 2017,
# and another game, of the Thunder and the Heat, with Kevin Durant on the Thunder's roster.
PLAYERS = {
    # name: (text, side, minutes, pts, fgm, fga, fg3m, fg3a, ftm, fta, reb, ast, stl, blk, tov)
    "Isaiah Thomas": ("G1", "home", 38, 38, 13, 24, 5, 11, 7, 7, 2, 4, 1, 0, 6),
    "Al Horford": ("G1", "home", 31, 11, 4, 11, 1, 4, 2, 4, 8, 8, 0, 1, 2),
    "Jae Crowder": ("G1", "home", 34, 18, 6, 12, 2, 7, 4, 4, 6, 1, 2, 0, 1),
    "Nick Young": ("G1", "visitor", 33, 17, 6, 14, 5, 10, 0, 0, 3, 3, 2, 1, 1),
    "Lou Williams": ("G1", "visitor", 23, 21, 5, 14, 3, 9, 8, 10, 4, 4, 0, 0, 1),
    "Kevin Durant": ("G2", "home", 36, 30, 10, 20, 3, 6, 7, 8, 10, 5, 1, 2, 3),
    "Goran Dragic": ("G2", "visitor", 34, 20, 8, 15, 2, 5, 2, 2, 3, 7, 1, 0, 2),
}
TEAMS = [
    # text, side, name, city, wins, losses, pts, quarters, fg_pct, fg3_pct, ft_pct, reb, ast, tov
    ("G1", "home", "Celtics", "Boston", 32, 18, 113, (29, 33, 20, 31), 48, 37, 79, 47, 28, 16),
    ("G1", "visitor", "Lakers", "Los Angeles", 17, 36, 107, (30, 21, 23, 33), 39, 37, 73, 52, 24, 12),
    ("G2", "home", "Thunder", "Oklahoma City", 20, 12, 106, (25, 25, 25, 31), 51, 35, 80, 46, 20, 10),
    ("G2", "visitor", "Heat", "Miami", 15, 17, 94, (20, 24, 25, 25), 44, 30, 70, 34, 18, 14),
]
GAMES = {"G1": (date(2017, 2, 3), "Celtics", "Lakers"), "G2": (date(2017, 2, 4), "Thunder", "Heat")}


def insert_game(con, game: str, text_id: str) -> None:
    """A constructed game's rows, as the game of a text."""
    day, home, visitor = GAMES[game]
    con.execute(
        "INSERT INTO games (text_id, split, game_date, home_name, vis_name) VALUES (?, 'train', ?, ?, ?)",
        [text_id, day, home, visitor],
    )
    for number, (name, (of_game, side, *stats)) in enumerate(PLAYERS.items()):
        if of_game == game:
            first, last = name.split(" ")
            con.execute(
                "INSERT INTO player_games (text_id, player_index, player_name, first_name, second_name, side,"
                " starter, did_not_play, minutes, pts, fgm, fga, fg3m, fg3a, ftm, fta, reb, ast, stl, blk, tov)"
                " VALUES (?, ?, ?, ?, ?, ?, TRUE, FALSE, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [text_id, number, name, first, last, side, *stats],
            )
    for of_game, side, name, city, wins, losses, pts, quarters, *rest in TEAMS:
        if of_game == game:
            con.execute(
                "INSERT INTO team_games (text_id, side, team_name, team_city, wins, losses, pts, pts_qtr1, pts_qtr2,"
                " pts_qtr3, pts_qtr4, fg_pct, fg3_pct, ft_pct, reb, ast, tov)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [text_id, side, name, city, wins, losses, pts, *quarters, *rest],
            )


def insert_text(con, text_id: str, text: str) -> None:
    """A text of its tokens split on spaces, a sentence ending at '.'."""
    tokens = text.split(" ")
    con.execute(
        "INSERT INTO texts (text_id, split, generated_text, token_count, sentence_count) VALUES (?, 'train', ?, ?, ?)",
        [text_id, text, len(tokens), tokens.count(".")],
    )
    sentence, position = 1, 0
    for doc_token, token in enumerate(tokens, start=1):
        position += 1
        con.execute(
            "INSERT INTO tokens (text_id, doc_token, sentence_id, sent_token, token) VALUES (?, ?, ?, ?, ?)",
            [text_id, doc_token, sentence, position, token],
        )
        if token == ".":
            sentence, position = sentence + 1, 0


def checked_texts(texts: list[str]) -> list[list[dict]]:
    """The findings of each text, each the text of a game of its own like G1, beside a text of G2 (whose roster and
    teams are another game's)."""
    con = database.open_new(None, models=["boxscore_findings"])
    try:
        insert_game(con, "G2", "other")
        insert_text(con, "other", "The Thunder beat the Heat .")
        for number, text in enumerate(texts):
            insert_game(con, "G1", f"T{number}")
            insert_text(con, f"T{number}", text)
        rows = con.execute("SELECT * FROM boxscore_findings ORDER BY text_id, doc_token_start").fetchall()
        columns = [column[0] for column in con.description]
    finally:
        con.close()
    findings = [dict(zip(columns, row, strict=True)) for row in rows]
    return [[f for f in findings if f["text_id"] == f"T{number}"] for number in range(len(texts))]


def checked(text: str) -> list[dict]:
    return checked_texts([text])[0]


def evidence(findings: list[dict]) -> list[tuple]:
    return [
        (f["tokens"], f["category"], f["entity"], f["stat"], f["claimed"], f["actual"], f["rule"]) for f in findings
    ]


# each sentence opens a text of its own after a first sentence that says nothing the checker reads
OPENING = "The Celtics won on Friday . "


CASES = [
    # a number right, then wrong
    ("Al Horford scored 11 points .", []),
    ("Al Horford scored 12 points .", [("12", "NUMBER", "Al Horford", "pts", "12", "11", "stat")]),
    # another player's number is no statistic of his
    ("Al Horford scored 38 points .", [("38", "NUMBER", "Al Horford", "pts", "38", "11", "stat")]),
    # the surname alone, a hyphen between the number and the statistic
    ("Horford had a 11 - point , 8 - rebound game .", []),
    ("Horford had a 11 - point , 9 - rebound game .", [("9", "NUMBER", "Al Horford", "reb", "9", "8", "stat")]),
    # number words, "a" and "a pair of"
    ("Al Horford added eight rebounds and a block .", []),
    ("Al Horford added eight rebounds and a steal .", [("a", "NUMBER", "Al Horford", "stl", "1", "0", "stat")]),
    (
        "Jae Crowder added seven rebounds and a pair of steals .",
        [("seven", "NUMBER", "Jae Crowder", "reb", "7", "6", "stat")],
    ),
    ("Jae Crowder added a pair of blocks .", [("pair", "NUMBER", "Jae Crowder", "blk", "2", "0", "stat")]),
    # shooting splits: "of", "for", the box-score form and a slash
    (
        "Isaiah Thomas shot 13 - of - 25 from the field .",
        [("25", "NUMBER", "Isaiah Thomas", "fga", "25", "24", "shooting split")],
    ),
    ("Isaiah Thomas went 5 - for - 11 from three .", []),
    (
        "Isaiah Thomas had 38 points ( 13 - 24 FG , 5 - 11 3Pt , 6 - 7 FT ) .",
        [("6", "NUMBER", "Isaiah Thomas", "ftm", "6", "7", "shooting split")],
    ),
    ("Isaiah Thomas made 7/7 from the free throw line .", []),
    # a pronoun stands for the player named last before it
    (
        "Isaiah Thomas led the way . He added six assists .",
        [("six", "NUMBER", "Isaiah Thomas", "ast", "6", "4", "stat")],
    ),
    # a name in the sentence wins over a pronoun
    ("Isaiah Thomas led the way . Al Horford was right behind him with 11 points .", []),
    # percentages, records, scores, quarters, margins, ranks
    ("The Celtics shot 48 percent from the field .", []),
    # a bound is no figure
    ("The Celtics shot over 50 percent from the field .", []),
    (
        "The Lakers shot 40 percent from the field .",
        [("40", "NUMBER", "Lakers", "fg_pct", "40", "39", "percentage")],
    ),
    # a sentence that names one team twice and the other not: a figure of the other team is a wrong name's, no
    # finding; with both teams named it is the figure's mistake
    ("The Lakers shot 48 percent from the field , while the Lakers shot 39 percent from the floor .", []),
    (
        "The Lakers shot 48 percent from the field , while the Celtics shot 48 percent from the floor .",
        [("48", "NUMBER", "Lakers", "fg_pct", "48", "39", "percentage")],
    ),
    # a team named once with the other team's whole record, the other team not named: the name is the mistake
    ("The Lakers ( 32 - 18 ) lost again .", []),
    ("The Lakers ( 32 - 36 ) lost again .", [("32", "NUMBER", "Lakers", "wins", "32", "17", "record")]),
    (
        "The Celtics ( 32 - 19 ) beat the Lakers ( 17 - 36 ) .",
        [("19", "NUMBER", "Celtics", "losses", "19", "18", "record")],
    ),
    (
        "The Celtics beat the Lakers 113 - 105 .",
        [("105", "NUMBER", "Celtics - Lakers", "pts_low", "105", "107", "score")],
    ),
    (
        "The Celtics outscored the Lakers 33 - 20 in the second quarter .",
        [("20", "NUMBER", "Celtics - Lakers", "pts_qtr2_low", "20", "21", "score")],
    ),
    ("The Celtics won by 6 .", []),
    # points "over" a team are a margin's, not the team's points
    ("The Celtics finished with nine points over the Lakers .", []),
    ("The Celtics won by 8 .", [("8", "NUMBER", "Celtics - Lakers", "pts_margin", "8", "6", "margin")]),
    (
        "Jae Crowder was third on the team .",
        [("third", "NUMBER", "Jae Crowder", "pts_rank", "3", "2", "team rank")],
    ),
    # a double-double the box score does not hold
    (
        "Jae Crowder posted a double - double .",
        [("double - double", "WORD", "Jae Crowder", "double", "double - double", "1", "double-double")],
    ),
    # names: a player or a team of another game
    (
        "Kevin Durant scored 30 points .",
        [
            (
                "Kevin Durant",
                "NAME",
                "Kevin Durant",
                "roster",
                "Kevin Durant",
                "Celtics - Lakers",
                "player of another game",
            )
        ],
    ),
    ("The Celtics played without Kevin Durant .", []),
    (
        "The Lakers host the Miami Heat next .",
        [("Miami Heat", "NAME", "Heat", "roster", "Miami Heat", "Celtics - Lakers", "team of another game")],
    ),
    # what the data cannot settle is left alone
    ("There were 11 ties in this game .", []),
    ("Isaiah Thomas is averaging 25 points per game .", []),
    # after "averaging" a number is the game's like any other (the gold marks such numbers); a double-double is not
    ("Isaiah Thomas was averaging 25 points .", [("25", "NUMBER", "Isaiah Thomas", "pts", "25", "38", "stat")]),
    ("Jae Crowder is averaging a double - double .", []),
    ("Jae Crowder narrowly missed a double - double .", []),
    ("Isaiah Thomas scored 20 of his 38 points in the first half .", []),
    ("Isaiah Thomas scored 12 points in the fourth quarter .", []),
]


@pytest.fixture(scope="module")
def case_findings() -> list[list[dict]]:
    """The findings of every case, each a text of its own, checked in one database."""
    return checked_texts([OPENING + sentence for sentence, _ in CASES])


@pytest.mark.parametrize("case", range(len(CASES)), ids=[sentence for sentence, _ in CASES])
def test_each_rule_on_a_constructed_box_score(case_findings, case):
    findings = [finding for finding in case_findings[case] if finding["sentence_id"] > 1]
    assert evidence(findings) == CASES[case][1]


def test_the_day_of_the_game_is_read_from_its_date():
    assert evidence(checked("The Celtics beat the Lakers on Wednesday . They play again on Sunday .")) == [
        ("Wednesday", "NAME", "Celtics - Lakers", "day", "Wednesday", "Friday", "day of the game")
    ]
    assert checked("The Celtics beat the Lakers on Friday .") == []


def test_a_number_before_any_entity_is_left_alone():
    assert checked("The game was close . 12 points was the margin at the half .") == []


# The JSON record's keys of each statistic the checker compares: a player's, a team's.
PLAYER_KEYS = {
    "minutes": "MIN", "pts": "PTS", "fgm": "FGM", "fga": "FGA", "fg_pct": "FG_PCT", "fg3m": "FG3M",
    "fg3a": "FG3A", "fg3_pct": "FG3_PCT", "ftm": "FTM", "fta": "FTA", "ft_pct": "FT_PCT", "oreb": "OREB",
    "dreb": "DREB", "reb": "REB", "ast": "AST", "stl": "STL", "blk": "BLK", "tov": "TO",
}  # fmt: skip
TEAM_KEYS = {
    "wins": "TEAM-WINS", "losses": "TEAM-LOSSES", "pts": "TEAM-PTS", "pts_qtr1": "TEAM-PTS_QTR1",
    "pts_qtr2": "TEAM-PTS_QTR2", "pts_qtr3": "TEAM-PTS_QTR3", "pts_qtr4": "TEAM-PTS_QTR4",
    "fg_pct": "TEAM-FG_PCT", "fg3_pct": "TEAM-FG3_PCT", "ft_pct": "TEAM-FT_PCT", "reb": "TEAM-REB",
    "ast": "TEAM-AST", "tov": "TEAM-TOV",
}  # fmt: skip


def records() -> dict[str, dict]:
    """The Rotowire record of each text of both splits, read with the json module."""
    found = {}
    for path in (DATA / "shared_task.jsonl", DATA / "test_set" / "shared_task.jsonl"):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                record = json.loads(line)
                found[record["shared_task_text_id"].removesuffix(".txt")] = record
    return found


def team_values(record: dict, stat: str) -> list[int]:
    """A statistic of both teams, as the record gives it (the halves the sums of their quarters)."""
    lines = [record["home_line"], record["vis_line"]]
    if stat.startswith("pts_half"):
        first = 1 if stat == "pts_half1" else 3
        return [int(line[f"TEAM-PTS_QTR{first}"]) + int(line[f"TEAM-PTS_QTR{first + 1}"]) for line in lines]
    return [int(line[TEAM_KEYS[stat]]) for line in lines]


def player_value(record: dict, name: str, stat: str) -> int:
    box = record["box_score"]
    (index,) = [index for index, player in box["PLAYER_NAME"].items() if player == name]
    if stat == "double":
        return sum(int(box[key][index]) >= 10 for key in ("PTS", "REB", "AST", "STL", "BLK"))
    if stat == "pts_rank":
        side = box["TEAM_CITY"][index]
        points = int(box["PTS"][index])
        return 1 + sum(
            int(box["PTS"][other]) > points
            for other, city in box["TEAM_CITY"].items()
            if city == side and box["PTS"][other] != "N/A"
        )
    return int(box[PLAYER_KEYS[stat]][index])


def expected_actual(record: dict, finding: dict) -> int:
    """What the record says of a NUMBER finding's statistic of its entity, worked out from the JSON alone."""
    stat, entity = finding["stat"], finding["entity"]
    if " - " in entity:  # the game: both teams' figures
        period = stat.rsplit("_", 1)[0]
        values = team_values(record, period)
        if stat.endswith("_high"):
            return max(values)
        if stat.endswith("_low"):
            return min(values)
        return max(values) - min(values)  # _margin
    teams = {record["home_name"]: 0, record["vis_name"]: 1}
    if entity in teams:
        return team_values(record, stat)[teams[entity]]
    return player_value(record, entity, stat)


def test_every_number_finding_cites_the_box_score(built):
    """Each NUMBER (and double-double) finding's actual is the record's value of its statistic, and differs from
    what the text claims; the findings are many, of every rule."""
    games = records()
    findings = [
        dict(zip(("text_id", "entity", "stat", "claimed", "actual", "rule"), row, strict=True))
        for row in built.execute(
            "SELECT text_id, entity, stat, claimed, actual, rule FROM boxscore_findings"
            " WHERE category IN ('NUMBER', 'WORD')"
        ).fetchall()
    ]
    assert {f["rule"] for f in findings} >= {"stat", "shooting split", "record", "score", "percentage"}
    assert len(findings) > 300
    for finding in findings:
        actual = expected_actual(games[finding["text_id"]], finding)
        assert int(finding["actual"]) == actual, finding
        if finding["rule"] == "double-double":
            assert actual < (2 if finding["claimed"].startswith("double") else 3), finding
        else:
            assert int(finding["claimed"]) != actual, finding


def test_every_name_finding_is_of_another_game(built):
    """A NAME finding names no player of the game's box score, nor its teams or their cities; a day is not the
    game's."""
    games = records()
    findings = built.execute(
        "SELECT text_id, tokens, rule, actual FROM boxscore_findings WHERE category = 'NAME'"
    ).fetchall()
    assert {rule for _, _, rule, _ in findings} == {"player of another game", "team of another game", "day of the game"}
    for text_id, tokens, rule, actual in findings:
        record = games[text_id]
        if rule == "day of the game":
            month, day, year = (int(part) for part in record["day"].split("_"))
            assert actual == date(2000 + year, month, day).strftime("%A") != tokens
            continue
        names = set(record["box_score"]["PLAYER_NAME"].values())
        teams = {record[key] for key in ("home_name", "vis_name", "home_city", "vis_city")}
        assert tokens not in names and not set(tokens.split(" ")) & teams, (text_id, tokens)


def documented_table(heading: str) -> list[list[str]]:
    """The rows of the first table of docs/checker.md from the line starting with heading, cell by cell (without
    the header and its rule, and without the bold and code marks)."""
    lines = (REPO / "docs" / "checker.md").read_text(encoding="utf-8").splitlines()
    start = next(number for number, line in enumerate(lines) if line.startswith(heading))
    table: list[str] = []
    for line in lines[start:]:
        if line.startswith("|"):
            table.append(line)
        elif table:
            break
    return [[cell.strip().strip("*`") for cell in line.strip("|").split("|")] for line in table[2:]]


def test_the_findings_are_those_docs_checker_gives(built):
    """Per split and rule, the findings and how many of them the scorer matched to a gold mistake are the figures
    of docs/checker.md's table, measured when the rules were written: a rewrite of the models for speed keeps them
    on both splits, and a change of a rule changes the table with it."""
    documented = {}
    for rule, category, *figures in documented_table("Per rule, findings and how many are gold mistakes"):
        for split, findings, gold in (("train", *figures[:2]), ("test", *figures[2:])):
            documented[(split, rule, category)] = (int(findings), int(gold.split(" ")[0]))
    measured = built.execute(
        "SELECT findings.split, findings.rule, findings.category, count(*),"
        " count(*) FILTER (WHERE outcomes.outcome = 'matched')"
        " FROM boxscore_findings AS findings LEFT JOIN mistake_outcomes AS outcomes"
        " ON outcomes.submission = 'boxscore' AND outcomes.side = 'submitted' AND outcomes.scope = findings.category"
        " AND outcomes.split = findings.split AND outcomes.text_id = findings.text_id"
        " AND outcomes.doc_token_start = findings.doc_token_start"
        " GROUP BY findings.split, findings.rule, findings.category"
    ).fetchall()
    assert {(split, rule, category): (found, gold) for split, rule, category, found, gold in measured} == {
        key: value for key, value in documented.items() if value != (0, 0)
    }
    scores = {
        (split, scope): (matched, gold, submitted)
        for split, scope, matched, gold, submitted in built.execute(
            "SELECT split, scope, matched, gold_total, submitted_total FROM scores WHERE submission = 'boxscore'"
        ).fetchall()
    }
    for split, scope, *_, counts in documented_table("| split | scope | recall |"):
        assert scores[(split, scope)] == tuple(int(count) for count in counts.split(" / ")), (split, scope)


def test_build_scores_the_checker_as_a_submission(built):
    """The built-in list boxscore is a submission of each split, whose mistakes are the view's findings."""
    lists = built.execute(
        "SELECT split, row_count, source_file FROM annotation_sets WHERE name = 'boxscore' ORDER BY split"
    ).fetchall()
    findings = dict(built.execute("SELECT split, count(*) FROM boxscore_findings GROUP BY split").fetchall())
    assert lists == [(split, findings[split], checker.SOURCE) for split in ("test", "train")]
    scored = dict(
        built.execute(
            "SELECT split, submitted_total FROM scores WHERE submission = 'boxscore' AND scope = 'ALL'"
        ).fetchall()
    )
    assert scored == findings
    mistakes = built.execute(
        "SELECT count(*) FROM mistakes JOIN annotation_sets USING (set_id) JOIN boxscore_findings AS findings"
        " ON findings.text_id = mistakes.text_id AND findings.doc_token_start = mistakes.doc_token_start"
        " AND findings.doc_token_end = mistakes.doc_token_end AND findings.category = mistakes.category"
        " WHERE annotation_sets.name = 'boxscore'"
    ).fetchall()[0][0]
    assert mistakes == sum(findings.values())


def test_the_checker_s_list_is_fingerprinted_as_a_file_s_list_of_its_spans(built, tmp_path):
    """The list is sealed by its content, as a loaded file's is (the signature of `leaderboard --ci` names it):
    its content_sha256 is that of a CSV of the same spans loaded from a file."""
    rows = built.execute(
        "SELECT text_id, tokens, doc_token_start, doc_token_end, category FROM mistakes JOIN annotation_sets"
        " USING (set_id) WHERE name = 'boxscore' AND split = 'test' ORDER BY line_number"
    ).fetchall()
    folder = tmp_path / "submissions"
    folder.mkdir()
    with (folder / "copy.csv").open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(["TEXT_ID", "TOKENS", "DOC_TOKEN_START", "DOC_TOKEN_END", "TYPE"])
        writer.writerows(rows)
    db = tmp_path / "accuracy.duckdb"
    build(DATA, db, folder)
    con = database.open_existing(db)
    sha256 = dict(
        con.execute(
            "SELECT name, content_sha256 FROM annotation_sets WHERE split = 'test' AND kind = 'submission'"
        ).fetchall()
    )
    con.close()
    assert sha256["boxscore"] is not None
    assert sha256["boxscore"] == sha256["copy"]


def test_no_check_leaves_it_out_and_check_puts_it_in(tmp_path, capsys):
    db = tmp_path / "accuracy.duckdb"
    build(DATA, db, check=False)
    con = database.open_existing(db)
    assert con.execute("SELECT count(*) FROM annotation_sets WHERE kind = 'submission'").fetchall() == [(0,)]
    con.close()
    assert run(["check", "--db", str(db), "--split", "train", "--as", "rules"]) == 0
    output = capsys.readouterr().out
    con = database.open_existing(db)
    train = con.execute("SELECT count(*) FROM boxscore_findings WHERE split = 'train'").fetchall()[0][0]
    assert f"the list rules (train: {train} finding(s))" in output
    assert con.execute(
        "SELECT split, submitted_total FROM scores WHERE submission = 'rules' AND scope = 'ALL'"
    ).fetchall() == [("train", train)]
    con.close()
    assert check(db, "train", "rules") == {"train": train}  # in place of the list it put in before
    con = database.open_existing(db)
    assert con.execute("SELECT count(*) FROM annotation_sets WHERE name = 'rules'").fetchall() == [(1,)]
    con.close()
    # dev is the train split, as every command reads it
    assert run(["check", "--db", str(db), "--split", "dev", "--as", "rules"]) == 0
    assert f"the list rules (train: {train} finding(s))" in capsys.readouterr().out
    # the function the command calls, given a split the database does not have: one error, nothing replaced
    with pytest.raises(AccuracyDbError, match="^no texts of the split dev in the database$"):
        check(db, "dev", "rules")
    con = database.open_existing(db)
    assert con.execute("SELECT split, row_count FROM annotation_sets WHERE name = 'rules'").fetchall() == [
        ("train", train)
    ]
    con.close()


def test_check_does_not_replace_a_submission_of_a_file(tmp_path, capsys):
    folder = tmp_path / "submissions"
    folder.mkdir()
    (folder / "boxscore.csv").write_bytes((EXAMPLES / "submission_doc_based.csv").read_bytes())
    db = tmp_path / "accuracy.duckdb"
    report = build(DATA, db, folder)
    assert any("a submission is named boxscore" in warning for warning in report.warnings)
    with pytest.raises(AccuracyDbError, match="boxscore: a submission of that name is loaded from a file"):
        check(db)
    capsys.readouterr()
    assert run(["check", "--db", str(db), "--split", "nosuch", "--as", "rules"]) == 1
    assert capsys.readouterr().err == "error: split 'nosuch' is not a split of corpus shared-task (test, train)\n"
