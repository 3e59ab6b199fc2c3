"""accuracy-db metrics: is a metric valid? Every metric's scores per text against the gold list's mistakes."""

from __future__ import annotations

from pathlib import Path

import click

from accuracy_db.cli import render
from accuracy_db.cli.commands import db_option, format_option, resampling_options, scopes_option
from accuracy_db.errors import AccuracyDbError
from accuracy_db.formatting import (
    UNDEFINED,
    figure_text,
    interval_text,
    p_value_text,
    to_csv,
    to_json,
    to_latex,
    to_markdown,
)
from accuracy_db.printable import printable

LEVELS = ["text", "system"]
TESTS = ["perm-both", "williams"]

split_option = click.option("--split", help="The split (default: every split with a gold list; dev is train).")
corpus_option = click.option(
    "--corpus",
    help="The corpus whose texts the metrics score (default: the only corpus with a gold list, or the shared task).",
)
trials_option = click.option(
    "--trials", type=click.IntRange(1, 100_000), default=1000, show_default=True, help="Permutation trials."
)
weights_option = click.option(
    "--weights",
    help="Weigh the mistakes by category, as CAT=W,… (e.g. NAME=5,NUMBER=1; 1 for a category not named; each weight "
    "from 0 to 1e300): the gold count and a submission's count become weighted sums (MQM-style).",
)
per_token_option = click.option(
    "--per-token",
    is_flag=True,
    help="Set the gold count, and a submission's, as mistakes per 100 tokens of the text, and add the partial "
    "correlations of metric and gold controlling for length (does the metric beat length?).",
)
average_by_option = click.option(
    "--average-by",
    type=click.Choice(["none", "item", "sys"]),
    default="none",
    show_default=True,
    help="For a corpus with an MQM gold, the text level's grouping, as mt-metrics-eval's: none (one correlation over "
    "every text), item (the systems' texts of each segment correlated, then averaged over the segments) or sys (each "
    "system's texts correlated, then averaged over the systems).",
)
reference_option = click.option(
    "--reference",
    metavar="SYSTEM",
    help="For a corpus with an MQM gold, the human reference (a system of the corpus) that chrf and bleu score the "
    "texts against; its texts are left out of every metric's.",
)


def parse_weights(text: str | None) -> dict[str, float]:
    """CAT=W,… as a mapping; a clear error for anything else."""
    weights: dict[str, float] = {}
    for part in (text or "").split(","):
        if not part.strip():
            continue
        category, equals, weight = part.partition("=")
        try:
            value = float(weight)
        except ValueError:
            value = None
        if not equals or not category.strip() or value is None:
            raise AccuracyDbError(f"--weights: {part.strip()!r} is not CATEGORY=WEIGHT (e.g. NAME=5)")
        if category.strip() in weights:
            raise AccuracyDbError(f"--weights: {category.strip()} is weighed twice")
        weights[category.strip()] = value
    return weights


def settings_of(
    resamples: int,
    seed: int,
    confidence: float,
    weights: str | None,
    per_token: bool,
    trials: int,
    average_by: str = "none",
    reference: str | None = None,
):
    from accuracy_db.stats.intervals import Resampling

    resampling, weighed = Resampling(resamples, seed, confidence), parse_weights(weights)  # a bad option fails at once
    from accuracy_db.metric_validity.table import Settings

    return Settings(resampling, weighed, per_token, trials, average_by, reference)


@click.group(invoke_without_command=True)
@db_option
@corpus_option
@split_option
@scopes_option
@click.option(
    "--level",
    "levels",
    type=click.Choice(LEVELS),
    multiple=True,
    help="text (each text's score against its gold count) or system (the systems' means); repeatable (default: both).",
)
@weights_option
@per_token_option
@average_by_option
@reference_option
@resampling_options
@trials_option
@format_option
@click.pass_context
def metrics(
    ctx: click.Context,
    db: Path,
    corpus: str | None,
    split: str | None,
    scopes: tuple[str, ...],
    levels: tuple[str, ...],
    weights: str | None,
    per_token: bool,
    average_by: str,
    reference: str | None,
    resamples: int,
    seed: int,
    confidence: float,
    trials: int,
    fmt: str,
) -> None:
    """How well each metric's scores per text track the gold list's mistakes: imported scores, the built-ins
    (bleu, chrf, length) and every submission's mistake count. Text level: Pearson, Spearman, Kendall tau-b, acc_eq
    (Kendall's accuracy with an optimised tie threshold), and the detection of texts with a gold mistake (ROC AUC,
    average precision, best F1); system level: the correlations of the systems' means, pairwise accuracy and SPA.
    Each with a bootstrap interval; at the text level the metrics' significance clusters (rank) by PERM-BOTH.
    The resamples are worked through in blocks of bounded size: the most accepted, 100,000, take about 1 GB of
    memory on the shared task's 90 texts, whatever the number of resamples.

    A corpus whose gold was read from an MQM file is measured against each text's MQM score (lower is better), in
    scope ALL: --average-by groups its text level as mt-metrics-eval does, and chrf and bleu score against the
    human reference --reference names (sentence scores per text, corpus scores per system).

    `accuracy-db metrics compare A B --measure M` tests whether metric A beats metric B."""
    if ctx.invoked_subcommand is not None:
        return
    settings = settings_of(resamples, seed, confidence, weights, per_token, trials, average_by, reference)
    from accuracy_db.metric_validity.table import metric_table
    from accuracy_db.store import database

    con = database.open_existing(db)
    print_metrics(metric_table(con, corpus, split, list(scopes), list(levels), settings), fmt)


def shown_rows(results: list[dict]) -> list[dict]:
    """The figures as people read them: the interval compact, the threshold where a measure chose one."""
    return [
        {
            "metric": row["metric"],
            "measure": row["measure"],
            "value": UNDEFINED if row["value"] is None else row["value"],
            "interval": interval_text(row["ci"]),
            "rank": row["rank"],
            "threshold": row["threshold"],
            "n": row["n"],
            "note": row["reason"] or "",
        }
        for row in results
    ]


def flat_rows(results: list[dict]) -> list[dict]:
    return [
        {
            **{key: value for key, value in row.items() if key not in ("ci", "signature")},
            "ci_low": None if row["ci"] is None else row["ci"][0],
            "ci_high": None if row["ci"] is None else row["ci"][1],
            "signature": row["signature"],
        }
        for row in results
    ]


def print_metrics(results: list[dict], fmt: str) -> None:
    """A table per (split, scope, level) for people, its signatures under it; JSON as computed; CSV, Markdown and
    LaTeX flat, with the interval in two columns."""
    if fmt == "json":
        print(to_json(results))
    elif fmt == "csv":
        print(to_csv(flat_rows(results)), end="")
    elif fmt == "markdown":
        print(to_markdown(flat_rows(results)), end="")
    elif fmt == "latex":
        print(to_latex(flat_rows(results)), end="")
    else:
        for group in dict.fromkeys((r["split"], r["scope"], r["level"]) for r in results):
            split, scope, level = group
            rows = [r for r in results if (r["split"], r["scope"], r["level"]) == group]
            title = f"Metrics against the gold list, split {split}, scope {scope}, {level} level"
            render.print_table(shown_rows(rows), list(shown_rows(rows[:1])[0]), title=title, keys=2)
            render.print_signatures(render.make_console(), [("signature", row["signature"]) for row in rows])


@metrics.command()
@click.argument("a")
@click.argument("b")
@click.option(
    "--measure", required=True, help="pearson, spearman, kendall, acc_eq, roc_auc, average_precision or best_f1."
)
@click.option("--level", type=click.Choice(["text"]), default="text", show_default=True, help="The level compared.")
@db_option
@corpus_option
@click.option(
    "--split",
    help="The split (default: the corpus's split with a gold list; give it when there are several; dev is train).",
)
@click.option("--scope", default="ALL", show_default=True, help="ALL or a category of the corpus.")
@click.option(
    "--test",
    type=click.Choice(TESTS),
    default="perm-both",
    show_default=True,
    help="PERM-BOTH or Williams' test (Pearson only).",
)
@weights_option
@per_token_option
@reference_option
@trials_option
@click.option("--seed", type=int, default=12345, show_default=True, help="Seed of the permutations.")
@format_option
def compare(
    a: str,
    b: str,
    measure: str,
    level: str,
    db: Path,
    corpus: str | None,
    split: str | None,
    scope: str,
    test: str,
    weights: str | None,
    per_token: bool,
    reference: str | None,
    trials: int,
    seed: int,
    fmt: str,
) -> None:
    """Is metric A better than metric B on the same texts? The difference of their measure (A − B) and the
    one-sided p-value that A is better: PERM-BOTH (both metrics z-scored, each text's pair of scores swapped at
    random) or Williams' test of two dependent Pearson correlations."""
    settings = settings_of(1000, seed, 0.95, weights, per_token, trials, reference=reference)
    from accuracy_db.metric_validity.table import compare_metrics
    from accuracy_db.store import database

    con = database.open_existing(db)
    result = compare_metrics(con, a, b, measure, level, corpus, split, scope, test, settings)
    if fmt == "json":
        print(to_json([result]))
    elif fmt in ("csv", "markdown", "latex"):
        render_flat = {"csv": to_csv, "markdown": to_markdown, "latex": to_latex}[fmt]
        print(render_flat([result]), end="")
    else:
        shown = {
            "A": result["a"],
            "B": result["b"],
            "measure": result["measure"],
            "A's value": figure_text(result["a_value"]),
            "B's value": figure_text(result["b_value"]),
            "A − B": figure_text(result["difference"]),
            "p (A better)": p_value_text(result["p_value"], result["trials"]),
            "test": result["test"] + ("" if result["trials"] is None else f", {result['trials']:,} trials"),
        }
        render.print_table([shown], list(shown), keys=2, title=f"Metric {result['a']} (A) against {result['b']} (B)")
        console = render.make_console()
        if result["reason"]:
            console.print(printable(result["reason"]), markup=False, highlight=False)
        render.print_signatures(console, [("signature", result["signature"])])
