"""accuracy-db against the Mu-SHROOM task's own scorer, side by side in one run, on generated files of the task's
shape: a labelled test set of 1,952 texts (the task's has about 1,900) over 14 languages and 10 systems' predictions.

    python -m benchmarks.mushroom_speed --scorer /tmp/scorer.py [--work /tmp/mushroom-bench] [--base-db PATH]
        [--seed 34] [--sample K] [--out benchmarks/results/mushroom-speed.json]
    python -m benchmarks.mushroom_speed --scorer /tmp/scorer.py --real ../shared/data/mushroom [--base-db PATH]
        [--out benchmarks/results/mushroom-speed-real.json]

The task's scorer (participant_kit/scorer.py of Helsinki-NLP/mu-shroom; a copy fetched to measure, never part of
this project) scores one reference file against one prediction file, as the task published them: a file per
language. It is run as the task runs it, `python scorer.py REF PRED OUT`, once per system and language (140
processes). accuracy-db reads one file of every language: `import mushroom --as gold` of the labelled file, then
`import mushroom` of each system's predictions (each scores the list it adds), then `leaderboard --scheme mushroom`
of every language (12 processes, into a copy of --base-db, a database of this version; without it one is built from
the shared-task data first, not timed). The two sides alternate, a system at a time (its import, then the scorer's
14 runs), so that both meet the same load on a shared machine. Each figure is the whole process, Python's start
included: wall time, and CPU time (user and system) from the child's resource usage. With --sample K, the scorer
runs for K languages of each system (in turn, so that every language is run), and its totals are those runs' scaled
to 140: its runs cost the same but for the files' sizes, and a loaded machine may not leave time for all 140.

The figures must agree: every text's iou and cor, the task's scorer's functions called on its own reading of the
files (in this process, after the timing) against accuracy-db's mushroom_text_scores, and each system and
language's means against the 8 decimals the scorer's runs wrote, to 1e-9 (else the run fails). The generated
texts mix Latin with diacritics, Arabic, Persian, Devanagari, Chinese (without spaces), combining marks and emoji;
the gold's soft labels are each character's share of 3 to 12 annotators, its hard labels those above one half; a
third of the systems give soft labels alone, a third hard labels alone, a third both. Writes --out (JSON) and prints
a Markdown table.

With --real FOLDER it runs on the task's own labelled files instead (FOLDER/val and FOLDER/test, 21 files; read in
place), each with the three predictions of benchmarks/mushroom_predictions.py (an annotator's spans, noisy soft
labels, empty ones): 63 pairs of files, every side in this one process, a file at a time, so that the figures are
ratios of the same load. The task's scorer: its own functions, load_jsonl_file_to_records of the reference and of
the prediction and main, per pair, as a run of scorer.py does them. accuracy-db, two ways: the drop-in
(scoring.evaluate.evaluate_mushroom, what `evaluate --scheme mushroom` calls: an in-memory database per pair), and
the database (interchange.imports.import_mushroom, what `import mushroom` calls: each file as the gold of a corpus of
its own and its predictions as submissions, into a copy of --base-db, then mushroom_text_scores and mushroom_scores
read once). Each step's CPU time (time.process_time: every thread of the process) and wall time; one pair of each
side is run first, untimed, so that neither pays for its first imports. The figures must agree to 1e-9: every text's
iou and cor of the database against the scorer's, the drop-in's means against the scorer's.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.run import REPO, accuracy_db

# Languages of the task's test set, with about as many texts each as it has (1,952 in all; the test set about 1,900).
LANGUAGES = {
    "AR": 150, "CA": 100, "CS": 100, "DE": 150, "EN": 154, "ES": 152, "EU": 99,
    "FA": 150, "FI": 150, "FR": 150, "HI": 150, "IT": 150, "SV": 147, "ZH": 150,
}  # fmt: skip
WORDS = {
    "AR": ["العاصمة", "هي", "مدينة", "في", "عام", "١٨٨٩", "الرئيس"],
    "FA": ["پایتخت", "ایران", "است", "شهر", "در", "سال", "۱۳۵۷"],
    "HI": ["भारत", "की", "राजधानी", "है", "नई", "दिल्ली", "१९४७"],
    "ZH": ["首都", "是", "北京", "中国", "的", "年", "人口"],
}
LATIN = ["Paris", "is", "the", "capital", "of", "Italy", "café", "cafe\u0301", "Zürich", "1889", "😀", "Ελλάδα", "über"]
SYSTEMS = [f"system-{number:02}" for number in range(1, 11)]
AGREEMENT = 1e-9


def text_of(rng: random.Random, language: str) -> tuple[str, list[tuple[int, int]]]:
    """A generated text and its words' (start, end) offsets in code points."""
    words = WORDS.get(language, LATIN)
    joiner = "" if language == "ZH" else " "
    chosen = [rng.choice(words) for _ in range(rng.randint(8, 60))]
    offsets, position = [], 0
    for word in chosen:
        offsets.append((position, position + len(word)))
        position += len(word) + len(joiner)
    return joiner.join(chosen) + ("。" if language == "ZH" else "."), offsets


def word_spans(rng: random.Random, offsets: list[tuple[int, int]], most: int) -> list[list[int]]:
    """Up to `most` disjoint runs of one to three words, left to right (none at times)."""
    spans = []
    for first in sorted(rng.sample(range(len(offsets)), rng.randint(0, min(most, len(offsets))))):
        last = min(first + rng.randint(0, 2), len(offsets) - 1)
        if not spans or offsets[first][0] >= spans[-1][1]:
            spans.append([offsets[first][0], offsets[last][1]])
    return spans


def runs_of_shares(annotations: list[list[list[int]]], length: int) -> list[dict]:
    """Soft labels: the runs of characters of equal, non-zero share of the annotators marking them."""
    counts = [0] * length
    for spans in annotations:
        for index in {i for start, end in spans for i in range(start, end)}:
            counts[index] += 1
    labels: list[dict] = []
    for index, count in enumerate(counts):
        share = count / len(annotations)
        if count and labels and labels[-1]["end"] == index and labels[-1]["prob"] == share:
            labels[-1]["end"] = index + 1
        elif count:
            labels.append({"start": index, "end": index + 1, "prob": share})
    return labels


def above_half(soft: list[dict]) -> list[list[int]]:
    hard: list[list[int]] = []
    for label in soft:
        if label["prob"] > 0.5:
            if hard and hard[-1][1] == label["start"]:
                hard[-1][1] = label["end"]
            else:
                hard.append([label["start"], label["end"]])
    return hard


def generated(seed: int) -> tuple[list[dict], dict[str, list[dict]]]:
    """The labelled lines (every language) and each system's prediction lines (one for every text)."""
    rng = random.Random(seed)
    gold, predictions = [], {system: [] for system in SYSTEMS}
    for language, count in LANGUAGES.items():
        for number in range(1, count + 1):
            text, offsets = text_of(rng, language)
            annotators = {f"a{n}": word_spans(rng, offsets, 3) for n in range(rng.randint(3, 12))}
            soft = runs_of_shares(list(annotators.values()), len(text))
            text_id = f"tst-{language.lower()}-{number:03}"
            gold.append(
                {"id": text_id, "lang": language, "model_input": "?", "model_output_text": text,
                 "soft_labels": soft, "hard_labels": above_half(soft), "annotations": annotators}
            )  # fmt: skip
            for index, system in enumerate(SYSTEMS):
                line = {"id": text_id, "lang": language, "model_output_text": text}
                if index % 3 != 1:
                    line["soft_labels"] = [
                        {"start": s, "end": e, "prob": rng.randint(0, 20) / 20} for s, e in word_spans(rng, offsets, 4)
                    ]
                if index % 3 != 0:
                    line["hard_labels"] = word_spans(rng, offsets, 3)
                predictions[system].append(line)
    return gold, predictions


def write(path: Path, lines: list[dict]) -> Path:
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    return path


def timed(args: list[str]) -> dict:
    """Wall and CPU seconds (user and system, from os.wait4) of one child process, which must succeed."""
    started = time.perf_counter()
    child = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=REPO)
    stderr = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{' '.join(args)} failed:\n{stderr.decode()[-3000:]}")
    return {"wall": time.perf_counter() - started, "cpu": usage.ru_utime + usage.ru_stime}


def summed(runs: list[dict]) -> dict:
    return {"processes": len(runs), "wall": sum(r["wall"] for r in runs), "cpu": sum(r["cpu"] for r in runs)}


def task_scorer_module(path: Path):
    spec = importlib.util.spec_from_file_location("mushroom_task_scorer", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def clock() -> tuple[float, float]:
    return time.process_time(), time.perf_counter()


def since(started: tuple[float, float]) -> dict:
    cpu, wall = clock()
    return {"cpu": cpu - started[0], "wall": wall - started[1]}


def added(total: dict, step: dict) -> None:
    for key in ("cpu", "wall"):
        total[key] = total.get(key, 0.0) + step[key]


def differs(ours, theirs) -> float:
    """The largest difference of two sequences of figures; infinite where one is NaN and the other not."""
    worst = 0.0
    for a, b in zip(ours, theirs, strict=True):
        if math.isnan(a) or math.isnan(b):
            worst = max(worst, 0.0 if math.isnan(a) and math.isnan(b) else math.inf)
        else:
            worst = max(worst, abs(a - b))
    return worst


def real_run(args) -> None:
    """The task's labelled files, the scorer's functions against accuracy-db's drop-in and database (see above)."""
    from accuracy_db.interchange.imports import import_mushroom
    from accuracy_db.scoring.evaluate import evaluate_mushroom
    from accuracy_db.store import database
    from benchmarks.mushroom_predictions import predictions, read_lines, real_files, write_lines

    files = real_files(args.real)
    if len(files) != 21:
        raise SystemExit(f"{args.real}: expected the task's 21 labelled files (val/ and test/), found {len(files)}")
    if args.work.exists():
        shutil.rmtree(args.work)
    args.work.mkdir(parents=True)
    scorer = task_scorer_module(args.scorer)
    base = args.base_db
    if base is None:
        base = args.work / "base.duckdb"
        timed(accuracy_db("build", "--db", str(base)))
    db = args.work / "accuracy.duckdb"
    shutil.copyfile(base, db)

    pairs = {}  # (corpus, kind) -> (reference, prediction file)
    golds = {}
    for number, path in enumerate(files):
        corpus, gold = path.name.split(".")[1], read_lines(path)
        golds[corpus] = gold
        for kind, lines in predictions(gold, number).items():
            pairs[corpus, kind] = (path, write_lines(args.work / f"{corpus}-{kind}.jsonl", lines))

    def theirs(reference: Path, predicted: Path):
        refs = scorer.load_jsonl_file_to_records(str(reference))
        ious, cors = scorer.main(refs, scorer.load_jsonl_file_to_records(str(predicted), is_ref=False))
        return [record["id"] for record in refs], ious, cors

    # one pair of each side first, untimed: the first imports of either side are not what is measured
    warm = args.work / "warm.duckdb"
    shutil.copyfile(base, warm)
    first_reference, first_prediction = next(iter(pairs.values()))
    theirs(first_reference, first_prediction)
    evaluate_mushroom(first_reference, first_prediction)
    import_mushroom(warm, first_reference, "warm", "gold")
    import_mushroom(warm, first_prediction, "warm", "submission", "warm")
    warm.unlink()

    load_before = os.getloadavg()[0]
    sides = {"task_scorer": {}, "drop_in": {}, "database": {}}
    steps = {"database import gold": {}, "database import prediction": {}}
    scorer_figures, drop_in_means = {}, {}
    for corpus in golds:
        for kind in ("annotator", "noisy", "empty"):
            reference, predicted = pairs[corpus, kind]
            started = clock()
            scorer_figures[corpus, kind] = theirs(reference, predicted)
            added(sides["task_scorer"], since(started))
            started = clock()
            drop_in_means[corpus, kind] = evaluate_mushroom(reference, predicted).report[0]
            added(sides["drop_in"], since(started))
        started = clock()
        import_mushroom(db, reference, corpus, "gold")
        step = since(started)
        added(sides["database"], step)
        added(steps["database import gold"], step)
        for kind in ("annotator", "noisy", "empty"):
            started = clock()
            import_mushroom(db, pairs[corpus, kind][1], corpus, "submission", kind)
            step = since(started)
            added(sides["database"], step)
            added(steps["database import prediction"], step)
    started = clock()
    con = database.open_existing(db)
    ours = "JOIN annotation_sets ON set_id = submission_id WHERE kind = 'submission' AND name IN ?"
    kinds = ["annotator", "noisy", "empty"]
    text_rows = con.execute(f"SELECT corpus, name, text_id, iou, cor FROM mushroom_text_scores {ours}", [kinds])
    text_rows = text_rows.fetchall()
    means = con.execute(
        f"SELECT mushroom_scores.corpus, submission, texts, iou, cor FROM mushroom_scores {ours}", [kinds]
    )
    means = {(corpus, kind): figures for corpus, kind, *figures in means.fetchall()}
    con.close()
    steps["database read mushroom_text_scores, mushroom_scores"] = since(started)
    added(sides["database"], steps["database read mushroom_text_scores, mushroom_scores"])
    load_after = os.getloadavg()[0]

    by_text = {(corpus, kind, text_id): (iou, cor) for corpus, kind, text_id, iou, cor in text_rows}
    worst_text = worst_mean = 0.0
    texts_compared = 0
    for (corpus, kind), (ids, ious, cors) in scorer_figures.items():
        mine = [by_text[corpus, kind, text_id] for text_id in ids]
        worst_text = max(worst_text, differs([m[0] for m in mine], ious), differs([m[1] for m in mine], cors))
        texts_compared += len(ids)
        drop_in = drop_in_means[corpus, kind]
        worst_mean = max(
            worst_mean,
            differs([drop_in["iou"], drop_in["cor"], *means[corpus, kind][1:]], [ious.mean(), cors.mean()] * 2),
        )
        if drop_in["texts"] != len(ids) or means[corpus, kind][0] != len(ids):
            raise SystemExit(f"{corpus} {kind}: scored on another number of texts than the scorer's {len(ids)}")
    if texts_compared != len(by_text) or worst_text > AGREEMENT or worst_mean > AGREEMENT:
        raise SystemExit(f"the figures differ: {worst_text} per text, {worst_mean} in the means")

    result = {
        "files": len(files),
        "pairs": len(pairs),
        "texts": sum(len(gold) for gold in golds.values()),
        "characters": sum(len(line["model_output_text"]) for gold in golds.values() for line in gold),
        "sides": sides,
        "database_steps": steps,
        "cpu_ratio_drop_in": sides["task_scorer"]["cpu"] / sides["drop_in"]["cpu"],
        "cpu_ratio_database": sides["task_scorer"]["cpu"] / sides["database"]["cpu"],
        "wall_ratio_drop_in": sides["task_scorer"]["wall"] / sides["drop_in"]["wall"],
        "wall_ratio_database": sides["task_scorer"]["wall"] / sides["database"]["wall"],
        "largest_difference_per_text": worst_text,
        "largest_difference_of_means": worst_mean,
        "texts_compared": texts_compared,
        "load_average_before": load_before,
        "load_average_after": load_after,
        "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print("| 63 pairs of files, in one process | CPU s | wall s | the scorer's CPU over it |")
    print("| --- | ---: | ---: | ---: |")
    for label, key in (("the task's scorer.py functions", "task_scorer"),
                       ("accuracy-db drop-in (evaluate_mushroom)", "drop_in"),
                       ("accuracy-db database (import_mushroom, views read)", "database")):  # fmt: skip
        figures = sides[key]
        ratio = sides["task_scorer"]["cpu"] / figures["cpu"]
        print(f"| {label} | {figures['cpu']:.1f} | {figures['wall']:.1f} | {ratio:.2f}× |")
    print(
        f"\nlargest difference: {worst_text:.2e} per text over {texts_compared} texts, {worst_mean:.2e} in the means;"
        f" load average {load_before:.2f} before, {load_after:.2f} after"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scorer", type=Path, required=True, help="a copy of the task's participant_kit/scorer.py")
    parser.add_argument("--work", type=Path, default=Path("/tmp/mushroom-bench"))
    parser.add_argument("--base-db", type=Path, help="a database of this version to import into (a copy of it)")
    parser.add_argument("--seed", type=int, default=34)
    parser.add_argument(
        "--sample",
        type=int,
        choices=range(1, len(LANGUAGES) + 1),
        default=len(LANGUAGES),
        help="languages of each system the scorer runs for (default: all)",
    )
    parser.add_argument("--real", type=Path, help="the task's labelled files: ../shared/data/mushroom")
    parser.add_argument("--out", type=Path, help="default: benchmarks/results/mushroom-speed(-real).json")
    args = parser.parse_args()
    args.out = args.out or REPO / "benchmarks" / "results" / f"mushroom-speed{'-real' if args.real else ''}.json"
    if args.real:
        return real_run(args)
    if args.work.exists():
        shutil.rmtree(args.work)
    (args.work / "by-language").mkdir(parents=True)
    gold, predictions = generated(args.seed)
    reference = write(args.work / "reference.jsonl", gold)
    system_files = {system: write(args.work / f"{system}.jsonl", lines) for system, lines in predictions.items()}
    per_language = {}  # (system, language) -> (reference file, prediction file) as the task publishes them
    for language in LANGUAGES:
        ref = write(args.work / "by-language" / f"ref-{language}.jsonl", [g for g in gold if g["lang"] == language])
        for system, lines in predictions.items():
            pred = write(
                args.work / "by-language" / f"{system}-{language}.jsonl", [p for p in lines if p["lang"] == language]
            )
            per_language[system, language] = (ref, pred)  # fmt: skip

    base = args.base_db
    if base is None:
        base = args.work / "base.duckdb"
        timed(accuracy_db("build", "--db", str(base)))
    db = args.work / "accuracy.duckdb"
    shutil.copyfile(base, db)

    # The two sides alternate, a system at a time, so that both meet the same load of the shared machine.
    load_before = os.getloadavg()[0]
    importing = accuracy_db("import", "mushroom", "--corpus", "bench", "--db", str(db))
    steps = {"import gold": timed([*importing, "--as", "gold", str(reference)])}
    theirs = []
    languages = list(LANGUAGES)
    for number, (system, path) in enumerate(system_files.items()):
        steps[f"import {system}"] = timed([*importing, "--name", system, str(path)])
        for language in [languages[(number * args.sample + k) % len(languages)] for k in range(args.sample)]:
            ref, pred = per_language[system, language]
            output = args.work / "by-language" / f"{system}-{language}.scores.txt"
            theirs.append(timed([sys.executable, str(args.scorer), str(ref), str(pred), str(output)]))
    leaderboard = accuracy_db("leaderboard", "--corpus", "bench", "--scheme", "mushroom", "--format", "json")
    steps["leaderboard --scheme mushroom"] = timed([*leaderboard, "--db", str(db)])
    ours = list(steps.values())
    load_after = os.getloadavg()[0]

    # the figures: every text's, and each (system, language)'s means as the scorer's runs wrote them
    from accuracy_db.store import database

    con = database.open_existing(db)
    rows = con.execute(
        "SELECT name, text_id, iou, cor FROM mushroom_text_scores JOIN annotation_sets ON set_id = submission_id"
        " WHERE corpus = 'bench' AND kind = 'submission' AND name NOT LIKE 'annotator/%'"
    ).fetchall()
    con.close()
    ours_by_text = {(name, text_id): (iou, cor) for name, text_id, iou, cor in rows}
    scorer = task_scorer_module(args.scorer)
    started = time.process_time()
    worst, texts_compared = 0.0, 0
    for (system, language), (ref, pred) in per_language.items():
        refs = scorer.load_jsonl_file_to_records(str(ref))
        preds = scorer.load_jsonl_file_to_records(str(pred), is_ref=False)
        ious, cors = scorer.main(refs, preds)
        for record, iou, cor in zip(refs, ious, cors, strict=True):
            mine = ours_by_text[system, record["id"]]
            worst = max(worst, abs(mine[0] - iou), abs(mine[1] - cor))
            texts_compared += 1
        scores_file = args.work / "by-language" / f"{system}-{language}.scores.txt"
        if not scores_file.exists():  # not run (--sample)
            continue
        written = scores_file.read_text().split()
        means = (sum(ours_by_text[system, r["id"]][0] for r in refs) / len(refs),
                 sum(ours_by_text[system, r["id"]][1] for r in refs) / len(refs))  # fmt: skip
        printed = (float(written[1]), float(written[3]))  # "IoU: x" and "Cor: y", 8 decimals
        worst_printed = max(abs(means[0] - printed[0]), abs(means[1] - printed[1]))
        if worst_printed > 5e-9 + AGREEMENT:
            raise SystemExit(f"{system} {language}: means {means} against the scorer's printed {printed}")
    in_process = time.process_time() - started
    if texts_compared != len(gold) * len(SYSTEMS) or worst > AGREEMENT:
        raise SystemExit(f"the figures differ: {worst} over {texts_compared} texts")
    scale = len(per_language) / len(theirs)
    scorer_runs = {"processes": len(per_language), "run": len(theirs),
                   "wall": summed(theirs)["wall"] * scale, "cpu": summed(theirs)["cpu"] * scale}  # fmt: skip

    result = {
        "texts": len(gold),
        "languages": len(LANGUAGES),
        "systems": len(SYSTEMS),
        "characters": sum(len(g["model_output_text"]) for g in gold),
        "accuracy_db": summed(ours),
        "accuracy_db_steps": steps,
        "task_scorer": scorer_runs,
        "task_scorer_functions_in_one_process_cpu": round(in_process, 3),
        "wall_ratio": scorer_runs["wall"] / summed(ours)["wall"],
        "cpu_ratio": scorer_runs["cpu"] / summed(ours)["cpu"],
        "largest_difference": worst,
        "texts_compared": texts_compared,
        "load_average_before": load_before,
        "load_average_after": load_after,
        "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print("| | processes | wall s | CPU s |\n| --- | ---: | ---: | ---: |")
    for label, key in (("accuracy-db (import gold, 10 imports, leaderboard)", "accuracy_db"),
                       ("the task's scorer.py, per system and language", "task_scorer")):  # fmt: skip
        figures = result[key]
        scaled = (
            f" (scaled from {figures['run']} runs)"
            if figures.get("run", figures["processes"]) < figures["processes"]
            else ""
        )
        print(f"| {label}{scaled} | {figures['processes']} | {figures['wall']:.1f} | {figures['cpu']:.1f} |")
    print(
        f"\nratio: {result['wall_ratio']:.1f}x wall, {result['cpu_ratio']:.1f}x CPU; largest difference per text"
        f" {worst:.2e} over {texts_compared} texts; the scorer's functions alone in one process"
        f" {in_process:.1f} s of CPU; load average {load_before:.2f} before, {load_after:.2f} after"
    )


if __name__ == "__main__":
    sys.exit(main())
