"""A small corpus of its own, imported with `accuracy-db import corpus` beside the shared-task data: weather, three
texts of its own split dev with source data, its own two categories (one with a colour, one without) and three
lists (gold, metric, llm), whose figures are worked out by hand below."""

from __future__ import annotations

import json
from pathlib import Path

from accuracy_db.cli.main import run

TEXTS = [
    {"id": "w1", "text": "Rain in Oslo, 12 degrees.", "split": "dev",
     "data": {"city": "Oslo", "temp": 14, "hours": [{"hour": 9, "rain": True}, {"hour": 12, "rain": False}]}},
    {"id": "w2", "text": "Sunny in Rome.\nWind from the north.", "split": "dev", "data": {"city": "Rome"}},
    {"id": "w3", "text": "Snow in Bergen, minus 3 degrees on Monday.", "split": "dev"},
]  # fmt: skip
CATEGORIES = "- name: Wrong\n  description: Contradicts the data\n  colour: '#D55E00'\n- name: Unsupported\n"
# Tokens: w1 Rain(1) in(2) Oslo,(3) 12(4) degrees.(5); w2 Sunny(1) in(2) Rome.(3) Wind(4) from(5) the(6) north.(7);
# w3 Snow(1) in(2) Bergen,(3) minus(4) 3(5) degrees(6) on(7) Monday.(8).
LISTS = {
    "gold": [
        {"text_id": "w1", "category": "Wrong", "token_start": 4, "token_end": 4},
        {"text_id": "w2", "category": "Unsupported", "token_start": 4, "token_end": 6, "comment": "no wind data"},
        {"text_id": "w3", "category": "Wrong", "token_start": 5, "token_end": 5},
    ],
    # matches w1 and w2's gold mistakes; Sunny is a false alarm: recall 2/3, precision 2/3
    "metric": [
        {"text_id": "w1", "category": "Wrong", "token_start": 4, "token_end": 5},
        {"text_id": "w2", "category": "Wrong", "token_start": 1, "token_end": 1},
        {"text_id": "w2", "category": "Unsupported", "token_start": 5, "token_end": 5},
    ],
    # matches w1 and w3's; Oslo is a false alarm: recall 2/3, precision 2/3
    "llm": [
        {"text_id": "w1", "category": "Unsupported", "token_start": 3, "token_end": 3},
        {"text_id": "w1", "category": "Wrong", "token_start": 4, "token_end": 4},
        {"text_id": "w3", "category": "Wrong", "token_start": 4, "token_end": 6},
    ],
}


def lines(records: list) -> str:
    return "".join(json.dumps(record) + "\n" for record in records)


def import_weather(db: Path, folder: Path, name: str = "weather", prefix: str = "", split: str = "dev") -> None:
    """Write the weather corpus's folder (its text ids prefixed, so that a second copy can live beside it; its texts
    in the split given) and import it into the database as the corpus name."""
    corpus = folder / name
    (corpus / "lists").mkdir(parents=True)
    texts = [{**text, "id": prefix + text["id"], "split": split} for text in TEXTS]
    (corpus / "texts.jsonl").write_text(lines(texts))
    (corpus / "categories.yaml").write_text(CATEGORIES)
    for list_name, spans in LISTS.items():
        (corpus / "lists" / f"{list_name}.jsonl").write_text(
            lines([{**span, "text_id": prefix + span["text_id"]} for span in spans])
        )
    assert run(["import", "corpus", "--db", str(db), str(corpus)]) == 0
