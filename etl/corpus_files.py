"""Read a corpus folder (the generic corpus format), and load it as a new corpus: whole or not at all.

The folder holds texts.jsonl (one text a line: id, text, split (optional, default test), data (optional: any
JSON, the data the text was generated from)), categories.yaml (a list of name, description, colour) and lists/,
one annotation list a file: lists/gold.jsonl is the gold list, every other lists/NAME.jsonl a submission named
NAME; a list covers every text (one with no span in it has no mistake), one list per split. A line of a list is
one span: text_id, category, comment (optional) and either characters (start, with end or text; from 0, end
exclusive) or tokens (token_start, token_end: counted from 1, inclusive). Spans in characters map to whole tokens
as factgenie's do (etl/char_spans.py, audited in offset_adjustments).
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from pathlib import Path

import duckdb

from accuracy_db.errors import AccuracyDbError, InputError, Problem
from accuracy_db.regular_files import read_bytes, read_text

from .bounded_yaml import load_bounded_yaml
from .char_spans import TokenIndex, TokenSpan
from .corpus_texts import Category, CorpusText, create_corpus, insert_texts
from .span_lists import ImportReport, Record, Span, insert_list

DEFAULT_SPLIT = "test"


def jsonl_objects(path: Path, problems: list[Problem]) -> list[tuple[int, dict]]:
    """(line, object) of every non-blank line of a JSONL file; a problem for each line that is not a JSON object."""
    data = read_bytes(path)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        problems.append(Problem(str(path), data[: error.start].count(b"\n") + 1, "is not UTF-8 text"))
        return []
    objects = []
    for line, content in enumerate(text.split("\n"), start=1):
        if not content.strip():
            continue
        try:
            value = json.loads(content)
        except (json.JSONDecodeError, RecursionError) as error:
            detail = error.msg if isinstance(error, json.JSONDecodeError) else "nested too deeply"
            problems.append(Problem(str(path), line, f"not valid JSON: {detail}"))
            continue
        if isinstance(value, dict):
            objects.append((line, value))
        else:
            problems.append(Problem(str(path), line, "not a JSON object"))
    return objects


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
    categories = []
    for number, entry in enumerate(value, start=1):
        name = entry.get("name") if isinstance(entry, dict) else None
        if not isinstance(name, str) or not name.strip() or name == "ALL":
            problems.append(Problem(str(path), None, f"category {number} has no name (or is named ALL, a scope)"))
            continue
        description, colour = entry.get("description", ""), entry.get("colour", entry.get("color"))
        categories.append(Category(name, str(description or ""), str(colour) if colour is not None else None))
    names = [c.name for c in categories]
    problems += [
        Problem(str(path), None, f"category {n!r} is listed twice") for n in sorted(set(names)) if names.count(n) > 1
    ]
    if problems:
        raise InputError(problems)
    return categories


def read_span(path, line, value, texts: dict[str, CorpusText], indexes, categories, problems) -> Record | None:
    def problem(message: str) -> None:
        problems.append(Problem(str(path), line, message))

    text_id, category = value.get("text_id"), value.get("category")
    if text_id not in texts:
        return problem(f"text_id {json.dumps(text_id)} is not a text of texts.jsonl")
    if category not in categories:
        return problem(f"category {json.dumps(category)} is not one of {', '.join(categories)}")
    index = indexes.setdefault(text_id, TokenIndex(texts[text_id].text))
    whole = lambda key: isinstance(value.get(key), int) and not isinstance(value.get(key), bool)  # noqa: E731
    if whole("token_start") and whole("token_end"):
        first, last = value["token_start"], value["token_end"]
        if not 1 <= first <= last <= len(index.offsets):
            return problem(f"tokens {first}-{last} are not tokens of {text_id} (1-{len(index.offsets)})")
        tokens = TokenSpan(first, last, *index.characters_of(first, last), None)
        given_start, given_text = tokens.char_start, index.text[tokens.char_start : tokens.char_end]
    elif whole("start") and (whole("end") or isinstance(value.get("text"), str)):
        given_start = value["start"]
        if whole("end"):
            if not 0 <= given_start < value["end"] <= len(index.text):
                return problem(
                    f"characters {given_start}-{value['end']} are not within {text_id} (0-{len(index.text)})"
                )
            given_text = index.text[given_start : value["end"]]
        else:
            given_text = value["text"]
        tokens = index.locate(given_start, given_text)
        if isinstance(tokens, str):
            return problem(tokens)
    else:
        return problem("expected start with end or text (characters), or token_start and token_end (tokens)")
    comment = value.get("comment")
    span = Span(
        str(path), line, given_start, given_text, category, comment if isinstance(comment, str) else None, tokens
    )
    text = texts[text_id]
    return Record(str(path), line, text_id, text.split, text.text, "", [span])


def load_corpus_folder(con: duckdb.DuckDBPyConnection, folder: Path, corpus: str | None = None) -> ImportReport:
    """Read and load a corpus folder as a new corpus (named after the folder when corpus is None); InputError with
    every problem, and nothing loaded, when anything is wrong."""
    if not folder.is_dir():
        raise AccuracyDbError(f"{folder}: no such folder: expected a corpus folder")
    corpus = corpus or folder.name
    for required in ("texts.jsonl", "categories.yaml"):
        if not (folder / required).exists():
            raise InputError([Problem(str(folder), None, f"no {required}: not a corpus folder")])
    if con.execute("SELECT 1 FROM corpora WHERE corpus = ?", [corpus]).fetchall():
        raise AccuracyDbError(f"corpus {corpus} exists already: give another --corpus")
    problems: list[Problem] = []
    categories = read_categories(folder / "categories.yaml")
    texts = dict((text.text_id, text) for _, text in read_texts(folder / "texts.jsonl", problems))
    taken = {
        row[0] for row in con.execute("SELECT text_id FROM texts WHERE text_id = ANY(?)", [list(texts)]).fetchall()
    }
    problems += [
        Problem(str(folder / "texts.jsonl"), None, f"text id {t} is a text of another corpus") for t in sorted(taken)
    ]
    lists, indexes, names = {}, {}, [c.name for c in categories]
    for path in sorted((folder / "lists").glob("*.jsonl")) if (folder / "lists").is_dir() else []:
        records = [
            read_span(path, line, value, texts, indexes, names, problems)
            for line, value in jsonl_objects(path, problems)
        ]
        lists[path] = [record for record in records if record is not None]
    if problems:
        raise InputError(problems)
    report = ImportReport(corpus)
    create_corpus(con, corpus, f"corpus folder {folder.name}", str(folder), categories)
    insert_texts(con, corpus, list(texts.values()))
    report.texts_added = len(texts)
    for path, records in lists.items():
        kind, name = ("gold", "gold") if path.stem == "gold" else ("submission", path.stem)
        by_split = defaultdict(list)
        for record in records:
            by_split[record.split].append(record)
        sha256 = hashlib.sha256(read_bytes(path)).hexdigest()
        for split in sorted({text.split for text in texts.values()}):  # a text a list has no span in has no mistake
            insert_list(con, path, sha256, corpus, kind, name, split, by_split.get(split, []), report)
    return report
