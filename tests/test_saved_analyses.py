"""The saved analyses of queries/analysis/: each one's answer on the shared-task data equals a figure computed
here in plain Python from the data files, with tests/oracle.py doing the matching (none of it from the views).
"""

from __future__ import annotations

import csv
import itertools
import json
import shutil
from collections import Counter, defaultdict

import polars as pl
import pytest
from oracle import Span, matches
from shared_data import DATA, EXAMPLES, SHARED
from weather_corpus import import_weather

from accuracy_db.errors import AccuracyDbError
from accuracy_db.sqlbox.sandbox import run_query
from accuracy_db.store import database
from accuracy_db.store.analyses import saved_analyses, saved_analysis

CATEGORIES = ("NAME", "NUMBER", "WORD", "CONTEXT", "NOT_CHECKABLE", "OTHER")
GOLD = {"train": DATA / "gsml.csv", "test": DATA / "test_set" / "gsml.csv"}


def read_list(path) -> list[dict]:
    """A mistake list's rows, with text_id (no .txt), start, end (document token ids) and category."""
    with path.open(encoding="utf-8-sig", newline="") as stream:
        return [
            {
                **row,
                "text_id": row["TEXT_ID"].removesuffix(".txt"),
                "start": int(row["DOC_TOKEN_START"]),
                "end": int(row["DOC_TOKEN_END"]),
                "category": row["TYPE"],
            }
            for row in csv.DictReader(stream)
        ]


def spans(rows: list[dict]) -> list[Span]:
    """Oracle spans keyed by (text, first token): within one list, spans never overlap."""
    return [Span((r["text_id"], r["start"]), r["text_id"], r["start"], r["end"], r["category"]) for r in rows]


def taken(gold: list[Span], submitted: list[Span]) -> dict:
    """Gold key -> the submitted key it took (or None), text by text, as the shared task's scorer visits them."""
    by_text = defaultdict(lambda: ([], []))
    for span in gold:
        by_text[span.text_id][0].append(span)
    for span in submitted:
        by_text[span.text_id][1].append(span)
    result = {}
    for text_gold, text_submitted in by_text.values():
        result.update(matches(text_gold, text_submitted))
    return result


def run(db, name: str, **params) -> pl.DataFrame:
    """An analysis's rows, read on a read-only connection in this process (the guard's path, a child process each,
    is the first test's)."""
    con = database.open_existing(db)
    try:
        return con.sql(saved_analysis(name).sql, params=params or None).pl()
    finally:
        con.close()


def half_gold_rows() -> list[dict]:
    return read_list(GOLD["train"])[::2]  # as the two_metrics_db fixture writes it


# --- every analysis ---

PARAMETERS = {
    "per_text_scores": {"submission": "submission"},
    "false_alarms": {"submission": "submission"},
    "disagreements": {"first": "submission", "second": "gsml_doc_based"},
}


@pytest.mark.parametrize("analysis", saved_analyses(), ids=lambda analysis: analysis.name)
def test_each_analysis_says_its_question_and_columns_and_runs_through_the_guard(built_db, analysis):
    assert analysis.question.endswith("?")
    opening_comment = "\n".join(itertools.takewhile(lambda line: line.startswith("--"), analysis.sql.splitlines()))
    assert "Grain:" in opening_comment and "Columns:" in opening_comment
    assert analysis.parameters == list(PARAMETERS.get(analysis.name, {}))
    params = PARAMETERS.get(analysis.name) or None
    frame = run_query(built_db, analysis.sql, params, limit=None).frame
    assert frame.width > 0
    assert frame.equals(run(built_db, analysis.name, **(params or {})))  # the guard changes nothing of the answer


def test_an_unknown_analysis_is_named_with_the_closest_one():
    with pytest.raises(AccuracyDbError, match="no saved analysis named 'false_alarm': did you mean false_alarms?"):
        saved_analysis("false_alarm")


# --- missed by every submission ---


def test_missed_by_every_submission_equals_the_oracle_on_two_disagreeing_submissions(two_metrics_db):
    gold = spans(read_list(GOLD["train"]))
    found = set()
    for submitted in (read_list(EXAMPLES / "submission.csv"), half_gold_rows()):
        found |= {key for key, match in taken(gold, spans(submitted)).items() if match is not None}
    missed = {span.key for span in gold} - found

    frame = run(two_metrics_db, "missed_by_every_submission")
    assert set(zip(frame["text_id"], frame["doc_token_start"])) == missed
    assert set(frame["split"]) == {"train"}  # the test split has no submission here
    assert set(frame["submissions"]) == {2}
    assert len(missed) == 430


def test_nothing_is_missed_by_every_submission_when_a_copy_of_the_gold_list_is_one(built_db):
    missed = run(built_db, "missed_by_every_submission")
    assert missed.filter(pl.col("split") == "train").height == 0
    # the test split's one submission is the box-score checker's list (build adds it): what it missed
    con = database.open_existing(built_db)
    try:
        ((matched, gold),) = con.execute(
            "SELECT matched, gold_total FROM scores WHERE submission = 'boxscore' AND split = 'test' AND scope = 'ALL'"
        ).fetchall()
    finally:
        con.close()
    assert set(missed["split"]) == {"test"} and missed.height == gold - matched
    assert set(missed["submissions"]) == {1}


# --- mistakes per text ---


def test_mistakes_per_text_count_the_gold_list_text_by_text(built_db):
    expected = {}
    for split, path in GOLD.items():
        texts = sorted(p.stem for p in (path.parent / "texts").glob("*.txt"))
        counts = Counter((row["text_id"], row["category"]) for row in read_list(path))
        for text_id in texts:
            expected[text_id] = (split, *(counts[text_id, category] for category in CATEGORIES))

    frame = run(built_db, "mistakes_per_text")
    got = {
        row["text_id"]: (row["split"], *(row[category.lower()] for category in CATEGORIES))
        for row in frame.iter_rows(named=True)
    }
    assert got == expected
    assert (frame["mistakes"] == sum(frame[category.lower()] for category in CATEGORIES)).all()
    assert dict(zip(frame["text_id"], frame["system"]))["S012"] == "puduppully"


def test_mistakes_per_text_by_system_gives_the_figures_of_the_data_readme(built_db):
    frame = run(built_db, "mistakes_per_text_by_system")
    per_text = {(row["split"], row["system"]): row["mistakes"] for row in frame.iter_rows(named=True)}
    assert round(per_text["train", "wiseman"], 1) == 21.6
    assert round(per_text["train", "puduppully"], 1) == 21.9
    assert round(per_text["train", "rebuffel"], 1) == 15.4
    assert per_text["train", "(all texts)"] == pytest.approx(1214 / 60)
    assert per_text["test", "(all texts)"] == pytest.approx(622 / 30)


def test_mistakes_per_text_by_system_counts_the_shared_task_texts_alone(built_db, tmp_path):
    """Another corpus whose split is also called train adds no text and no mistake to the shared task's rows."""
    db = tmp_path / "accuracy.duckdb"
    shutil.copyfile(built_db, db)
    import_weather(db, tmp_path, split="train")
    assert run(db, "mistakes_per_text_by_system").equals(run(built_db, "mistakes_per_text_by_system"))


def test_mistakes_per_text_by_system_per_category_equals_the_files(built_db):
    with (SHARED / "nlg_systems.csv").open(newline="") as stream:
        systems = {row["TEXT_ID"]: row["SYSTEM"] for row in csv.DictReader(stream)}
    counts = Counter(
        (systems[row["text_id"]], row["category"]) for row in read_list(GOLD["train"]) if row["text_id"] in systems
    )
    texts = Counter(systems.values())

    frame = run(built_db, "mistakes_per_text_by_system").filter(pl.col("system").is_in(list(texts)))
    assert sorted(frame["system"]) == ["puduppully", "rebuffel", "wiseman"]
    for row in frame.iter_rows(named=True):
        assert row["texts"] == texts[row["system"]] == 7
        for category in CATEGORIES:
            assert row[category.lower()] == pytest.approx(counts[row["system"], category] / 7)


# --- the confusion of categories ---


def test_category_confusion_counts_the_oracles_matched_pairs_by_their_two_categories(built_db):
    gold, submitted = spans(read_list(GOLD["train"])), spans(read_list(EXAMPLES / "submission.csv"))
    gold_category = {span.key: span.category for span in gold}
    submitted_category = {span.key: span.category for span in submitted}
    pairs = Counter(
        (gold_category[key], submitted_category[match])
        for key, match in taken(gold, submitted).items()
        if match is not None
    )

    frame = run(built_db, "category_confusion").filter(submission="submission")
    assert {(g, s): n for g, s, n in frame.select("gold_category", "submitted_category", "pairs").iter_rows()} == pairs
    assert pairs["WORD", "NUMBER"] == 13  # found, but called a number
    for share in frame.group_by("gold_category").agg(total="share")["total"]:
        assert sum(share) == pytest.approx(1.0)


# --- per-text recall and precision ---


def test_per_text_scores_equal_the_oracle_text_by_text(built_db):
    gold, submitted = read_list(GOLD["train"]), read_list(EXAMPLES / "submission.csv")
    found = Counter(key[0] for key, match in taken(spans(gold), spans(submitted)).items() if match is not None)
    gold_counts, submitted_counts = Counter(r["text_id"] for r in gold), Counter(r["text_id"] for r in submitted)

    frame = run(built_db, "per_text_scores", submission="submission")
    assert frame.height == 60
    for row in frame.iter_rows(named=True):
        text_id = row["text_id"]
        assert (row["gold"], row["submitted"], row["matched"]) == (
            gold_counts[text_id],
            submitted_counts[text_id],
            found[text_id],
        )
        assert row["recall"] == (found[text_id] / gold_counts[text_id] if gold_counts[text_id] else None)
        assert row["precision"] == (found[text_id] / submitted_counts[text_id] if submitted_counts[text_id] else None)
    assert frame["matched"].sum() == 350  # the evaluate example of docs/scoring.md


# --- where two submissions disagree ---


def test_disagreements_are_the_gold_mistakes_exactly_one_of_the_two_found(two_metrics_db):
    gold = spans(read_list(GOLD["train"]))
    found = {
        name: {key for key, match in taken(gold, spans(rows)).items() if match is not None}
        for name, rows in (("submission", read_list(EXAMPLES / "submission.csv")), ("half_gold", half_gold_rows()))
    }

    frame = run(two_metrics_db, "disagreements", first="submission", second="half_gold")
    got = {(row["text_id"], row["doc_token_start"]): row["found_by"] for row in frame.iter_rows(named=True)}
    assert got == {key: "submission" for key in found["submission"] - found["half_gold"]} | {
        key: "half_gold" for key in found["half_gold"] - found["submission"]
    }
    assert set(zip(frame["found_by"], frame["missed_by"])) == {("submission", "half_gold"), ("half_gold", "submission")}


# --- the most frequent mistaken tokens ---


def test_frequent_mistaken_tokens_are_the_ten_most_common_tokens_of_each_categorys_gold_spans(built_db):
    counts = defaultdict(Counter)
    for path in GOLD.values():
        for row in read_list(path):
            counts[row["category"]].update(row["TOKENS"].split())

    frame = run(built_db, "frequent_mistaken_tokens")
    for category in CATEGORIES:
        top = sorted(counts[category].items(), key=lambda item: (-item[1], item[0]))[:10]
        rows = frame.filter(category=category)
        assert list(zip(rows["token"], rows["occurrences"])) == top
        assert rows["rank"].to_list() == list(range(1, len(top) + 1))
    assert frame.filter(category="NAME", rank=1).select("token", "occurrences").row(0) == ("Friday", 92)


# --- false alarms and their box-score lines ---


def box_score_names() -> dict[str, list[tuple[str, str, list[str]]]]:
    """text id -> (line, name, the names that point at it) of each player and team, from shared_task.jsonl."""
    names = defaultdict(list)
    for path in (DATA / "shared_task.jsonl", DATA / "test_set" / "shared_task.jsonl"):
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            text_id, box_score = record["shared_task_text_id"], record["box_score"]
            for index, name in box_score["PLAYER_NAME"].items():
                names[text_id].append(("player", name, [name, box_score["SECOND_NAME"][index]]))
            for side in ("home", "vis"):
                team, city = record[f"{side}_name"], record[f"{side}_city"]
                names[text_id].append(("team", f"{city} {team}", [team, city]))
    return names


def test_false_alarms_are_the_mistakes_no_gold_mistake_took_with_the_box_score_lines_they_name(built_db):
    submitted = read_list(EXAMPLES / "submission.csv")
    took = {match for match in taken(spans(read_list(GOLD["train"])), spans(submitted)).values() if match is not None}
    alarms = [row for row in submitted if (row["text_id"], row["start"]) not in took]
    lines = box_score_names()
    expected = set()
    for alarm in alarms:
        padded = f" {alarm['TOKENS']} "
        named = {
            (line, name) for line, name, names in lines[alarm["text_id"]] if any(f" {n} " in padded for n in names)
        }
        expected |= {(alarm["text_id"], alarm["start"], line, name) for line, name in named or {(None, None)}}

    frame = run(built_db, "false_alarms", submission="submission")
    got = set(frame.select("text_id", "doc_token_start", "line", "name").iter_rows())
    assert got == expected
    assert frame["submitted_mistake_id"].n_unique() == len(alarms) == 571 - 350
    rudy = frame.filter(name="Rudy Gobert").row(0, named=True)
    assert (rudy["line"], rudy["pts"], rudy["reb"], rudy["ast"], rudy["minutes"]) == ("player", 6, 5, 2, 22)
