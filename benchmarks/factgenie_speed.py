"""How long importing a factgenie campaign takes: OUTPUTS generated outputs of about 100 tokens, each with SPANS spans
(the issue's target: 60,000 outputs with 1.2 million spans, SPANS = 20), first as the gold list of a new corpus,
then as a submission scored against it; then a refresh that finds nothing changed, and one after a new file of the
submission's campaign (registered by the import), which loads the corpus again from both campaigns.

    python -m benchmarks.factgenie_speed [--outputs 60000] [--spans 20] [--data DIR]

Each figure is the wall time of the whole `accuracy-db import factgenie` process (Python's start included), on a
database built from the shared-task data.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from accuracy_db.etl.data_folder import resolve_data_dir

WORDS = ["Boston", "beat", "Miami", "102-98", "on", "Friday", "Smith", "scored", "31", "points", "and", "12", "."]
CATEGORIES = [{"name": name, "color": "rgb(0, 0, 0)", "description": name} for name in ("A", "B", "C", "D")]


def write_campaign(folder: Path, name: str, outputs: int, spans: int, seed: int) -> None:
    """A campaign of one annotator: each output's spans are whole words, some shifted inside a word (widened)."""
    draw = random.Random(seed)
    (folder / name / "files").mkdir(parents=True)
    (folder / name / "metadata.json").write_text(
        json.dumps({"id": name, "mode": "external", "config": {"annotation_span_categories": CATEGORIES}})
    )
    texter = random.Random(0)  # the same texts in every campaign
    with (folder / name / "files" / "a.jsonl").open("w") as stream:
        for example in range(outputs):
            words = [texter.choice(WORDS) for _ in range(100)]
            text = " ".join(words)
            starts = [0]
            for word in words[:-1]:
                starts.append(starts[-1] + len(word) + 1)
            picked = sorted(draw.sample(range(100), spans))
            annotations = [
                {"text": words[i], "start": starts[i], "type": draw.randrange(len(CATEGORIES)), "reason": ""}
                for i in picked
            ]
            record = {"dataset": "bench", "split": "test", "setup_id": "s", "example_idx": example, "output": text}
            record |= {"annotations": annotations, "metadata": {"annotator_id": name, "annotator_group": 0}}
            stream.write(json.dumps(record) + "\n")


def timed(*args: str) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "accuracy_db", *args], check=True, capture_output=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--outputs", type=int, default=60_000)
    parser.add_argument("--spans", type=int, default=20)
    parser.add_argument("--data", type=Path)
    args = parser.parse_args()
    data = resolve_data_dir(args.data)
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        db = str(folder / "accuracy.duckdb")
        subprocess.run([sys.executable, "-m", "accuracy_db", "build", "--data", str(data), "--db", db], check=True)
        write_campaign(folder, "gold", args.outputs, args.spans, seed=1)
        write_campaign(folder, "metric", args.outputs, args.spans, seed=2)
        gold = timed("import", "factgenie", "--db", db, str(folder / "gold"), "--corpus", "bench", "--as", "gold")
        metric = timed("import", "factgenie", "--db", db, str(folder / "metric"), "--corpus", "bench")
        (folder / "inbox").mkdir()
        refresh = ("refresh", "--data", str(data), "--db", db, "--submissions", str(folder / "inbox"))
        unchanged = timed(*refresh)
        # a new file of the registered campaign: its corpus is loaded again from both campaigns
        write_campaign(folder, "more", 1, args.spans, seed=3)
        (folder / "more" / "files" / "a.jsonl").rename(folder / "metric" / "files" / "more.jsonl")
        reloaded = timed(*refresh)
    spans = args.outputs * args.spans
    print(
        f"{args.outputs:,} outputs, {spans:,} spans: gold list (texts included) {gold:.1f} s,"
        f" submission (scored) {metric:.1f} s; refresh with nothing changed {unchanged:.1f} s,"
        f" after a new file of the campaign (the corpus reloaded) {reloaded:.1f} s"
    )


if __name__ == "__main__":
    main()
