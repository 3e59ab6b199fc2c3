"""Predictions made from the labelled files the Mu-SHROOM task published (../shared/data/mushroom: val/, ten files,
and test/, eleven), for tests/test_mushroom_real.py and benchmarks/mushroom_speed.py --real. Three of each file,
every text a line (the task's scorer wants one), each giving the same kind of labels on every line (the scorer reads
a file's columns, not a line's keys):

* annotator: the spans of the annotator who labelled most of the file's texts (the first by name of those tied), as
  the file has them, empty ones (start = end) included, as hard labels; the texts it did not label get none;
* noisy: the gold's soft labels with seeded noise: a tenth of them dropped, each edge moved by up to 3 characters
  (kept within the text; a label whose edges cross becomes empty), the probability moved by a normal step of 0.2
  (kept within 0 to 1; a tenth rounded to one decimal), a random label added to a third of the texts, the labels of
  a third given in shuffled order (a later label overrides an earlier one where they overlap), and a twentieth of the
  texts given only probabilities below 5e-9 (a vector that is constant once rounded to 8 decimals). A third of the
  files give these soft labels alone (their hard labels are derived by the task's rule), a third give them with the
  gold's hard labels moved the same way, and a third give those hard labels alone (soft labels of p = 1 derived);
* empty: no labels (hard_labels [] in half of the files, soft_labels [] in the other half)."""

from __future__ import annotations

import json
import random
from pathlib import Path

KINDS = ("annotator", "noisy", "empty")
NOISY_FORMS = ("soft", "both", "hard")


def real_files(folder: Path) -> list[Path]:
    """The labelled files of the task in folder (mushroom/ of the shared data): val/ then test/, by name."""
    return sorted(folder.glob("val/*.jsonl")) + sorted(folder.glob("test/*.jsonl"))


def read_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def busiest_annotator(gold: list[dict]) -> str:
    """The annotator who labelled most texts (the first by name of those tied)."""
    counts: dict[str, int] = {}
    for line in gold:
        for annotator in line.get("annotations", {}):
            counts[annotator] = counts.get(annotator, 0) + 1
    return min(counts, key=lambda annotator: (-counts[annotator], annotator))


def annotator_lines(gold: list[dict]) -> list[dict]:
    annotator = busiest_annotator(gold)
    return [{"id": line["id"], "hard_labels": line.get("annotations", {}).get(annotator, [])} for line in gold]


def moved(rng: random.Random, start: int, end: int, length: int) -> tuple[int, int]:
    """The edges each moved by up to 3 characters within the text; edges that cross meet (an empty span)."""
    start = min(max(start + rng.randint(-3, 3), 0), length)
    end = min(max(end + rng.randint(-3, 3), 0), length)
    return start, max(start, end)


def noisy_soft(rng: random.Random, line: dict) -> list[dict]:
    length = len(line["model_output_text"])
    labels = []
    for label in line["soft_labels"]:
        if rng.random() < 0.1:
            continue
        start, end = moved(rng, label["start"], label["end"], length)
        prob = min(max(label["prob"] + rng.gauss(0, 0.2), 0.0), 1.0)
        labels.append({"start": start, "end": end, "prob": round(prob, 1) if rng.random() < 0.1 else prob})
    if rng.random() < 1 / 3:
        start = rng.randrange(length)
        labels.append({"start": start, "end": rng.randint(start, length), "prob": rng.random()})
    if rng.random() < 1 / 3:
        rng.shuffle(labels)
    if rng.random() < 1 / 20:
        labels = [{**label, "prob": rng.uniform(0, 4.9e-9)} for label in labels]
    return labels


def noisy_lines(gold: list[dict], rng: random.Random, form: str) -> list[dict]:
    lines = []
    for line in gold:
        length = len(line["model_output_text"])
        soft = noisy_soft(rng, line)
        hard = [list(moved(rng, start, end, length)) for start, end in line["hard_labels"]]
        lines.append(
            {"id": line["id"]}
            | ({"soft_labels": soft} if form != "hard" else {})
            | ({"hard_labels": hard} if form != "soft" else {})
        )
    return lines


def predictions(gold: list[dict], number: int, seed: int = 47) -> dict[str, list[dict]]:
    """The three predictions of the number-th real file: kind -> lines."""
    rng = random.Random(f"{seed}:{number}")
    empty_key = "hard_labels" if number % 2 == 0 else "soft_labels"
    return {
        "annotator": annotator_lines(gold),
        "noisy": noisy_lines(gold, rng, NOISY_FORMS[number % len(NOISY_FORMS)]),
        "empty": [{"id": line["id"], empty_key: []} for line in gold],
    }


def write_lines(path: Path, lines: list[dict]) -> Path:
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    return path
