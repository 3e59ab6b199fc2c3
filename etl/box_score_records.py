"""Read and check the Rotowire records of shared_task.jsonl: one JSON object a line, a game with its box score.

What is wrong with a line is a problem naming the file and the line; only the records without problems are kept.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import defaultdict
from collections.abc import Iterable, Iterator
from pathlib import Path

import orjson
import polars as pl

from accuracy_db.errors import InputError, Problem
from accuracy_db.regular_files import Digests, read_line_blocks, record_digest, regular_fd

from .game_days import parse_day

RECORD_TEXTS = ["home_name", "vis_name", "home_city", "vis_city"]
RECORD_KEYS = ["shared_task_text_id", "day", *RECORD_TEXTS, "home_line", "vis_line", "box_score", "summary"]

# Rotowire key -> table column. Rotowire gives every value as a string; 'N/A' when it is missing.
TEAM_TEXTS = {"TEAM-NAME": "team_name", "TEAM-CITY": "team_city"}
TEAM_STATS = {
    "TEAM-WINS": "wins",
    "TEAM-LOSSES": "losses",
    "TEAM-PTS": "pts",
    "TEAM-PTS_QTR1": "pts_qtr1",
    "TEAM-PTS_QTR2": "pts_qtr2",
    "TEAM-PTS_QTR3": "pts_qtr3",
    "TEAM-PTS_QTR4": "pts_qtr4",
    "TEAM-FG_PCT": "fg_pct",
    "TEAM-FG3_PCT": "fg3_pct",
    "TEAM-FT_PCT": "ft_pct",
    "TEAM-REB": "reb",
    "TEAM-AST": "ast",
    "TEAM-TOV": "tov",
}
PLAYER_TEXTS = {
    "PLAYER_NAME": "player_name",
    "FIRST_NAME": "first_name",
    "SECOND_NAME": "second_name",
    "TEAM_CITY": "team_city",
    "START_POSITION": "start_position",
}
PLAYER_STATS = {
    "MIN": "minutes",
    "PTS": "pts",
    "FGM": "fgm",
    "FGA": "fga",
    "FG_PCT": "fg_pct",
    "FG3M": "fg3m",
    "FG3A": "fg3a",
    "FG3_PCT": "fg3_pct",
    "FTM": "ftm",
    "FTA": "fta",
    "FT_PCT": "ft_pct",
    "OREB": "oreb",
    "DREB": "dreb",
    "REB": "reb",
    "AST": "ast",
    "STL": "stl",
    "BLK": "blk",
    "TO": "tov",
    "PF": "pf",
}
TEAM_KEYS = [*TEAM_TEXTS, *TEAM_STATS]
PLAYER_KEYS = [*PLAYER_TEXTS, *PLAYER_STATS]

# A stat's values in one game are joined into one string by this character, and split again in a frame a few thousand
# games at a time: far faster, and far smaller, than a Python string a value. A game with a value that is not a
# string, or whose line may hold this character, takes the slow way: its values one at a time. A JSON string holds
# a control character only escaped (both parsers refuse it raw), so a line without these escapes cannot hold it.
SEPARATOR = "\x1f"
SEPARATOR_ESCAPES = (b"\\u001f", b"\\u001F")


class BoxScores:
    """The records of shared_task.jsonl: games rows, and the columns of the team and player rows."""

    CHUNK = 2000  # games whose joined stats are gathered before they become a frame

    def __init__(self):
        self.lines: dict[str, int] = {}  # text_id -> line, for every record whose text id could be read
        self.games: dict[str, dict] = {}  # text_id -> games row, for every record without problems
        self.team_lines: list[tuple[str, int, str, dict]] = []  # (text_id, line, side, the team's line)
        self.players: dict[str, list] = {"text_id": [], "line": [], "player_index": []}  # the rest: stat_frames
        self.joined_stats: dict[str, list[str]] = defaultdict(list)  # stat -> its values joined, a game a string
        self.stat_frames: list[pl.DataFrame] = []  # the PLAYER_KEYS columns of the player rows, as strings

    def add(self, record: dict, line: int, may_hold_separator: bool) -> None:
        text_id = record["shared_task_text_id"]
        self.games[text_id] = {
            **{key: record[key] for key in RECORD_TEXTS},
            "text_id": text_id,
            "game_date": parse_day(record["day"]),
            "reference_summary": " ".join(record["summary"]),
        }
        self.team_lines += (
            (text_id, line, "home", record["home_line"]),
            (text_id, line, "visitor", record["vis_line"]),
        )
        # The box score is column-oriented (stat -> player index -> value).
        box_score = record["box_score"]
        indices = list(box_score["PLAYER_NAME"])
        if not indices:
            return
        self.players["text_id"] += [text_id] * len(indices)
        self.players["line"] += [line] * len(indices)
        self.players["player_index"] += map(int, indices)
        stats = [box_score[key] for key in PLAYER_KEYS]
        # Each stat's values in the players' order: as the stat gives them when it lists the players in that order
        # (as Rotowire's do, and faster than looking each one up).
        in_order = [stat.values() if list(stat) == indices else map(stat.__getitem__, indices) for stat in stats]
        try:
            joined = list(map(SEPARATOR.join, in_order))
        except TypeError:  # a value that is not a string
            joined = None
        if joined is None or may_hold_separator:
            self.keep_as_frame()
            values = {key: list(map(stat.__getitem__, indices)) for key, stat in zip(PLAYER_KEYS, stats)}
            self.stat_frames.append(string_frame(values, PLAYER_KEYS))
            return
        for key, text in zip(PLAYER_KEYS, joined):
            self.joined_stats[key].append(text)
        if len(self.joined_stats[PLAYER_KEYS[0]]) == self.CHUNK:
            self.keep_as_frame()

    def keep_as_frame(self) -> None:
        """Split the joined stats gathered so far into a frame of player rows."""
        if self.joined_stats:
            joined = pl.DataFrame(self.joined_stats, schema=dict.fromkeys(PLAYER_KEYS, pl.String))
            split = joined.select(pl.all().str.split(SEPARATOR)).explode(PLAYER_KEYS)
            self.stat_frames.append(split.with_columns(pl.all().replace("N/A", None)))
            self.joined_stats = defaultdict(list)

    def team_strings(self) -> pl.DataFrame:
        text_ids, lines, sides, team_lines = zip(*self.team_lines) if self.team_lines else ([], [], [], [])
        values = {key: [team_line[key] for team_line in team_lines] for key in TEAM_KEYS}
        return string_frame({"text_id": text_ids, "line": lines, "side": sides, **values}, TEAM_KEYS)

    def player_strings(self) -> pl.DataFrame:
        self.keep_as_frame()
        players = pl.DataFrame([pl.Series(name, values, strict=False) for name, values in self.players.items()])
        if self.stat_frames:  # in one chunk, like the other columns (polars can fail on columns chunked unalike)
            stats = pl.concat(self.stat_frames, rechunk=True)
        else:
            stats = pl.DataFrame(schema=dict.fromkeys(PLAYER_KEYS, pl.String))
        return pl.concat([players, stats], how="horizontal")


def read_box_scores(path: Path, problems: list[Problem], digests: Digests | None = None) -> BoxScores | None:
    """The records of shared_task.jsonl (line N holds the Nth record), or None when the split has no such file; with
    digests, the file's digest is recorded there. The file is read and parsed a block of lines at a time: held whole,
    its 798 MB at scale 1000 were most of what loading the games held, while the lists load beside them."""
    if not os.path.lexists(path):
        return None
    try:
        with regular_fd(path) as (fd, _):
            sha256, size = hashlib.sha256(), 0

            def hashed_blocks() -> Iterator[bytes]:
                nonlocal size
                for block in read_line_blocks(path, fd):
                    sha256.update(block)
                    size += len(block)
                    yield block

            box_scores = parse_box_scores(str(path), hashed_blocks(), problems)
            if digests is not None:
                record_digest(digests, path, fd, size, sha256.hexdigest())
            return box_scores
    except InputError as error:  # not a regular file, or unreadable
        problems.extend(error.problems)
        return None


def lines_of(data: bytes) -> Iterator[bytes]:
    """The lines of the bytes, each with its newline (as a binary file's lines are)."""
    start = 0
    while start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end + 1
        yield data[start:end]  # copied line by line, as it is parsed: while it is in the processor's cache
        start = end


def parse_box_scores(file: str, blocks: Iterable[bytes], problems: list[Problem]) -> BoxScores:
    """The records of the lines of shared_task.jsonl, given in blocks of whole lines; what is wrong with them goes to
    problems."""
    box_scores = BoxScores()
    for first_line, data in numbered_blocks(blocks):
        parse_block(file, first_line, data, box_scores, problems)
    return box_scores


def numbered_blocks(blocks: Iterable[bytes]) -> Iterator[tuple[int, bytes]]:
    """Each block of lines with the number of its first line."""
    line = 1
    for data in blocks:
        yield line, data
        line += data.count(b"\n")


def parse_block(file: str, first_line: int, data: bytes, box_scores: BoxScores, problems: list[Problem]) -> None:
    """Add the records of a block of lines, the first of them line first_line, to box_scores."""
    any_escape = b"\\" in data  # (memchr, fast) without a backslash, no line can hold an escaped separator
    for line, text in enumerate(lines_of(data), start=first_line):
        if not text or text.isspace():  # as `not text.strip()`, without copying the line
            continue
        try:
            record = parse_json(text)
        except UnicodeDecodeError:
            problems.append(Problem(file, line, "not UTF-8 text"))
            continue
        except json.JSONDecodeError as error:
            problems.append(Problem(file, line, f"malformed JSON: {error.msg} (column {error.colno})"))
            continue
        except RecursionError:
            problems.append(Problem(file, line, "malformed JSON: nested too deeply"))
            continue
        except ValueError:  # a number past sys.get_int_max_str_digits(), which json leaves to int()
            problems.append(Problem(file, line, "malformed JSON: a number too long to read"))
            continue
        messages = record_problems(record, box_scores.lines)
        problems.extend(Problem(file, line, message) for message in messages)
        text_id = record_text_id(record)
        if text_id:
            box_scores.lines.setdefault(text_id, line)
        if not messages:
            box_scores.add(record, line, any_escape and any(escape in text for escape in SEPARATOR_ESCAPES))


# orjson reads a whole number of more than 64 bits as a float, where json keeps it whole: a line with a run of 19
# digits (the shortest such number: -9223372036854775809) goes to json.
DIGITS_AS_ZEROS = bytes.maketrans(b"123456789", b"000000000")
LONG_NUMBER = b"0" * 19


def parse_json(text: bytes):
    """A JSON value, or error, as json.loads gives it; faster: orjson reads the lines it reads the same.

    What orjson refuses, json reads again: json also takes NaN, lone surrogates and a byte order mark, and its errors
    say more."""
    if LONG_NUMBER not in text.translate(DIGITS_AS_ZEROS):
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
    return json.loads(text)


def record_text_id(record) -> str | None:
    text_id = record.get("shared_task_text_id") if isinstance(record, dict) else None
    return text_id if isinstance(text_id, str) and text_id else None


def record_problems(record, lines: dict[str, int]) -> list[str]:
    """What keeps a record from being read (its numbers are checked later, all at once)."""
    if not isinstance(record, dict):
        return ["not a JSON object"]
    messages = []
    text_id = record_text_id(record)
    if text_id is None:
        messages.append(f"shared_task_text_id is not a text id: {record.get('shared_task_text_id')!r}")
    elif text_id in lines:
        messages.append(f"{text_id} is already on line {lines[text_id]}")
    missing = [key for key in RECORD_KEYS if key not in record]
    if missing:
        return [*messages, f"missing key(s): {', '.join(missing)}"]
    try:
        parse_day(record["day"])
    except (TypeError, ValueError):
        messages.append(f"day is not a MM_DD_YY date: {record['day']!r}")
    messages += [f"{key} is not a string: {record[key]!r}" for key in RECORD_TEXTS if not isinstance(record[key], str)]
    if not isinstance(record["summary"], list) or not joins(record["summary"]):
        messages.append("summary is not a list of tokens")
    messages += missing_keys("home_line", record["home_line"], TEAM_KEYS)
    messages += missing_keys("vis_line", record["vis_line"], TEAM_KEYS)
    messages += box_score_problems(record["box_score"])
    return messages


def joins(tokens: list) -> bool:
    """Whether the tokens are all strings (joining them is the fastest way to tell: a few times faster than looking
    at each one's type)."""
    try:
        " ".join(tokens)
    except TypeError:
        return False
    return True


def missing_keys(name: str, value, keys: list[str]) -> list[str]:
    if not isinstance(value, dict):
        return [f"{name} is not a JSON object"]
    missing = [key for key in keys if key not in value]
    return [f"{name} has no {', '.join(missing)}"] if missing else []


def box_score_problems(box_score) -> list[str]:
    """Each stat must map the same player indices ("0".."N") to values."""
    messages = missing_keys("box_score", box_score, PLAYER_KEYS)
    if messages:
        return messages
    not_objects = [key for key in PLAYER_KEYS if not isinstance(box_score[key], dict)]
    if not_objects:
        return [f"box_score {', '.join(not_objects)}: not a JSON object"]
    players = box_score["PLAYER_NAME"].keys()
    if not all(map(str.isdecimal, players)):
        messages.append(f"box_score player indices are not all whole numbers: {sorted(players)}")
    ragged = [key for key in PLAYER_KEYS if box_score[key].keys() != players]
    if ragged:
        messages.append(f"box_score {', '.join(ragged)}: not the same players as PLAYER_NAME")
    return messages


def string_frame(columns: dict[str, list], keys: list[str]) -> pl.DataFrame:
    """Rotowire values as strings, 'N/A' as NULL (strict=False: a JSON number becomes its digits)."""
    # A Series a column: pl.DataFrame(columns) builds the same frame, several times slower.
    frame = pl.DataFrame(
        [
            pl.Series(name, values, dtype=pl.String if name in keys else None, strict=False)
            for name, values in columns.items()
        ]
    )
    return frame.with_columns(pl.col(keys).replace("N/A", None))
