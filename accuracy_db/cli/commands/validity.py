"""accuracy-db validity: how well a submission's mistake counts track the gold list's."""

from __future__ import annotations

from pathlib import Path

import click

from accuracy_db.cli import render
from accuracy_db.cli.commands import (
    corpus_option,
    db_option,
    format_option,
    list_split_option,
    resampling_options,
    scopes_option,
)
from accuracy_db.formatting import (
    NULL,
    figure_text,
    interval_text,
    p_value_text,
    to_csv,
    to_json,
    to_markdown,
    with_interval,
)
from accuracy_db.printable import printable

LEVELS = ["text", "system", "category"]


@click.command()
@click.argument("submission")
@db_option
@corpus_option
@list_split_option
@scopes_option
@click.option(
    "--level",
    "levels",
    type=click.Choice(LEVELS),
    multiple=True,
    help="text (per text), system (per "
    "generating system) or category (agreement of matched pairs); repeatable (default: all three).",
)
@resampling_options
@format_option
def validity(
    submission: str,
    db: Path,
    corpus: str | None,
    split: str | None,
    scopes: tuple[str, ...],
    levels: tuple[str, ...],
    resamples: int,
    seed: int,
    confidence: float,
    fmt: str,
) -> None:
    """Correlate SUBMISSION's mistakes per text (and per generating system) with the gold list's: Pearson r,
    Spearman rho and Kendall tau-b with p-values and bootstrap intervals; and how often its matched mistakes
    agree on the category (agreement and Cohen's kappa)."""
    from accuracy_db.stats.intervals import Resampling

    settings = Resampling(resamples, seed, confidence)  # before the statistics' imports: a bad option fails at once
    from accuracy_db.scoring.scores import check_corpus_choice
    from accuracy_db.stats.validity import validity
    from accuracy_db.store import database

    con = database.open_existing(db)
    check_corpus_choice(con, corpus, split, list(scopes))
    print_validity(validity(con, submission, list(scopes), list(levels), split, settings, corpus), fmt, submission)


def validity_rows(results: list[dict]) -> list[dict]:
    """The figures of accuracy-db validity as people read them: the interval compact, a note on what is
    undefined or left out."""
    rows = []
    for result in results:
        if result["reason"] is not None:
            note = result["reason"]
        elif result["undefined_resamples"]:
            note = f"{result['undefined_resamples']} resamples undefined, left out"
        else:
            note = ""
        ci = result["ci"]
        rows.append(
            {
                "scope": result["scope"],
                "level": result["level"],
                "measure": result["measure"],
                "value": figure_text(result["value"]),
                "interval": interval_text(ci),
                "p": NULL if result["level"] == "category" else p_value_text(result["p_value"]),  # no test there
                "n": result["n"],
                "note": note,
            }
        )
    return rows


# How each level's figures are introduced, and what its n counts.
LEVEL_TITLES = {
    "text": ("text level, mistakes per text", "texts"),
    "system": ("system level, mistakes per text of each system", "systems"),
    "category": ("category level, matched mistakes", "matched pairs"),
}
MEASURE_HEADINGS = {
    "pearson": "Pearson r",
    "spearman": "Spearman rho",
    "kendall": "Kendall tau-b",
    "agreement": "agreement",
    "kappa": "Cohen's kappa",
}


def print_validity(results: list[dict], fmt: str, submission: str) -> None:
    """Print accuracy-db validity's figures. For people, one table per level, a row per scope and a column per
    measure (the value, its interval and p-value), without the scopes where every measure is undefined: why is said
    once under the table; then the mistakes per text of each generating system, and each scope's signature. JSON as
    they are; CSV with the interval in two columns; Markdown a row per figure, with the signatures under it."""
    if fmt == "json":
        print(to_json(results))
    elif fmt == "csv":
        flat = [
            {
                **{key: value for key, value in result.items() if key not in ("ci", "systems", "signature")},
                "ci_low": None if result["ci"] is None else result["ci"][0],
                "ci_high": None if result["ci"] is None else result["ci"][1],
                "signature": result["signature"],
            }
            for result in results
        ]
        print(to_csv(flat), end="")
    elif fmt == "markdown":
        rows = validity_rows(results)
        print(to_markdown(rows), end="")
        print("\n" + "\n".join(f"`{stamp}`  " for stamp in dict.fromkeys(r["signature"] for r in results)))
    else:
        console = render.make_console()
        for level in dict.fromkeys(result["level"] for result in results):
            print_level([result for result in results if result["level"] == level], level, submission, console)
        print_system_means(results, console)
        render.print_signatures(console, [(f"scope {r['scope']}", r["signature"]) for r in results])


def print_level(results: list[dict], level: str, submission: str, console) -> None:
    """One level's figures as a table of scope × measure; the scopes without a defined figure left out, and every
    reason for an undefined figure said once, with the scopes it is the reason in."""
    from rich.text import Text

    measures = list(dict.fromkeys(result["measure"] for result in results))
    by_scope = {scope: {} for scope in dict.fromkeys(result["scope"] for result in results)}
    for result in results:
        by_scope[result["scope"]][result["measure"]] = result
    shown = {scope: row for scope, row in by_scope.items() if any(r["value"] is not None for r in row.values())}
    title, unit = LEVEL_TITLES[level]
    sizes = {measure: {r["n"] for r in results if r["measure"] == measure} for measure in measures}
    same_n = len(set().union(*sizes.values())) == 1
    columns = [render.Column("scope", list(shown))]
    for measure in measures:
        # n where it is not the table's: in the heading when it is the column's, else in each cell
        own_n = not same_n and len(sizes[measure]) == 1
        heading = MEASURE_HEADINGS.get(measure, measure) + (f" (n {min(sizes[measure]):,})" if own_n else "")
        cells = [figure_cell(row[measure], same_n or own_n) for row in shown.values()]
        columns.append(render.Column(heading, cells, "right"))
    counted = f" ({min(sizes[measures[0]]):,} {unit})" if same_n else f" (n: {unit})"
    if shown:
        render.print_fitted(console, columns, title=f"Validity of {submission}, {title}{counted}")
    for line in undefined_notes(results, set(shown)):
        console.print(Text(printable(line)))


def figure_cell(result: dict, n_shown: bool) -> str:
    """A measure's cell: its value and interval, its p-value under them, and its n unless shown elsewhere."""
    lines = [with_interval({"value": result["value"], "value_ci": result["ci"]}, "value")]
    if result["level"] != "category" and result["value"] is not None:
        lines.append(f"p {p_value_text(result['p_value'])}")
    if not n_shown:
        lines[0] += f" (n {result['n']:,})"
    return "\n".join(lines)


def undefined_notes(results: list[dict], shown: set[str]) -> list[str]:
    """Each reason a figure is undefined, once, with where: a scope left out of the table for it, or the measure
    of a scope shown; and the replicates left out of intervals."""
    where: dict[str, list[str]] = {}
    for result in results:
        if result["reason"] is not None and result["value"] is None:
            place = f"{result['scope']} {result['measure']}" if result["scope"] in shown else result["scope"]
            where.setdefault(result["reason"], [])
            if place not in where[result["reason"]]:
                where[result["reason"]].append(place)
    notes = [f"undefined in {', '.join(places)}: {reason}" for reason, places in where.items()]
    left_out = [
        f"{r['scope']} {r['measure']} {r['undefined_resamples']}" for r in results if r.get("undefined_resamples")
    ]
    if left_out:
        notes.append(f"resamples left out of the interval (the measure undefined in them): {', '.join(left_out)}")
    return notes


def print_system_means(results: list[dict], console) -> None:
    """The mistakes per text of each generating system, gold / submitted, a row per scope."""
    means = {r["scope"]: r["systems"] for r in results if r["level"] == "system" and r.get("systems")}
    if not means:
        return
    systems = list(dict.fromkeys(system["system"] for rows in means.values() for system in rows))
    columns = [render.Column("scope", list(means))]
    for name in systems:
        cells = [
            next((f"{s['gold']:.2f} / {s['submitted']:.2f}" for s in rows if s["system"] == name), NULL)
            for rows in means.values()
        ]
        columns.append(render.Column(name, cells, "right"))
    texts = ", ".join(f"{s['system']} {s['texts']}" for s in next(iter(means.values())))
    title = f"Mistakes per text by generating system, gold / submitted (texts: {texts})"
    render.print_fitted(console, columns, title=title)
