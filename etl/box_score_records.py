"""Read and check the Rotowire records of shared_task.jsonl: one JSON object a line, a game with its box score.

What is wrong with a line is a problem naming the file and the line; only the records without problems are kept.
"""

from __future__ import annotations

import hashlib
import json
import operator
import os
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path

import orjson
import polars as pl

from accuracy_db.errors import InputError, Problem, quoted
from accuracy_db.regular_files import Digests, read_line_blocks, record_digest, regular_fd

from .game_days import parse_day
from .unstorable_text import UnstorableText, unstorable_text

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
team_values = operator.itemgetter(*TEAM_KEYS)  # a team line's values, in TEAM_KEYS order
player_stats = operator.itemgetter(*PLAYER_KEYS)  # a box score's stats, in PLAYER_KEYS order
PLAYER_STRINGS = {"text_id": pl.String, "line": pl.Int64, **dict.fromkeys(PLAYER_KEYS, pl.String)}

# A stat's values in one game are joined into one string by this character, and split again in a frame a few thousand
# games at a time: far faster, and far smaller, than a Python string a value. A game with a value that is not a
# string, or whose line may hold this character, takes the slow way: its values one at a time. A JSON string holds
# a control character only escaped (both parsers refuse it raw), so a line without these escapes cannot hold it.
SEPARATOR = "\x1f"
SEPARATOR_ESCAPES = (b"\\u001f", b"\\u001F")


class BoxScores:
    """The records of shared_task.jsonl: games rows, and the team and player rows as strings."""

    CHUNK = 2000  # games whose joined stats are gathered before they become a frame

    def __init__(self):
        self.lines: dict[str, int] = {}  # text_id -> line, for every record whose text id could be read
        self.games: dict[str, dict] = {}  # text_id -> games row, for every record without problems
        self.teams: list[tuple] = []  # (text_id, line, side, *the team line's values in TEAM_KEYS order)
        self.player_indices: list[int] = []  # of every player row, in order
        self.joined: list[tuple] = []  # (text_id, line, *each PLAYER_KEYS stat's values joined) of the latest games
        self.player_frames: list[pl.DataFrame] = []  # the PLAYER_STRINGS of the player rows of the games before

    def add(self, game: dict, record: dict, line: int, may_hold_separator: bool) -> None:
        """Add a record without problems, whose games row is game."""
        text_id = game["text_id"]
        self.games[text_id] = game
        self.teams += (
            (text_id, line, "home", *team_values(record["home_line"])),
            (text_id, line, "visitor", *team_values(record["vis_line"])),
        )
        # The box score is column-oriented (stat -> player index -> value).
        indices = list(record["box_score"]["PLAYER_NAME"])
        if not indices:
            return
        self.player_indices += map(int, indices)
        stats = player_stats(record["box_score"])  # each listing the players in PLAYER_NAME's order
        try:
            joined = list(map(SEPARATOR.join, map(dict.values, stats)))
        except TypeError:  # a value that is not a string
            joined = None
        if joined is None or may_hold_separator:
            self.keep_as_frame()
            values = {key: list(stat.values()) for key, stat in zip(PLAYER_KEYS, stats)}
            repeated = {"text_id": [text_id] * len(indices), "line": [line] * len(indices)}
            self.player_frames.append(string_frame({**repeated, **values}, PLAYER_KEYS))
            return
        self.joined.append((text_id, line, *joined))
        if len(self.joined) == self.CHUNK:
            self.keep_as_frame()

    def keep_as_frame(self) -> None:
        """Split the joined stats gathered so far into a frame of player rows."""
        if self.joined:
            joined = pl.DataFrame(list(zip(*self.joined)), schema=PLAYER_STRINGS, orient="col")
            split = joined.with_columns(pl.col(PLAYER_KEYS).str.split(SEPARATOR)).explode(PLAYER_KEYS)
            self.player_frames.append(split.with_columns(pl.col(PLAYER_KEYS).replace("N/A", None)))
            self.joined = []

    def team_strings(self) -> pl.DataFrame:
        names = ["text_id", "line", "side", *TEAM_KEYS]
        columns = zip(*self.teams) if self.teams else [[]] * len(names)
        return string_frame(dict(zip(names, columns)), TEAM_KEYS)

    def player_strings(self) -> pl.DataFrame:
        self.keep_as_frame()
        # In one chunk, like the index (polars can fail on columns chunked unalike).
        strings = (
            pl.concat(self.player_frames, rechunk=True) if self.player_frames else pl.DataFrame(schema=PLAYER_STRINGS)
        )
        return strings.insert_column(2, pl.Series("player_index", self.player_indices, strict=False))


class Stopped(Exception):
    """Reading the box scores was stopped from another thread: a build interrupted while they load beside it."""


def read_box_scores(
    path: Path, problems: list[Problem], digests: Digests | None = None, stop: threading.Event | None = None
) -> BoxScores | None:
    """The records of shared_task.jsonl (line N holds the Nth record), or None when the split has no such file; with
    digests, the file's digest is recorded there. The file is read and parsed a block of lines at a time: held whole,
    its 798 MB at scale 1000 were most of what loading the games held, while the lists load beside them. Once stop
    is set, the next block raises Stopped."""
    if not os.path.lexists(path):
        return None
    try:
        with regular_fd(path) as (fd, _):
            blocks = unless_stopped(read_line_blocks(path, fd), stop)
            if digests is None:
                return parse_box_scores(str(path), blocks, problems)
            sha256 = hashlib.sha256()
            box_scores = parse_box_scores(str(path), hashed(blocks, sha256), problems)
            record_digest(digests, path, fd, os.lseek(fd, 0, os.SEEK_CUR), sha256.hexdigest())  # the bytes read
            return box_scores
    except InputError as error:  # not a regular file, or unreadable
        problems.extend(error.problems)
        return None


def stopped(stop: threading.Event | None) -> None:
    """Stopped once stop is set (a stop of None is never set)."""
    if stop is not None and stop.is_set():
        raise Stopped


def unless_stopped(blocks: Iterable[bytes], stop: threading.Event | None) -> Iterator[bytes]:
    """The blocks, until stop is set: then Stopped."""
    for block in blocks:
        stopped(stop)
        yield block


def hashed(blocks: Iterable[bytes], sha256) -> Iterator[bytes]:
    """The blocks, each added to sha256 as it passes."""
    for block in blocks:
        sha256.update(block)
        yield block


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
        except UnstorableText as error:
            problems.append(Problem(file, line, str(error)))
            continue
        except ValueError:  # a number past sys.get_int_max_str_digits(), which json leaves to int()
            problems.append(Problem(file, line, "malformed JSON: a number too long to read"))
            continue
        game, messages = read_record(record, box_scores.lines)
        problems.extend(Problem(file, line, message) for message in messages)
        text_id = record_text_id(record)
        if text_id:
            box_scores.lines.setdefault(text_id, line)
        if game is not None:
            box_scores.add(game, record, line, any_escape and any(escape in text for escape in SEPARATOR_ESCAPES))


# orjson reads a whole number of more than 64 bits as a float, where json keeps it whole: a line with a run of 19
# digits (the shortest such number: -9223372036854775809) goes to json.
DIGITS_AS_ZEROS = bytes.maketrans(b"123456789", b"000000000")
LONG_NUMBER = b"0" * 19
UNREAD = object()


def parse_json(text: bytes):
    """A JSON value, or error, as json.loads gives it; faster: orjson reads the lines it reads the same.

    What orjson refuses, json reads again: json also takes NaN and a byte order mark, and its errors say more. It takes
    a lone surrogate too, which no table can hold: UnstorableText, as for an escaped NUL, which both take."""
    value = UNREAD
    if LONG_NUMBER not in text.translate(DIGITS_AS_ZEROS):
        try:
            value = orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
        if value is not UNREAD and b"\\u0000" not in text:  # (memmem, fast) orjson takes no lone surrogate
            return value
    if value is UNREAD:
        value = json.loads(text)
    unstorable = unstorable_text(value)
    if unstorable:
        raise UnstorableText(unstorable)
    return value


def record_text_id(record) -> str | None:
    text_id = record.get("shared_task_text_id") if isinstance(record, dict) else None
    return text_id if isinstance(text_id, str) and text_id else None


def read_record(record, lines: dict[str, int]) -> tuple[dict | None, list[str]]:
    """The games row of a record, or what keeps the record from being read (its numbers are checked later, all at
    once)."""
    if not isinstance(record, dict):
        return None, ["not a JSON object"]
    messages = []
    text_id = record_text_id(record)
    if text_id is None:
        messages.append(f"shared_task_text_id is not a text id: {quoted(record.get('shared_task_text_id'), 60)}")
    elif text_id in lines:
        messages.append(f"{text_id} is already on line {lines[text_id]}")
    missing = [key for key in RECORD_KEYS if key not in record]
    if missing:
        return None, [*messages, f"missing key(s): {', '.join(missing)}"]
    try:
        game_date = parse_day(record["day"])
    except (TypeError, ValueError):
        messages.append(f"day is not a MM_DD_YY date: {quoted(record['day'], 60)}")
    messages += [
        f"{key} is not a string: {quoted(record[key], 60)}" for key in RECORD_TEXTS if not isinstance(record[key], str)
    ]
    summary = joined_tokens(record["summary"])
    if summary is None:
        messages.append("summary is not a list of tokens")
    messages += missing_keys("home_line", record["home_line"], TEAM_KEYS)
    messages += missing_keys("vis_line", record["vis_line"], TEAM_KEYS)
    messages += box_score_problems(record["box_score"])
    reference = record.get("cleaned_text")  # optional: the reference of the built-in metrics bleu and chrf
    if reference is not None and not isinstance(reference, str):
        messages.append(f"cleaned_text is not a string: {reference!r:.60}")
    if messages:
        return None, messages
    texts = {key: record[key] for key in RECORD_TEXTS}
    row = {**texts, "text_id": text_id, "game_date": game_date, "reference_summary": summary}
    return {**row, "reference_text": reference}, []


def joined_tokens(tokens) -> str | None:
    """The tokens joined by spaces; None unless they are a list of strings (joining them is the fastest way to tell:
    a few times faster than looking at each one's type)."""
    if not isinstance(tokens, list):
        return None
    try:
        return " ".join(tokens)
    except TypeError:
        return None


def missing_keys(name: str, value, keys: list[str]) -> list[str]:
    if not isinstance(value, dict):
        return [f"{name} is not a JSON object"]
    missing = [key for key in keys if key not in value]
    return [f"{name} has no {', '.join(missing)}"] if missing else []


def box_score_problems(box_score) -> list[str]:
    """Each stat must map the same player indices ("0".."N") to values. A stat that lists them in another order
    than PLAYER_NAME is put in its order: BoxScores.add reads each stat's values in that order."""
    messages = missing_keys("box_score", box_score, PLAYER_KEYS)
    if messages:
        return messages
    not_objects = [key for key in PLAYER_KEYS if not isinstance(box_score[key], dict)]
    if not_objects:
        return [f"box_score {', '.join(not_objects)}: not a JSON object"]
    players = box_score["PLAYER_NAME"].keys()
    if not all(map(str.isdecimal, players)):
        messages.append(f"box_score player indices are not all whole numbers: {sorted(players)}")
    else:
        messages += player_index_problems(players)
    # All in PLAYER_NAME's order, as Rotowire's are: then the keys need no comparing (lists compare faster).
    order = list(players)
    if list(map(list, player_stats(box_score))).count(order) == len(PLAYER_KEYS):
        return messages
    ragged = [key for key in PLAYER_KEYS if box_score[key].keys() != players]
    if ragged:
        return [*messages, f"box_score {', '.join(ragged)}: not the same players as PLAYER_NAME"]
    for key in PLAYER_KEYS:
        box_score[key] = {index: box_score[key][index] for index in order}
    return messages


def player_index_problems(players) -> list[str]:
    """A player index is a key of player_games, an INTEGER: "0" and "00" are one player given twice."""
    distinct = set(map(int, players))
    if len(distinct) == len(players) and max(distinct, default=0) < 2**31:  # (every record of Rotowire's)
        return []
    numbers: dict[int, str] = {}
    messages = []
    for index in players:
        number = int(index)
        if number >= 2**31:
            messages.append(f"box_score player index {index} is too large (at most {2**31 - 1})")
        elif number in numbers:
            messages.append(
                f"box_score player index {number} is given twice"
                f" ({quoted(numbers[number], 60)} and {quoted(index, 60)})"
            )
        numbers.setdefault(number, index)
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
