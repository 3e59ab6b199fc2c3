"""build loads both splits and the submissions folder into one database file."""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from accuracy_db.etl.data_folder import splits
from shared_data import DATA, EXAMPLES

import accuracy_db.ingest.build as build_module
from accuracy_db.errors import AccuracyDbError, InputError
from accuracy_db.ingest.build import build
from accuracy_db.scoring.evaluate import evaluate
from accuracy_db.signals import is_interrupt
from accuracy_db.stats import ranking
from accuracy_db.store import database


def test_both_splits_are_loaded(built):
    assert built.execute("SELECT split, count(*) FROM texts GROUP BY split ORDER BY split").fetchall() == [
        ("test", 30),
        ("train", 60),
    ]
    assert built.execute("SELECT count(*) FROM games").fetchall() == [(90,)]


def test_gold_lists_have_the_known_counts(built):
    counts = dict(
        ((split, category), n)
        for split, category, n in built.execute(
            "SELECT split, category, count(*) FROM gold_mistakes GROUP BY ALL"
        ).fetchall()
    )
    assert {
        c: counts.get(("train", c), 0) for c in ("NAME", "NUMBER", "WORD", "CONTEXT", "NOT_CHECKABLE", "OTHER")
    } == {"NAME": 317, "NUMBER": 474, "WORD": 334, "CONTEXT": 51, "NOT_CHECKABLE": 37, "OTHER": 1}
    assert {c: counts.get(("test", c), 0) for c in ("NAME", "NUMBER", "WORD", "CONTEXT", "NOT_CHECKABLE", "OTHER")} == {
        "NAME": 212,
        "NUMBER": 224,
        "WORD": 140,
        "CONTEXT": 8,
        "NOT_CHECKABLE": 38,
        "OTHER": 0,
    }


def test_tokens_reproduce_token_lookup(built):
    import yaml

    lookup = yaml.load((DATA / "test_set/token_lookup.yaml").read_text(), Loader=yaml.CSafeLoader)
    rows = built.execute(
        "SELECT text_id, doc_token, sentence_id, sent_token FROM tokens WHERE text_id LIKE 'T%'"
    ).fetchall()
    assert {(t, d): (s, k) for t, d, s, k in rows} == {
        (t, d): (ids["sentence_id"], ids["token_id"])
        for t, tokens in lookup["doc_to_sent"].items()
        for d, ids in tokens.items()
    }


def test_the_fingerprints_of_the_data_files_are_their_sha256(built):
    """The texts and games files are hashed as they are read, not read again: the fingerprints recorded must be
    those of the files on disk, every file the build reads."""
    rows = built.execute("SELECT name, path, size, sha256 FROM source_files WHERE role = 'data'").fetchall()
    names = {name for name, *_ in rows}
    assert {"texts/S001.txt", "test_set/texts/T030.txt", "shared_task.jsonl", "test_set/games.csv"} <= names
    assert len([name for name in names if "/texts/" in name or name.startswith("texts/")]) == 90
    for name, path, size, sha256 in rows:
        data = Path(path).read_bytes()
        assert (size, sha256) == (len(data), hashlib.sha256(data).hexdigest()), name


def test_mistakes_carry_both_id_schemes_and_their_line(built):
    row = built.execute(
        "SELECT text_id, sentence_id, sent_token_start, sent_token_end, doc_token_start, doc_token_end, tokens, line_number"
        " FROM mistakes JOIN annotation_sets USING (set_id) WHERE name = 'submission_doc_based' AND line_number = 3"
    ).fetchall()
    assert row == [("S001", 2, 35, 37, 54, 56, "30 - point", 3)]  # the file gives only doc ids 54-56


def test_each_mistake_knows_where_its_lists_neighbours_end_and_start(built):
    """previous_end and next_start, which the scoring reads to tell one-to-one overlaps, computed here from the
    spans themselves: 0 before a text's first span, the text's token count + 1 after its last."""
    rows = built.execute(
        "SELECT set_id, text_id, doc_token_start, doc_token_end, previous_end, next_start, token_count"
        " FROM mistakes JOIN texts USING (text_id)"
    ).fetchall()
    spans: dict[tuple, list] = {}
    for set_id, text_id, start, end, *_ in rows:
        spans.setdefault((set_id, text_id), []).append((start, end))
    for set_id, text_id, start, end, previous_end, next_start, token_count in rows:
        in_text = spans[(set_id, text_id)]
        assert previous_end == max((e for s, e in in_text if e < start), default=0)
        assert next_start == min((s for s, e in in_text if s > end), default=token_count + 1)
    assert len({set_id for set_id, *_ in rows}) > 2  # both gold lists and the submissions


def test_refused_examples_are_recorded_with_their_reasons(built):
    refused = dict(built.execute("SELECT submission, count(*) FROM rejections GROUP BY ALL").fetchall())
    assert refused == {"submission_blank": 571, "submission_malformed": 286, "submission_overlapping": 1}
    # Its TOKENS 'of – 4' (an en dash) is the text 'of - 4' once normalised: only the overlap refuses it.
    assert built.execute(
        "SELECT line, message FROM rejections WHERE submission = 'submission_overlapping' ORDER BY message"
    ).fetchall() == [(80, "overlaps line 79: both mark tokens 190-192 of S008")]
    loaded = {
        name for (name,) in built.execute("SELECT name FROM annotation_sets WHERE kind = 'submission'").fetchall()
    }
    assert loaded == {
        "submission",
        "submission_doc_based",
        "submission_sent_based",
        "gsml_doc_based",
        "gsml_sent_based",
        "boxscore",  # the box-score checker's list, which build puts in (tests/test_checker.py)
    }


def test_the_leaderboard_gives_what_evaluate_gives_for_the_same_file(built):
    board = {row["submission"]: row for row in ranking.leaderboard(built, "dev", "NAME")}
    (name_scope,) = [s for s in evaluate(DATA / "gsml.csv", EXAMPLES / "submission.csv") if s["categories"] == "NAME"]
    assert {k: board["submission"][k] for k in name_scope} == name_scope
    # the gold list's two copies tie first, the box-score checker's list (recall 0.416) comes third, and the three
    # copies of the example submission (0.288) tie fourth
    board = [(row["submission"], row["rank"]) for row in ranking.leaderboard(built, "train")]
    assert [rank for _, rank in board] == [1, 1, 3, 4, 4, 4]
    assert board[2] == ("boxscore", 3)


def test_views_describe_themselves(built):
    comments = dict(built.execute("SELECT view_name, comment FROM duckdb_views() WHERE NOT internal").fetchall())
    assert comments["scores"].startswith("The scores of each submission")
    assert all(comments.values())


def copy_train_split(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(DATA / "texts", data / "texts")
    for name in ("gsml.csv", "games.csv", "shared_task.jsonl", "token_lookup.yaml"):
        shutil.copy(DATA / name, data / name)
    return data


def test_a_token_lookup_that_disagrees_with_the_texts_fails_loudly(tmp_path):
    data = copy_train_split(tmp_path)
    lookup = (data / "token_lookup.yaml").read_text()
    (data / "token_lookup.yaml").write_text(lookup.replace("      token_id: 19\n", "      token_id: 91\n", 1))
    with pytest.raises(AccuracyDbError, match="token_lookup.yaml: 2 token ids differ") as failure:
        build(data, tmp_path / "db.duckdb")
    assert "the lookup gives S001 token 19 = sentence 1 token 91" in str(failure.value)


def test_a_failed_build_leaves_the_previous_database(tmp_path):
    data = copy_train_split(tmp_path)
    db = tmp_path / "accuracy.duckdb"
    build(data, db)
    with (data / "gsml.csv").open("a") as gold:
        gold.write("S001.txt,1,9999,Wednesday,18,18,18,18,NAMES,,\n")
    with pytest.raises(InputError, match="line 1216: TYPE 'NAMES' is not a category; did you mean NAME"):
        build(data, db)
    con = database.open_existing(db)
    assert con.execute("SELECT count(*) FROM gold_mistakes").fetchall() == [(1214,)]
    assert not list(tmp_path.glob(".*building*"))


def break_games_and_gold(data: Path) -> None:
    """A games file with a malformed line, and a gold list with a row of no category."""
    with (data / "shared_task.jsonl").open("a") as box_scores:
        box_scores.write("{not json\n")
    with (data / "gsml.csv").open("a") as gold:
        gold.write("S001.txt,1,9999,Wednesday,18,18,18,18,NAMES,,\n")


def test_the_games_problems_come_first_though_the_games_load_beside_the_lists(tmp_path):
    """The games are parsed in a thread of their own while the gold lists load: a build with
    both wrong still reports the games, as a build that loaded them first did, and leaves no thread running."""
    data = copy_train_split(tmp_path)
    break_games_and_gold(data)
    threads = threading.active_count()
    with pytest.raises(InputError, match=r"shared_task.jsonl: line \d+: malformed JSON") as failure:
        build(data, tmp_path / "db.duckdb")
    assert "gsml.csv" not in str(failure.value)
    assert threading.active_count() == threads


def test_a_wrong_gold_list_fails_the_build_after_the_games_are_loaded(tmp_path):
    data = copy_train_split(tmp_path)
    break_games_and_gold(data)
    shutil.copy(DATA / "shared_task.jsonl", data / "shared_task.jsonl")
    threads = threading.active_count()
    with pytest.raises(InputError, match="line 1216: TYPE 'NAMES' is not a category"):
        build(data, tmp_path / "db.duckdb")
    assert threading.active_count() == threads


def test_the_texts_load_a_batch_at_a_time_as_they_are_read_with_the_rows_of_one_load(built, tmp_path, monkeypatch):
    """Texts read in a thread of their own, handed on a few at a time while the ones before are numbered and
    inserted, give the rows of the texts read whole and loaded at once."""
    from accuracy_db.etl import texts as texts_module

    data = copy_train_split(tmp_path)
    monkeypatch.setattr(texts_module, "BATCH_CHARACTERS", 5_000)
    assert len(list(texts_module.text_batches(data / "texts"))) > 10
    build(data, tmp_path / "db.duckdb")
    con = database.open_existing(tmp_path / "db.duckdb")
    columns = "text_id, split, generated_text, token_count, sentence_count"
    in_batches = con.execute(f"SELECT {columns} FROM texts ORDER BY rowid").fetchall()
    assert in_batches == built.execute(f"SELECT {columns} FROM texts WHERE split = 'train' ORDER BY rowid").fetchall()
    tokens = "SELECT * FROM tokens WHERE text_id LIKE 'S%' ORDER BY rowid"
    assert con.execute(tokens).fetchall() == built.execute(tokens).fetchall()
    con.close()


def test_a_text_that_cannot_be_read_fails_the_build_after_batches_were_inserted(tmp_path, monkeypatch):
    """Texts before the bad ones are already inserted when the first bad one is read: the build still fails whole,
    naming every bad text in order, and leaves no thread behind."""
    from accuracy_db.etl import texts as texts_module

    data = copy_train_split(tmp_path)
    names = sorted(path.name for path in (data / "texts").iterdir())
    (data / "texts" / names[20]).write_bytes(b"caf\xe9 .")
    (data / "texts" / names[40]).unlink()
    os.mkfifo(data / "texts" / names[40])
    monkeypatch.setattr(texts_module, "BATCH_CHARACTERS", 1)
    threads = threading.active_count()
    with pytest.raises(InputError) as refused:
        build(data, tmp_path / "db.duckdb")
    assert [str(problem) for problem in refused.value.problems] == [
        f"{data / 'texts' / names[20]}: line 1: is not UTF-8 text",
        f"{data / 'texts' / names[40]}: not a regular file: it is a FIFO (named pipe)",
    ]
    assert threading.active_count() == threads and not (tmp_path / "db.duckdb").exists()


def test_the_games_may_finish_after_the_submissions_and_their_warnings_still_come_first(tmp_path, monkeypatch):
    """The games load beside the gold lists and the submissions: games held back until a submission is written
    still give their warnings before the submission's, in the order of a load one after another."""
    from accuracy_db.etl import games as games_module

    inbox_dir = tmp_path / "inbox"
    inbox_dir.mkdir()
    rows = (EXAMPLES / "submission.csv").read_text().splitlines()
    upper = [
        rows[0],
        *(",".join(cell.upper() if n == 3 else cell for n, cell in enumerate(row.split(","))) for row in rows[1:]),
    ]
    (inbox_dir / "shouting.csv").write_text("\n".join(upper) + "\n")
    committed = threading.Event()
    commit_submission, load_games = build_module.inbox.commit_submission, games_module.load_games

    def commit_then_tell(*args):
        warnings = commit_submission(*args)
        committed.set()
        return warnings

    def games_after_the_submission(con, files, digests, stop, claimed):
        assert committed.wait(60)
        return [f"games of {files.split}", *load_games(con, files, digests, stop, claimed)]

    monkeypatch.setattr(build_module.inbox, "commit_submission", commit_then_tell)
    monkeypatch.setattr(games_module, "load_games", games_after_the_submission)
    report = build(DATA, tmp_path / "db.duckdb", inbox_dir)
    assert report.loaded == ["shouting"]
    assert report.warnings[:2] == ["games of train", "games of test"]
    assert report.warnings[-1].startswith(f"{inbox_dir / 'shouting.csv'}: TOKENS differs from the text only in case")


def test_the_games_problems_come_first_though_the_submissions_load_beside_them(tmp_path):
    data = copy_train_split(tmp_path)
    (data / "shared_task.jsonl").write_text("{not json\n")
    inbox_dir = tmp_path / "inbox"
    inbox_dir.mkdir()
    shutil.copyfile(EXAMPLES / "submission.csv", inbox_dir / "submission.csv")
    with pytest.raises(InputError, match=r"shared_task.jsonl: line 1: malformed JSON"):
        build(data, tmp_path / "db.duckdb", inbox_dir)
    assert not (tmp_path / "db.duckdb").exists()


def run(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "accuracy_db", *args], capture_output=True, text=True, cwd=cwd)


def test_leaderboard_json(built_db):
    result = run("leaderboard", "--db", str(built_db), "--split", "train", "--format", "json")
    rows = json.loads(result.stdout)
    assert [row["submission"] for row in rows][:2] == ["gsml_doc_based", "gsml_sent_based"]
    assert set(rows[0]) >= {
        "submission",
        "split",
        "categories",
        "recall",
        "precision",
        "token_recall",
        "token_precision",
        "matched",
        "gold_total",
        "submitted_total",
        "token_matched",
        "gold_tokens",
        "submitted_tokens",
    }


def test_leaderboard_without_a_database_says_what_to_do(tmp_path):
    result = run("leaderboard", "--db", str(tmp_path / "none.duckdb"))
    assert result.returncode == 1
    assert (
        result.stderr.strip()
        == f"error: no database at {tmp_path / 'none.duckdb'}: run `accuracy-db build` first (or give --db)"
    )


def test_the_build_command_says_only_what_it_did(tmp_path):
    """Nothing but the summary: no warning at exit from a DuckDB object still alive then (nanobind reports those)."""
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    shutil.copyfile(EXAMPLES / "submission.csv", inbox / "submission.csv")
    result = run("build", "--data", str(DATA), "--submissions", str(inbox), "--db", str(tmp_path / "a.duckdb"))
    assert result.returncode == 0
    assert result.stderr == ""
    assert result.stdout.startswith(f"Built {tmp_path / 'a.duckdb'} from {DATA}")


def keyboard_interrupt() -> None:
    raise KeyboardInterrupt


def interrupted_query() -> None:
    """What DuckDB 2.0 raises when Ctrl+C comes during a query (seen at scale 1000, in the gold list's resolving)."""
    raise RuntimeError("Query interrupted")


@pytest.mark.parametrize("interrupt", [keyboard_interrupt, interrupted_query])
def test_an_interrupt_during_the_gold_lists_stops_the_games_at_their_next_block(tmp_path, monkeypatch, interrupt):
    """Ctrl+C while the gold lists load is raised without waiting for the games to be parsed to the end: they stop at
    their next block of box scores (small blocks here, each parsed slowly: the whole file would take seconds)."""
    from accuracy_db.etl import box_score_records

    blocks = functools.partial(box_score_records.read_line_blocks, block_bytes=20_000)
    monkeypatch.setattr(box_score_records, "read_line_blocks", blocks)
    parsed, parsing = [], threading.Event()
    parse_block = box_score_records.parse_block

    def slow_parse_block(*args):
        parsed.append(args[1])
        parsing.set()
        time.sleep(0.1)
        parse_block(*args)

    def interrupted_lists(con, split_files):
        assert parsing.wait(60)
        interrupt()

    monkeypatch.setattr(box_score_records, "parse_block", slow_parse_block)
    monkeypatch.setattr(build_module, "load_lists_of", interrupted_lists)
    total = 0  # blocks of every split's box scores
    for files in splits(DATA):
        with files.box_scores.open("rb") as box_scores:
            total += sum(1 for _ in blocks(box_scores.name, box_scores.fileno()))
    threads = threading.active_count()
    with pytest.raises(BaseException) as raised:
        build(DATA, tmp_path / "db.duckdb")
    assert is_interrupt(raised.value)
    assert total > 20 and len(parsed) < total / 2
    assert threading.active_count() == threads and not (tmp_path / "db.duckdb").exists()


@pytest.mark.parametrize("interrupt", [keyboard_interrupt, interrupted_query])
def test_ctrl_c_during_a_build_is_one_line_and_status_130(tmp_path, monkeypatch, capsys, interrupt):
    from accuracy_db.cli.main import run as run_cli

    monkeypatch.setattr(build_module, "build", lambda *args, **kwargs: interrupt())
    assert run_cli(["build", "--data", str(DATA), "--db", str(tmp_path / "db.duckdb")]) == 130
    assert capsys.readouterr().err.strip().splitlines()[-1] == "Aborted."


def test_a_runtime_error_that_is_no_interrupt_is_not_taken_for_one(tmp_path, monkeypatch):
    from accuracy_db.cli.main import run as run_cli

    def fails(*args, **kwargs):
        raise RuntimeError("Query failed")

    monkeypatch.setattr(build_module, "build", fails)
    with pytest.raises(RuntimeError, match="Query failed"):
        run_cli(["build", "--data", str(DATA), "--db", str(tmp_path / "db.duckdb")])
