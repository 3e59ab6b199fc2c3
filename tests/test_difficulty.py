"""Recall by difficulty: found-by-k and the annotators' agreement of each gold mistake, and each submission's recall
at each level. Every figure is counted here in plain Python: the matching by tests/oracle.py, the curation exports
parsed with the csv module (none of it from the views or the loader)."""

from __future__ import annotations

import csv
import json
import re
import shutil
from collections import defaultdict

import pytest
from accuracy_db.etl.curation import load_curation
from accuracy_db.etl.mistake_lists import load_mistake_list
from accuracy_db.etl.texts import load_texts
from shared_data import DATA, EXAMPLES
from test_saved_analyses import GOLD, half_gold_rows, read_list, spans, taken

from accuracy_db.cli import main as cli
from accuracy_db.errors import InputError
from accuracy_db.ingest.build import build
from accuracy_db.ingest.refresh import refresh
from accuracy_db.ingest.sources import data_sources
from accuracy_db.scoring import scores
from accuracy_db.store import database

CURATION = DATA / "curation"


def found_by_oracle(submissions: dict[str, list[dict]]) -> tuple[dict, dict]:
    """Gold key -> how many of the submissions found it; and (submission, gold key) -> whether it found it."""
    gold = spans(read_list(GOLD["train"]))
    found = {
        (name, key): match is not None
        for name, rows in submissions.items()
        for key, match in taken(gold, spans(rows)).items()
    }
    return {span.key: sum(found[name, span.key] for name in submissions) for span in gold}, found


def recall_by_level(level_of: dict, found: dict, names) -> dict:
    """(submission, level) -> (gold, matched) over the gold mistakes of each level."""
    counts = defaultdict(lambda: [0, 0])
    for name in names:
        for key, level in level_of.items():
            counts[name, level][0] += 1
            counts[name, level][1] += found[name, key]
    return {key: tuple(value) for key, value in counts.items()}


def figures(rows: list[dict], level: str) -> dict:
    """The rows of scores.recall_by_difficulty as (submission, level) -> (gold, matched); recall checked on the way."""
    for row in rows:
        assert row["recall"] == pytest.approx(row["matched"] / row["gold_total"])
    return {(row["submission"], row[level]): (row["gold_total"], row["matched"]) for row in rows}


# --- found-by-k ---


def test_found_by_k_and_recall_per_k_equal_the_oracle_on_two_disagreeing_submissions(two_metrics_db):
    submissions = {"submission": read_list(EXAMPLES / "submission.csv"), "half_gold": half_gold_rows()}
    found_by, found = found_by_oracle(submissions)
    con = database.open_existing(two_metrics_db)
    try:
        stored = con.execute(
            "SELECT text_id, doc_token_start, found_by, submissions FROM gold_mistake_difficulty WHERE split = 'train'"
        ).fetchall()
        by_k = figures(scores.recall_by_difficulty(con, "found_by", "dev"), "found_by")
        assert scores.recall_by_difficulty(con, "found_by", "test") == []  # no submission of the test split
    finally:
        con.close()
    assert {(text_id, start): k for text_id, start, k, _ in stored} == found_by
    assert {n for *_, n in stored} == {2}
    assert set(found_by.values()) == {0, 1, 2}  # every k occurs: the test is not vacuous
    assert by_k == recall_by_level(found_by, found, submissions)


def stored_found_by(db) -> tuple[dict, dict]:
    """Gold key -> found_by, and the recall per k as figures() gives it, of the train split of a database."""
    con = database.open_existing(db)
    try:
        stored = con.execute(
            "SELECT text_id, doc_token_start, found_by FROM gold_mistake_difficulty WHERE split = 'train'"
        ).fetchall()
        return {(text_id, start): k for text_id, start, k in stored}, figures(
            scores.recall_by_difficulty(con, "found_by", "dev"), "found_by"
        )
    finally:
        con.close()


def checker_rows(db) -> list[dict]:
    """The box-score checker's findings of the train split (its list), as read_list gives a file's rows."""
    con = database.open_existing(db)
    try:
        found = con.execute(
            "SELECT text_id, doc_token_start, doc_token_end, category FROM boxscore_findings WHERE split = 'train'"
        ).fetchall()
    finally:
        con.close()
    return [
        {"text_id": text_id, "start": start, "end": end, "category": category}
        for text_id, start, end, category in found
    ]


def test_found_by_k_follows_the_submissions_a_refresh_adds_and_retires(tmp_path):
    """A count over every submission of the split: a refresh that adds a submission, and one that only retires
    one (scoring nothing), give each gold mistake its new k and each submission its new recall per k."""
    inbox, db = tmp_path / "inbox", tmp_path / "accuracy.duckdb"
    inbox.mkdir()
    rows = {"submission": read_list(EXAMPLES / "submission.csv"), "half_gold": half_gold_rows()}
    shutil.copy(EXAMPLES / "submission.csv", inbox / "submission.csv")
    header, *lines = (DATA / "gsml.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    for change, names in (
        (lambda: None, ["submission"]),
        (lambda: (inbox / "half_gold.csv").write_text(header + "".join(lines[::2]), encoding="utf-8"), list(rows)),
        (lambda: (inbox / "submission.csv").unlink(), ["half_gold"]),
    ):
        change()
        refresh(db, DATA, inbox)
        rows["boxscore"] = checker_rows(db)  # the box-score checker's list, which a build adds, counts too
        found_by, found = found_by_oracle({name: rows[name] for name in [*names, "boxscore"]})
        assert stored_found_by(db) == (found_by, recall_by_level(found_by, found, [*names, "boxscore"]))
        assert max(found_by.values()) == len(names) + 1  # some gold mistake is found by all: k moved with the set


def test_each_submissions_levels_add_up_to_its_score(built):
    totals = {  # over both splits (the box-score checker's list is of each)
        name: (matched, gold)
        for name, matched, gold in built.execute(
            "SELECT submission, sum(matched)::INTEGER, sum(gold_total)::INTEGER FROM scores WHERE scope = 'ALL'"
            " GROUP BY submission"
        ).fetchall()
    }
    for measure in ("found_by", "annotators"):
        summed = defaultdict(lambda: [0, 0])
        for (name, _), (gold, matched) in figures(scores.recall_by_difficulty(built, measure), measure).items():
            summed[name][0] += matched
            summed[name][1] += gold
        assert {name: tuple(pair) for name, pair in summed.items()} == totals


# --- the curation exports ---


def annotators_from_tsv() -> dict[tuple[str, int, int], int]:
    """(text, first token, last token) -> H_FOUND_ERR of every mistake of the real exports, read with the csv module."""
    found = {}
    for path in sorted(CURATION.glob("*/CURATION_USER.tsv")):
        text_id = path.parent.name.split("_")[0]
        with path.open(encoding="utf-8", newline="") as stream:
            rows = list(csv.reader(stream, delimiter="\t", quoting=csv.QUOTE_NONE))
        features = next(row[0].split("|")[1:] for row in rows if row and row[0].startswith("#T_SP="))
        kind, h = 3 + features.index("A_Type"), 3 + features.index("H_FOUND_ERR")
        token, mistakes = 0, {}
        for row in rows:
            if not row or row[0].startswith("#"):
                continue
            token += 1
            if row[kind] != "_":
                number = re.search(r"\[([0-9]+)\]$", row[kind])
                key = number[1] if number else f"token {token}"
                start = mistakes.get(key, (token,))[0]
                mistakes[key] = (start, token, int(re.sub(r"\[[0-9]+\]$", "", row[h])))
        found |= {(text_id, start, end): value for start, end, value in mistakes.values()}
    return found


def test_the_real_exports_give_each_gold_mistake_its_annotators(built):
    expected = annotators_from_tsv()
    gold = {(s.text_id, s.start, s.end) for s in spans(read_list(GOLD["train"]))}
    assert set(expected) == gold  # the curation covers the train split's gold list exactly
    stored = built.execute(
        "SELECT text_id, doc_token_start, doc_token_end, annotators FROM gold_mistake_agreement"
    ).fetchall()
    assert {(t, s, e): k for t, s, e, k in stored} == expected
    assert built.execute("SELECT count(*) FROM curation_exports").fetchone() == (60,)
    assert built.execute("SELECT count(*) FROM curation_mismatches").fetchone() == (0,)
    # every curated category (J_Corrected_Type where set, else A_Type) is the gold list's
    assert built.execute(
        "SELECT count(*) FROM gold_mistake_agreement WHERE curated_category <> category"
    ).fetchone() == (0,)


def test_recall_per_annotator_level_equals_the_oracle_with_the_tsv_counts(built):
    annotators = annotators_from_tsv()
    names = ["submission", "gsml_doc_based"]
    _, found = found_by_oracle({name: read_list(EXAMPLES / f"{name}.csv") for name in names})
    level_of = {(t, s): annotators[t, s, e] for t, s, e in annotators}
    expected = recall_by_level(level_of, found, names)
    rows = scores.recall_by_difficulty(built, "annotators", "train")
    assert {key: value for key, value in figures(rows, "annotators").items() if key[0] in names} == expected
    assert {level for _, level in expected} == {3, 2}  # the levels the data holds


def test_the_curation_files_are_data_sources_so_a_change_rebuilds(tmp_path):
    data = tmp_path / "data"
    (data / "curation" / "S001_01_To_60.txt").mkdir(parents=True)
    (data / "texts").symlink_to(DATA / "texts")
    (data / "gsml.csv").symlink_to(DATA / "gsml.csv")
    export = data / "curation" / "S001_01_To_60.txt" / "CURATION_USER.tsv"
    shutil.copyfile(CURATION / "S001_01_To_60.txt" / "CURATION_USER.tsv", export)
    assert ("data", "", "curation/S001_01_To_60.txt/CURATION_USER.tsv") in data_sources(data)
    db, inbox = tmp_path / "accuracy.duckdb", tmp_path / "inbox"
    inbox.mkdir()
    build(data, db, inbox)
    # Wednesday, the first mistake of S001, was marked by 3 annotators; say 2 instead
    export.write_text(export.read_text().replace("1\\_NAME\tFriday\t*\t*\t*\t3", "1\\_NAME\tFriday\t*\t*\t*\t2"))
    refresh(db, data, inbox)
    con = database.open_existing(db)
    try:
        assert con.execute(
            "SELECT found_by FROM curated_mistakes WHERE text_id = 'S001' AND doc_token_start = 18"
        ).fetchone() == (2,)
        s001 = sum(row["text_id"] == "S001" for row in read_list(GOLD["train"]))
        assert con.execute("SELECT count(*) FROM curated_mistakes").fetchone() == (s001,)
    finally:
        con.close()


# --- a small hand-written export ---

FEATURES = "A_Type|B_Correction|C_Comment|G_Corrected_Types|G_Problem|H_FOUND_ERR|I_Correction_Disagreement|I_Spans_Match|J_Corrected_Type|J_Types_Match"
NO_MISTAKE = ["_"] * 10
TEXTS = {
    # doc tokens: 1   2      3   4  5  6  7  8      9     10 11     12
    "S001": "The Celtics won 113 - 107 . Thomas scored 38 points .",
    "S002": "The Hawks lost .",
}
GOLD_LIST = """TEXT_ID,SENTENCE_ID,ANNOTATION_ID,TOKENS,SENT_TOKEN_START,SENT_TOKEN_END,DOC_TOKEN_START,DOC_TOKEN_END,TYPE,CORRECTION,COMMENT
S001.txt,,1,Celtics,,,2,2,NAME,Lakers,
S001.txt,,2,113 - 107,,,4,6,NUMBER,110 - 107,
S001.txt,,3,scored,,,9,9,NUMBER,,
S001.txt,,4,38,,,10,10,WORD,,
S001.txt,,5,points,,,11,11,WORD,,
S002.txt,,6,Hawks,,,2,2,NAME,,
"""


def numbered(values: list[str], n: int) -> list[str]:
    return [f"{value}[{n}]" for value in values]


def export_lines() -> list[str]:
    """S001's export: lines 1-4 the header, 5 the first sentence, 6-12 its tokens, 14 the second, 15-19 its tokens."""
    score = ["2\\_NUMBER", "110 \\- 107", "*", "*", "*", "2", "true", "1", "*", "2"]
    tokens = [
        ("1-1", "0-3", "The", NO_MISTAKE),
        ("1-2", "4-11", "Celtics", ["1\\_NAME", "Lakers", "*", "3", "*", "3", "false", "3", "*", "3"]),
        ("1-3", "12-15", "won", NO_MISTAKE),
        ("1-4", "16-19", "113", numbered(score, 1)),
        ("1-5", "20-21", "-", numbered(score, 1)),
        ("1-6", "22-25", "107", numbered(score, 1)),
        ("1-7", "26-27", ".", NO_MISTAKE),
        None,
        ("2-1", "28-34", "Thomas", ["1\\_NAME", "*", "*", "*", "*", "2", "false", "2", "*", "2"]),
        ("2-2", "35-41", "scored", ["3\\_WORD", "*", "had", "*", "CT: a number", "3", "false", "2", "2\\_NUMBER", "1"]),
        ("2-3", "42-44", "38", ["2\\_NUMBER", "28", "*", "*", "*", "3", "false", "3", "*", "3"]),
        ("2-4", "45-51", "points", NO_MISTAKE),
        ("2-5", "52-53", ".", NO_MISTAKE),
    ]
    lines = [
        "#FORMAT=WebAnno TSV 3.2",
        f"#T_SP=webanno.custom.Errors|{FEATURES}",
        "",
        "",
        "#Text=The Celtics won 113 - 107 .",
    ]
    for token in tokens:
        lines += (
            ["", "#Text=Thomas scored 38 points ."] if token is None else ["\t".join([*token[:3], *token[3]]) + "\t"]
        )
    return lines


@pytest.fixture
def small(tmp_path):
    """An in-memory database with two texts and a gold list, and a curation folder holding S001's export."""
    con = database.open_new(None)
    load_texts(con, "train", TEXTS)
    (tmp_path / "gsml.csv").write_text(GOLD_LIST)
    load_mistake_list(con, tmp_path / "gsml.csv", "gold", "gold", "train")
    folder = tmp_path / "curation"
    write_export(folder, "S001_01_To_60.txt", export_lines())
    yield con, folder
    con.close()


def write_export(folder, name: str, lines: list[str]):
    path = folder / name / "CURATION_USER.tsv"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_hand_written_export_loads_mistake_by_mistake(small):
    con, folder = small
    warnings = load_curation(con, folder, "train")
    assert con.execute("SELECT * FROM curated_mistakes ORDER BY doc_token_start").fetchall() == [
        # text, start, end, line, category, corrected, correction, comment, problem, H, I_Spans, J_Types, G_Corr, I_Corr
        ("S001", 2, 2, 7, "NAME", None, "Lakers", None, None, 3, 3, 3, 3, False),
        ("S001", 4, 6, 9, "NUMBER", None, "110 - 107", None, None, 2, 1, 2, None, True),
        ("S001", 8, 8, 15, "NAME", None, None, None, None, 2, 2, 2, None, False),
        ("S001", 9, 9, 16, "WORD", "NUMBER", None, "had", "CT: a number", 3, 2, 1, None, False),
        ("S001", 10, 10, 17, "NUMBER", None, "28", None, None, 3, 3, 3, None, False),
    ]
    assert con.execute("SELECT * FROM curation_exports").fetchall() == [
        ("S001", str(folder / "S001_01_To_60.txt" / "CURATION_USER.tsv"), 12)
    ]
    # annotators and type agreement attached by text and exact span; Thomas (8) is in no gold list, points (11) in no
    # export, and S002 has no export at all
    assert con.execute(
        "SELECT doc_token_start, category, curated_category, annotators, types_agreed FROM gold_mistake_agreement"
        " ORDER BY doc_token_start"
    ).fetchall() == [
        (2, "NAME", "NAME", 3, True),
        (4, "NUMBER", "NUMBER", 2, True),
        (9, "NUMBER", "NUMBER", 3, False),
        (10, "WORD", "NUMBER", 3, True),
    ]
    assert con.execute(
        "SELECT kind, text_id, doc_token_start, doc_token_end, tokens, gold_category, curated_category, line_number"
        " FROM curation_mismatches"
    ).fetchall() == [
        ("curation_only", "S001", 8, 8, "Thomas", None, "NAME", 15),
        ("other_category", "S001", 10, 10, "38", "WORD", "NUMBER", 17),
        ("gold_only", "S001", 11, 11, "points", "WORD", None, None),
    ]
    assert warnings == [
        f"{folder}: the curation and the gold list of the train split differ (1 curation_only, 1 gold_only,"
        ' 1 other_category); they are listed by `accuracy-db query "SELECT * FROM curation_mismatches"`'
    ]


def test_no_curation_folder_loads_nothing_and_warns_of_nothing(small, tmp_path):
    con, _ = small
    assert load_curation(con, tmp_path / "nowhere", "train") == []
    assert con.execute("SELECT count(*) FROM curated_mistakes").fetchone() == (0,)


# --- bad exports ---


def refusal(con, folder, lines: list[str] | None = None, name: str = "S001_01_To_60.txt", raw: bytes | None = None):
    """Load a curation folder whose S001 export (or the export `name`) is these lines; return the problems, as
    printed, without the file's name, after checking that each names the file and that nothing was loaded."""
    path = write_export(folder, name, lines or [])
    if raw is not None:
        path.write_bytes(raw)
    with pytest.raises(InputError) as refused:
        load_curation(con, folder, "train")
    assert con.execute("SELECT count(*) FROM curated_mistakes").fetchone() == (0,), "a refused export loads nothing"
    assert con.execute("SELECT count(*) FROM curation_exports").fetchone() == (0,)
    assert all(problem.file == str(path) for problem in refused.value.problems)
    return [str(problem).removeprefix(f"{path}: ") for problem in refused.value.problems]


def replaced(number: int, line: str) -> list[str]:
    lines = export_lines()
    lines[number - 1] = line
    return lines


def test_a_malformed_token_id(small):
    con, folder = small
    assert refusal(con, folder, replaced(8, "1-x\t12-15\twon" + "\t_" * 10 + "\t")) == [
        "line 8: token id '1-x' is not SENTENCE-TOKEN (such as 3-14)"
    ]


def test_a_line_with_a_cell_missing(small):
    con, folder = small
    assert refusal(con, folder, replaced(8, "1-3\t12-15\twon" + "\t_" * 9)) == [
        "line 8: 12 cells where a token line has 13 (id, offsets, token and the 10 features of the header)"
    ]


def test_tokens_out_of_order(small):
    con, folder = small
    lines = export_lines()
    lines[7], lines[8] = lines[8], lines[7]  # 1-4 before 1-3
    assert refusal(con, folder, lines) == [
        "line 8: token id 1-4 after 1-2: the tokens must be numbered in order",
        "line 9: token id 1-3 after 1-4: the tokens must be numbered in order",
        "line 10: token id 1-5 after 1-3: the tokens must be numbered in order",
    ]


def test_an_unknown_text_and_a_good_export_beside_it_load_nothing(small):
    con, folder = small
    assert refusal(con, folder, export_lines(), name="S099_01_To_60.txt") == ["S099 is not a text of the train split"]


def test_an_export_with_too_few_tokens(small):
    con, folder = small
    assert refusal(con, folder, export_lines()[:-1]) == ["11 token lines where S001 has 12 tokens"]


def test_bad_feature_values_are_named(small):
    con, folder = small
    line = export_lines()[6]
    assert refusal(con, folder, replaced(7, line.replace("\t3\tfalse", "\t4\tfalse"))) == [
        "line 7: H_FOUND_ERR is '4': expected a number of annotators, 0 to 3"
    ]
    assert refusal(con, folder, replaced(7, line.replace("1\\_NAME", "7\\_COLOUR"))) == [
        "line 7: A_Type is '7_COLOUR': expected a category (NAME, NUMBER, WORD, CONTEXT, NOT_CHECKABLE, OTHER)"
    ]
    assert refusal(con, folder, replaced(7, line.replace("\tfalse", "\tmaybe"))) == [
        "line 7: I_Correction_Disagreement is 'maybe': expected true or false"
    ]
    assert refusal(con, folder, replaced(7, line.replace("\t3\tfalse", "\t*\tfalse"))) == [
        "line 7: H_FOUND_ERR is empty (*)"
    ]
    assert refusal(con, folder, replaced(7, line.replace("Lakers", "Lakers|Knicks"))) == [
        "line 7: stacked annotations (values separated by |) are not read: one mistake a token"
    ]


def test_a_multi_token_mistake_interrupted(small):
    con, folder = small
    assert refusal(con, folder, replaced(10, "1-5\t20-21\t-" + "\t_" * 10 + "\t")) == [
        "line 11: mistake [1] (line 9) goes on after other tokens"
    ]


def test_not_an_export(small):
    con, folder = small
    assert refusal(con, folder, ["TEXT_ID,TYPE", "S001,NAME"]) == [
        "line 1: not a WebAnno TSV 3 export: the first line is not #FORMAT=WebAnno TSV 3.…"
    ]
    assert refusal(con, folder, replaced(2, "#T_SP=webanno.custom.Errors|A_Type|B_Correction")) == [
        "line 2: the layer has no feature H_FOUND_ERR"
    ]
    assert refusal(con, folder, replaced(2, "#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|value")) == [
        "line 2: layer de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity: only the span layer"
        " webanno.custom.Errors is read"
    ]
    assert refusal(con, folder, raw="\n".join(export_lines()).encode().replace(b"Thomas", b"Thom\xe9s")) == [
        "line 14: is not UTF-8 text"
    ]


def test_a_bad_export_stops_the_build_with_one_line_a_problem(tmp_path, capsys):
    data = tmp_path / "data"
    (data / "curation").mkdir(parents=True)
    (data / "texts").symlink_to(DATA / "texts")
    (data / "gsml.csv").symlink_to(DATA / "gsml.csv")
    (data / "curation" / "S001_01_To_60.txt").symlink_to(CURATION / "S001_01_To_60.txt")
    bad = write_export(data / "curation", "S002_01_To_60.txt", ["#FORMAT=WebAnno TSV 3.2"])
    db = tmp_path / "accuracy.duckdb"
    assert cli.run(["build", "--data", str(data), "--db", str(db)]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"{bad}: line 2: no #T_SP=webanno.custom.Errors|… line declares the features",
        f"1 problem(s) in {bad}; nothing was loaded.",
    ]
    assert not db.exists()


# --- the command ---


def test_the_difficulty_command_prints_what_the_function_gives(built_db, built, capsys):
    assert (
        cli.run(["difficulty", "--db", str(built_db), "--by", "annotators", "--split", "train", "--format", "json"])
        == 0
    )
    assert json.loads(capsys.readouterr().out) == scores.recall_by_difficulty(built, "annotators", "train")
    assert cli.run(["difficulty", "--db", str(built_db), "--by", "hardness"]) == 2
    assert "'hardness' is not one of 'found-by', 'annotators'" in capsys.readouterr().err
