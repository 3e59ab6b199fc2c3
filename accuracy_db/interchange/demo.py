"""The demo database (accuracy-db demo, make demo): the shared task's data with lists that show what the tool is for.

The shared task published one real example submission; the participants' own lists are a download away
(fetch-data --participants). So that the leaderboard, the significance clusters, the calibration curves and the
metrics have something to tell apart, the demo adds lists derived from the train split's gold list by seeded
degradations (DEGRADATIONS), each named generated-… so that nobody takes it for a participant's. They are written at
demo time into a scratch folder, never into the repository, beside links to the example submissions (the real one
and the three refused on purpose) and to the participants' files when they were fetched. The build adds the
box-score checker's list; a Mu-SHROOM validation file (with its annotators) and an MQM file are imported as two
more corpora when they are found.
"""

from __future__ import annotations

import csv
import os
import random
from dataclasses import dataclass
from pathlib import Path

from accuracy_db.errors import AccuracyDbError
from accuracy_db.ingest import corpus_folders
from accuracy_db.ingest.build import BuildReport, build
from accuracy_db.interchange.imports import import_mqm, import_mushroom

PREFIX = "generated-"
HEADER = ("TEXT_ID", "TOKENS", "DOC_TOKEN_START", "DOC_TOKEN_END", "TYPE", "COMMENT")
# The example submissions linked into the demo's folder: the one real list, and the three refused on purpose (the
# README's tour reads them in `rejections`). The gold list's copies and the one-id-scheme twins are left out: they
# would rank as submissions.
EXAMPLES = ("submission", "submission_blank", "submission_malformed", "submission_overlapping")
# The corpora imported beside the shared task's, their files found under the data folder's parent.
MUSHROOM_FILE = Path("mushroom", "val", "mushroom.en-val.v2.extra.jsonl")
MUSHROOM_CORPUS = "mu-en"
MQM_FILE = Path("mqm", "mqm_ted_zhen.tsv")
MQM_CORPUS = "ted"
CATEGORIES = ("NAME", "NUMBER", "WORD", "CONTEXT")  # the categories a relabelled mistake may take


@dataclass(frozen=True)
class Degradation:
    """How a generated list is made from the gold list, each step drawn at random (seeded by the list's name):

    * drop: the share of the gold mistakes left out;
    * shift: the share of those kept moved one token to the left or the right (when the tokens there are in the text
      and listed by no other span; a one-token span moved so no longer overlaps its gold mistake);
    * relabel: the share of those kept given another category of NAME, NUMBER, WORD, CONTEXT;
    * alarms: false alarms added, as a share of the gold list's size: single tokens that no span of the gold list or
      of this one touches, a number called NUMBER, a capitalised word NAME, any other word WORD;
    * probabilities: each span gets a probability (the PROBABILITY column), drawn from Beta(4, 2) for a gold
      mistake kept as it was, Beta(2, 2) for one shifted or relabelled and Beta(2, 4) for a false alarm, so that the
      probabilities rank the right spans first, but not perfectly.
    """

    name: str
    drop: float = 0.0
    shift: float = 0.0
    relabel: float = 0.0
    alarms: float = 0.0
    probabilities: bool = False


DEGRADATIONS = (
    Degradation("generated-drop10-alarms30-p", drop=0.1, alarms=0.3, probabilities=True),
    Degradation("generated-drop20-relabel10", drop=0.2, relabel=0.1),
    Degradation("generated-drop30", drop=0.3),
    Degradation("generated-drop40-shift20-p", drop=0.4, shift=0.2, alarms=0.1, probabilities=True),
    Degradation("generated-drop60-alarms60", drop=0.6, alarms=0.6),
)


@dataclass(frozen=True)
class Span:
    text_id: str
    start: int  # document token ids, 1-based, inclusive
    end: int
    category: str
    kind: str  # kept, shifted, relabelled or alarm: what the probability is drawn for, and the row's COMMENT


BETA = {"kept": (4, 2), "shifted": (2, 2), "relabelled": (2, 2), "alarm": (2, 4)}


def read_gold(data_dir: Path) -> tuple[list[Span], dict[str, list[str]]]:
    """The train split's gold mistakes (document ids) and the tokens of each of its texts."""
    with (data_dir / "gsml.csv").open(encoding="utf-8", newline="") as file:
        rows = list(csv.DictReader(file))
    gold = [
        Span(row["TEXT_ID"], int(row["DOC_TOKEN_START"]), int(row["DOC_TOKEN_END"]), row["TYPE"], "kept")
        for row in rows
    ]
    tokens = {path.name: path.read_text(encoding="utf-8").split() for path in (data_dir / "texts").glob("*.txt")}
    return gold, tokens


def degrade(gold: list[Span], tokens: dict[str, list[str]], how: Degradation, seed: int) -> list[tuple[Span, float]]:
    """The list `how` makes of the gold list, each span with its probability (None without probabilities)."""
    rng = random.Random(f"{seed}:{how.name}")
    taken = {(span.text_id, token) for span in gold for token in range(span.start, span.end + 1)}
    spans = []
    for span in gold:
        if rng.random() < how.drop:
            continue
        if rng.random() < how.shift:
            step = rng.choice((-1, 1))
            own = {(span.text_id, token) for token in range(span.start, span.end + 1)}
            moved = {(span.text_id, token + step) for token in range(span.start, span.end + 1)}
            if 1 <= span.start + step and span.end + step <= len(tokens[span.text_id]) and not (moved - own) & taken:
                taken = (taken - own) | moved
                span = Span(span.text_id, span.start + step, span.end + step, span.category, "shifted")
        elif rng.random() < how.relabel:
            category = rng.choice([c for c in CATEGORIES if c != span.category])
            span = Span(span.text_id, span.start, span.end, category, "relabelled")
        spans.append(span)
    free = [(text_id, token) for text_id in sorted(tokens) for token in range(1, len(tokens[text_id]) + 1)]
    free = [place for place in free if place not in taken]
    for text_id, token in rng.sample(free, round(how.alarms * len(gold))):
        spans.append(Span(text_id, token, token, alarm_category(tokens[text_id][token - 1]), "alarm"))
    spans.sort(key=lambda span: (span.text_id, span.start))
    return [(span, round(rng.betavariate(*BETA[span.kind]), 3) if how.probabilities else None) for span in spans]


def alarm_category(token: str) -> str:
    if any(character.isdigit() for character in token):
        return "NUMBER"
    return "NAME" if token[:1].isupper() else "WORD"


def write_list(path: Path, spans: list[tuple[Span, float | None]], tokens: dict[str, list[str]]) -> None:
    probabilities = any(probability is not None for _, probability in spans)
    with path.open("w", encoding="utf-8", newline="") as file:
        writer = csv.writer(file, quoting=csv.QUOTE_ALL, lineterminator="\n")
        writer.writerow(HEADER + (("PROBABILITY",) if probabilities else ()))
        for span, probability in spans:
            marked = " ".join(tokens[span.text_id][span.start - 1 : span.end])
            row = (span.text_id, marked, span.start, span.end, span.category, f"{PREFIX}{span.kind}")
            writer.writerow(row + ((probability,) if probabilities else ()))


def write_generated_lists(data_dir: Path, folder: Path, seed: int = 0) -> list[Path]:
    """Write each list of DEGRADATIONS, made from the train split's gold list of data_dir, into folder."""
    gold, tokens = read_gold(data_dir)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for how in DEGRADATIONS:
        path = folder / f"{how.name}.csv"
        write_list(path, degrade(gold, tokens, how, seed), tokens)
        paths.append(path)
    return paths


def link(target: Path, path: Path) -> None:
    """path made a link to target (replacing a link or file the demo put there before)."""
    if path.is_symlink() or path.is_file():
        path.unlink()
    path.symlink_to(os.path.abspath(target))


@dataclass
class DemoReport:
    build: BuildReport
    generated: list[str]
    participants: list[str]
    corpora: list[str]  # the corpora imported (or kept from the database the build replaced)
    missing: list[str]  # the files of a corpus that were not found, and so not imported


def build_demo(
    data_dir: Path,
    db_path: Path,
    folder: Path,
    participants_dir: Path | None = None,
    seed: int = 0,
    step=lambda name: None,
) -> DemoReport:
    """Build the demo database at db_path: the shared task's data, the lists of DEGRADATIONS written into `folder`
    with links to the example submissions and to the participants' files of participants_dir (when it holds any),
    the box-score checker's list, and the Mu-SHROOM and MQM files found under data_dir's parent as two more
    corpora."""
    if folder.exists() and not folder.is_dir():
        raise AccuracyDbError(f"{folder} is not a folder: give a folder for the demo's lists")
    step("Writing the generated lists")
    generated = [path.stem for path in write_generated_lists(data_dir, folder, seed)]
    for name in EXAMPLES:
        link(data_dir / "example_submissions" / f"{name}.csv", folder / f"{name}.csv")
    participants = sorted(participants_dir.glob("*.csv")) if participants_dir and participants_dir.is_dir() else []
    for path in participants:
        link(path, folder / path.name)
    report = build(data_dir, db_path, folder, step=step)
    corpora = [registration.corpus for registration in corpus_folders.published_registrations(db_path)]
    missing = []
    for corpus, file, load in (
        (MUSHROOM_CORPUS, MUSHROOM_FILE, lambda path: import_mushroom(db_path, path, MUSHROOM_CORPUS, "gold")),
        (MQM_CORPUS, MQM_FILE, lambda path: import_mqm(db_path, path, MQM_CORPUS, "gold")),
    ):
        path = data_dir.parent / file
        if corpus in corpora:
            continue  # kept by the build from the database it replaced
        if not path.is_file():
            missing.append(str(path))
            continue
        step(f"Importing {path.name} as the corpus {corpus}")
        load(path)
        corpora.append(corpus)
    return DemoReport(report, generated, [path.stem for path in participants], corpora, missing)
