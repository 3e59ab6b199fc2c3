"""accuracy-db export factgenie: a corpus's lists as a factgenie campaign folder ("external" mode), which factgenie
opens to browse them and accuracy-db import factgenie reads back.

The folder holds metadata.json (the corpus's categories as annotation_span_categories), db.csv (one row per
exported record) and files/*.jsonl, one record a line per list and text.

A list loaded from a factgenie campaign is written back as it came (schema/09_factgenie.sql): its records, each in
its file and in the order of its lines, with its key (dataset, split, setup_id, example_idx) and its other fields
(metadata with annotator_id, …), and each annotation as given; only its type is the index of its mistake's category
among the corpus's. The campaign's metadata.json is written back too when every list exported
came with that one, its id and mode those of the folder written.

Any other list gets a record for every text of its split, in a file of its own named by its kind, set_id, name and
split (unique by its set_id whatever the name becomes in a file name); a span's comment is its annotation's
reason, and its correction, where it has one, the annotation's "correction" (a key factgenie keeps and does not
read; import factgenie reads it back). Each record names its text (text_id) and is
keyed for factgenie by dataset (the corpus), split, setup_id (the corpus) and example_idx (the text's place in its
split, in natural order of the text ids: S2 before S10); its annotator_id is the list's name. A span's tokens become
the characters from its first token's first character to its last token's last, so importing the folder again
gives the same tokens.
"""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import datetime
from pathlib import Path

from accuracy_db import output_files
from accuracy_db.errors import AccuracyDbError
from accuracy_db.etl.factgenie import read_categories
from accuracy_db.scoring.scores import check_corpus_choice
from accuracy_db.store import database

DEFAULT_COLOUR = "rgb(102, 102, 102)"  # factgenie's grey, for a category of no colour
DB_COLUMNS = ["dataset", "split", "example_idx", "setup_id", "batch_idx", "annotator_id", "annotator_group"]
DB_COLUMNS += ["status", "start", "end"]
READABLE_PART = 100  # characters of a list's name and split in its file name (a file name has at most 255 bytes)

# Every record of the lists $set_ids: a list from a factgenie campaign has the records it came with, any other one
# for every text of its split, keyed by the text's place in its split in natural order of the text ids (runs of
# digits compared as numbers, however long).
RECORDS_SQL = """
WITH places AS (
    SELECT text_id, row_number() OVER (
        PARTITION BY split
        ORDER BY list_transform(regexp_extract_all(text_id, '[0-9]+|[^0-9]+'), lambda part: CASE
            WHEN regexp_full_match(part, '[0-9]+')
            THEN {'kind': 0, 'width': length(ltrim(part, '0')), 'chars': ltrim(part, '0')}
            ELSE {'kind': 1, 'width': 0, 'chars': part} END), text_id
    ) - 1 AS place
    FROM texts WHERE corpus = $corpus
)
SELECT sets.set_id, texts.text_id, texts.split, texts.generated_text, coalesce(given.dataset, $corpus),
    coalesce(given.setup_id, $corpus), coalesce(given.example_idx, places.place), given.file, given.fields
FROM annotation_sets AS sets
JOIN texts ON texts.corpus = sets.corpus AND texts.split = sets.split
JOIN places USING (text_id)
LEFT JOIN factgenie_records AS given ON given.set_id = sets.set_id AND given.text_id = texts.text_id
WHERE list_contains($set_ids, sets.set_id)
    AND (given.set_id IS NOT NULL OR sets.set_id NOT IN (SELECT set_id FROM factgenie_lists))
ORDER BY given.line_number NULLS LAST, sets.set_id, places.place
"""

# Every span of the lists $set_ids: its characters, category, comment and correction; a list from a factgenie
# campaign's in mistake_id order (the order of its record's annotations), any other list's in the order of its
# characters.
SPANS_SQL = """
SELECT mistakes.set_id, mistakes.text_id, first.char_start, last.char_end, mistakes.category, mistakes.comment,
    mistakes.correction
FROM mistakes
JOIN tokens AS first ON first.text_id = mistakes.text_id AND first.doc_token = mistakes.doc_token_start
JOIN tokens AS last ON last.text_id = mistakes.text_id AND last.doc_token = mistakes.doc_token_end
WHERE list_contains($set_ids, mistakes.set_id)
ORDER BY mistakes.set_id, mistakes.text_id,
    if(mistakes.set_id IN (SELECT set_id FROM factgenie_lists), mistakes.mistake_id, NULL),
    first.char_start, last.char_end, mistakes.line_number
"""


def file_name(set_id: int, kind: str, name: str, split: str) -> str:
    """The file of a list that came from no factgenie campaign: its set_id makes it unique whatever the name
    becomes, the name and split (shortened) make it readable."""
    readable = re.sub(r"[^A-Za-z0-9_.-]+", "_", f"{name}-{split}")[:READABLE_PART]
    return f"{kind}-{set_id}-{readable}.jsonl"


def chosen_lists(con, corpus: str, names: list[str] | None) -> list[tuple]:
    """(set_id, kind, name, split) of the corpus's lists, those named only when names are given."""
    lists = con.execute(
        "SELECT set_id, kind, name, split FROM annotation_sets WHERE corpus = ? ORDER BY kind, name, split DESC",
        [corpus],
    ).fetchall()
    if names:
        unknown = sorted(set(names) - {name for _, _, name, _ in lists})
        if unknown:
            raise AccuracyDbError(f"corpus {corpus} has no list named {', '.join(unknown)}")
        lists = [row for row in lists if row[2] in names]
    return lists


def export_factgenie(db_path: Path, corpus: str, out: Path, names: list[str] | None = None) -> int:
    """Write the campaign folder, a new or empty one (its files as output_files writes new files); return how many
    lists it holds."""
    if out.is_symlink():
        raise AccuracyDbError(f"{out} is a symbolic link: it is not followed; give a new folder to --out")
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise AccuracyDbError(f"{out} exists and is not an empty folder: give a new folder to --out")
    con = database.open_existing(db_path)
    try:
        check_corpus_choice(con, corpus)
        if con.execute(
            "SELECT 1 FROM tokens JOIN texts USING (text_id) WHERE corpus = ? AND char_start IS NULL LIMIT 1", [corpus]
        ).fetchall():
            raise AccuracyDbError(f"corpus {corpus} has texts known by their token ids alone: no characters to export")
        categories = con.execute(
            "SELECT category, description, colour FROM categories WHERE corpus = ? ORDER BY position", [corpus]
        ).fetchall()
        lists = chosen_lists(con, corpus, names)
        set_ids = [set_id for set_id, *_ in lists]
        metadata = campaign_metadata(con, set_ids, categories, out.name)
        files, db_rows = campaign_files(con, corpus, lists, categories, metadata)
    finally:
        con.close()
    table = io.StringIO(newline="")
    writer = csv.writer(table)
    writer.writerow(DB_COLUMNS)
    writer.writerows(db_rows)
    output_files.make_folder(out / "files")
    contents = {out / "files" / name: "".join(lines).encode() for name, lines in files.items()}
    contents[out / "db.csv"] = table.getvalue().encode()
    contents[out / "metadata.json"] = (json.dumps(metadata, indent=2, ensure_ascii=False) + "\n").encode()
    output_files.write_files(contents)
    return len(lists)


def campaign_metadata(con, set_ids: list[int], categories: list[tuple], campaign_id: str) -> dict:
    """metadata.json: the one the lists came with, when they all came with the same (its id and mode the folder's,
    its categories as given when they are the corpus's); else one made of the corpus's categories."""
    given = con.execute(
        "SELECT metadata FROM factgenie_lists WHERE list_contains($set_ids, set_id)", {"set_ids": set_ids}
    ).fetchall()
    if len(given) == len(set_ids) and len(set(given)) == 1:
        metadata = json.loads(given[0][0]) | {"id": campaign_id, "mode": "external"}
        read = [(c.name, c.description, c.colour) for c in read_categories(Path("metadata.json"), metadata, [])]
        if read != categories:  # loaded into a corpus of other categories: the type of a span indexes the corpus's
            metadata["config"] = metadata["config"] | {"annotation_span_categories": span_categories(categories)}
        return metadata
    return {
        "id": campaign_id,
        "mode": "external",
        "config": {
            "annotation_span_categories": span_categories(categories),
            "flags": [],
            "options": [],
            "sliders": [],
            "text_fields": [],
        },
        "created": datetime.now().strftime("%Y-%m-%d %H:%M:%S"),
    }


def span_categories(categories: list[tuple]) -> list[dict]:
    return [{"name": n, "color": c or DEFAULT_COLOUR, "description": d} for n, d, c in categories]


def campaign_files(con, corpus: str, lists: list[tuple], categories: list[tuple], metadata: dict):
    """The lines of each file of files/, and the rows of db.csv; AccuracyDbError when two lists would be one
    annotator of a split, or two texts one output, to factgenie (importing the folder again would merge them)."""
    set_ids = [set_id for set_id, *_ in lists]
    types = {name: index for index, (name, *_) in enumerate(categories)}
    spans: dict[tuple, list] = {}
    for set_id, text_id, *span in con.execute(SPANS_SQL, {"set_ids": set_ids}).fetchall():
        spans.setdefault((set_id, text_id), []).append(span)
    about = {set_id: (group, kind, name, split) for group, (set_id, kind, name, split) in enumerate(lists)}
    files: dict[str, list[str]] = {}
    db_rows, annotators, outputs = [], {}, {}
    records = con.execute(RECORDS_SQL, {"corpus": corpus, "set_ids": set_ids}).fetchall()
    for set_id, text_id, split, output, dataset, setup_id, example_idx, file, fields in records:
        group, kind, name, _ = about[set_id]
        record = {"dataset": dataset, "split": split, "setup_id": setup_id, "example_idx": example_idx}
        record["output"] = output
        found = spans.get((set_id, text_id), [])
        if fields is None:
            record["annotations"] = [
                {"text": output[start:end], "start": start, "type": types[category], "reason": comment or ""}
                | ({} if correction is None else {"correction": correction})
                for start, end, category, comment, correction in found
            ]
            record |= {"text_id": text_id, "flags": [], "options": [], "sliders": [], "text_fields": []}
            record["metadata"] = {"annotator_id": name, "annotator_group": group, "campaign_id": metadata["id"]}
            record["metadata"]["annotation_span_categories"] = metadata["config"]["annotation_span_categories"]
        else:
            record |= json.loads(fields)
            for annotation, (_, _, category, *_) in zip(record["annotations"], found, strict=True):
                annotation["type"] = types[category]
        annotator = str(record["metadata"]["annotator_id"])
        first = annotators.setdefault((annotator, split), set_id)
        if first != set_id:
            raise AccuracyDbError(
                f"lists {about[first][2]} and {name} of split {split} would both be annotator {annotator} in the"
                " campaign: export them apart (--sets)"
            )
        key = (dataset, split, setup_id, example_idx)
        other = outputs.setdefault(key, text_id)
        if other != text_id:
            raise AccuracyDbError(
                f"texts {other} and {text_id} would both be output {'/'.join(map(str, key))} of the campaign"
                " (factgenie keys an output by dataset, split, setup_id and example_idx): export their lists apart"
                " (--sets)"
            )
        files.setdefault(file or file_name(set_id, kind, name, split), []).append(
            json.dumps(record, ensure_ascii=False) + "\n"
        )
        db_rows.append([dataset, split, example_idx, setup_id, group, annotator, group, "finished", "", ""])
    return files, db_rows
