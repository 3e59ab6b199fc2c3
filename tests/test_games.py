"""Loading games.csv and shared_task.jsonl into games, team_games and player_games."""

from __future__ import annotations

import codecs
import csv
import datetime
import json
from pathlib import Path
from unittest import mock

import duckdb
import pytest
from accuracy_db.etl import games_csv
from accuracy_db.etl.box_score_records import PLAYER_STATS, TEAM_STATS
from accuracy_db.etl.data_folder import SplitFiles
from accuracy_db.etl.games import load_games
from hypothesis import given, settings
from hypothesis import strategies as st

from accuracy_db.errors import InputError
from accuracy_db.store.database import open_new

DATA = Path(__file__).resolve().parents[1].parent / "shared/data/accuracy-shared-task"


# --- The shared-task data ---


@pytest.fixture(scope="module")
def shared() -> duckdb.DuckDBPyConnection:
    """Both splits of the shared data, loaded once."""
    if not (DATA / "games.csv").is_file():
        pytest.skip(f"no shared-task data in {DATA}")
    con = open_new(None)
    assert load_games(con, SplitFiles("train", DATA)) == []
    assert load_games(con, SplitFiles("test", DATA / "test_set")) == []
    return con


def test_one_game_per_text_60_train_and_30_test(shared):
    assert shared.execute("SELECT split, count(*) FROM games GROUP BY split ORDER BY split").fetchall() == [
        ("test", 30),
        ("train", 60),
    ]
    assert shared.execute("SELECT count(*) FROM team_games").fetchone() == (180,)


def test_s001_is_celtics_at_home_against_lakers(shared):
    game = shared.execute(
        "SELECT game_date, home_name, home_city, vis_name, vis_city, rotowire_line FROM games WHERE text_id = 'S001'"
    ).fetchone()
    assert game == (datetime.date(2017, 2, 3), "Celtics", "Boston", "Lakers", "Los Angeles", 563)


def test_s001_final_score_113_107_and_quarter_points(shared):
    teams = shared.execute(
        "SELECT side, team_name, pts, pts_qtr1, pts_qtr2, pts_qtr3, pts_qtr4, wins, losses"
        " FROM team_games WHERE text_id = 'S001' ORDER BY side"
    ).fetchall()
    assert teams == [
        ("home", "Celtics", 113, 29, 33, 20, 31, 32, 18),
        ("visitor", "Lakers", 107, 30, 21, 23, 33, 17, 36),
    ]


def test_reference_summary_is_the_summary_tokens_joined_by_spaces(shared):
    (summary,) = shared.execute("SELECT reference_summary FROM games WHERE text_id = 'S001'").fetchone()
    assert summary.startswith("This win pulled Boston ahead of Los Angeles for the most wins in NBA history")


def test_isaiah_thomas_scored_38_in_s001_as_a_home_starter(shared):
    player = shared.execute(
        "SELECT side, starter, start_position, did_not_play, minutes, pts, tov"
        " FROM player_games WHERE text_id = 'S001' AND player_name = 'Isaiah Thomas'"
    ).fetchone()
    assert player == ("home", True, "G", False, 38, 38, 6)


def test_players_without_minutes_did_not_play_and_have_no_stats(shared):
    rows = shared.execute(
        "SELECT player_name, side, starter, start_position, pts"
        " FROM player_games WHERE text_id = 'S001' AND did_not_play ORDER BY side, player_name"
    ).fetchall()
    assert rows == [
        ("Gerald Green", "home", False, None, None),
        ("James Young", "home", False, None, None),
        ("Jordan Mickey", "home", False, None, None),
        ("Jose Calderon", "visitor", False, None, None),
        ("Julius Randle", "visitor", False, None, None),
    ]


def test_every_game_has_five_starters_a_side(shared):
    assert shared.execute(
        "SELECT DISTINCT count(*) FROM player_games WHERE starter GROUP BY text_id, side"
    ).fetchall() == [(5,)]


def test_the_clippers_city_la_still_gives_a_side(shared):
    # Rotowire calls the Clippers' city LA, not Los Angeles: every player of the shared data gets a side.
    assert shared.execute("SELECT count(*) FROM player_games WHERE side IS NULL").fetchone() == (0,)
    assert shared.execute(
        "SELECT DISTINCT side FROM player_games WHERE text_id = 'S018' AND team_city = 'LA'"
    ).fetchall() == [("visitor",)]


def test_na_names_become_null(shared):
    # Nene has no second name: Rotowire gives N/A.
    assert shared.execute(
        "SELECT DISTINCT first_name, second_name FROM player_games WHERE player_name = 'Nene'"
    ).fetchall() == [("Nene", None)]


def test_test_split_headers_bref_visiting_and_calander_are_read(shared):
    t001 = shared.execute("SELECT bref_vis_url, calendar_url FROM games WHERE text_id = 'T001'").fetchone()
    assert t001 == (
        "https://www.basketball-reference.com/teams/SAC/2015_games.html",
        "https://www.timeanddate.com/calendar/monthly.html?year=2014&month=12&country=1",
    )
    assert shared.execute(
        "SELECT count(*) FROM games WHERE split = 'test' AND bref_vis_url IS NOT NULL AND calendar_url IS NOT NULL"
    ).fetchone() == (30,)


# --- Small splits written for each test ---

CSV_HEADER = (
    "TEXT_ID,HOME_NAME,VIS_NAME,LINE_ID_FROM_TEST_SET,GENERATED_TEXT,DETOKENIZED_GENERATED_TEXT,"
    "DATE,BREF_BOX,BREF_HOME,BREF_VIS,CALENDAR"
).split(",")


def csv_row(text_id="S001", home="Celtics", visitor="Lakers", day="02_03_17") -> dict:
    return dict(zip(CSV_HEADER, [text_id, home, visitor, "563", "Text .", "Text.", day, "box", "home", "vis", "cal"]))


def player(name: str, city: str, **stats: str) -> dict:
    """A box score column of one player: every stat 1 unless given."""
    first, _, second = name.partition(" ")
    texts = {"PLAYER_NAME": name, "FIRST_NAME": first, "SECOND_NAME": second, "TEAM_CITY": city}
    return {**texts, "START_POSITION": "G", **dict.fromkeys(PLAYER_STATS, "1"), **stats}


def record(text_id="S001", home=("Celtics", "Boston"), visitor=("Lakers", "Los Angeles"), players=None) -> dict:
    """A Rotowire record with a column-oriented box score (stat -> player index -> value)."""
    players = players or [player("Isaiah Thomas", home[1]), player("Nick Young", visitor[1])]
    box_score = {key: {str(index): p[key] for index, p in enumerate(players)} for key in players[0]}

    def team_line(name, city):
        return {"TEAM-NAME": name, "TEAM-CITY": city, **dict.fromkeys(TEAM_STATS, "10")}

    return {
        "shared_task_text_id": text_id,
        "day": "02_03_17",
        "home_name": home[0],
        "home_city": home[1],
        "vis_name": visitor[0],
        "vis_city": visitor[1],
        "home_line": team_line(*home),
        "vis_line": team_line(*visitor),
        "box_score": box_score,
        "summary": ["The", "Celtics", "won", "."],
    }


def write_split(folder: Path, rows: list[dict] | None = None, lines: list[str] | None = None) -> SplitFiles:
    """A split folder with games.csv (None: no file) and shared_task.jsonl from its lines (None: no file)."""
    folder.mkdir(exist_ok=True)
    if rows is not None:
        with (folder / "games.csv").open("w", newline="", encoding="utf-8") as stream:
            writer = csv.DictWriter(stream, fieldnames=list(rows[0]) if rows else CSV_HEADER)
            writer.writeheader()
            writer.writerows(rows)
    if lines is not None:
        (folder / "shared_task.jsonl").write_text("\n".join(lines), encoding="utf-8")
    return SplitFiles("train", folder)


def problems_of(con, split_files) -> list[tuple[str, int | None, str]]:
    with pytest.raises(InputError) as refused:
        load_games(con, split_files)
    return [(Path(p.file).name, p.line, p.message) for p in refused.value.problems]


def table_counts(con) -> tuple[int, int, int]:
    """Rows in games, team_games and player_games."""
    tables = ("games", "team_games", "player_games")
    return tuple(con.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in tables)


@pytest.fixture
def con() -> duckdb.DuckDBPyConnection:
    return open_new(None, models=[])  # the tables alone: the loader reads no view


def test_a_small_split_loads(con, tmp_path):
    split = write_split(tmp_path, [csv_row()], [json.dumps(record())])
    assert load_games(con, split) == []
    assert table_counts(con) == (1, 2, 2)
    assert con.execute("SELECT reference_summary, bref_box_url FROM games").fetchone() == ("The Celtics won .", "box")


def test_values_that_hold_the_separator_or_are_not_strings_load_as_they_are(con, tmp_path):
    """Three games: one of plain strings (the fast way), one whose names hold the separator the loader joins a
    stat's values with (JSON escapes it: the line must take the slow way), and one with a JSON number for a stat."""
    joined = [player("Isaiah\x1fThomas", "Boston"), player("Nick Young", "Los Angeles", PTS="7")]
    numbers = [player("Al Horford", "Boston", PTS=12), player("Nick Young", "Los Angeles")]
    records = [record("S001"), record("S002", players=joined), record("S003", players=numbers)]
    lines = [json.dumps(one) for one in records]
    assert "\\u001f" in lines[1]
    split = write_split(tmp_path, [csv_row(text_id) for text_id in ("S001", "S002", "S003")], lines)
    assert load_games(con, split) == []
    rows = con.execute(
        "SELECT text_id, player_index, player_name, first_name, pts FROM player_games ORDER BY text_id, player_index"
    ).fetchall()
    assert rows == [
        ("S001", 0, "Isaiah Thomas", "Isaiah", 1),
        ("S001", 1, "Nick Young", "Nick", 1),
        ("S002", 0, "Isaiah\x1fThomas", "Isaiah\x1fThomas", 1),
        ("S002", 1, "Nick Young", "Nick", 7),
        ("S003", 0, "Al Horford", "Al", 12),
        ("S003", 1, "Nick Young", "Nick", 1),
    ]


def test_a_stat_that_lists_its_players_in_another_order_gives_each_player_his_own_value(con, tmp_path):
    """A stat's values are taken in the order of PLAYER_NAME's players, whatever order the stat lists them in."""
    players = [player("Isaiah Thomas", "Boston", PTS="29"), player("Nick Young", "Los Angeles", PTS="7")]
    reordered = record(players=players)
    reordered["box_score"]["PTS"] = dict(reversed(reordered["box_score"]["PTS"].items()))
    reordered["box_score"]["TEAM_CITY"] = {"1": "Los Angeles", "0": "Boston"}
    assert list(reordered["box_score"]["PTS"]) == ["1", "0"]
    split = write_split(tmp_path, [csv_row()], [json.dumps(reordered)])
    assert load_games(con, split) == []
    rows = con.execute("SELECT player_index, player_name, pts, side FROM player_games ORDER BY player_index").fetchall()
    assert rows == [(0, "Isaiah Thomas", 29, "home"), (1, "Nick Young", 7, "visitor")]


def test_players_of_two_teams_from_the_same_city_get_no_side_and_a_warning(con, tmp_path):
    # Rotowire calls the Clippers' city LA; were it Los Angeles, TEAM_CITY could not tell them from the Lakers.
    lakers, clippers = ("Lakers", "Los Angeles"), ("Clippers", "Los Angeles")
    game = record(home=lakers, visitor=clippers)
    split = write_split(tmp_path, [csv_row(home="Lakers", visitor="Clippers")], [json.dumps(game)])
    warnings = load_games(con, split)
    assert warnings == [
        f"{split.box_scores}: line 1: S001 player 0 (Isaiah Thomas): both teams are from 'Los Angeles'; side left NULL",
        f"{split.box_scores}: line 1: S001 player 1 (Nick Young): both teams are from 'Los Angeles'; side left NULL",
    ]
    assert con.execute("SELECT count(*) FROM player_games WHERE side IS NULL").fetchone() == (2,)


def test_a_player_of_neither_city_gets_no_side_and_a_warning(con, tmp_path):
    players = [player("Isaiah Thomas", "Boston"), player("Someone Else", "Seattle")]
    split = write_split(tmp_path, None, [json.dumps(record(players=players))])
    assert load_games(con, split) == [
        f"{split.box_scores}: line 1: S001 player 1 (Someone Else): "
        "TEAM_CITY 'Seattle' is neither 'Boston' nor 'Los Angeles'; side left NULL"
    ]


def test_every_malformed_json_line_is_reported_with_its_line_number(con, tmp_path):
    lines = [json.dumps(record("S001")), '{"shared_task_text_id": "S002", ', json.dumps(record("S003")), "[1, 2"]
    split = write_split(tmp_path, None, lines)
    assert [(file, line, message.split(":")[0]) for file, line, message in problems_of(con, split)] == [
        ("shared_task.jsonl", 2, "malformed JSON"),
        ("shared_task.jsonl", 4, "malformed JSON"),
    ]
    assert table_counts(con) == (0, 0, 0)


def test_a_stat_that_is_not_a_number_is_refused(con, tmp_path):
    players = [player("Isaiah Thomas", "Boston", PTS="38"), player("Nick Young", "Los Angeles", TO="two")]
    split = write_split(tmp_path, [csv_row()], [json.dumps(record(players=players))])
    assert problems_of(con, split) == [
        ("shared_task.jsonl", 1, "S001 player 1 (Nick Young): TO is not a whole number: 'two'"),
    ]


def test_a_team_stat_that_is_not_a_number_is_refused(con, tmp_path):
    game = record()
    game["vis_line"]["TEAM-PTS_QTR3"] = "23.5"
    split = write_split(tmp_path, None, [json.dumps(game)])
    assert problems_of(con, split) == [
        ("shared_task.jsonl", 1, "S001 visitor team: TEAM-PTS_QTR3 is not a whole number: '23.5'"),
    ]


def test_a_missing_games_csv_column_is_reported_on_the_header_line(con, tmp_path):
    row = csv_row()
    del row["DATE"], row["BREF_VIS"]
    split = write_split(tmp_path, [row], [json.dumps(record())])
    assert problems_of(con, split) == [("games.csv", 1, "missing column(s): DATE, BREF_VIS or BREF_VISITING")]


def test_a_bad_date_and_text_ids_in_one_file_only_are_all_reported(con, tmp_path):
    rows = [csv_row("S001", day="2017-02-03"), csv_row("S002")]
    lines = [json.dumps(record("S001")), json.dumps(record("S003"))]
    split = write_split(tmp_path, rows, lines)
    assert problems_of(con, split) == [
        ("games.csv", 2, "DATE is not a MM_DD_YY date: '2017-02-03'"),
        ("games.csv", 3, f"S002 is not in {split.box_scores}"),
        ("shared_task.jsonl", 2, f"S003 is not in {split.games_csv}"),
    ]


def test_both_files_must_agree_on_the_date_and_the_teams(con, tmp_path):
    split = write_split(tmp_path, [csv_row(visitor="Knicks", day="02_04_17")], [json.dumps(record())])
    assert problems_of(con, split) == [
        ("games.csv", 2, f"S001: game_date 2017-02-04 here but 2017-02-03 in {split.box_scores}"),
        ("games.csv", 2, f"S001: vis_name Knicks here but Lakers in {split.box_scores}"),
    ]


def test_a_refused_split_leaves_the_tables_empty(con, tmp_path):
    good, bad = record("S001"), record("S002")
    bad["box_score"]["PTS"]["0"] = "lots"
    split = write_split(tmp_path, [csv_row("S001"), csv_row("S002")], [json.dumps(good), json.dumps(bad)])
    with pytest.raises(InputError):
        load_games(con, split)
    assert table_counts(con) == (0, 0, 0)


def test_a_failing_insert_rolls_back_the_whole_split(con, tmp_path):
    # A team row of S001 is already there: team_games refuses the split after games took it.
    con.execute("INSERT INTO team_games (text_id, side, team_name, team_city) VALUES ('S001', 'home', 'C', 'B')")
    split = write_split(tmp_path, [csv_row()], [json.dumps(record())])
    with pytest.raises(duckdb.ConstraintException):
        load_games(con, split)
    assert table_counts(con) == (0, 1, 0)


def test_without_games_csv_the_games_come_from_the_jsonl(con, tmp_path):
    split = write_split(tmp_path, None, [json.dumps(record())])
    assert load_games(con, split) == []
    assert con.execute("SELECT game_date, home_city, bref_box_url FROM games").fetchone() == (
        datetime.date(2017, 2, 3),
        "Boston",
        None,
    )


def test_without_the_jsonl_the_games_come_from_games_csv_alone(con, tmp_path):
    split = write_split(tmp_path, [csv_row()], None)
    assert load_games(con, split) == []
    assert table_counts(con) == (1, 0, 0)
    assert con.execute("SELECT game_date, home_name, home_city FROM games").fetchone() == (
        datetime.date(2017, 2, 3),
        "Celtics",
        None,
    )


# --- games.csv: polars' reader where it can be sure, Python's csv module where it cannot ---

GAMES_CSV_NAMES = ["TEXT_ID", "HOME_NAME", "VIS_NAME", "LINE_ID_FROM_TEST_SET", "DATE", "BREF_BOX", "BREF_HOME",
                   "BREF_VIS", "BREF_VISITING", "CALENDAR", "CALANDER", "GENERATED_TEXT", ""]  # fmt: skip
GAMES_CSV_CELLS = st.one_of(
    st.sampled_from(["", "S001", "S002", "02_03_17", "2_3_17", "13_45_17", "563", " 7 ", "x", '"', ",", "\n", "\r"]),
    st.text(alphabet='ab ,"\r\n\x00é', max_size=5),
)


def read_both_ways(path: Path) -> tuple[tuple, tuple]:
    """read_games_csv's games and problems, with polars' reader allowed and with the csv module alone."""

    def read() -> tuple:
        problems = []
        return games_csv.read_games_csv(path, problems), problems

    with_polars = read()
    with mock.patch("accuracy_db.etl.games_csv.polars_records", return_value=None):
        return with_polars, read()


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from(GAMES_CSV_NAMES), min_size=1, max_size=12),
    st.lists(st.lists(GAMES_CSV_CELLS, max_size=13), max_size=5),
    st.sampled_from([csv.QUOTE_MINIMAL, csv.QUOTE_ALL]),
    st.sampled_from(["\n", "\r\n"]),
    st.binary(max_size=40),
)
def test_games_csv_reads_the_same_with_polars_reader_as_with_the_csv_module(
    tmp_path_factory, header, rows, quoting, line_end, tail
):
    path = tmp_path_factory.mktemp("games") / "games.csv"
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out, quoting=quoting, lineterminator=line_end)
        writer.writerow(header)
        writer.writerows(rows)
    with_polars, csv_module = read_both_ways(path)
    assert with_polars == csv_module
    path.write_bytes(path.read_bytes() + tail)  # and whatever bytes may follow
    with_polars, csv_module = read_both_ways(path)
    assert with_polars == csv_module


def test_polars_reads_a_games_csv_as_a_csv_writer_writes_it(tmp_path):
    # The shared data's files: polars reads them; the csv module reads the same rows.
    for folder in (DATA, DATA / "test_set"):
        if (folder / "games.csv").is_file():
            data = (folder / "games.csv").read_bytes()
            assert games_csv.polars_records(data) is not None
            assert read_both_ways(folder / "games.csv")[0][1] == []
    rows = [CSV_HEADER, list(csv_row().values()), list(csv_row("S002").values())]
    with (tmp_path / "games.csv").open("w", newline="", encoding="utf-8") as out:
        csv.writer(out, lineterminator="\n").writerows(rows)
    data = (tmp_path / "games.csv").read_bytes()
    records = list(games_csv.polars_records(data))
    assert [line for line, _ in records] == [1, 2, 3]
    assert records[0][1] == CSV_HEADER
    assert records[1][1][CSV_HEADER.index("TEXT_ID")] == "S001"
    assert records[1][1][CSV_HEADER.index("GENERATED_TEXT")] is None  # a column games does not take is not read


def test_a_cell_over_128_kB_is_read_by_either_reader(tmp_path):
    # Issue 52: the csv module's field limit was its default (128 kB) for games.csv, except while a mistake list,
    # read meanwhile in another thread, had it raised: such a cell was refused or read by chance. It is the largest.
    long = "x" * 200_000
    split = write_split(tmp_path, [csv_row(), {**csv_row("S002"), "GENERATED_TEXT": long}])
    data = split.games_csv.read_bytes().replace(b"\r\n", b"\n")
    split.games_csv.write_bytes(data)
    assert games_csv.polars_records(data) is not None
    with_polars, csv_module = read_both_ways(split.games_csv)
    assert with_polars == csv_module
    assert csv_module[1] == [] and sorted(csv_module[0]) == ["S001", "S002"]


@pytest.mark.parametrize(
    "change",
    [
        lambda data: data.replace(b"\n", b"\r\n"),  # the csv module ends a record at a carriage return (as a
        # csv.writer writes by default: such a file is read by the csv module)
        lambda data: codecs.BOM_UTF8 + data,  # decoding drops it
        lambda data: data.replace(b"Text .", b'"Two\nlines"'),  # the records would no longer number the lines
        lambda data: data.replace(b"Text .", b'"Text ."'),  # quoted where a writer would not quote: not sure
        lambda data: data[:-1],  # no line end at the end
    ],
)
def test_polars_reader_leaves_to_the_csv_module_what_it_cannot_be_sure_of(tmp_path, change):
    split = write_split(tmp_path, [csv_row(), csv_row("S002")])
    data = split.games_csv.read_bytes().replace(b"\r\n", b"\n")
    assert games_csv.polars_records(data) is not None
    assert games_csv.polars_records(change(data)) is None


def test_every_problem_of_a_record_is_reported_on_its_line(con, tmp_path):
    ragged = record("S002")
    ragged["box_score"]["PTS"] = {"0": "1"}  # one player fewer than PLAYER_NAME
    ragged["box_score"]["MIN"] = {"1": "1", "2": "1"}  # another player
    ragged["summary"] = ["The", 2]
    ragged["day"] = "2017-02-03"
    ragged["vis_city"] = 7
    del ragged["home_line"]["TEAM-PTS"], ragged["home_line"]["TEAM-AST"]
    not_indices = record("S003")
    not_indices["box_score"] = {key: {"a": value} for key, value in not_indices["box_score"].items()}
    not_indices["box_score"]["PTS"] = {"b": "1"}
    not_objects = record("S001")
    not_objects["box_score"]["FGM"], not_objects["box_score"]["AST"] = [], "1"
    lines = [json.dumps(one) for one in (record(), ragged, not_indices, not_objects, ["S005"])]
    lines.append(json.dumps({**record("S006"), "summary": "The Celtics won ."}))
    assert problems_of(con, write_split(tmp_path, None, lines)) == [
        ("shared_task.jsonl", 2, "day is not a MM_DD_YY date: '2017-02-03'"),
        ("shared_task.jsonl", 2, "vis_city is not a string: 7"),
        ("shared_task.jsonl", 2, "summary is not a list of tokens"),
        ("shared_task.jsonl", 2, "home_line has no TEAM-PTS, TEAM-AST"),
        ("shared_task.jsonl", 2, "box_score MIN, PTS: not the same players as PLAYER_NAME"),
        ("shared_task.jsonl", 3, "box_score player indices are not all whole numbers: ['a']"),
        ("shared_task.jsonl", 3, "box_score PTS: not the same players as PLAYER_NAME"),
        ("shared_task.jsonl", 4, "S001 is already on line 1"),
        ("shared_task.jsonl", 4, "box_score FGM, AST: not a JSON object"),
        ("shared_task.jsonl", 5, "not a JSON object"),
        ("shared_task.jsonl", 6, "summary is not a list of tokens"),
    ]
