"""Load the WebAnno curation exports of a split (optional input): curation/<TEXT>…/CURATION_USER.tsv.

Each export is the curated annotation of one text in WebAnno TSV 3.2: header lines (#FORMAT=…, #T_SP=… naming the
layer and its features), then each sentence as a #Text= line and one line per token: SENTENCE-TOKEN ids,
character offsets, the token, and one cell per feature. A cell is _ where the token carries no mistake, * for a
feature left empty, and a multi-token mistake carries the same [n] on each of its tokens. Every export of the split
is read and checked first; only a split whose exports have no problem is inserted (a bad export stops the build,
as a bad gold list does: the figures by agreement level would otherwise lose texts without anyone noticing).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import duckdb
import polars as pl

from accuracy_db.errors import InputError, Problem, quoted
from accuracy_db.regular_files import read_text

from .frames import create_temp_table

EXPORT_NAME = "CURATION_USER.tsv"
LAYER = "webanno.custom.Errors"
CATEGORIES = ("NAME", "NUMBER", "WORD", "CONTEXT", "NOT_CHECKABLE", "OTHER")
# feature -> (curated_mistakes column, how its value is read); A_Type and H_FOUND_ERR are required
FEATURES = {
    "A_Type": ("category", "category"),
    "B_Correction": ("correction", "text"),
    "C_Comment": ("comment", "text"),
    "G_Corrected_Types": ("corrected_types", "count"),
    "G_Problem": ("problem", "text"),
    "H_FOUND_ERR": ("found_by", "count"),
    "I_Correction_Disagreement": ("correction_disagreement", "boolean"),
    "I_Spans_Match": ("spans_match", "count"),
    "J_Corrected_Type": ("corrected_category", "category"),
    "J_Types_Match": ("types_match", "count"),
}
REQUIRED = ("A_Type", "H_FOUND_ERR")
TOKEN_ID = re.compile(r"([0-9]+)-([0-9]+)")
NUMBERED = re.compile(r"(.*?)(?<!\\)\[([0-9]+)\]", re.DOTALL)  # value[n]: the nth multi-token annotation
MISTAKE_SCHEMA = {
    "text_id": pl.String,
    "doc_token_start": pl.Int32,
    "doc_token_end": pl.Int32,
    "line_number": pl.Int32,
    "category": pl.String,
    "corrected_category": pl.String,
    "correction": pl.String,
    "comment": pl.String,
    "problem": pl.String,
    "found_by": pl.Int32,
    "spans_match": pl.Int32,
    "types_match": pl.Int32,
    "corrected_types": pl.Int32,
    "correction_disagreement": pl.Boolean,
}


@dataclass(frozen=True)
class CurationExport:
    """One export: the text it annotates (the start of its folder's name, S001 for S001_01_To_60.txt) and its file."""

    text_id: str
    path: Path


def curation_exports(folder: Path) -> list[CurationExport]:
    """The exports of a curation folder, by folder name; none when there is no such folder."""
    if not folder.is_dir():
        return []
    return [
        CurationExport(re.split(r"[_.]", sub.name, maxsplit=1)[0], sub / EXPORT_NAME)
        for sub in sorted(folder.iterdir())
        if (sub / EXPORT_NAME).is_file()
    ]


def load_curation(con: duckdb.DuckDBPyConnection, folder: Path, split: str) -> list[str]:
    """Insert the exports of a split's curation folder and return the warnings: how many mistakes the curation
    and the gold list do not share (listed by the view curation_mismatches). Raises InputError listing every
    problem of every export, before inserting anything."""
    exports = curation_exports(folder)
    if not exports:
        return []
    token_counts = dict(con.execute("SELECT text_id, token_count FROM texts WHERE split = ?", [split]).fetchall())
    problems: list[Problem] = []
    files: dict[str, str] = {}
    mistakes: list[dict] = []
    for export in exports:
        if export.text_id in files:
            problems.append(
                Problem(str(export.path), None, f"{export.text_id} already has an export: {files[export.text_id]}")
            )
            continue
        files[export.text_id] = str(export.path)
        if export.text_id not in token_counts:
            problems.append(Problem(str(export.path), None, f"{export.text_id} is not a text of the {split} split"))
            continue
        mistakes += read_export(export, token_counts[export.text_id], problems)
    if problems:
        raise InputError(problems)
    exported = pl.DataFrame(
        {"text_id": list(files), "source_file": list(files.values()), "token_count": [token_counts[t] for t in files]},
        schema={"text_id": pl.String, "source_file": pl.String, "token_count": pl.Int32},
    )
    create_temp_table(con, "new_curation_exports", exported)
    create_temp_table(con, "new_curated_mistakes", pl.DataFrame(mistakes, schema=MISTAKE_SCHEMA))
    con.execute("INSERT INTO curation_exports BY NAME SELECT * FROM new_curation_exports")
    con.execute("INSERT INTO curated_mistakes BY NAME SELECT * FROM new_curated_mistakes")
    con.execute("DROP TABLE new_curation_exports; DROP TABLE new_curated_mistakes")
    return mismatch_warnings(con, folder, split)


def mismatch_warnings(con: duckdb.DuckDBPyConnection, folder: Path, split: str) -> list[str]:
    counts = dict(
        con.execute("SELECT kind, count(*) FROM curation_mismatches WHERE split = ? GROUP BY kind", [split]).fetchall()
    )
    if not counts:
        return []
    found = ", ".join(f"{count} {kind}" for kind, count in sorted(counts.items()))
    return [
        f"{folder}: the curation and the gold list of the {split} split differ ({found}); they are listed by "
        '`accuracy-db query "SELECT * FROM curation_mismatches"`'
    ]


def unescape(text: str) -> str:
    """A WebAnno TSV value as written: \\X stands for X (\\t and \\n for a tab and a line break)."""
    return re.sub(r"\\(.)", lambda m: {"t": "\t", "n": "\n"}.get(m.group(1), m.group(1)), text, flags=re.DOTALL)


class ExportReader:
    """Reads one export line by line into its mistakes; what is wrong goes to problems."""

    def __init__(self, export: CurationExport, problems: list[Problem]):
        self.export, self.file, self.problems = export, str(export.path), problems
        self.features: list[str] = []
        self.previous_id: tuple[int, int] | None = None  # (sentence, token) of the last token line
        self.tokens = 0
        self.mistakes: dict[str, dict] = {}  # annotation key -> curated_mistakes row, in order
        self.ok = True

    def problem(self, line: int | None, message: str) -> None:
        self.problems.append(Problem(self.file, line, message))
        self.ok = False

    def read_header(self, lines: list[str]) -> int:
        """Check the header lines; return the number of the first line after them (0 when they are unusable)."""
        if not lines[0].startswith("#FORMAT=WebAnno TSV 3"):
            self.problem(1, "not a WebAnno TSV 3 export: the first line is not #FORMAT=WebAnno TSV 3.…")
            return 0
        number = 2
        while number <= len(lines) and lines[number - 1].startswith("#T_"):
            kind, _, declaration = lines[number - 1].partition("=")
            layer, *features = declaration.split("|")
            if kind != "#T_SP" or layer != LAYER:
                self.problem(number, f"layer {layer or kind}: only the span layer {LAYER} is read")
                return 0
            self.features = features
            number += 1
        if not self.features:
            self.problem(number if number <= len(lines) else None, f"no #T_SP={LAYER}|… line declares the features")
            return 0
        missing = [name for name in REQUIRED if name not in self.features]
        if missing:
            self.problem(number - 1, f"the layer has no feature {', '.join(missing)}")
            return 0
        return number

    def read_token(self, number: int, line: str) -> None:
        self.tokens += 1  # a bad line still stands for a token: the lines after it are checked as they are
        cells = line.split("\t")
        if len(cells) == len(self.features) + 4 and cells[-1] == "":  # WebAnno ends each token line with a tab
            cells.pop()
        previous = self.previous_id
        following = [(1, 1)] if previous is None else [(previous[0], previous[1] + 1), (previous[0] + 1, 1)]
        match = TOKEN_ID.fullmatch(cells[0])
        if match is None:
            self.previous_id = following[0]  # taken for the id it should have, so that the next lines are checked
            self.problem(number, f"token id {quoted(cells[0], 60)} is not SENTENCE-TOKEN (such as 3-14)")
            return
        token_id = self.previous_id = (int(match[1]), int(match[2]))
        if token_id not in following:
            after = "as the first token" if previous is None else f"after {previous[0]}-{previous[1]}"
            self.problem(number, f"token id {cells[0]} {after}: the tokens must be numbered in order")
        elif len(cells) != len(self.features) + 3:
            self.problem(
                number,
                f"{len(cells)} cells where a token line has {len(self.features) + 3}"
                f" (id, offsets, token and the {len(self.features)} features of the header)",
            )
        else:
            self.read_annotation(number, dict(zip(self.features, cells[3:])))

    def read_annotation(self, number: int, cells: dict[str, str]) -> None:
        """The mistake a token line belongs to, if any: a new one, or the continuation of a multi-token one."""
        marked = {name: cell != "_" for name, cell in cells.items()}
        if not any(marked.values()):
            return
        if not all(marked.values()):
            empty = [name for name, is_marked in marked.items() if not is_marked]
            self.problem(number, f"a mistake without the feature(s) {', '.join(empty)} (_)")
            return
        if any(re.search(r"(?<!\\)\|", cell) for cell in cells.values()):
            self.problem(number, "stacked annotations (values separated by |) are not read: one mistake a token")
            return
        keys, values = set(), {}
        for name, cell in cells.items():
            numbered = NUMBERED.fullmatch(cell)
            keys.add(numbered[2] if numbered else None)
            values[name] = numbered[1] if numbered else cell
        if len(keys) != 1:
            self.problem(number, "the features of a mistake carry different [n] annotation numbers")
            return
        key = keys.pop()
        if key is not None and key in self.mistakes:
            mistake = self.mistakes[key]
            if mistake["doc_token_end"] != self.tokens - 1:
                self.problem(number, f"mistake [{key}] (line {mistake['line_number']}) goes on after other tokens")
            elif mistake["values"] != values:
                self.problem(number, f"mistake [{key}] has other values here than on line {mistake['line_number']}")
            else:
                mistake["doc_token_end"] = self.tokens
            return
        row = self.parse_values(number, values)
        if row is not None:
            self.mistakes[key if key is not None else f"token {self.tokens}"] = {
                "text_id": self.export.text_id,
                "doc_token_start": self.tokens,
                "doc_token_end": self.tokens,
                "line_number": number,
                **row,
                "values": values,
            }

    def parse_values(self, number: int, values: dict[str, str]) -> dict | None:
        """The curated_mistakes columns of a mistake's feature values, or None when one is bad."""
        row = {column: None for column, _ in FEATURES.values()}
        for name, raw in values.items():
            if name not in FEATURES or raw == "*":  # * : the feature was left empty
                if name in REQUIRED:
                    self.problem(number, f"{name} is empty (*)")
                    return None
                continue
            column, kind = FEATURES[name]
            value = unescape(raw)
            if kind == "category":
                category = re.sub(r"^[0-9]+_", "", value)  # 1_NAME: the number orders the categories in WebAnno
                if category not in CATEGORIES:
                    self.problem(
                        number, f"{name} is {quoted(value, 60)}: expected a category ({', '.join(CATEGORIES)})"
                    )
                    return None
                row[column] = category
            elif kind == "count":
                if value not in ("0", "1", "2", "3"):
                    self.problem(number, f"{name} is {quoted(value, 60)}: expected a number of annotators, 0 to 3")
                    return None
                row[column] = int(value)
            elif kind == "boolean":
                if value not in ("true", "false"):
                    self.problem(number, f"{name} is {quoted(value, 60)}: expected true or false")
                    return None
                row[column] = value == "true"
            else:
                row[column] = value
        return row


def read_export(export: CurationExport, token_count: int, problems: list[Problem]) -> list[dict]:
    """The curated_mistakes rows of one export; its problems are added to problems (and then no rows)."""
    reader = ExportReader(export, problems)
    try:
        text = read_text(export.path)
    except InputError as error:  # not a regular file, unreadable, its name or its bytes not UTF-8
        problems += error.problems
        return []
    lines = text.replace("\r\n", "\n").split("\n")
    first = reader.read_header(lines)
    if not first:
        return []
    for number in range(first, len(lines) + 1):
        line = lines[number - 1]
        if line and not line.startswith("#"):
            reader.read_token(number, line)
    if reader.ok and reader.tokens != token_count:
        reader.problem(None, f"{reader.tokens} token lines where {export.text_id} has {token_count} tokens")
    if not reader.ok:
        return []
    return [{key: value for key, value in row.items() if key != "values"} for row in reader.mistakes.values()]
