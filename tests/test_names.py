"""The rule for every name a user gives (accuracy_db/names.py), fed to every importer: a corpus (a folder's name,
--corpus, a campaign's id), a category (categories.yaml, a campaign's categories), a list (a list file's or a
submission file's stem, adjudicate --as) and an annotator (a campaign's annotator_id). Each bad name is refused in
one line naming its file, with exit status 1 where a command imports it and nothing loaded; a bad submission name
is refused like any other bad submission, and the build goes on. Names of registered folders' files are keyed by
columns, not by a corpus and a path joined by a tab."""

from __future__ import annotations

import json
import shutil
import unicodedata
from pathlib import Path

import pytest
from database_rows import rows
from hypothesis import given, settings
from hypothesis import strategies as st
from shared_data import DATA, EXAMPLES
from test_corpus_folders import corpus_folder, refreshed
from test_factgenie_import import CATEGORIES, LLM, record

from accuracy_db.cli.main import run
from accuracy_db.ingest import corpus_folders
from accuracy_db.names import MAX_LENGTH, name_problem
from accuracy_db.printable import printable

BAD_NAMES = {
    "tab": "a\tb",
    "newline": "a\nb",
    "NUL": "a\0b",
    "control": "a\x1bb",
    "zero-width space": "a\u200bb",
    "ALL": "ALL",
    "all": "all",
    "over-long": "x" * (MAX_LENGTH + 1),
    "blank": " ",
    "leading space": " a",
}
# A file's name cannot hold a NUL.
FILE_NAMES = {case: name for case, name in BAD_NAMES.items() if "\0" not in name}
# Names the shared task, the examples, the tests and the README use, and names of other scripts: each passes.
GOOD_NAMES = [
    *(path.stem for path in EXAMPLES.glob("*.csv")),
    *("NAME", "NUMBER", "WORD", "CONTEXT", "NOT_CHECKABLE", "OTHER", "Not checkable", "shared-task", "weather"),
    *("camp/gpt", "gpt-4o-mini", "annotator 1", "7", "majority", "all of them", "ALL_CAPS", "Gold standard"),
    *("[brackets] $x^2$ `tick` :red[red] **bold**", "latin-\\xe9t\\xe9", "x" * MAX_LENGTH),
    *("Université", "日本語", "می\u200cخواهم", "👩\u200d💻", "a b"),
]


@pytest.mark.parametrize("name", GOOD_NAMES)
def test_every_name_in_use_passes_as_every_kind(name):
    assert [name_problem(name, kind) for kind in ("corpus", "category", "campaign", "annotator", "list")] == [None] * 5


@pytest.mark.parametrize("name", BAD_NAMES.values(), ids=BAD_NAMES.keys())
def test_each_bad_name_is_refused_as_every_kind_in_one_printable_line(name):
    for kind in ("corpus", "category", "campaign", "annotator", "list"):
        message = name_problem(name, kind)
        assert message is not None and message.startswith(f"the {kind} name ")
        assert printable(message) == message and "\t" not in message  # one line, nothing a terminal acts on


def test_gold_is_reserved_for_submissions_alone():
    assert name_problem("GOLD", "list") == "the list name 'GOLD' is reserved (gold names the gold list): choose another"
    assert [name_problem("gold", kind) for kind in ("corpus", "category", "campaign", "annotator")] == [None] * 4


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=8))
def test_a_name_passes_only_as_visible_text_without_space_at_its_ends(name):
    visible = all(
        unicodedata.category(c)[0] != "C" and unicodedata.category(c) not in ("Zl", "Zp") or c in "\u200c\u200d"
        for c in name
    )
    expected = visible and name.strip() == name != "" and name.casefold() != "all"
    assert (name_problem(name, "category") is None) == expected


# Each importer, fed a bad name: the command-line arguments, and the file (or option) the refusal names.
def import_corpus_named(tmp_path: Path, name: str):
    folder = corpus_folder(tmp_path, name)
    return ["import", "corpus", str(folder)], str(folder), "corpus"


def import_corpus_option(tmp_path: Path, name: str):
    return ["import", "corpus", str(corpus_folder(tmp_path)), "--corpus", name], "error: --corpus", "corpus"


def import_corpus_category(tmp_path: Path, name: str):
    folder = corpus_folder(tmp_path)
    (folder / "categories.yaml").write_text(json.dumps([{"name": "Wrong"}, {"name": name}]))
    return ["import", "corpus", str(folder)], f"{folder / 'categories.yaml'}: category 2", "category"


def import_corpus_list(tmp_path: Path, name: str):
    folder = corpus_folder(tmp_path)
    shutil.copy(folder / "lists" / "metric_jsonl.jsonl", folder / "lists" / f"{name}.jsonl")
    return ["import", "corpus", str(folder)], str(folder / "lists" / f"{name}.jsonl"), "list"


def campaign(tmp_path: Path, campaign_id="camp", categories=CATEGORIES, annotator="gpt") -> Path:
    folder = tmp_path / "camp"
    (folder / "files").mkdir(parents=True)
    metadata = {"id": campaign_id, "config": {"annotation_span_categories": categories}}
    (folder / "metadata.json").write_text(json.dumps(metadata))
    records = [record(r["example_idx"], annotator, r["annotations"]) for r in LLM]
    (folder / "files" / "a.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return folder


def import_factgenie_id(tmp_path: Path, name: str):
    folder = campaign(tmp_path, campaign_id=name)
    return ["import", "factgenie", str(folder), "--corpus", "games"], f"{folder / 'metadata.json'}: id", "campaign"


def import_factgenie_option(tmp_path: Path, name: str):
    return ["import", "factgenie", str(campaign(tmp_path)), "--corpus", name], "error: --corpus", "corpus"


def import_factgenie_category(tmp_path: Path, name: str):
    folder = campaign(tmp_path, categories=[CATEGORIES[0], {**CATEGORIES[1], "name": name}])
    return ["import", "factgenie", str(folder)], f"{folder / 'metadata.json'}: span category 1", "category"


def import_factgenie_annotator(tmp_path: Path, name: str):
    folder = campaign(tmp_path, annotator=name)
    where = f"{folder / 'files' / 'a.jsonl'}: line 1: metadata.annotator_id"
    return ["import", "factgenie", str(folder)], where, "annotator"


def refresh_corpus_dir(tmp_path: Path, name: str):
    folder = corpus_folder(tmp_path, name)
    command = ["refresh", "--data", str(DATA), "--submissions", str(EXAMPLES), "--corpus-dir", str(folder)]
    return command, f"error: {folder}", "corpus"


IMPORTERS = {
    "import corpus: the folder's name": (import_corpus_named, FILE_NAMES),
    "import corpus --corpus": (import_corpus_option, BAD_NAMES),
    "import corpus: a category": (import_corpus_category, BAD_NAMES),
    "import corpus: a list file's name": (import_corpus_list, FILE_NAMES),
    "import factgenie: the campaign's id": (import_factgenie_id, BAD_NAMES),
    "import factgenie --corpus": (import_factgenie_option, BAD_NAMES),
    "import factgenie: a category": (import_factgenie_category, BAD_NAMES),
    "import factgenie: an annotator": (import_factgenie_annotator, BAD_NAMES),
    "refresh --corpus-dir: the folder's name": (refresh_corpus_dir, FILE_NAMES),
}
CASES = [
    pytest.param(importer, name, id=f"{label}: {case}")
    for label, (importer, names) in IMPORTERS.items()
    for case, name in names.items()
]


def test_names_of_files_lose_only_the_nul():
    assert set(BAD_NAMES) - set(FILE_NAMES) == {"NUL"}


@pytest.mark.parametrize(("importer", "name"), CASES)
def test_each_importer_refuses_each_bad_name_in_one_line_and_loads_nothing(db, tmp_path, capsys, importer, name):
    arguments, where, kind = importer(tmp_path / "in", name)
    before = db.read_bytes()
    assert run([*arguments, "--db", str(db)]) == 1
    err = capsys.readouterr().err
    if "\0" in name and not where.startswith("error:"):  # an escaped NUL in a file refuses it as it is parsed
        where, refusal = where.split(": ")[0], "holds a NUL (\\u0000), which no text can hold"
    else:
        refusal = printable(f"{where}: {name_problem(name, kind)}")
    named = [line for line in err.splitlines() if line.startswith(printable(where))]  # (two records of an annotator)
    assert named != [] and all(refusal in line for line in named), err
    assert "Traceback" not in err
    assert db.read_bytes() == before


@pytest.mark.parametrize("name", ["ALL", "gold", "Gold", "x" * (MAX_LENGTH + 1)])
def test_adjudicate_refuses_a_reserved_or_over_long_name(built_db, tmp_path, capsys, name):
    arguments = ["adjudicate", "gold", "submission", "--min-votes", "1", "--as", name, "--out", str(tmp_path)]
    assert run([*arguments, "--db", str(built_db)]) == 1
    assert capsys.readouterr().err == f"error: --as: {name_problem(name, 'list')}\n"
    assert list(tmp_path.iterdir()) == []


@pytest.fixture(scope="module")
def bad_inbox(tmp_path_factory) -> tuple[Path, Path]:
    """A submissions folder of the example submission under each bad name (each with a sidecar) and its own, built."""
    folder = tmp_path_factory.mktemp("names")
    submissions = folder / "submissions"
    submissions.mkdir()
    for name in [*FILE_NAMES.values(), "gold", "submission"]:
        shutil.copy(EXAMPLES / "submission.csv", submissions / f"{name}.csv")
        (submissions / f"{name}.json").write_text(json.dumps({"team": "T"}))
    db = folder / "accuracy.duckdb"
    assert run(["build", "--data", str(DATA), "--db", str(db), "--submissions", str(submissions)]) == 0
    return submissions, db


def test_a_submission_with_a_bad_name_is_refused_alone_and_the_build_goes_on(bad_inbox):
    submissions, db = bad_inbox
    refused = [*FILE_NAMES.values(), "gold"]
    assert rows(db, "SELECT submission, file, line, message FROM rejections ORDER BY submission") == sorted(
        (name, str(submissions / f"{name}.csv"), None, f"{name_problem(name, 'list')}: rename the file")
        for name in refused
    )
    # beside the one good file, the box-score checker's list, which build adds
    assert rows(db, "SELECT DISTINCT name FROM annotation_sets WHERE kind = 'submission' ORDER BY name") == [
        ("boxscore",),
        ("submission",),
    ]
    assert rows(db, "SELECT submission FROM submission_metadata") == [("submission",)]


def test_a_refresh_counts_the_bad_names_as_refused_again_and_publishes_nothing(bad_inbox, capsys):
    submissions, db = bad_inbox
    assert run(["refresh", "--data", str(DATA), "--db", str(db), "--submissions", str(submissions)]) == 0
    out = capsys.readouterr().out
    assert f"0 added, 0 changed, 1 unchanged, 0 retired, {len(FILE_NAMES) + 1} refused" in out
    assert "nothing to publish" in out


def test_two_corpora_one_named_as_the_start_of_the_other_are_each_unchanged_by_a_refresh(db, tmp_path):
    refreshed(db, corpus_folder(tmp_path / "a", "tab"), corpus_folder(tmp_path / "b", "tab x"))
    report = refreshed(db)
    assert not report.published and report.corpora_loaded == [] and report.corpora_unchanged == ["tab", "tab x"]


def test_a_corpus_s_recorded_files_are_its_own_whatever_the_other_corpora_are_named(tmp_path):
    """The fingerprints of registered folders' files were keyed by the corpus and the path joined by a tab, and a
    corpus's were found by that prefix: a corpus named tab took those of one named tab<TAB>x as its own, and was
    loaded again by every refresh (names holding a tab are refused now; the key is two columns)."""
    registrations = [
        corpus_folders.corpus_folder(corpus_folder(tmp_path / "a", "tab")),
        corpus_folders.Registration(str(corpus_folder(tmp_path / "b", "other")), "corpus", "tab\tx"),
    ]
    known = {key: s for sources in corpus_folders.corpus_sources(registrations).values() for key, s in sources.items()}
    assert corpus_folders.changed_corpora(registrations, registrations, known) == []


def test_a_registered_folder_s_files_are_recorded_under_its_corpus(db, tmp_path):
    folder = corpus_folder(tmp_path, "weather")
    refreshed(db, folder)
    recorded = rows(db, "SELECT corpus, name FROM source_files WHERE role = 'folder' ORDER BY name")
    assert recorded == [
        ("weather", str(path)) for path in sorted(corpus_folders.folder_files(corpus_folders.corpus_folder(folder)))
    ]


def test_a_list_file_with_a_bad_name_in_a_registered_folder_is_refused_alone(db, tmp_path):
    folder = corpus_folder(tmp_path)
    for name in ("ALL", "Gold", "a\tb"):
        shutil.copy(folder / "lists" / "metric_jsonl.jsonl", folder / "lists" / f"{name}.jsonl")
    report = refreshed(db, folder)
    assert {file: [(p.line, p.message) for p in problems] for file, problems in report.corpus_refusals.items()} == {
        str(folder / "lists" / f"{name}.jsonl"): [(None, name_problem(name, "list"))]
        for name in ("ALL", "Gold", "a\tb")
    }
    assert rows(db, "SELECT name FROM annotation_sets WHERE corpus = 'weather' ORDER BY name") == [
        ("gold",),
        ("metric",),
        ("metric_jsonl",),
    ]
