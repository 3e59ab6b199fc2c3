"""MQM at the scale of WMT's largest releases (issue 49): accuracy-db against a plain pandas implementation of the
same figures, side by side in one run.

    python -m benchmarks.mqm_speed [--work /tmp/mqm-bench] [--base-db PATH] [--rows 1000000] [--seed 49]
        [--out benchmarks/results/mqm-speed.json]

The generator writes an MQM TSV of Google's shape (system doc doc_id seg_id rater source target category severity)
of exactly --rows rows: 16 systems (two of them human references, refA and refB) × 2,000 segments × 3 raters (of 6,
in turn), each item's errors a row each (a target with one <v>…</v> span; some in the source; a Major
Non-translation! without one), an item without an error one No-error row; severities Major, Minor, Critical,
Neutral; categories with sub-categories (Accuracy/Mistranslation, Fluency/Punctuation, …). Beside it a metric's
predicted errors of every item (rater pred; half the gold errors of the item's first rater kept, their edges moved
by a word, one in four regraded, some invented), in the same format.

accuracy-db, each step a whole process (Python's start included) into a copy of --base-db (a database of this
version; without it one is built from the shared-task data first, not timed):
`import mqm` of the file, `systems --ci` (1,000 paired bootstrap resamples, the clusters' permutation tests),
`import mqm --as submission` of the predictions (scored as it loads), `leaderboard --scheme esa`.
pandas, in a process of its own (benchmarks/mqm_pandas.py): both files read, every row weighted by Google's rules,
the segments' scores, the systems' means, their paired bootstrap intervals (numpy, 1,000 resamples) and the esa
character F1 of the predictions. The two sides alternate per step: accuracy-db's, then pandas' as a whole.

The figures must agree (else the run fails): every segment's MQM score to 1e-9, every system's mean, and the esa
precision, recall and F1 to 1e-9. Writes --out (JSON) and prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.run import REPO, accuracy_db

HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity"
SYSTEMS = ["refA", "refB", *(f"system-{n:02d}" for n in range(1, 15))]
SEGMENTS = 2000
SEGMENTS_PER_DOC = 20
RATERS = [f"rater{n}" for n in range(1, 7)]
CATEGORIES = [  # (category, weight of its choice)
    ("Accuracy/Mistranslation", 30),
    ("Accuracy/Omission", 6),
    ("Accuracy/Addition", 4),
    ("Accuracy/Untranslated text", 3),
    ("Fluency/Grammar", 12),
    ("Fluency/Punctuation", 10),
    ("Fluency/Spelling", 6),
    ("Fluency/Register", 3),
    ("Fluency/Inconsistency", 2),
    ("Style/Awkward", 14),
    ("Terminology/Inappropriate for context", 6),
    ("Locale convention/Date format", 1),
    ("Other", 2),
]
SEVERITIES = [("Minor", 55), ("Major", 33), ("Critical", 3), ("Neutral", 9)]
SOURCE_SHARE = 0.05  # errors marked in the source (omissions, source errors)
NON_TRANSLATION_SHARE = 0.003  # Major Non-translation! rows, without a span
SYLLABLES = ["ka", "lo", "mi", "te", "ra", "su", "ne", "vi", "do", "ül", "gan", "per", "sto", "ä", "ri", "bel"]


def words(rng: random.Random, count: int) -> list[str]:
    return ["".join(rng.choices(SYLLABLES, k=rng.randint(1, 4))) for _ in range(count)]


def sentence(rng: random.Random) -> str:
    tokens = words(rng, rng.randint(12, 28))
    tokens[0] = tokens[0].capitalize()
    return " ".join(tokens) + rng.choice([".", ".", "?", "!"])


def word_span(rng: random.Random, text: str) -> tuple[int, int]:
    """The characters of 1 to 4 consecutive words of text."""
    starts = [0] + [i + 1 for i, c in enumerate(text) if c == " "]
    first = rng.randrange(len(starts))
    last = min(len(starts) - 1, first + rng.randint(0, 3))
    end = text.find(" ", starts[last])
    return starts[first], len(text) if end < 0 else end


def marked(text: str, span: tuple[int, int] | None) -> str:
    if span is None:
        return text
    return f"{text[: span[0]]}<v>{text[span[0] : span[1]]}</v>{text[span[1] :]}"


def error_counts(rng: random.Random, items: int, rows: int) -> list[int]:
    """How many errors each item has, so that the file has exactly rows rows (an item without error one)."""
    counts = [rng.randint(0, 2 * (rows // items)) for _ in range(items)]
    total = sum(max(1, c) for c in counts)
    while total != rows:
        i = rng.randrange(items)
        if total < rows:
            total += 1 if counts[i] else 0
            counts[i] += 1
        elif counts[i] > 1:
            counts[i] -= 1
            total -= 1
    return counts


def generate(work: Path, rows: int, seed: int) -> tuple[Path, Path]:
    """The gold MQM file of rows rows and the predictions' file."""
    rng = random.Random(seed)
    sources = [sentence(rng) for _ in range(SEGMENTS)]
    targets = {(s, g): sentence(rng) for s in SYSTEMS for g in range(SEGMENTS)}
    counts = iter(error_counts(rng, len(SYSTEMS) * SEGMENTS * 3, rows))
    categories, category_weights = zip(*CATEGORIES, strict=True)
    severities, severity_weights = zip(*SEVERITIES, strict=True)
    gold_lines, predicted_lines = [HEADER], [HEADER]
    for system in SYSTEMS:
        for segment in range(SEGMENTS):
            doc = f"doc{segment // SEGMENTS_PER_DOC:03d}"
            key = [system, doc, str(segment // SEGMENTS_PER_DOC + 1), str(segment + 1)]
            source, target = sources[segment], targets[system, segment]
            first_rater_errors = []
            for number in range(3):
                rater = RATERS[(segment + number) % len(RATERS)]
                wanted = next(counts)
                if wanted == 0:
                    gold_lines.append("\t".join([*key, rater, source, target, "No-error", "No-error"]))
                for _ in range(wanted):
                    draw = rng.random()
                    if draw < NON_TRANSLATION_SHARE:
                        cells = [source, target, "Non-translation!", "Major"]
                    elif draw < NON_TRANSLATION_SHARE + SOURCE_SHARE:
                        severity = rng.choices(severities, severity_weights)[0]
                        category = rng.choice(["Accuracy/Omission", "Source error"])
                        cells = [marked(source, word_span(rng, source)), target, category, severity]
                    else:
                        span = word_span(rng, target)
                        severity = rng.choices(severities, severity_weights)[0]
                        category = rng.choices(categories, category_weights)[0]
                        cells = [source, marked(target, span), category, severity]
                        if number == 0:
                            first_rater_errors.append((span, severity))
                    gold_lines.append("\t".join([*key, rater, *cells]))
            predicted = predicted_errors(rng, target, first_rater_errors)
            for span, severity in predicted:
                predicted_lines.append(
                    "\t".join([*key, "pred", source, marked(target, span), "Accuracy/Mistranslation", severity])
                )
            if not predicted:
                predicted_lines.append("\t".join([*key, "pred", source, target, "No-error", "No-error"]))
    gold, predictions = work / "mqm_generated.tsv", work / "mqm_predicted.tsv"
    gold.write_text("\n".join(gold_lines) + "\n", encoding="utf-8")
    predictions.write_text("\n".join(predicted_lines) + "\n", encoding="utf-8")
    return gold, predictions


def predicted_errors(rng: random.Random, target: str, errors: list) -> list[tuple[tuple[int, int], str]]:
    """Half the errors kept, an edge moved by a word one time in three, one in four regraded; one item in five an
    invented error."""
    found = []
    for span, severity in errors:
        if severity == "Neutral" or rng.random() < 0.5:
            continue
        if rng.random() < 1 / 3:
            other = word_span(rng, target)
            span = (min(span[0], other[0]), span[1]) if rng.random() < 0.5 else (span[0], max(span[1], other[1]))
        if rng.random() < 0.25:
            severity = "Minor" if severity != "Minor" else "Major"
        found.append((span, severity))
    if rng.random() < 0.2:
        found.append((word_span(rng, target), rng.choice(["Major", "Minor"])))
    return found


def timed(args: list[str], stdout: Path | None = None) -> dict:
    """Wall and CPU seconds (user and system, from os.wait4) of one child process, which must succeed."""
    started = time.perf_counter()
    with open(stdout or os.devnull, "wb") as out:
        child = subprocess.Popen(args, stdout=out, stderr=subprocess.PIPE, cwd=REPO)
        stderr = child.stderr.read()
        _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{' '.join(map(str, args))} failed:\n{stderr.decode()[-3000:]}")
    return {"wall": round(time.perf_counter() - started, 2), "cpu": round(usage.ru_utime + usage.ru_stime, 2)}


def ours_figures(db: Path) -> dict:
    """The segments' scores, the systems' means and the esa figures, as the database gives them."""
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        segments = {
            f"{system}\t{doc}\t{seg}": score
            for system, doc, seg, score in con.execute(
                "SELECT system, doc, seg_id, score FROM mqm_segments WHERE corpus = 'bench'"
            ).fetchall()
        }
        esa = con.execute(
            "SELECT precision, recall, f1 FROM esa_scores WHERE corpus = 'bench' AND submission = 'pred'"
        ).fetchone()
    finally:
        con.close()
    return {"segments": segments, "esa": list(esa)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, default=Path("/tmp/mqm-bench"))
    parser.add_argument("--base-db", type=Path, help="a database of this version to import into (a copy of it)")
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=49)
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / "mqm-speed.json")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    gold, predictions = generate(args.work, args.rows, args.seed)
    generation = time.perf_counter() - started
    base = args.base_db
    if base is None:
        base = args.work / "base.duckdb"
        if not base.exists():
            timed(accuracy_db("build", "--db", str(base)))
    db = args.work / "accuracy.duckdb"
    shutil.copyfile(base, db)
    load_before = os.getloadavg()[0]
    systems_json, esa_json = args.work / "systems.json", args.work / "esa.json"
    common = ["--db", str(db), "--corpus", "bench"]
    ours = {
        "import mqm": timed(accuracy_db("import", "mqm", *common, str(gold))),
        "systems --ci": timed(accuracy_db("systems", *common, "--ci", "--format", "json"), systems_json),
        "import mqm --as submission": timed(
            accuracy_db("import", "mqm", *common, "--as", "submission", "--name", "pred", str(predictions))
        ),
        "leaderboard --scheme esa": timed(
            accuracy_db("leaderboard", *common, "--scheme", "esa", "--format", "json"), esa_json
        ),
    }
    pandas_json = args.work / "pandas.json"
    theirs = timed([sys.executable, "-m", "benchmarks.mqm_pandas", str(gold), str(predictions), str(pandas_json)])
    load_after = os.getloadavg()[0]

    reference = json.loads(pandas_json.read_text())
    found = ours_figures(db)
    systems = {row["system"]: row["score"] for row in json.loads(systems_json.read_text())}
    (esa_row,) = [row for row in json.loads(esa_json.read_text()) if row["submission"] == "pred"]
    segment_gap = max(abs(found["segments"][key] - value) for key, value in reference["segments"].items())
    system_gap = max(abs(systems[key] - value) for key, value in reference["systems"].items())
    esa_gap = max(
        abs(a - b) for a, b in zip([esa_row["precision"], esa_row["recall"], esa_row["f1"]], reference["esa"])
    )
    agree = (
        len(found["segments"]) == len(reference["segments"])
        and set(systems) == set(reference["systems"])
        and max(segment_gap, system_gap, esa_gap) < 1e-9
    )
    total = {key: round(sum(step[key] for step in ours.values()), 2) for key in ("wall", "cpu")}
    result = {
        "rows": args.rows,
        "items": len(SYSTEMS) * SEGMENTS * 3,
        "texts": len(SYSTEMS) * SEGMENTS,
        "gold_mb": round(gold.stat().st_size / 1e6, 1),
        "predictions_mb": round(predictions.stat().st_size / 1e6, 1),
        "generation_s": round(generation, 1),
        "load_average": [round(load_before, 1), round(load_after, 1)],
        "accuracy_db": ours,
        "accuracy_db_total": total,
        "pandas": theirs,
        "pandas_steps": reference["steps"],
        "ratio_wall": round(total["wall"] / theirs["wall"], 2),
        "ratio_cpu": round(total["cpu"] / theirs["cpu"], 2),
        "agree": agree,
        "max_difference": {"segments": segment_gap, "systems": system_gap, "esa": esa_gap},
        "esa": reference["esa"],
        "systems": reference["systems"],
    }
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print("| step | wall s | CPU s |\n| --- | ---: | ---: |")
    for step, figures in ours.items():
        print(f"| accuracy-db `{step}` | {figures['wall']} | {figures['cpu']} |")
    print(f"| accuracy-db, in all | {total['wall']} | {total['cpu']} |")
    print(f"| pandas, in all | {theirs['wall']} | {theirs['cpu']} |")
    print(f"| ratio (accuracy-db / pandas) | {result['ratio_wall']}× | {result['ratio_cpu']}× |")
    print(f"agree: {agree} {result['max_difference']}; load average {result['load_average']}")
    if not agree:
        raise SystemExit("the figures differ")


if __name__ == "__main__":
    main()
