"""accuracy-db export factgenie: a corpus's lists as a factgenie campaign folder ("external" mode), which factgenie
opens to browse them and accuracy-db import factgenie reads back.

The folder holds metadata.json (the corpus's categories as annotation_span_categories), db.csv (one row per list
and text) and files/, one JSONL file per list with one record per text of its split, spans or none. A span's
tokens become the characters from its first token's first character to its last token's last (token spans become
character offsets), so importing the folder again gives the same tokens. Each record names its text (text_id), and
is keyed for factgenie by dataset (the corpus), split, setup_id (the corpus) and example_idx (the text's place in
its split, by text id).
"""

from __future__ import annotations

import csv
import json
import re
from datetime import datetime
from pathlib import Path

from accuracy_db.errors import AccuracyDbError
from accuracy_db.store import database

DEFAULT_COLOUR = "rgb(102, 102, 102)"  # factgenie's grey, for a category of no colour
DB_COLUMNS = ["dataset", "split", "example_idx", "setup_id", "batch_idx", "annotator_id", "annotator_group"]
DB_COLUMNS += ["status", "start", "end"]


def file_name(kind: str, name: str, split: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", f"{kind}-{name}-{split}") + ".jsonl"


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
    """Write the campaign folder; return how many lists it holds."""
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise AccuracyDbError(f"{out} exists and is not an empty folder: give a new folder to --out")
    con = database.open_existing(db_path)
    try:
        if not con.execute("SELECT 1 FROM corpora WHERE corpus = ?", [corpus]).fetchall():
            known = ", ".join(name for (name,) in con.execute("SELECT corpus FROM corpora ORDER BY 1").fetchall())
            raise AccuracyDbError(f"no corpus named {corpus!r} (the corpora: {known})")
        if con.execute(
            "SELECT 1 FROM tokens JOIN texts USING (text_id) WHERE corpus = ? AND char_start IS NULL LIMIT 1", [corpus]
        ).fetchall():
            raise AccuracyDbError(f"corpus {corpus} has texts known by their token ids alone: no characters to export")
        categories = con.execute(
            "SELECT category, coalesce(colour, ?), description FROM categories WHERE corpus = ? ORDER BY position",
            [DEFAULT_COLOUR, corpus],
        ).fetchall()
        span_categories = [{"name": n, "color": c, "description": d} for n, c, d in categories]
        lists = chosen_lists(con, corpus, names)
        campaign_id = out.name
        (out / "files").mkdir(parents=True, exist_ok=True)
        db_rows = []
        for group, (set_id, kind, name, split) in enumerate(lists):
            records = list_records(con, set_id, corpus, split, categories)
            with (out / "files" / file_name(kind, name, split)).open("w", encoding="utf-8") as stream:
                for example_idx, text_id, text, annotations in records:
                    record = {
                        "dataset": corpus,
                        "split": split,
                        "setup_id": corpus,
                        "example_idx": example_idx,
                        "text_id": text_id,
                        "output": text,
                        "annotations": annotations,
                        "flags": [],
                        "options": [],
                        "sliders": [],
                        "text_fields": [],
                        "metadata": {
                            "annotator_id": name,
                            "annotator_group": group,
                            "campaign_id": campaign_id,
                            "annotation_span_categories": span_categories,
                        },
                    }
                    stream.write(json.dumps(record, ensure_ascii=False) + "\n")
                    db_rows.append([corpus, split, example_idx, corpus, group, name, group, "finished", "", ""])
        with (out / "db.csv").open("w", encoding="utf-8", newline="") as stream:
            writer = csv.writer(stream)
            writer.writerow(DB_COLUMNS)
            writer.writerows(db_rows)
        metadata = {
            "id": campaign_id,
            "mode": "external",
            "config": {
                "annotation_span_categories": span_categories,
                "flags": [],
                "options": [],
                "sliders": [],
                "text_fields": [],
            },
            "created": datetime.now().strftime("%Y-%m-%d %H:%M:%S"),
        }
        (out / "metadata.json").write_text(json.dumps(metadata, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        return len(lists)
    finally:
        con.close()


def list_records(con, set_id: int, corpus: str, split: str, categories: list) -> list[tuple]:
    """(example_idx, text_id, text, annotations) for every text of the list's split, in text id order."""
    types = {name: index for index, (name, _, _) in enumerate(categories)}
    texts = con.execute(
        "SELECT text_id, generated_text FROM texts WHERE corpus = ? AND split = ? ORDER BY text_id", [corpus, split]
    ).fetchall()
    spans = con.execute(
        """
        SELECT mistakes.text_id, first.char_start, last.char_end, mistakes.category, mistakes.comment
        FROM mistakes
        JOIN tokens AS first ON first.text_id = mistakes.text_id AND first.doc_token = mistakes.doc_token_start
        JOIN tokens AS last ON last.text_id = mistakes.text_id AND last.doc_token = mistakes.doc_token_end
        WHERE mistakes.set_id = ?
        ORDER BY mistakes.text_id, first.char_start, last.char_end, mistakes.line_number
        """,
        [set_id],
    ).fetchall()
    by_text: dict[str, list] = {}
    for text_id, start, end, category, comment in spans:
        by_text.setdefault(text_id, []).append((start, end, category, comment))
    records = []
    for example_idx, (text_id, text) in enumerate(texts):
        annotations = [
            {"text": text[start:end], "start": start, "type": types[category], "reason": comment or ""}
            for start, end, category, comment in by_text.get(text_id, [])
        ]
        records.append((example_idx, text_id, text, annotations))
    return records
