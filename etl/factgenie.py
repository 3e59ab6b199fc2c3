"""Read a factgenie campaign folder, and load it as annotation lists of a corpus: whole or not at all.

A campaign folder (factgenie's format) holds metadata.json, whose config.annotation_span_categories lists the span
categories (name, color, description), and files/*.jsonl, one record a line per annotated output: dataset, split,
setup_id, example_idx, output (the annotated text), annotations [{text, start, type (an index into the
categories), reason, and correction where accuracy-db wrote one}] and metadata {annotator_id, …}. A record may
name its text (text_id, as `accuracy-db export factgenie` writes); otherwise the text is
dataset/split/setup_id/example_idx.

Each annotator (metadata.annotator_id: a person or an LLM setup) becomes one list per split, named
CAMPAIGN/ANNOTATOR. Spans map to whole tokens (etl/char_spans.py); every adjustment is recorded in
offset_adjustments. An annotation of empty text, or whose type is no category index, is left out and counted in
one warning line a file and kind, as factgenie's analyses drop it (strict: refused). Spans of one list may overlap
(factgenie allows it): the list is loaded, and the shared-task scheme's refusal, naming the overlapping spans, goes
to scheme_refusals. What the campaign gave beyond texts and token spans (metadata.json; each record's key, file,
line and other fields, its annotations as given among them) is kept as it came in factgenie_lists and
factgenie_records, which `accuracy-db export factgenie` writes back.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import polars as pl

from accuracy_db.errors import AccuracyDbError, InputError, Problem, SpanProblem, quoted
from accuracy_db.names import MAX_CATEGORIES, name_problem, too_many_categories
from accuracy_db.regular_files import read_bytes, read_text

from .char_spans import TokenIndex
from .corpus_texts import Category, CorpusText, corpus_categories, create_corpus, held_texts, insert_texts
from .frames import create_temp_table, insert_rows
from .left_out import EMPTY, LeftOut
from .span_lists import ImportReport, NewList, Record, Span, insert_lists
from .unstorable_text import unstorable_text

MAX_EXAMPLE_IDX = 2**63 - 1  # factgenie_records.example_idx is a BIGINT
NO_CATEGORY = "annotation(s) left out whose type is no category index: factgenie's analyses drop them"


@dataclass
class Campaign:
    folder: Path
    campaign_id: str
    categories: list[Category]
    records: list[Record]
    sha256: str
    metadata: dict
    left_out: list[Problem] = field(default_factory=list)  # one line a file and kind of what was left out


def json_of(path: Path, text: str, line: int | None, problems: list[Problem]):
    """A JSON value, or None with a problem naming the line."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        where = error.lineno if line is None else line
        problems.append(Problem(str(path), where, f"not valid JSON: {error.msg} (column {error.colno})"))
    except RecursionError:
        problems.append(Problem(str(path), line, "not valid JSON: nested too deeply"))
    except ValueError:  # a number past sys.get_int_max_str_digits(), which json leaves to int()
        problems.append(Problem(str(path), line, "not valid JSON: a number too long to read"))
    else:
        surrogate = unstorable_text(value, text)
        if surrogate is None:
            return value
        problems.append(Problem(str(path), line, surrogate))
    return None


def read_categories(path: Path, metadata, problems: list[Problem]) -> list[Category]:
    config = metadata.get("config") if isinstance(metadata, dict) else None
    listed = config.get("annotation_span_categories") if isinstance(config, dict) else None
    if not isinstance(listed, list) or not listed:
        problems.append(Problem(str(path), None, "no config.annotation_span_categories: a list of categories"))
        return []
    if len(listed) > MAX_CATEGORIES:
        problems.append(Problem(str(path), None, too_many_categories(len(listed))))
        return []
    categories = []
    for number, entry in enumerate(listed):
        name = entry.get("name") if isinstance(entry, dict) else None
        wrong = "has no name" if name is None else name_problem(name, "category")
        if wrong:
            problems.append(Problem(str(path), None, f"span category {number}: {wrong}"))
            continue
        description, colour = entry.get("description"), entry.get("color")
        categories.append(
            Category(
                name,
                description if isinstance(description, str) else "",
                colour if isinstance(colour, str) else None,
            )
        )
    counts = Counter(c.name for c in categories)
    for name in sorted(n for n in counts if counts[n] > 1):
        problems.append(Problem(str(path), None, f"span category {quoted(name, 60)} is listed twice"))
    return categories


def is_whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def read_record(
    path: Path, line: int, record, categories: list[Category], problems: list[Problem], left_out: LeftOut
) -> Record | None:
    """One JSONL record with its spans placed on tokens; None (and problems) when anything of it is wrong. An
    annotation of empty text, or whose type is no category index, is left out, counted: factgenie's own analyses
    (its span index, which its F1, gamma and counts read) drop them."""
    file = str(path)
    found: list[str] = []
    if not isinstance(record, dict):
        problems.append(Problem(file, line, "not a JSON object"))
        return None
    for key in ("dataset", "split", "setup_id"):
        if not isinstance(record.get(key), str) or not record[key]:
            found.append(f"{key} is missing or not a string")
    if not is_whole(record.get("example_idx")) or record["example_idx"] < 0:
        found.append("example_idx is missing or not a whole number")
    elif record["example_idx"] > MAX_EXAMPLE_IDX:
        found.append(f"example_idx is past {MAX_EXAMPLE_IDX}")
    if not isinstance(record.get("output"), str):
        found.append("output is missing or not a string")
    if not isinstance(record.get("annotations"), list):
        found.append("annotations is missing or not a list")
    metadata = record.get("metadata")
    annotator = metadata.get("annotator_id") if isinstance(metadata, dict) else None
    if not isinstance(annotator, (str, int)) or isinstance(annotator, bool) or str(annotator) == "":
        found.append("metadata.annotator_id is missing")
    elif wrong := name_problem(str(annotator), "annotator"):
        found.append(f"metadata.annotator_id: {wrong}")
    if "text_id" in record and (not isinstance(record["text_id"], str) or not record["text_id"]):
        found.append("text_id is not a string")
    if found:
        problems += [Problem(file, line, message) for message in found]
        return None
    text_id = record.get("text_id") or "/".join(
        [record["dataset"], record["split"], record["setup_id"], str(record["example_idx"])]
    )
    index = TokenIndex(record["output"])
    spans = []
    for number, annotation in enumerate(record["annotations"], start=1):
        span = read_span(file, line, number, annotation, index, categories, problems, left_out)
        if span is not None:
            spans.append(span)
    return Record(file, line, text_id, record["split"], record["output"], str(annotator), spans, record)


def read_span(file, line, number, annotation, index: TokenIndex, categories, problems, left_out) -> Span | None:
    def problem(message: str, kind=Problem) -> None:
        problems.append(kind(file, line, f"annotation {number}: {message}"))

    if not isinstance(annotation, dict):
        return problem("not a JSON object")
    text, start, kind, reason, correction = (
        annotation.get(key) for key in ("text", "start", "type", "reason", "correction")
    )
    if not isinstance(text, str):
        return problem("text is missing or not a string")
    if not is_whole(start):
        return problem("start is missing or not a whole number")
    if not is_whole(kind) or not 0 <= kind < len(categories):
        names = ", ".join(f"{i} {c.name}" for i, c in enumerate(categories))
        message = f"annotation {number}: type {json.dumps(kind)} is not a category index (the categories are {names})"
        return left_out.leave_out(problems, NO_CATEGORY, "type", Problem(file, line, message))
    if text == "":
        message = f"annotation {number}: the span's text at {start} is empty"
        return left_out.leave_out(problems, EMPTY, "annotations", SpanProblem(file, line, message))
    tokens = index.locate(start, text)
    if isinstance(tokens, str):
        return problem(tokens, SpanProblem)
    reason, correction = (value if isinstance(value, str) else None for value in (reason, correction))
    return Span(file, line, start, text, categories[kind].name, reason, tokens, correction=correction)


def read_campaign(folder: Path, strict: bool = False) -> Campaign:
    """Read and check a whole campaign folder; InputError with every problem found. Its empty spans are left out,
    counted in the campaign's left_out (strict: refused)."""
    if not folder.is_dir():
        found = "a file, not a folder" if folder.exists() else "no such folder"
        raise AccuracyDbError(f"{folder}: {found}: expected a factgenie campaign folder")
    metadata_path = folder / "metadata.json"
    if not metadata_path.exists():
        raise InputError([Problem(str(folder), None, "no metadata.json: not a factgenie campaign folder")])
    problems: list[Problem] = []
    digest = hashlib.sha256()
    metadata_bytes = read_bytes(metadata_path)
    digest.update(metadata_bytes)
    metadata = json_of(metadata_path, read_text(metadata_path), None, problems)
    categories = read_categories(metadata_path, metadata, problems) if metadata is not None else []
    campaign_id = metadata.get("id") if isinstance(metadata, dict) else None
    campaign_id = campaign_id if isinstance(campaign_id, str) and campaign_id else folder.name
    if wrong := name_problem(campaign_id, "campaign"):
        problems.append(Problem(str(metadata_path), None, f"id: {wrong}"))
    files = sorted((folder / "files").glob("*.jsonl")) if (folder / "files").is_dir() else []
    if not files:
        problems.append(Problem(str(folder), None, "no files/*.jsonl: the campaign has no annotated outputs"))
    records, left_out = [], LeftOut(strict)
    for path in files:
        data = read_bytes(path)
        digest.update(path.name.encode() + b"\0" + data)
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            problems.append(Problem(str(path), data[: error.start].count(b"\n") + 1, "is not UTF-8 text"))
            continue
        for line, content in enumerate(text.split("\n"), start=1):
            if not content.strip():
                continue
            value = json_of(path, content, line, problems)
            if value is not None and categories:
                record = read_record(path, line, value, categories, problems, left_out)
                if record is not None:
                    records.append(record)
    problems += conflicting_records(records)
    if problems:
        raise InputError(problems)
    return Campaign(folder, campaign_id, categories, records, digest.hexdigest(), metadata, left_out.summary())


def conflicting_records(records: list[Record]) -> list[Problem]:
    """Two records of one text with different outputs, or one annotator's two records of one text."""
    problems, first_of_text, first_of_annotation = [], {}, {}
    for record in records:
        earlier = first_of_text.setdefault(record.text_id, record)
        if earlier.output != record.output or earlier.split != record.split:
            problems.append(
                Problem(
                    record.file,
                    record.line,
                    f"text {record.text_id} has another output or split in {earlier.file} line {earlier.line}",
                )
            )
        earlier = first_of_annotation.setdefault((record.annotator, record.text_id), record)
        if earlier is not record:
            problems.append(
                Problem(
                    record.file,
                    record.line,
                    f"annotator {record.annotator} annotated text {record.text_id} again"
                    f" (first in {earlier.file} line {earlier.line})",
                )
            )
    return problems


def load_campaign(con: duckdb.DuckDBPyConnection, campaign: Campaign, corpus: str | None, kind: str) -> ImportReport:
    """Load a read campaign into a corpus (its id when None; created with the campaign's categories when new) as
    gold lists or submissions; InputError (nothing loaded) when it disagrees with what the database holds."""
    corpus = corpus or campaign.campaign_id
    report = ImportReport(corpus, warnings=list(campaign.left_out))
    metadata = str(campaign.folder / "metadata.json")
    problems: list[Problem] = []
    known = corpus_categories(con, corpus)
    if known is not None:
        for category in campaign.categories:
            if category.name not in known:
                problems.append(
                    Problem(
                        metadata,
                        None,
                        f"span category {quoted(category.name, 60)} is not a category of corpus {corpus}"
                        f" ({', '.join(known)})",
                    )
                )
    new_texts = check_texts(con, campaign, corpus, problems)
    lists = group_lists(campaign)
    for annotator, split in lists:
        name = f"{campaign.campaign_id}/{annotator}" if kind == "submission" else "gold"
        taken = con.execute(
            "SELECT 1 FROM annotation_sets WHERE corpus = ? AND split = ? AND kind = ? AND (name = ? OR kind = 'gold')",
            [corpus, split, kind, name],
        ).fetchall()
        if taken:
            what = f"a gold list of split {split}" if kind == "gold" else f"a list {name} of split {split}"
            problems.append(Problem(str(campaign.folder), None, f"corpus {corpus} already has {what}"))
    if kind == "gold":
        for split in sorted({split for _, split in lists}):
            annotators = sorted(annotator for annotator, other in lists if other == split)
            if len(annotators) > 1:
                problems.append(
                    Problem(
                        str(campaign.folder),
                        None,
                        f"{len(annotators)} annotators of split {split} ({', '.join(annotators)}): a gold list has one",
                    )
                )
    if problems:
        raise InputError(problems)
    con.execute("BEGIN TRANSACTION")
    try:
        if known is None:
            create_corpus(
                con, corpus, f"factgenie campaign {campaign.campaign_id}", str(campaign.folder), campaign.categories
            )
        insert_texts(con, corpus, new_texts)
        report.texts_added = len(new_texts)
        # an annotator's list covers the examples it annotated (a record each, spans or none); a gold list its split
        new = [
            NewList(kind, "gold", split, records)
            if kind == "gold"
            else NewList(kind, f"{campaign.campaign_id}/{annotator}", split, records, [r.text_id for r in records])
            for (annotator, split), records in lists.items()
        ]
        set_ids = insert_lists(con, campaign.folder, campaign.sha256, corpus, new, report)
        for set_id, records in zip(set_ids, lists.values(), strict=True):
            insert_as_given(con, campaign, records, set_id)
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return report


def check_texts(con, campaign: Campaign, corpus: str, problems: list[Problem]) -> list[CorpusText]:
    """The campaign's texts the database does not hold yet; a problem for each it holds with other content."""
    outputs = {}
    for record in campaign.records:
        outputs.setdefault(record.text_id, record)
    create_temp_table(con, "campaign_texts", pl.DataFrame({"text_id": list(outputs)}, schema={"text_id": pl.String}))
    try:
        held = con.execute(
            "SELECT text_id, corpus, split, generated_text FROM texts JOIN campaign_texts USING (text_id)"
        ).fetchall()
    finally:
        con.execute("DROP TABLE campaign_texts")
    elsewhere = held_texts(con, [text_id for text_id, text_corpus, *_ in held if text_corpus != corpus])
    for text_id, text_corpus, split, text in held:
        record = outputs[text_id]
        if text_corpus != corpus:
            message = f"text {text_id} is a text of {elsewhere[text_id]}, not of corpus {corpus}"
        elif split != record.split:
            message = f"text {text_id} is of split {split} in the database, not {record.split}"
        elif text != record.output:
            differs = next(
                (i for i, (a, b) in enumerate(zip(text, record.output)) if a != b), min(len(text), len(record.output))
            )
            message = f"the output of text {text_id} differs from the text in the database (from character {differs})"
        else:
            continue
        problems.append(Problem(record.file, record.line, message))
    held_ids = {text_id for text_id, *_ in held}
    return [
        CorpusText(text_id, record.split, record.output)
        for text_id, record in outputs.items()
        if text_id not in held_ids
    ]


def group_lists(campaign: Campaign) -> dict[tuple[str, str], list[Record]]:
    lists: dict[tuple[str, str], list[Record]] = defaultdict(list)
    for record in campaign.records:
        lists[record.annotator, record.split].append(record)
    return dict(sorted(lists.items()))


RECORD_KEY = ("dataset", "split", "setup_id", "example_idx", "output")  # columns of their own; output is the text's
RECORD_COLUMNS = {"set_id": pl.Int32, "text_id": pl.String, "file": pl.String, "line_number": pl.Int32}
RECORD_COLUMNS |= {"dataset": pl.String, "setup_id": pl.String, "example_idx": pl.Int64, "fields": pl.String}


def insert_as_given(con, campaign: Campaign, records: list[Record], set_id: int) -> None:
    """Keep what the list's records gave beyond texts and token spans, as it came: the campaign's metadata, each
    record's key, place and other fields (its annotations among them, each with its start and text as given). One
    JSON text a record: one a span took a third of the import's time."""
    as_json = lambda value: json.dumps(value, ensure_ascii=False)  # noqa: E731
    lists_row = (set_id, as_json(campaign.metadata))
    insert_rows(con, "factgenie_lists", [lists_row], {"set_id": pl.Int32, "metadata": pl.String})
    record_rows = [
        (set_id, r.text_id, Path(r.file).name, r.line, r.given["dataset"], r.given["setup_id"], r.given["example_idx"])
        + (as_json({key: value for key, value in r.given.items() if key not in RECORD_KEY}),)
        for r in records
    ]
    insert_rows(con, "factgenie_records", record_rows, RECORD_COLUMNS)
