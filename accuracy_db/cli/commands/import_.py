"""accuracy-db import: annotation lists of other formats, as lists of a corpus."""

from __future__ import annotations

from pathlib import Path

import click

from accuracy_db.cli.commands import db_option
from accuracy_db.errors import AccuracyDbError
from accuracy_db.printable import printable


def strict_option(help: str):
    """--strict: refuse what the format's own tool reads as nothing, which is otherwise left out and counted."""
    return click.option("--strict", is_flag=True, help=help)


def kind_option(help: str):
    """--as gold|submission: what the file's lists are loaded as."""
    return click.option(
        "--as", "kind", type=click.Choice(["gold", "submission"]), default="submission", show_default=True, help=help
    )


@click.group(name="import")
def import_() -> None:
    """Load annotation lists of another format (a corpus folder, a factgenie campaign, an MQM file) into the
    database, and score them; or a file of text-level scores of metrics."""


@import_.command()
@db_option
@click.argument("campaign_dir", type=click.Path(path_type=Path))
@click.option("--corpus", help="The corpus the texts belong to (default: the campaign's id; created when new).")
@kind_option("Load each annotator's lists as submissions, or (one annotator a split) as the gold list.")
@strict_option(
    "Refuse an annotation of empty text or whose type is no category index, which factgenie's analyses drop "
    "(otherwise left out and counted)."
)
def factgenie(db: Path, campaign_dir: Path, corpus: str | None, kind: str, strict: bool) -> None:
    """A factgenie campaign folder: each annotator's spans become one list per split."""
    from accuracy_db.interchange.imports import import_factgenie

    report = import_factgenie(db, campaign_dir, corpus, kind, strict)
    print_import(report)


def print_import(report) -> None:
    adjusted = ", ".join(f"{count} {name}" for name, count in sorted(report.adjustments.items())) or "none"
    click.echo(
        printable(
            f"imported {len(report.lists)} list(s) ({report.spans} spans) into corpus {report.corpus}:"
            f" {report.texts_added} new text(s); spans adjusted: {adjusted} (see offset_adjustments)"
        )
    )
    if report.refused_by_scheme:
        click.echo(
            printable(
                f"not scored by the shared-task scheme: {len(report.refused_by_scheme)} list(s) whose spans overlap"
                f" (the table scheme_refusals says why); first: {report.refused_by_scheme[0]}"
            ),
            err=True,
        )
    for warning in report.warnings:
        click.echo(f"warning: {warning}", err=True)


@import_.command()
@db_option
@click.argument("corpus_dir", type=click.Path(path_type=Path))
@click.option("--corpus", help="The new corpus's name (default: the folder's name).")
@strict_option("Refuse an empty span (start = end, or an empty text), which marks nothing (else left out, counted).")
def corpus(db: Path, corpus_dir: Path, corpus: str | None, strict: bool) -> None:
    """A corpus folder: texts.jsonl, categories.yaml and lists/*.jsonl (lists/gold.jsonl the gold list)."""
    from accuracy_db.interchange.imports import import_corpus

    print_import(import_corpus(db, corpus_dir, corpus, strict))


@import_.command()
@db_option
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--corpus", help="The corpus: new for a gold file, loaded from one for predictions (default: mushroom).")
@kind_option("A labelled file (its texts, gold list and annotators) or a system's predictions.")
@click.option("--name", help="The submission's name (default: the file's stem).")
@strict_option(
    "Refuse what the task's scorer reads as nothing or never reads, which is otherwise left out and counted: "
    "empty spans (start = end), annotations that cannot be read, a text that differs from the gold's."
)
def mushroom(db: Path, file: Path, corpus: str | None, kind: str, name: str | None, strict: bool) -> None:
    """A SemEval-2025 Task 3 (Mu-SHROOM) JSON Lines file: id, model_output_text, hard_labels, soft_labels. The file
    is registered with the database: build loads it again, and refresh when it changed."""
    from accuracy_db.interchange.imports import import_mushroom

    print_import(import_mushroom(db, file, corpus, kind, name, strict))


@import_.command()
@db_option
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--corpus", required=True, help="The corpus: new for a gold file, loaded from one for a submission.")
@click.option(
    "--as",
    "kind",
    type=click.Choice(["gold", "submission"]),
    default="gold",
    show_default=True,
    help="A rated file (its texts, systems, gold list and raters) or another rating of the corpus's texts.",
)
@click.option("--name", help="The submission's name (default: the file's stem).")
@click.option(
    "--human",
    "humans",
    multiple=True,
    help="A system that is a human reference; repeatable (default: those named like one: ref, ref-A, refB, Human-B …).",
)
def mqm(db: Path, file: Path, corpus: str, kind: str, name: str | None, humans: tuple[str, ...]) -> None:
    """A Google MQM TSV file (system, doc, seg_id, rater, source, target, category, severity; spans marked <v>…</v>):
    a text per system's target, every rater's errors with their severities. Also, told by the first line, a WMT25
    task-2 TSV (start_indices, end_indices, error_types) and a JSON Lines file of predicted spans (system, doc,
    seg_id, errors: start, end, severity, category), a submission of an MQM corpus. The file is registered with
    the database: build loads it again, and refresh when it changed."""
    from accuracy_db.interchange.imports import import_mqm

    if humans and kind != "gold":
        raise AccuracyDbError("--human names the human references of a gold file (--as gold)")
    print_import(import_mqm(db, file, corpus, kind, name, list(humans) or None))


@import_.command()
@db_option
@click.argument("file", type=click.Path(path_type=Path))
@click.option(
    "--name",
    help="The metric's name, for a file of one column of scores (default: the column's header, "
    "or the file's stem when it is score).",
)
@click.option("--higher-is-better", "higher", is_flag=True, help="A higher score means a better text (BLEU, say).")
@click.option("--lower-is-better", "lower", is_flag=True, help="A lower score means a better text (a count of errors).")
@click.option("--corpus", help="The corpus of the texts scored (default: shared-task).")
@click.option(
    "--replace",
    is_flag=True,
    help="Replace metrics of the same names of the split that import scores loaded (in one publication); a name a "
    "submission or a file of the scores folder holds stays refused.",
)
def scores(
    db: Path, file: Path, name: str | None, higher: bool, lower: bool, corpus: str | None, replace: bool
) -> None:
    """A file of text-level scores: CSV text_id,<metric>,… (or text_id,score) or JSON Lines, every text of a split
    once."""
    from accuracy_db.interchange.imports import import_scores

    if higher == lower:
        raise AccuracyDbError("give one of --higher-is-better and --lower-is-better: which way is a text better?")
    loaded = import_scores(db, file, higher, name, corpus, replace)
    replaced = f"; replaced {', '.join(loaded.replaced)}" if loaded.replaced else ""
    click.echo(
        printable(
            f"imported {len(loaded.metrics)} metric(s) ({', '.join(loaded.metrics)}) of split {loaded.split} of corpus"
            f" {loaded.corpus}: {loaded.texts} texts{replaced}"
        )
    )
