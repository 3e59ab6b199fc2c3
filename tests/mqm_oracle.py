"""An independent reading of Google's MQM TSV, for the tests: each row as the csv module reads it (tab-separated,
no quoting, columns by the header's names, as mt-metrics-eval's score_mqm.py reads it), the markers found with a
regular expression, and the segment scores computed as score_mqm.py computes them."""

from __future__ import annotations

import csv
import re
from collections import defaultdict
from pathlib import Path

from shared_data import SHARED

MQM = SHARED / "mqm"
TED_ZHEN = MQM / "mqm_ted_zhen.tsv"
AVG_SEG_SCORES = MQM / "mqm_ted_zhen.avg_seg_scores.tsv"
SOURCE_ERRORS = MQM / "mqm_newstest2020_zhen.source-errors.tsv"
# score_mqm.py's default weights ("severity[/category[/subcategory]]": weight, lower case), with the spelling of
# Non-translation without "!", and Critical as MQM's scoring model weighs it.
GOOGLE = {
    "major": 5,
    "minor": 1,
    "neutral": 0,
    "critical": 25,
    "major/non-translation!": 25,
    "major/non-translation": 25,
    "minor/fluency/punctuation": 0.1,
}
MARKED = re.compile(r"<v>(.*?)(?:</v>|$)")


def rows(path: Path = TED_ZHEN) -> list[dict]:
    with path.open(encoding="utf-8", newline="") as file:
        return list(csv.DictReader(file, delimiter="\t", quoting=csv.QUOTE_NONE))


def clean(text: str) -> str:
    return text.replace("<v>", "").replace("</v>", "")


def marked(text: str) -> tuple[int, int] | None:
    """The offsets, in the text without markers, of the characters marked <v>…</v> (to the end when not closed)."""
    match = MARKED.search(text)
    if match is None:
        return None
    return match.start(), match.start() + len(match.group(1))


def weight(weights: dict, severity: str, category: str) -> float:
    """score_mqm.py's Score: the most specific "severity/category/…" key, shortened from the end."""
    parts = [part.lower() for part in [severity, *category.split("/")]]
    while parts:
        if "/".join(parts) in weights:
            return weights["/".join(parts)]
        parts = parts[:-1]
    return 0


def segment_scores(weights: dict = GOOGLE, path: Path = TED_ZHEN) -> dict[tuple[str, str, str], float]:
    """(system, doc, seg_id) -> the mean over its raters of their summed weights (positive)."""
    by_rater: dict = defaultdict(lambda: defaultdict(float))
    for row in rows(path):
        by_rater[(row["system"], row["doc"], row["seg_id"])][row["rater"]] += weight(
            weights, row["severity"], row["category"]
        )
    return {key: sum(raters.values()) / len(raters) for key, raters in by_rater.items()}


def published_segment_scores() -> dict[tuple[str, str], float | None]:
    """The repository's avg_seg_scores file: (system as the TSV names it, seg_id) -> the score, positive; None where
    not rated. Its columns are split by a tab and a space; its references are ref-A and ref-B."""
    names = {"ref-A": "ref", "ref-B": "refB"}
    found = {}
    lines = AVG_SEG_SCORES.read_text(encoding="utf-8").splitlines()
    for line in lines[1:]:
        system, score, seg_id = re.split(r"[\t ]", line)
        found[(names.get(system, system), seg_id)] = None if score == "None" else -float(score)
    return found
