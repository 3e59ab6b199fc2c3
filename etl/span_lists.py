"""Insert lists of spans already placed on tokens (etl/char_spans.py), whatever format they came from, one or all of
a file's at once: their mistakes, the audit of their adjustments (offset_adjustments), and, for a list whose spans
overlap, the shared-task scheme's refusal (scheme_refusals), which names the first overlapping pairs."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import polars as pl

from accuracy_db.errors import Problem, quoted

from .annotation_sets import cover_texts, insert_annotation_sets, reserve_mistake_ids, seal_lists
from .char_spans import TokenSpan
from .frames import create_temp_table

SCHEME = "shared-task"
MAX_LISTED_OVERLAPS = 3


@dataclass
class Span:
    file: str
    line: int
    given_start: int
    given_text: str
    category: str
    reason: str | None
    tokens: TokenSpan
    probability: float | None = None  # None: a hard span (counts as 1)
    severity: str | None = None  # None: a list without severities
    correction: str | None = None  # the correct value, where the format gives one (factgenie's "correction")


@dataclass
class Record:
    file: str
    line: int
    text_id: str
    split: str
    output: str
    annotator: str
    spans: list[Span]
    given: dict | None = None  # the record as its format gave it, for a format written back as it came (factgenie)


@dataclass
class ImportReport:
    corpus: str
    texts_added: int = 0
    lists: list[str] = field(default_factory=list)
    spans: int = 0
    adjustments: dict[str, int] = field(default_factory=dict)
    refused_by_scheme: list[str] = field(default_factory=list)  # the messages of scheme_refusals
    refused: dict[str, list[Problem]] = field(default_factory=dict)  # file -> problems of a file left out
    warnings: list[Problem] = field(default_factory=list)  # what was loaded all the same (a line each)


@dataclass
class NewList:
    """A list of spans placed on tokens, to be inserted: its spans' records, of one split."""

    kind: str
    name: str
    split: str
    records: list[Record]
    texts: list[str] | None = None  # the texts it covers, when only some of its split's (None: every one)
    annotator: str | None = None  # the human annotator whose own spans it is (annotation_sets.annotator)


def insert_lists(
    con,
    source: Path,
    sha256: str,
    corpus,
    lists: list[NewList],
    report: ImportReport,
    reported: bool = True,
    seal: bool = True,
) -> list[int]:
    """Insert lists of spans placed on tokens, all of one file, with their coverage, their adjustments, and the
    scheme's refusal of each whose spans overlap; return their set_ids in order. reported: the refusals go to the
    report too (not those of lists read with character labels, whose overlaps are the placing's on tokens: the
    mushroom scheme scores their characters, and a label inside a token another shares overlaps it, in every text
    written without spaces). One statement a table for all of them (a Mu-SHROOM gold file's are 182 lists: a
    statement each took most of its import). The spans' mistake ids follow their order, list after list. seal:
    fingerprint them by their content (seal_lists) now; a caller that adds rows of its own to them seals them
    itself."""
    set_ids = insert_annotation_sets(
        con,
        source,
        sha256,
        corpus,
        [(new.kind, new.name, new.split, sum(len(record.spans) for record in new.records)) for new in lists],
        [new.annotator for new in lists],
    )
    cover_texts(con, {set_id: new.texts for set_id, new in zip(set_ids, lists) if new.texts is not None})
    spans = [
        (set_id, record, span)
        for set_id, new in zip(set_ids, lists, strict=True)
        for record in new.records
        for span in record.spans
    ]
    frame = pl.DataFrame(
        {
            "set_id": [set_id for set_id, _, _ in spans],
            "line_number": [span.line for _, _, span in spans],
            "file": [span.file for _, _, span in spans],
            "text_id": [record.text_id for _, record, _ in spans],
            "doc_token_start": [span.tokens.doc_token_start for _, _, span in spans],
            "doc_token_end": [span.tokens.doc_token_end for _, _, span in spans],
            "category": [span.category for _, _, span in spans],
            "comment": [span.reason for _, _, span in spans],
            "correction": [span.correction for _, _, span in spans],
            "adjustment": [span.tokens.adjustment for _, _, span in spans],
            "given_start": [span.given_start for _, _, span in spans],
            "given_text": [span.given_text for _, _, span in spans],
            "char_start": [span.tokens.char_start for _, _, span in spans],
            "char_end": [span.tokens.char_end for _, _, span in spans],
            "probability": [span.probability for _, _, span in spans],
            "severity": [span.severity for _, _, span in spans],
        },
        schema={
            "set_id": pl.Int32,
            "line_number": pl.Int32,
            "file": pl.String,
            "text_id": pl.String,
            "doc_token_start": pl.Int32,
            "doc_token_end": pl.Int32,
            "category": pl.String,
            "comment": pl.String,
            "correction": pl.String,
            "adjustment": pl.String,
            "given_start": pl.Int32,
            "given_text": pl.String,
            "char_start": pl.Int32,
            "char_end": pl.Int32,
            "probability": pl.Float64,
            "severity": pl.String,
        },
    ).with_row_index("span_number")
    create_temp_table(con, "campaign_spans", frame)
    insert_campaign_spans(con, set_ids, [(new.name, new.split) for new in lists], report, reported, seal)
    return set_ids


def insert_campaign_spans(
    con: duckdb.DuckDBPyConnection,
    set_ids: list[int],
    names: list[tuple[str, str]],
    report: ImportReport,
    reported: bool = True,
    seal: bool = True,
) -> int:
    """The rest of insert_lists, from the temporary table campaign_spans (its frame's columns, span_number from 0 in
    the spans' order), which it drops: the spans of lists already in annotation_sets (set_ids, their (name, split)
    each), whatever made the table (a frame of Python spans, or a format placed on tokens in SQL: etl/mqm_files.py).
    The first of the spans' mistake ids, which follow span_number."""
    (count,) = con.execute("SELECT count(*) FROM campaign_spans").fetchone()
    first_id = reserve_mistake_ids(con, count)
    report.lists += [name for name, _ in names]
    report.spans += count
    try:
        con.execute(
            """
            INSERT INTO offset_adjustments
            SELECT set_id, file, line_number, text_id, adjustment, given_start, given_text,
                char_start, char_end, doc_token_start, doc_token_end
            FROM campaign_spans WHERE adjustment IS NOT NULL ORDER BY span_number
            """
        )
        for adjustment, count in con.execute(
            "SELECT adjustment, count(*) FROM campaign_spans WHERE adjustment IS NOT NULL GROUP BY 1"
        ).fetchall():
            report.adjustments[adjustment] = report.adjustments.get(adjustment, 0) + count
        # The neighbours as the CSV loader stores them: the furthest end of the list's earlier spans in the text
        # (0 for the first) and the start of the next (the token count + 1 for the last), worked out on the spans'
        # positions alone and joined back (the window sorted every column of the spans: half the statement's time).
        # Each distinct token range is read once, its tokens, first sentence id and sentence positions in one pass
        # over the tokens it covers (a span whose first or last token is missing has none, as with a join to each:
        # joined to each, DuckDB paired every two tokens of a text first, 13.6 million rows at 1,000,000 MQM rows).
        con.execute(
            """
            INSERT INTO mistakes (mistake_id, set_id, line_number, text_id, annotation_id, tokens, sentence_id,
                sent_token_start, sent_token_end, doc_token_start, doc_token_end, category, correction, comment,
                previous_end, next_start, probability, severity)
            WITH neighbours AS (
                SELECT span_number,
                    coalesce(max(doc_token_end) OVER (positions ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)
                        AS previous_end,
                    lead(doc_token_start) OVER positions AS next_start
                FROM campaign_spans
                WINDOW positions AS (
                    PARTITION BY set_id, text_id ORDER BY doc_token_start, doc_token_end, span_number
                )
            ),

            ranges AS (
                SELECT ranges.text_id, ranges.doc_token_start, ranges.doc_token_end,
                    string_agg(tokens.token, ' ' ORDER BY tokens.doc_token) AS tokens,
                    arg_min(tokens.sentence_id, tokens.doc_token) AS sentence_id,
                    arg_min(tokens.sent_token, tokens.doc_token) AS sent_token_start,
                    arg_max(tokens.sent_token, tokens.doc_token) AS sent_token_end
                FROM (SELECT DISTINCT text_id, doc_token_start, doc_token_end FROM campaign_spans) AS ranges
                JOIN tokens ON tokens.text_id = ranges.text_id
                    AND tokens.doc_token BETWEEN ranges.doc_token_start AND ranges.doc_token_end
                GROUP BY ranges.text_id, ranges.doc_token_start, ranges.doc_token_end
                HAVING min(tokens.doc_token) = ranges.doc_token_start AND max(tokens.doc_token) = ranges.doc_token_end
            )

            SELECT $first_id + spans.span_number, spans.set_id, spans.line_number, spans.text_id,
                parse_filename(spans.file) || ':' || spans.line_number, ranges.tokens, ranges.sentence_id,
                ranges.sent_token_start, ranges.sent_token_end, spans.doc_token_start, spans.doc_token_end,
                spans.category, spans.correction, spans.comment, neighbours.previous_end,
                coalesce(neighbours.next_start, texts.token_count + 1), spans.probability, spans.severity
            FROM campaign_spans AS spans
            JOIN neighbours USING (span_number)
            JOIN texts USING (text_id)
            JOIN ranges USING (text_id, doc_token_start, doc_token_end)
            ORDER BY spans.span_number
            """,
            {"first_id": first_id},
        )
    finally:
        con.execute("DROP TABLE campaign_spans")
    overlapping = {
        set_id
        for (set_id,) in con.execute(
            "SELECT DISTINCT set_id FROM mistakes WHERE set_id = ANY($ids) AND previous_end >= doc_token_start",
            {"ids": set_ids},
        ).fetchall()
    }
    for set_id, (name, split) in zip(set_ids, names, strict=True):
        refusal = overlap_refusal(con, set_id) if set_id in overlapping else None
        if refusal:
            con.execute("INSERT INTO scheme_refusals VALUES (?, ?, ?)", [set_id, SCHEME, refusal])
            if reported:
                report.refused_by_scheme.append(f"{name} ({split}): {refusal}")
    if seal:
        seal_lists(con, set_ids)
    return first_id


def overlap_refusal(con: duckdb.DuckDBPyConnection, set_id: int) -> str | None:
    """The shared-task scheme's refusal of a list whose spans overlap, naming the first pairs; None when none do.

    Neither the count nor the pairs named enumerate the pairs: 100,000 spans over one text are 5 billion of them
    (listed, they filled the disk). The pairs named are the first spans in position order that overlap an earlier
    one, each with the earlier span that reaches furthest; the pairs are counted as all pairs of a text less those
    that do not overlap, which one pass over the texts' starts and ends in position order counts."""
    spans = """
        SELECT mistake_id, text_id, annotation_id, tokens, doc_token_start, doc_token_end, previous_end
        FROM mistakes
        WHERE set_id = $set_id
            AND text_id IN (
                SELECT DISTINCT text_id FROM mistakes WHERE set_id = $set_id AND previous_end >= doc_token_start
                ORDER BY text_id LIMIT $texts
            )
    """
    # The pairs named are of the first texts with an overlap, each of which names one at least: those texts'
    # spans alone are read for them (a gold list of MQM raters' errors overlaps in almost every text).
    pairs = con.execute(
        f"""
        WITH spans AS ({spans}),
        reaching AS (
            SELECT *, arg_max(mistake_id, {{'end': doc_token_end, 'first': -mistake_id}}) OVER (
                PARTITION BY text_id ORDER BY doc_token_start, doc_token_end, mistake_id
                ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
            ) AS earlier_id
            FROM spans
        )
        SELECT b.text_id, a.annotation_id, a.tokens, a.doc_token_start, a.doc_token_end,
            b.annotation_id, b.tokens, b.doc_token_start, b.doc_token_end
        FROM reaching AS b
        JOIN spans AS a ON a.mistake_id = b.earlier_id
        WHERE b.previous_end >= b.doc_token_start
        ORDER BY b.text_id, b.doc_token_start, b.doc_token_end, b.mistake_id
        LIMIT $listed
        """,
        {"set_id": set_id, "listed": MAX_LISTED_OVERLAPS, "texts": MAX_LISTED_OVERLAPS},
    ).fetchall()
    if not pairs:
        return None
    (total,) = con.execute(
        f"""
        WITH spans AS ({spans}),
        -- in position order, a start after the ends before it (an end and a start at one token overlap)
        events AS (
            SELECT text_id, doc_token_start AS token, 0 AS is_end FROM spans
            UNION ALL
            SELECT text_id, doc_token_end, 1 FROM spans
        ),
        ends_before AS (
            SELECT is_end, sum(is_end) OVER (PARTITION BY text_id ORDER BY token, is_end ROWS UNBOUNDED PRECEDING)
                AS ends
            FROM events
        )
        SELECT (SELECT sum(n * (n - 1) // 2) FROM (SELECT count(*) AS n FROM spans GROUP BY text_id))
            - (SELECT sum(ends) FROM ends_before WHERE is_end = 0)
        """,
        {"set_id": set_id, "texts": None},
    ).fetchone()
    shown = "; ".join(
        f"{text} {a_id} {quoted(a_tokens, 60)} (tokens {a_start}-{a_end})"
        f" and {b_id} {quoted(b_tokens, 60)} (tokens {b_start}-{b_end})"
        for text, a_id, a_tokens, a_start, a_end, b_id, b_tokens, b_start, b_end in pairs
    )
    more = f"; … and {total - len(pairs)} more" if total > len(pairs) else ""
    return (
        f"{total} pair(s) of spans overlap within the list, which the shared-task scheme does not score: {shown}{more}"
    )
