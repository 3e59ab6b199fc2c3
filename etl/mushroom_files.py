"""Read a SemEval-2025 Task 3 (Mu-SHROOM) file, and load it as the gold list of a new corpus or as a submission.

A file is JSON Lines, one generated text a line: id, lang, model_input, model_output_text (the text), soft_labels
([{start, end, prob}]: characters marked with a probability), hard_labels ([[start, end]]: characters marked) and,
in a labelled file, annotations ({annotator: [[start, end], …]}); other keys are ignored. Offsets are Python string
indices: code points from 0, end exclusive.

A gold file makes a new corpus (one category, HALLUCINATION; each text's split is its lang): its texts, its hard
labels as the gold list, its soft labels kept (character_labels), and each annotator's spans a submission of its
own, named annotator/NAME. A prediction file is a submission of an existing corpus, following the task's scorer:
soft labels alone give hard labels (those of p > 0.5, touching spans merged), hard labels alone give soft labels of
p = 1, and a text of the gold with no line is an empty prediction (one warning counts them). Every label is kept
exactly in character_labels; the hard labels also become token spans (etl/char_spans.py) so that the other schemes,
agreement and adjudicate see them.

What the task's scorer (participant_kit/scorer.py) reads without complaint is read as it reads it, and what
it never reads never refuses a file: an empty span (start = end) of hard_labels, soft_labels or annotations marks
nothing (the scorer reads a span as range(start, end)); an annotation that cannot be read (an annotator's spans that
are no list of pairs, a span not within the text, a name that cannot be a list's), a prediction's text differing
from the gold's and a lang that is not a string are of fields the scorer never reads. Each is left out (the text
scored on the gold's text, the split the default) and counted in one warning a kind (etl/left_out.py); strict
refuses them as problems of their lines.

Refused in one line naming the file and line, and then nothing is loaded: a line that is not a JSON object, an id
missing or given twice, a gold's text missing, an id not in the gold, labels that are not lists of the shapes
above, hard or soft labels outside the text or with start > end (the scorer fails on a soft label past the text, and
counts characters that are not there for a hard one), a probability outside [0, 1] or not a number.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import polars as pl

from accuracy_db.errors import AccuracyDbError, InputError, Problem, quoted
from accuracy_db.names import name_problem
from accuracy_db.regular_files import read_bytes

from .annotation_sets import seal_lists
from .char_spans import TokenIndex
from .corpus_files import is_probability, jsonl_objects
from .corpus_texts import Category, CorpusText, create_corpus, held_texts, insert_texts
from .frames import insert_frame
from .left_out import EMPTY, LeftOut
from .span_lists import ImportReport, NewList, Record, Span, insert_lists

CATEGORY = Category("HALLUCINATION", "A span of the text that the input does not support (Mu-SHROOM)", None)
DEFAULT_CORPUS = "mushroom"
DEFAULT_SPLIT = "test"  # a line without lang
HARD_FROM_SOFT = 0.5  # the task's rule: a soft label of p > 0.5 is hard
# What the task's scorer never reads, left out (etl/left_out.py) rather than refused, unless strict
UNREAD = "annotation(s) left out that cannot be read: the task's scorer never reads annotations"
OTHER_TEXT = "line(s) whose model_output_text differs from the gold's: scored on the gold's, as the task's scorer does"
OTHER_LANG = f"line(s) whose lang is not a string: the text's split is {DEFAULT_SPLIT}"


@dataclass
class Labelled:
    """One line of a Mu-SHROOM file as read: a text's hard and soft labels and its annotators' spans."""

    line: int
    text_id: str
    split: str
    text: str | None
    hard: list[tuple[int, int]] | None
    soft: list[tuple[int, int, float]] | None
    annotators: dict[str, list[tuple[int, int]]] = field(default_factory=dict)


def hard_from_soft(soft: list[tuple[int, int, float]]) -> list[tuple[int, int]]:
    """The task's rule: the soft labels of p > 0.5 in order of (start, end), a span starting where the previous one
    ended joined to it."""
    hard: list[list[int]] = []
    for start, end, _ in sorted((label for label in soft if label[2] > HARD_FROM_SOFT), key=lambda s: s[:2]):
        if hard and hard[-1][1] == start:
            hard[-1][1] = end
        else:
            hard.append([start, end])
    return [(start, end) for start, end in hard]


def is_offset(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_pair(span) -> bool:
    return isinstance(span, list) and len(span) == 2 and all(is_offset(o) for o in span)


def within(spans: list[tuple], key: str, length: int, empty, outside) -> list[tuple]:
    """The spans that mark characters of the text. An empty one within it (start = end: the task's scorer reads a
    span as range(start, end), which is nothing) goes to empty(key, message), any other that is not a span of the
    text to outside(message); neither is kept."""
    kept = []
    for span in spans:
        start, end = span[0], span[1]
        if 0 <= start < end <= length:
            kept.append(span)
        elif 0 <= start == end <= length:
            empty(key, f"{key}: characters {start}-{end} are an empty span (start = end)")
        else:
            outside(f"{key}: characters {start}-{end} are not a span of the text (0-{length})")
    return kept


def spans_of(value, key: str, length: int, problem, empty) -> list[tuple[int, int]] | None:
    """[[start, end], …] within the text; None (after a problem) when it cannot be read."""
    if not isinstance(value, list) or not all(is_pair(span) for span in value):
        return problem(f"{key} is not a list of [start, end] pairs of whole numbers")
    return within([tuple(span) for span in value], key, length, empty, problem)


def soft_of(value, length: int, problem, empty) -> list[tuple[int, int, float]] | None:
    if not isinstance(value, list) or not all(
        isinstance(label, dict) and is_offset(label.get("start")) and is_offset(label.get("end")) for label in value
    ):
        return problem("soft_labels is not a list of {start, end, prob} with whole-number offsets")
    for label in value:
        if not is_probability(label.get("prob")):
            return problem(f"soft_labels: prob {quoted(label.get('prob'), 40)} is not a number from 0 to 1")
    soft = [(label["start"], label["end"], float(label["prob"])) for label in value]
    return within(soft, "soft_labels", length, empty, problem)


def annotations_of(value, length: int, problem, empty) -> dict[str, list[tuple[int, int]]]:
    """Each annotator's spans within the text. The task's scorer never reads annotations: what cannot be read of
    them (an annotator's spans that are no list of pairs, a name that cannot be a list's, a span not within the
    text) goes to problem, and is left out."""
    if not isinstance(value, dict):
        problem("annotations is not an object of annotator: [[start, end], …]")
        return {}
    annotators = {}
    for annotator, spans in value.items():
        wrong = name_problem(f"annotator/{annotator}", "list")
        if wrong:
            problem(wrong)
        elif not isinstance(spans, list) or not all(is_pair(span) for span in spans):
            problem(f"annotations.{annotator} is not a list of [start, end] pairs of whole numbers")
        else:
            key = f"annotations.{annotator}"
            annotators[annotator] = within([tuple(span) for span in spans], key, length, empty, problem)
    return annotators


def read_lines(
    path: Path, data: bytes, gold_texts: dict[str, CorpusText] | None, left_out: LeftOut, annotators: bool = True
) -> list[Labelled]:
    """The lines of a gold file (gold_texts None) or of a prediction file against the gold's texts; InputError
    listing every problem. What the task's scorer reads without complaint goes to left_out (empty spans; a gold's
    annotations that cannot be read; a prediction's text that differs from the gold's), or is refused under its
    strict. A gold's annotations are read when annotators (the drop-in evaluate, as the task's scorer, does not)."""
    problems: list[Problem] = []
    read, seen = [], {}
    for line, value in jsonl_objects(path, problems, data):

        def problem(message: str) -> None:
            problems.append(Problem(str(path), line, message))  # noqa: B023 (called within this iteration)

        def leave_out(kind: str, where: str, message: str) -> None:
            left_out.leave_out(problems, kind, where, Problem(str(path), line, message))  # noqa: B023

        empty = lambda key, message: leave_out(EMPTY, key.split(".")[0], message)  # noqa: E731
        text_id, text, lang = value.get("id"), value.get("model_output_text"), value.get("lang", DEFAULT_SPLIT)
        if not isinstance(text_id, str) or not text_id:
            problem("id is missing or not a string")
            continue
        if text_id in seen:
            problem(f"id {text_id} is given again (first on line {seen[text_id]})")
            continue
        seen[text_id] = line
        if gold_texts is None:
            if not isinstance(text, str):
                problem("model_output_text is missing or not a string")
                continue
            if not isinstance(lang, str) or not lang:
                leave_out(OTHER_LANG, "lang", "lang is not a string")
                lang = DEFAULT_SPLIT
        else:
            gold = gold_texts.get(text_id)
            if gold is None:
                problem(f"id {text_id} is not a text of the gold")
                continue
            if text is not None and text != gold.text:
                differs = f"model_output_text differs from the gold's text of {text_id}"
                leave_out(OTHER_TEXT, "model_output_text", differs)
            text, lang = gold.text, gold.split
        hard = soft = None
        if "hard_labels" in value:
            hard = spans_of(value["hard_labels"], "hard_labels", len(text), problem, empty)
            if hard is None:
                continue
        if "soft_labels" in value:
            soft = soft_of(value["soft_labels"], len(text), problem, empty)
            if soft is None:
                continue
        annotator_spans = {}
        if gold_texts is None and annotators and "annotations" in value:
            unread = lambda message: leave_out(UNREAD, "annotations", message)  # noqa: E731
            annotator_spans = annotations_of(value["annotations"], len(text), unread, empty)
        if gold_texts is not None and hard is None and soft is None:
            problem("neither hard_labels nor soft_labels is given")
            continue
        read.append(Labelled(line, text_id, lang, text, hard, soft, annotator_spans))
    if not problems and not read and gold_texts is None:  # (a prediction of nothing is every text's empty one)
        problems.append(Problem(str(path), None, "the file is empty: expected JSON Lines, one text a line"))
    if problems:
        raise InputError(problems)
    return read


def completed(labelled: Labelled) -> tuple[list[tuple[int, int]], list[tuple[int, int, float]]]:
    """A line's hard and soft labels, each derived from the other when only one is given (the task's rules)."""
    hard = labelled.hard if labelled.hard is not None else hard_from_soft(labelled.soft or [])
    soft = labelled.soft if labelled.soft is not None else [(start, end, 1.0) for start, end in hard]
    return hard, soft


def token_record(path: Path, labelled: Labelled, spans, index: TokenIndex) -> Record:
    """The hard spans of a line placed on whole tokens; a span of whitespace alone marks no token and is left out
    (its characters are scored by the mushroom scheme all the same)."""
    placed = []
    for start, end in spans:
        tokens = index.locate(start, index.text[start:end])
        if not isinstance(tokens, str):
            placed.append(Span(str(path), labelled.line, start, index.text[start:end], CATEGORY.name, None, tokens))
    return Record(str(path), labelled.line, labelled.text_id, labelled.split, index.text, "", placed)


def label_rows(labelled: Labelled, hard, soft) -> list[tuple]:
    line, text_id = labelled.line, labelled.text_id
    return [(text_id, line, "hard", n, start, end, None) for n, (start, end) in enumerate(hard, start=1)] + [
        (text_id, line, "soft", n, start, end, p) for n, (start, end, p) in enumerate(soft, start=1)
    ]


@dataclass
class FileLists:
    """The lists a file gives, a list per split, with each one's character labels, to be inserted at once."""

    path: Path
    sha256: str
    corpus: str
    lists: list[NewList] = field(default_factory=list)
    labels: list[list[tuple]] = field(default_factory=list)  # each list's label_rows

    def add(self, kind, name, splits, lines, indexes, labels_of, annotator: str | None = None) -> None:
        """One list, per split of the corpus (a text with no line has no label): its token spans and its labels.
        An annotator's list covers the texts it labelled alone (lines whose annotations name it)."""
        for split in splits:
            covered = [labelled for labelled in lines if labelled.split == split]
            if annotator is not None:
                covered = [labelled for labelled in covered if annotator in labelled.annotators]
                if not covered:  # no text of this split: no list
                    continue
            pairs = [(labelled, labels_of(labelled)) for labelled in covered]
            records = [
                token_record(self.path, labelled, hard, indexes[labelled.text_id]) for labelled, (hard, _) in pairs
            ]
            texts = None if annotator is None else [labelled.text_id for labelled in covered]
            self.lists.append(NewList(kind, name, split, records, texts, annotator))
            self.labels.append([row for labelled, (hard, soft) in pairs for row in label_rows(labelled, hard, soft)])

    def insert(self, con, report: ImportReport) -> None:
        """Every list and its labels, one statement a table."""
        set_ids = insert_lists(con, self.path, self.sha256, self.corpus, self.lists, report, reported=False, seal=False)
        con.execute("INSERT INTO character_label_lists SELECT unnest($set_ids), 'mushroom'", {"set_ids": set_ids})
        frame = pl.DataFrame(
            [(set_id, *row) for set_id, rows in zip(set_ids, self.labels, strict=True) for row in rows],
            schema={
                "set_id": pl.Int32,
                "text_id": pl.String,
                "line_number": pl.Int32,
                "label": pl.String,
                "label_number": pl.Int32,
                "char_start": pl.Int32,
                "char_end": pl.Int32,
                "probability": pl.Float64,
            },
            orient="row",
        )
        insert_frame(con, frame, "INSERT INTO character_labels BY NAME SELECT * FROM new_rows")
        seal_lists(con, set_ids)


def load_gold(
    con: duckdb.DuckDBPyConnection, path: Path, corpus: str, annotators: bool = True, strict: bool = False
) -> ImportReport:
    """A labelled file as a new corpus: its texts, its gold list, and (annotators) a submission for each annotator.
    What it leaves out is counted in its warnings, a line a kind; strict refuses it."""
    wrong = name_problem(corpus, "corpus")
    if wrong:
        raise InputError([Problem(str(path), None, wrong)])
    if con.execute("SELECT 1 FROM corpora WHERE corpus = ?", [corpus]).fetchall():
        raise AccuracyDbError(f"corpus {corpus} exists already: give another --corpus")
    data = read_bytes(path)
    left_out = LeftOut(strict)
    lines = read_lines(path, data, None, left_out, annotators)
    taken = held_texts(con, [labelled.text_id for labelled in lines])
    if taken:
        at = {labelled.text_id: labelled.line for labelled in lines}
        raise InputError(
            [Problem(str(path), at[t], f"text id {t} is a text of {held} already") for t, held in taken.items()]
        )
    report = ImportReport(corpus, warnings=left_out.summary())
    create_corpus(con, corpus, f"Mu-SHROOM file {path.name}", str(path), [CATEGORY])
    texts = [CorpusText(labelled.text_id, labelled.split, labelled.text) for labelled in lines]
    insert_texts(con, corpus, texts)
    report.texts_added = len(texts)
    splits = sorted({text.split for text in texts})
    indexes = {text.text_id: TokenIndex(text.text) for text in texts}
    new = FileLists(path, hashlib.sha256(data).hexdigest(), corpus)
    new.add("gold", "gold", splits, lines, indexes, completed)
    for annotator in sorted({a for labelled in lines for a in labelled.annotators}):
        spans_of_annotator = lambda labelled, a=annotator: (  # noqa: E731
            labelled.annotators.get(a, []),
            [(start, end, 1.0) for start, end in labelled.annotators.get(a, [])],
        )
        new.add("submission", f"annotator/{annotator}", splits, lines, indexes, spans_of_annotator, annotator)
    new.insert(con, report)
    return report


def load_prediction(
    con: duckdb.DuckDBPyConnection, path: Path, corpus: str, name: str, strict: bool = False
) -> ImportReport:
    """A prediction file as a submission of a corpus loaded from a gold file. What it leaves out is counted in its
    warnings, a line a kind; strict refuses it."""
    wrong = name_problem(name, "list")
    if wrong:
        raise InputError([Problem(str(path), None, wrong)])
    rows = con.execute(
        "SELECT text_id, split, generated_text FROM texts WHERE corpus = ? ORDER BY text_id", [corpus]
    ).fetchall()
    gold = con.execute(
        "SELECT 1 FROM annotation_sets JOIN character_label_lists USING (set_id) WHERE corpus = ? AND kind = 'gold'",
        [corpus],
    ).fetchall()
    if not gold:
        raise AccuracyDbError(f"corpus {corpus} has no Mu-SHROOM gold file: import one first (--as gold)")
    if con.execute(
        "SELECT 1 FROM annotation_sets WHERE corpus = ? AND kind = 'submission' AND name = ?", [corpus, name]
    ).fetchall():
        raise AccuracyDbError(f"corpus {corpus} has a submission {name} already: give another --name")
    texts = {text_id: CorpusText(text_id, split, text) for text_id, split, text in rows}
    data = read_bytes(path)
    left_out = LeftOut(strict)
    lines = read_lines(path, data, texts, left_out)
    report = ImportReport(corpus, warnings=left_out.summary())
    given = {labelled.text_id for labelled in lines}
    missing = [text for text in texts.values() if text.text_id not in given]
    if missing:
        report.warnings.append(
            Problem(str(path), None, f"{len(missing)} text(s) of the gold have no line: scored as empty predictions")
        )
    lines += [Labelled(0, text.text_id, text.split, text.text, [], []) for text in missing]
    indexes = {labelled.text_id: TokenIndex(labelled.text) for labelled in lines}
    splits = sorted({text.split for text in texts.values()})
    new = FileLists(path, hashlib.sha256(data).hexdigest(), corpus)
    new.add("submission", name, splits, lines, indexes, completed)
    new.insert(con, report)
    return report
