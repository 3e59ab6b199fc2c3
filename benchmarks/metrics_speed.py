"""How long `accuracy-db metrics` takes on generated data (issue 37): the whole table of every metric, scope, level and
measure with its intervals and clusters, beside a plain scipy loop over the same resamples.

    python -m benchmarks.metrics_speed [--scale 1000] [--submissions 10] [--imported 10] [--resamples 1000]
        [--trials 1000] [--reference-resamples 20] [--scopes ALL,NAME] [--repeat 1] [--work /tmp/accuracy-bench]

The data folder of the scale (benchmarks.run.data_folder: K×60 texts with a game and a human-written reference
each, so that build computes the built-ins bleu, chrf and length; N submissions) is reused from the work folder
when present. Beside it, a scores folder of --imported metrics (two files with sidecars: half lower-is-better,
half higher-is-better), each a noisy function of the gold mistakes per text, some rounded to few values (ties),
one a yes/no flag; the database is built with `--scores` and reused while its folder and scores are unchanged.

Two child processes, in turn, on the same database (benchmarks.run.measured: wall time and peak resident memory of
that child alone; each prints its own seconds of computation, wall and CPU):
* table: metric_table, as `accuracy-db metrics` computes it (every split with a gold list, every scope, both
  levels, --resamples resamples, 1000 permutation trials for the clusters);
* reference: for every metric and scope, a loop over the resamples (the same draws: resampling.bootstrap_draws)
  calling scipy.stats.pearsonr, spearmanr and kendalltau, scikit-learn's roc_auc_score, average_precision_score and
  precision_recall_curve (best F1), and metric_validity.ties.acc_eq, for the measures the table gives an interval on at
  that number of texts. It runs --reference-resamples of them and is extrapolated linearly to --resamples (it says
  so); it computes no clusters and no system level, so the ratio understates the table's advantage. When it runs
  every resample, its intervals are compared with the table's.
--scopes times some scopes only (each scope's rows are computed on their own, so the time of every scope is about
the sum of theirs). Prints a Markdown table with the load average before and after, and writes
benchmarks/results/metrics-<scale>-<scopes>-<resamples>.json.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from benchmarks.run import REPO, accuracy_db, data_folder, measured

SEED = 12345  # the metrics command's default seed
# The imported metrics: (noise's standard deviation relative to the gold count's, rounded to how many values (None:
# not rounded), higher is better). The last is a flag: "has a mistake" with noise.
IMPORTED = [
    (0.3, None, False),
    (0.6, None, False),
    (1.0, None, False),
    (2.0, None, False),
    (0.5, 5, False),
    (0.3, None, True),
    (0.8, None, True),
    (1.5, None, True),
    (1.0, 5, True),
    (1.0, 2, True),
]


def gold_counts(folder: Path) -> tuple[list[str], np.ndarray]:
    """The texts of the folder and the gold list's mistakes in each (0 where none)."""
    texts = sorted(path.stem for path in (folder / "texts").glob("*.txt"))
    counts = dict.fromkeys(texts, 0)
    with open(folder / "gsml.csv", newline="", encoding="utf-8") as gold:
        for row in csv.DictReader(gold):
            counts[row["TEXT_ID"].removesuffix(".txt")] += 1
    return texts, np.array([counts[text] for text in texts], dtype=np.float64)


def write_scores(folder: Path, metrics: int, seed: int = 0) -> Path:
    """The scores folder: imported metrics m01 … as two files, lower-is-better and higher-is-better, each with its
    sidecar. The same arguments give the same files."""
    scores = folder / f"scores-{metrics}"
    if (scores / "done").is_file():
        return scores
    scores.mkdir(exist_ok=True)
    texts, gold = gold_counts(folder)
    rng = np.random.default_rng(seed)
    spread = gold.std() or 1.0
    columns: dict[bool, dict[str, np.ndarray]] = {False: {}, True: {}}
    for number, (noise, levels, higher_is_better) in enumerate(IMPORTED[:metrics], start=1):
        values = gold + rng.normal(0, noise * spread, len(gold))
        if levels is not None:  # a rating of `levels` values, cut at the quantiles of the noisy count
            values = np.searchsorted(np.quantile(values, np.linspace(0, 1, levels + 1)[1:-1]), values).astype(float)
        columns[higher_is_better][f"m{number:02d}"] = -values if higher_is_better else values
    for higher_is_better, named in columns.items():
        if not named:
            continue
        stem = "higher" if higher_is_better else "lower"
        with open(scores / f"{stem}.csv", "w", newline="", encoding="utf-8") as out:
            writer = csv.writer(out)
            writer.writerow(["text_id", *named])
            for i, text in enumerate(texts):
                writer.writerow([text, *(f"{values[i]:.6g}" for values in named.values())])
        sidecar = {"higher_is_better": higher_is_better, "description": "benchmarks.metrics_speed: gold + noise"}
        (scores / f"{stem}.json").write_text(json.dumps(sidecar))
    (scores / "done").write_text("")
    return scores


def table(db: str, resamples: int, out: str, scopes: str, trials: int) -> None:
    """Child step: the whole metrics table, as `accuracy-db metrics` computes it (of the scopes named, comma-separated,
    or every scope: ""); its rows written to out."""
    from accuracy_db.metric_validity.table import Settings, metric_table
    from accuracy_db.stats.intervals import Resampling
    from accuracy_db.store import database

    con = database.open_existing(db)
    wall, cpu = time.perf_counter(), time.process_time()
    settings = Settings(Resampling(resamples, SEED), trials=trials)
    rows = metric_table(con, scopes=scopes.split(",") if scopes else None, settings=settings)
    figures = {"seconds": time.perf_counter() - wall, "cpu_seconds": time.process_time() - cpu, "rows": len(rows)}
    Path(out).write_text(json.dumps(rows))
    print(json.dumps({key: round(value, 3) for key, value in figures.items()}))


def best_f1_of(x: np.ndarray, positive: np.ndarray) -> float:
    from sklearn.metrics import precision_recall_curve

    precision, recall, _ = precision_recall_curve(positive, x)
    with np.errstate(invalid="ignore", divide="ignore"):
        f1 = 2 * precision * recall / (precision + recall)
    return float(np.nanmax(f1))


def reference_measures(texts: int) -> dict:
    """The measures the table resamples on so many texts, as a plain loop computes each: one resample at a time."""
    from scipy import stats
    from sklearn.metrics import average_precision_score, roc_auc_score

    from accuracy_db.metric_validity.table import INTERVAL_TEXTS
    from accuracy_db.metric_validity.ties import acc_eq

    measures = {
        "pearson": lambda x, y: stats.pearsonr(x, y)[0],
        "spearman": lambda x, y: stats.spearmanr(x, y)[0],
        "kendall": lambda x, y: stats.kendalltau(x, y)[0],
        "acc_eq": lambda x, y: acc_eq(x, y).value,
        "roc_auc": lambda x, y: roc_auc_score(y > 0, x),
        "average_precision": lambda x, y: average_precision_score(y > 0, x),
        "best_f1": lambda x, y: best_f1_of(x, y > 0),
    }
    return {name: f for name, f in measures.items() if texts <= INTERVAL_TEXTS.get(name, texts)}


def reference(db: str, resamples: int, out: str, scopes: str, trials: int) -> None:  # noqa: ARG001 (no clusters)
    """Child step: the scipy loop over the first `resamples` resamples of every metric and scope (or those named, as
    table's), text level."""
    import warnings

    from accuracy_db.metric_validity.table import Settings, choose_corpus, gold_lists, scored_metrics
    from accuracy_db.stats import resampling
    from accuracy_db.stats.validity import percentile_interval
    from accuracy_db.store import database

    warnings.simplefilter("ignore")  # scipy's warnings of a constant resample: it is left out, as the table does
    con = database.open_existing(db)
    lists = gold_lists(con)
    corpus = choose_corpus(lists, None)
    every_scope = con.execute("SELECT scope FROM scopes WHERE corpus = ?", [corpus]).fetchall()
    scopes = scopes.split(",") if scopes else [scope for (scope,) in every_scope]
    loaded = {
        (split, scope): scored_metrics(con, corpus, split, scope, Settings())
        for split in lists[corpus]
        for scope in scopes
    }
    wall, cpu = time.perf_counter(), time.process_time()
    intervals, computed = {}, 0
    for (split, scope), metrics in loaded.items():
        for scored in metrics:
            measures = reference_measures(len(scored.x))
            values = {name: [] for name in measures}
            for replicate in range(1, resamples + 1):
                draws = resampling.bootstrap_draws(SEED, np.array([replicate], dtype=np.uint64), [len(scored.x)])[0]
                x, y = scored.x[draws], scored.y[draws]
                defined = np.ptp(x) > 0 and np.ptp(y) > 0
                both_classes = 0 < (y > 0).sum() < len(y)
                for name, measure in measures.items():
                    ok = both_classes if name in ("roc_auc", "average_precision", "best_f1") else defined
                    values[name].append(measure(x, y) if ok else np.nan)
                    computed += 1
            for name, found in values.items():
                found = np.array([np.nan if v is None else v for v in found], dtype=np.float64)
                intervals[f"{split}|{scope}|{scored.metric}|{name}"] = percentile_interval(
                    found[~np.isnan(found)], 0.95
                )
    figures = {"seconds": time.perf_counter() - wall, "cpu_seconds": time.process_time() - cpu, "values": computed}
    Path(out).write_text(json.dumps(intervals))
    print(json.dumps({key: round(value, 3) for key, value in figures.items()}))


def largest_difference(table_rows: list[dict], intervals: dict) -> float:
    """The largest difference between an interval of the table and the reference's (same resamples)."""
    largest = 0.0
    for row in table_rows:
        key = f"{row['split']}|{row['scope']}|{row['metric']}|{row['measure']}"
        if row["level"] != "text" or key not in intervals or row["ci"] is None:
            continue
        largest = max(largest, *(abs(a - b) for a, b in zip(row["ci"], intervals[key])))
    return largest


def child(step: str, db: Path, resamples: int, out: Path, scopes: str, trials: int) -> dict:
    args = [sys.executable, "-m", "benchmarks.metrics_speed", step, str(db), str(resamples), str(out), scopes]
    args.append(str(trials))
    load_before = os.getloadavg()[0]
    run = measured(args)
    return {
        **run.pop("child"),
        "process_seconds": run["seconds"],
        "peak_mb": run["peak_mb"],
        "load_before": round(load_before, 2),
        "load_after": round(os.getloadavg()[0], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=1000)
    parser.add_argument("--submissions", type=int, default=10)
    parser.add_argument("--imported", type=int, default=len(IMPORTED), choices=range(1, len(IMPORTED) + 1))
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--reference-resamples", type=int, default=20)
    parser.add_argument("--trials", type=int, default=1000, help="the permutation trials of the clusters")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--scopes", default="", help="comma-separated: time these scopes only (default: every scope)")
    parser.add_argument("--work", type=Path, default=Path("/tmp/accuracy-bench"))
    args = parser.parse_args()
    folder, _ = data_folder(args.work, args.scale, args.submissions, seed=0)
    scores = write_scores(folder, args.imported)
    db = args.work / f"scale-{args.scale}-metrics-{args.imported}.duckdb"
    results: dict = {"scale": args.scale, "scopes": args.scopes or "all", "resamples": args.resamples}
    results["trials"] = args.trials
    if not db.is_file():
        results["build"] = measured(
            accuracy_db(
                "build", "--data", str(folder), "--db", str(db), "--submissions", str(folder / "submissions"),
                "--scores", str(scores),
            )
        )  # fmt: skip
    rows_file, intervals_file = args.work / "metrics-table.json", args.work / "metrics-reference.json"
    tables, references = [], []
    for _ in range(args.repeat):  # in turn, so that both see the same load
        tables.append(child("table", db, args.resamples, rows_file, args.scopes, args.trials))
        references.append(child("reference", db, args.reference_resamples, intervals_file, args.scopes, args.trials))
    share = args.resamples / args.reference_resamples
    for run in references:
        run["extrapolated_seconds"] = round(run["seconds"] * share, 1)
        run["extrapolated_cpu_seconds"] = round(run["cpu_seconds"] * share, 1)
    results["table"] = summary(tables)
    results["reference"] = summary(references) | {"resamples_run": args.reference_resamples}
    results["ratio_wall"] = round(results["reference"]["extrapolated_seconds"] / results["table"]["seconds"], 1)
    results["ratio_cpu"] = round(results["reference"]["extrapolated_cpu_seconds"] / results["table"]["cpu_seconds"], 1)
    if args.reference_resamples == args.resamples:
        rows = json.loads(rows_file.read_text())
        results["largest_interval_difference"] = largest_difference(rows, json.loads(intervals_file.read_text()))
    named = f"metrics-{args.scale}-{args.scopes.replace(',', '+') or 'all'}-{args.resamples}"
    out = REPO / "benchmarks" / "results" / f"{named}.json"
    out.write_text(json.dumps(results, indent=1) + "\n")
    print(report(results, args))


def summary(runs: list[dict]) -> dict:
    """The median of each figure over the runs (the highest peak memory), with every run's figures."""
    keys = [key for key, value in runs[0].items() if isinstance(value, int | float)]
    median = {key: statistics.median(run[key] for run in runs) for key in keys}
    return median | {"peak_mb": max(run["peak_mb"] for run in runs), "runs": runs}


def report(results: dict, args) -> str:
    table_run, reference_run = results["table"], results["reference"]
    lines = [
        f"scale {args.scale}: {table_run['rows']} rows, scopes {args.scopes or 'all'}, {args.resamples} resamples, "
        f"{args.trials} permutation trials, {os.cpu_count()} cores",
        "| step | seconds computing | CPU seconds | process seconds | peak memory | load before, after |",
        "| --- | ---: | ---: | ---: | ---: | --- |",
        f"| metrics table | {table_run['seconds']:.1f} | {table_run['cpu_seconds']:.1f} | "
        f"{table_run['process_seconds']:.1f} | {table_run['peak_mb']} MB | "
        f"{table_run['load_before']}, {table_run['load_after']} |",
        f"| scipy loop, {args.reference_resamples} resamples | {reference_run['seconds']:.1f} | "
        f"{reference_run['cpu_seconds']:.1f} | {reference_run['process_seconds']:.1f} | "
        f"{reference_run['peak_mb']} MB | "
        f"{reference_run['load_before']}, {reference_run['load_after']} |",
        f"| scipy loop, extrapolated linearly to {args.resamples} | {reference_run['extrapolated_seconds']:.1f} | "
        f"{reference_run['extrapolated_cpu_seconds']:.1f} | | | |",
        f"ratio (scipy loop / table): {results['ratio_wall']}× wall, {results['ratio_cpu']}× CPU",
    ]
    if "largest_interval_difference" in results:
        lines.append(
            f"largest difference of an interval from the scipy loop's: {results['largest_interval_difference']:.3g}"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    if sys.argv[1:2] in (["table"], ["reference"]):
        step = table if sys.argv[1] == "table" else reference
        step(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], int(sys.argv[6]))
    else:
        main()
