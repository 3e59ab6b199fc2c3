"""Read a corpus folder (the generic corpus format), and load it as a new corpus.

The folder holds texts.jsonl (one text a line: id, text, split (optional, default test), data (optional: any JSON, the
data the text was generated from)), categories.yaml (a list of name, description, colour) and lists/, one annotation
list a file, in JSONL or CSV (etl/span_csv.py): lists/gold.jsonl (or .csv) is the gold list, every other
lists/NAME.jsonl (or .csv) a submission named NAME, with an optional sidecar lists/NAME.json or .yaml (the submissions
folder's, accuracy_db/ingest/inbox.py); a list covers every text (one with no span in it has no mistake), one list per
split. A line of a list is one span: text_id, category, comment (optional), probability (or prob; optional: how likely
the span is a mistake, from 0 to 1; a span without one is hard) and either characters (start, with end or
text; from 0, end exclusive) or tokens (token_start, token_end: counted from 1, inclusive). Spans in characters map to
whole tokens as factgenie's do (etl/char_spans.py, audited in offset_adjustments).

The folder's name (the corpus's, unless given), each category's and each list file's stem follow the rule of names
(accuracy_db/names.py); a corpus has at most MAX_CATEGORIES categories.

`import corpus` loads a folder whole or not at all; a folder registered with the database (build and refresh)
leaves out a refused list or sidecar and loads the rest."""

from __future__ import annotations

import codecs
import hashlib
import json
import os
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from accuracy_db.errors import AccuracyDbError, InputError, NameTaken, Problem, SpanProblem, cut, quoted
from accuracy_db.names import MAX_CATEGORIES, name_problem, too_many_categories
from accuracy_db.printable import utf8_text
from accuracy_db.regular_files import read_bytes, read_text

from .bounded_yaml import load_bounded_yaml
from .char_spans import TokenIndex, TokenSpan
from .corpus_texts import Category, CorpusText, create_corpus, held_texts, insert_texts
from .left_out import EMPTY, LeftOut
from .sidecars import SIDECAR_SUFFIXES, read_sidecar
from .span_csv import csv_objects
from .span_lists import ImportReport, NewList, Record, Span, insert_lists
from .unstorable_text import unstorable_text

DEFAULT_SPLIT = "test"
LIST_SUFFIXES = (".jsonl", ".csv")


def jsonl_objects(path: Path, problems: list[Problem], data: bytes | None = None) -> Iterator[tuple[int, dict]]:
    """(line, object) of every non-blank line of a JSONL file (its bytes when read already), one line at a time: a
    caller that keeps what it needs of each object holds no more than the file's bytes and one line's objects (a
    Mu-SHROOM line's logits are thousands of numbers). A problem for each line that is not a JSON object."""
    data = read_bytes(path) if data is None else data
    try:
        data.decode("utf-8-sig")  # checked whole first: a file that is not UTF-8 gives nothing
    except UnicodeDecodeError as error:
        problems.append(Problem(str(path), data[: error.start].count(b"\n") + 1, "is not UTF-8 text"))
        return
    start = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    line = 0
    while start <= len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        content, start, line = data[start:end].decode("utf-8"), end + 1, line + 1
        if not content.strip():
            continue
        try:
            value = json.loads(content)
        except (json.JSONDecodeError, RecursionError) as error:
            detail = error.msg if isinstance(error, json.JSONDecodeError) else "nested too deeply"
            problems.append(Problem(str(path), line, f"not valid JSON: {detail}"))
            continue
        except ValueError:  # a number past sys.get_int_max_str_digits(), which json leaves to int()
            problems.append(Problem(str(path), line, "not valid JSON: a number too long to read"))
            continue
        unstorable = unstorable_text(value, content)
        if unstorable:
            problems.append(Problem(str(path), line, unstorable))
        elif isinstance(value, dict):
            yield line, value
        else:
            problems.append(Problem(str(path), line, "not a JSON object"))


def read_texts(path: Path, problems: list[Problem]) -> list[tuple[int, CorpusText]]:
    texts, seen = [], {}
    for line, value in jsonl_objects(path, problems):
        text_id, text, split = value.get("id"), value.get("text"), value.get("split", DEFAULT_SPLIT)
        found = [
            message
            for wrong, message in (
                (not isinstance(text_id, str) or not text_id, "id is missing or not a string"),
                (not isinstance(text, str), "text is missing or not a string"),
                (not isinstance(split, str) or not split, "split is not a string"),
            )
            if wrong
        ]
        if not found and text_id in seen:
            found.append(f"id {text_id} is given again (first on line {seen[text_id]})")
        if found:
            problems += [Problem(str(path), line, message) for message in found]
            continue
        seen[text_id] = line
        data = json.dumps(value["data"], ensure_ascii=False) if "data" in value else None
        texts.append((line, CorpusText(text_id, split, text, data)))
    return texts


def read_categories(path: Path) -> list[Category]:
    value = load_bounded_yaml(str(path), read_text(path), 2, "category list")
    problems = []
    if not isinstance(value, list) or not value:
        raise InputError([Problem(str(path), None, "expected a list of categories (name, description, colour)")])
    if len(value) > MAX_CATEGORIES:
        raise InputError([Problem(str(path), None, too_many_categories(len(value)))])
    categories = []
    for number, entry in enumerate(value, start=1):
        name = entry.get("name") if isinstance(entry, dict) else None
        if name is None:
            problems.append(Problem(str(path), None, f"category {number} has no name"))
            continue
        wrong = name_problem(name, "category")
        if wrong:
            problems.append(Problem(str(path), None, f"category {number}: {wrong}"))
            continue
        description, colour = entry.get("description", ""), entry.get("colour", entry.get("color"))
        categories.append(Category(name, str(description or ""), str(colour) if colour is not None else None))
    counts = Counter(c.name for c in categories)
    problems += [
        Problem(str(path), None, f"category {quoted(n, 60)} is listed twice") for n in sorted(counts) if counts[n] > 1
    ]
    if problems:
        raise InputError(problems)
    return categories


def is_probability(value) -> bool:
    """A number from 0 to 1 (a bool is no number; NaN is not in the range)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= 1


def read_span(
    path, line, value, texts: dict[str, CorpusText], indexes, categories, problems, left_out: LeftOut
) -> Record | None:
    """A line of a list: one span placed on tokens; None when it is refused (a problem) or empty (start = end, or
    an empty text: it marks nothing, and is left out, counted)."""

    def problem(message: str, kind=Problem) -> None:
        problems.append(kind(str(path), line, message))

    def empty(where: str, message: str) -> None:
        left_out.leave_out(problems, EMPTY, where, SpanProblem(str(path), line, message))

    text_id, category = value.get("text_id"), value.get("category")
    if text_id not in texts:
        return problem(f"text_id {cut(json.dumps(text_id), 60)} is not a text of texts.jsonl")
    if category not in categories:
        return problem(f"category {cut(json.dumps(category), 60)} is not one of {', '.join(categories)}")
    index = indexes.get(text_id)
    if index is None:  # (made once a text: setdefault made one a span, which it then threw away)
        index = indexes[text_id] = TokenIndex(texts[text_id].text)
    whole = lambda key: isinstance(value.get(key), int) and not isinstance(value.get(key), bool)  # noqa: E731
    if whole("token_start") and whole("token_end"):
        first, last = value["token_start"], value["token_end"]
        if not 1 <= first <= last <= len(index.offsets):
            shown = f"{quoted(first, 40)}-{quoted(last, 40)}"
            return problem(f"tokens {shown} are not tokens of {text_id} (1-{len(index.offsets)})", SpanProblem)
        tokens = TokenSpan(first, last, *index.characters_of(first, last), None)
        given_start, given_text = tokens.char_start, index.text[tokens.char_start : tokens.char_end]
    elif whole("start") and (whole("end") or isinstance(value.get("text"), str)):
        given_start = value["start"]
        if whole("end") and 0 <= given_start == value["end"] <= len(index.text):
            return empty("start-end", f"characters {given_start}-{given_start} of {text_id} are an empty span")
        if not whole("end") and value["text"] == "":
            return empty("text", f"the span's text at {given_start} of {text_id} is empty")
        if whole("end"):
            if not 0 <= given_start < value["end"] <= len(index.text):
                return problem(
                    f"characters {quoted(given_start, 40)}-{quoted(value['end'], 40)} are not within {text_id}"
                    f" (0-{len(index.text)})",
                    SpanProblem,
                )
            given_text = index.text[given_start : value["end"]]
        else:
            given_text = value["text"]
        tokens = index.locate(given_start, given_text)
        if isinstance(tokens, str):
            return problem(tokens, SpanProblem)
    else:
        return problem("expected start with end or text (characters), or token_start and token_end (tokens)")
    probability = value.get("probability", value.get("prob"))
    if probability is not None and not is_probability(probability):
        return problem(f"probability {quoted(probability, 40)} is not a number from 0 to 1")
    comment = value.get("comment")
    span = Span(
        str(path),
        line,
        given_start,
        given_text,
        category,
        comment if isinstance(comment, str) else None,
        tokens,
        None if probability is None else float(probability),
    )
    text = texts[text_id]
    return Record(str(path), line, text_id, text.split, text.text, "", [span])


@dataclass
class ListFile:
    """A list file of lists/ as read: its spans placed on tokens, its problems, and its sidecar's metadata."""

    path: Path
    name: str
    sha256: str = ""
    records: list[Record] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    sidecar: Path | None = None
    metadata: dict | None = None
    sidecar_sha256: str = ""
    sidecar_problems: list[Problem] = field(default_factory=list)

    @property
    def kind(self) -> str:
        return "gold" if self.name == "gold" else "submission"


def list_files(folder: Path) -> dict[str, list[Path]]:
    """The list files of lists/ by list name (one listing; a name given by two files is refused when read)."""
    lists = folder / "lists"
    if not lists.is_dir():
        return {}
    with os.scandir(lists) as entries:
        names = sorted(entry.name for entry in entries)
    by_name: dict[str, list[Path]] = defaultdict(list)
    for name in names:
        if name.endswith(LIST_SUFFIXES):
            by_name[utf8_text(name.rsplit(".", 1)[0])].append(lists / name)  # a name not UTF-8 is refused when read
    return dict(by_name)


def sidecar_of(folder: Path, name: str) -> Path | None:
    return next(
        (path for path in (folder / "lists" / f"{name}{s}" for s in SIDECAR_SUFFIXES) if os.path.lexists(path)), None
    )


def read_list(paths, name, folder, texts, indexes, categories, left_out: LeftOut) -> ListFile:
    """A list of lists/: its spans, or its problems (a list given twice, a line or a span that cannot be read); its
    empty spans left out."""
    listed = ListFile(paths[0], name)
    wrong = None if name == "gold" else name_problem(name, "list")
    if wrong:
        listed.problems += [Problem(str(path), None, wrong) for path in paths]
        return listed
    if len(paths) > 1:
        shown = " and ".join(path.name for path in paths)
        listed.problems += [Problem(str(path), None, f"the list {name} is given twice ({shown})") for path in paths]
        return listed
    path = listed.path
    try:
        data = read_bytes(path)
    except InputError as error:  # not a regular file, or gone since the folder was listed
        listed.problems += error.problems
        return listed
    listed.sha256 = hashlib.sha256(data).hexdigest()
    lines = (csv_objects if path.suffix == ".csv" else jsonl_objects)(path, listed.problems, data)
    records = [
        read_span(path, line, value, texts, indexes, categories, listed.problems, left_out) for line, value in lines
    ]
    listed.records = [record for record in records if record is not None]
    listed.sidecar = sidecar_of(folder, name)
    if listed.sidecar is not None:
        try:
            listed.metadata = read_sidecar(listed.sidecar)
            listed.sidecar_sha256 = hashlib.sha256(read_bytes(listed.sidecar)).hexdigest()
        except InputError as error:
            listed.metadata, listed.sidecar_problems = None, error.problems
    return listed


@dataclass
class CorpusFolder:
    """A corpus folder as read: its categories and texts (whose problems refuse the whole folder), and its lists,
    each with its own problems."""

    folder: Path
    categories: list[Category]
    texts: dict[str, CorpusText]
    lists: list[ListFile]
    lines: dict[str, int]  # text id -> its line of texts.jsonl
    left_out: LeftOut  # the empty spans of its lists


def read_corpus_folder(folder: Path, strict: bool = False) -> CorpusFolder:
    """Read a corpus folder; InputError when the folder, its texts.jsonl or its categories.yaml is refused. An empty
    span is left out, counted (under strict, a problem of its list)."""
    if not folder.is_dir():
        found = "a file, not a folder" if folder.exists() else "no such folder"
        raise InputError([Problem(str(folder), None, f"{found}: expected a corpus folder")])
    for required in ("texts.jsonl", "categories.yaml"):
        if not os.path.lexists(folder / required):
            raise InputError([Problem(str(folder), None, f"no {required}: not a corpus folder")])
    problems: list[Problem] = []
    categories = read_categories(folder / "categories.yaml")
    read = read_texts(folder / "texts.jsonl", problems)
    if problems:
        raise InputError(problems)
    texts = {text.text_id: text for _, text in read}
    indexes, names, left_out = {}, [c.name for c in categories], LeftOut(strict)
    lists = [
        read_list(paths, name, folder, texts, indexes, names, left_out) for name, paths in list_files(folder).items()
    ]
    return CorpusFolder(folder, categories, texts, lists, {text.text_id: line for line, text in read}, left_out)


def load_corpus_folder(
    con: duckdb.DuckDBPyConnection, folder: Path, corpus: str | None = None, whole: bool = True, strict: bool = False
) -> ImportReport:
    """Read and load a corpus folder as a new corpus (named after the folder when corpus is None). whole (import
    corpus): any problem refuses everything, with InputError listing every problem. Otherwise (a registered folder,
    read by build and refresh) a refused list or sidecar is left out, its problems in report.refused, and the
    others are loaded; a refused folder, texts.jsonl or categories.yaml still raises InputError. The empty spans
    left out are counted in the report's warnings, one line a list file; strict refuses them."""
    corpus = corpus or folder.name
    wrong = name_problem(corpus, "corpus")
    if wrong:
        raise InputError([Problem(str(folder), None, wrong)])
    if con.execute("SELECT 1 FROM corpora WHERE corpus = ?", [corpus]).fetchall():
        if whole:
            raise AccuracyDbError(f"corpus {corpus} exists already: give another --corpus")
        raise InputError([Problem(str(folder), None, f"corpus {corpus} exists already (loaded from another folder)")])
    read = read_corpus_folder(folder, strict)
    taken = held_texts(con, list(read.texts))
    if taken:
        where = str(folder / "texts.jsonl")
        raise InputError(
            [Problem(where, read.lines[t], f"text id {t} is a text of {held} already") for t, held in taken.items()]
        )
    refused = {str(listed.path): listed.problems for listed in read.lists if listed.problems} | {
        str(listed.sidecar): listed.sidecar_problems for listed in read.lists if listed.sidecar_problems
    }
    if whole and refused:
        raise InputError([problem for problems in refused.values() for problem in problems])
    left_out = [problem for problem in read.left_out.summary() if problem.file not in refused]
    report = ImportReport(corpus, refused=refused, warnings=left_out)
    create_corpus(con, corpus, f"corpus folder {folder.name}", str(folder), read.categories)
    insert_texts(con, corpus, list(read.texts.values()))
    report.texts_added = len(read.texts)
    splits = sorted({text.split for text in read.texts.values()})
    for listed in read.lists:
        if listed.problems:
            continue
        by_split = defaultdict(list)
        for record in listed.records:
            by_split[record.split].append(record)
        new = [NewList(listed.kind, listed.name, split, by_split.get(split, [])) for split in splits]
        try:
            insert_lists(con, listed.path, listed.sha256, corpus, new, report)  # a text with no span has no mistake
        except NameTaken as taken:  # an imported metric of the corpus (kept through its reload) holds the name
            if whole:
                raise
            report.refused[str(listed.path)] = taken.problems
            continue
        if listed.metadata is not None:
            con.execute(
                "INSERT OR REPLACE INTO submission_metadata (corpus, submission, team, system, approach,"
                " description, url, sha256) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [corpus, listed.name, *listed.metadata.values(), listed.sidecar_sha256],
            )
    return report
