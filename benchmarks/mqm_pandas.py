"""The figures of benchmarks/mqm_speed.py in plain pandas, the side it is measured against: an MQM file's segment
scores under Google's weights, the systems' means with paired bootstrap intervals, and the esa character F1 of a
file of predicted errors against every rater's errors (scoring_esa.py's definitions, partial credit 0.5).

    python -m benchmarks.mqm_pandas GOLD.tsv PREDICTED.tsv OUT.json
"""

from __future__ import annotations

import csv
import json
import sys
import time

import numpy as np
import pandas as pd

KEY = ["system", "doc", "seg_id"]
RESAMPLES = 1000
MAX_LENGTH = 1 << 16  # a text's characters, for a character's key (text number × MAX_LENGTH + position)


def read(path: str) -> pd.DataFrame:
    return pd.read_csv(
        path, sep="\t", quoting=csv.QUOTE_NONE, dtype=str, keep_default_na=False, na_filter=False, engine="c"
    )


def weights(frame: pd.DataFrame) -> np.ndarray:
    """Google's weights (score_mqm.py's most specific match): Major 5, Minor 1, Critical 25, Neutral 0; Major
    Non-translation 25; Minor Fluency/Punctuation (and below it) 0.1; a No-error row 0."""
    severity = frame["severity"].str.lower()
    category = frame["category"].str.lower()
    weight = severity.map({"major": 5.0, "minor": 1.0, "critical": 25.0, "neutral": 0.0}).fillna(0.0)
    non_translation = category.isin(["non-translation", "non-translation!"]) | category.str.startswith(
        ("non-translation/", "non-translation!/")
    )
    weight[(severity == "major") & non_translation] = 25.0
    punctuation = (category == "fluency/punctuation") | category.str.startswith("fluency/punctuation/")
    weight[(severity == "minor") & punctuation] = 0.1
    return weight.to_numpy()


def characters(frame: pd.DataFrame, texts: pd.Index) -> pd.DataFrame:
    """Per character of a text marked by a target span: how many major (Major, Critical) and minor spans mark it."""
    start = frame["target"].str.find("<v>")
    end = frame["target"].str.find("</v>") - 3
    severity = frame["severity"].str.lower()
    klass = np.where(severity.isin(["major", "critical"]), 0, np.where(severity == "minor", 1, -1))
    keep = (start >= 0).to_numpy() & (klass >= 0)
    spans = frame.loc[keep, KEY].copy()
    spans["start"], spans["end"], spans["klass"] = start[keep], end[keep], klass[keep]
    text = texts.get_indexer(pd.MultiIndex.from_frame(spans[KEY]))
    lengths = (spans["end"] - spans["start"]).to_numpy()
    offsets = np.repeat(np.cumsum(lengths) - lengths, lengths)
    position = np.repeat(spans["start"].to_numpy(), lengths) + np.arange(lengths.sum()) - offsets
    klass = np.repeat(spans["klass"].to_numpy(), lengths)
    marked = pd.DataFrame(
        {"key": np.repeat(text, lengths).astype(np.int64) * MAX_LENGTH + position, "major": klass == 0}
    )
    marked["minor"] = ~marked["major"]
    return marked.groupby("key")[["major", "minor"]].sum()


def main() -> None:
    gold_path, predicted_path, out = sys.argv[1:4]
    steps = {}
    started = time.process_time()
    gold = read(gold_path)
    steps["read the file"] = time.process_time() - started

    started = time.process_time()
    gold["weight"] = weights(gold)
    rater = gold.groupby([*KEY, "rater"], sort=False)["weight"].sum()
    segments = rater.groupby(level=[0, 1, 2], sort=False).mean()
    systems = segments.groupby(level=0).mean()
    steps["segments and systems"] = time.process_time() - started

    started = time.process_time()
    matrix = segments.unstack(level=0)  # (doc, seg_id) × system, paired by input
    rng = np.random.default_rng(49)
    draws = rng.integers(0, len(matrix), size=(RESAMPLES, len(matrix)))
    values = matrix.to_numpy()
    replicates = np.stack([values[row].mean(axis=0) for row in draws])
    low, high = np.percentile(replicates, [2.5, 97.5], axis=0)
    intervals = {system: [lo, hi] for system, lo, hi in zip(matrix.columns, low, high, strict=True)}
    steps["bootstrap intervals"] = time.process_time() - started

    started = time.process_time()
    predicted = read(predicted_path)
    texts = pd.MultiIndex.from_frame(gold[KEY].drop_duplicates())
    both = characters(gold, texts).join(characters(predicted, texts), how="outer", lsuffix="_g", rsuffix="_p")
    both = both.fillna(0)
    g_major, g_minor, p_major, p_minor = (both[c].to_numpy() for c in ["major_g", "minor_g", "major_p", "minor_p"])
    left_gold = np.clip(g_major - p_major, 0, None) + np.clip(g_minor - p_minor, 0, None)
    left_predicted = np.clip(p_major - g_major, 0, None) + np.clip(p_minor - g_minor, 0, None)
    credit = (
        np.minimum(g_major, p_major).sum()
        + np.minimum(g_minor, p_minor).sum()
        + 0.5 * np.minimum(left_gold, left_predicted).sum()
    )
    gold_total, predicted_total = (g_major + g_minor).sum(), (p_major + p_minor).sum()
    precision = credit / predicted_total if predicted_total else 1.0
    recall = credit / gold_total if gold_total else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    steps["esa"] = time.process_time() - started

    result = {
        "segments": {"\t".join(key): float(score) for key, score in segments.items()},
        "systems": {system: float(score) for system, score in systems.items()},
        "intervals": {system: [float(v) for v in pair] for system, pair in intervals.items()},
        "esa": [float(precision), float(recall), float(f1)],
        "steps": {step: round(seconds, 2) for step, seconds in steps.items()},
    }
    with open(out, "w", encoding="utf-8") as file:
        json.dump(result, file)


if __name__ == "__main__":
    main()
