"""The demo database (accuracy-db demo, make demo) shows what the tool is for: its acceptance figures, read through
the commands' own functions, each against a reference worked out here from the files (the oracle, scipy)."""

from __future__ import annotations

import csv
import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
from oracle import Span
from oracle import score as oracle_score
from scipy import stats
from shared_data import DATA, EXAMPLES, SHARED

from accuracy_db.cli.main import run
from accuracy_db.interchange import demo
from accuracy_db.metric_validity.table import metric_table
from accuracy_db.scoring import scores
from accuracy_db.stats import calibration, ranking
from accuracy_db.stats.intervals import Resampling
from accuracy_db.store import database


def read_spans(path: Path) -> list[tuple[Span, float | None]]:
    """A list's spans (document ids) with their probability, None without one, as the csv module reads them."""
    with path.open(encoding="utf-8", newline="") as file:
        rows = list(csv.DictReader(file))
    return [
        (
            Span(key, row["TEXT_ID"], int(row["DOC_TOKEN_START"]), int(row["DOC_TOKEN_END"]), row["TYPE"]),
            float(row["PROBABILITY"]) if row.get("PROBABILITY") else None,
        )
        for key, row in enumerate(rows)
    ]


def oracle_figures(path: Path) -> dict:
    """The oracle's ALL figures of a train-split list against the gold list, scored as the database scores it (a
    span with a probability only at 0.5 or above)."""
    gold = [span for span, _ in read_spans(DATA / "gsml.csv")]
    kept = [span for span, probability in read_spans(path) if probability is None or probability >= 0.5]
    return oracle_score(gold, kept)[0]


# a participant's test-split list, constructed: the first 40 mistakes of the test gold list
PARTICIPANT_ROWS = 40


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory) -> tuple[Path, Path, demo.DemoReport]:
    folder = tmp_path_factory.mktemp("demo")
    participants = folder / "participants"
    participants.mkdir()
    with (DATA / "test_set" / "gsml.csv").open(encoding="utf-8", newline="") as file:
        lines = file.read().splitlines(keepends=True)
    (participants / "team-x.csv").write_text("".join(lines[: PARTICIPANT_ROWS + 1]), encoding="utf-8")
    db = folder / "demo.duckdb"
    report = demo.build_demo(DATA, db, folder / "lists", participants)
    return db, folder / "lists", report


@pytest.fixture(scope="module")
def con(demo_db):
    connection = database.open_existing(demo_db[0])
    yield connection
    connection.close()


def test_the_train_leaderboard_has_distinct_recalls_in_several_clusters(con, demo_db):
    """At least 4 distinct recalls on train and 2 clusters; each list's recall and precision the oracle's."""
    rows = ranking.leaderboard(con, "train", "ALL", Resampling(200, 12345, 0.95), trials=2000)
    recalls = {row["submission"]: row["recall"] for row in rows}
    assert len(set(recalls.values())) >= 4
    assert len({row["cluster"] for row in rows}) >= 2
    lists = demo_db[1]
    for name in [*demo_db[2].generated, "submission"]:
        expected = oracle_figures(lists / f"{name}.csv")
        row = next(row for row in rows if row["submission"] == name)
        assert (row["recall"], row["precision"]) == pytest.approx((expected["recall"], expected["precision"]))
    assert set(recalls) == {*demo_db[2].generated, "submission", "boxscore"}  # no copy of the gold list
    best, worst = rows[0], rows[-1]
    assert best["submission"].startswith(demo.PREFIX) and worst["submission"] == "submission"
    assert best["cluster"] < worst["cluster"]


def test_the_refused_examples_are_the_three_broken_on_purpose(demo_db):
    assert sorted(demo_db[2].build.refused) == ["submission_blank", "submission_malformed", "submission_overlapping"]


def test_a_participant_s_submission_fetched_is_scored_on_its_split(con, demo_db):
    assert demo_db[2].participants == ["team-x"]
    (row,) = [row for row in ranking.leaderboard(con, "test", "ALL") if row["submission"] == "team-x"]
    assert (row["matched"], row["submitted_total"]) == (PARTICIPANT_ROWS, PARTICIPANT_ROWS)


def test_lists_with_probabilities_have_curves(con, demo_db):
    """The lists with probabilities are the degradations that say so, each with a precision-recall curve and a
    reliability diagram."""
    with_probabilities = [how.name for how in demo.DEGRADATIONS if how.probabilities]
    assert with_probabilities
    assert "shared-task" in calibration.corpora_with_probabilities(con)
    quality = calibration.soft_label_quality(con, "shared-task", "train")
    assert sorted(row["submission"] for row in quality) == sorted(with_probabilities)
    for name in with_probabilities:
        probabilities = [p for _, p in read_spans(demo_db[1] / f"{name}.csv")]
        assert None not in probabilities and len(set(probabilities)) > 100
        assert len(calibration.curve_or_diagram(con, name, "shared-task", "train", curve=True)) > 10
        assert calibration.curve_or_diagram(con, name, "shared-task", "train", curve=False)


def text_counts(pairs) -> dict[str, int]:
    return Counter(text_id.removesuffix(".txt") for text_id in pairs)


def test_a_metric_beats_length_and_one_does_not(con):
    """On train, the box-score checker's count of mistakes per text is in a better cluster than length (Pearson),
    BLEU in a worse one; the values are scipy's on the counts read from the files."""
    rows = metric_table(con, "shared-task", "train", ["ALL"], ["text"])
    pearson = {row["metric"]: row for row in rows if row["measure"] == "pearson"}
    assert pearson["boxscore"]["rank"] < pearson["length"]["rank"] < pearson["bleu"]["rank"]
    texts = sorted(path.name for path in (DATA / "texts").glob("*.txt"))
    gold = Counter(span.text_id for span, _ in read_spans(DATA / "gsml.csv"))
    length = [len((DATA / "texts" / text).read_text(encoding="utf-8").split()) for text in texts]
    found = Counter(
        text_id
        for (text_id,) in con.execute(
            "SELECT text_id FROM mistakes JOIN annotation_sets USING (set_id)"
            " WHERE name = 'boxscore' AND split = 'train'"
        ).fetchall()
    )
    truth = [gold[text] for text in texts]
    for metric, values in (("length", length), ("boxscore", [found[text.removesuffix(".txt")] for text in texts])):
        assert pearson[metric]["value"] == pytest.approx(stats.pearsonr(values, truth).statistic)


def test_two_more_corpora_with_their_annotators(con):
    """A Mu-SHROOM validation file (its annotators' lists, scored against the others) and the MQM file."""
    scores.check_corpus_choice(con, "mu-en", None, ["ALL"])
    scores.check_corpus_choice(con, "ted", None, ["ALL"])
    texts = dict(con.execute("SELECT corpus, count(*) FROM texts GROUP BY corpus").fetchall())
    lines = (SHARED / demo.MUSHROOM_FILE).read_text(encoding="utf-8").splitlines()
    assert texts["mu-en"] == len(lines)
    annotators = {name for line in lines for name in json.loads(line)["annotations"]}
    rows = ranking.leaderboard(con, None, "ALL", corpus="mu-en", scheme="mushroom")
    assert {row["submission"] for row in rows if row["kind"] == "annotator"} == {f"annotator/{a}" for a in annotators}
    with (SHARED / demo.MQM_FILE).open(encoding="utf-8") as file:
        items = {(row["system"], row["seg_id"]) for row in csv.DictReader(file, delimiter="\t", quoting=csv.QUOTE_NONE)}
    assert texts["ted"] == len(items)


def test_the_generated_lists_are_seeded_and_follow_their_degradation(tmp_path):
    """The same seed writes the same bytes, another seed other lists; each list's kinds of span are in the
    documented shares (binomial: 6 standard deviations), its spans never overlap, and TOKENS are the text's."""
    first, again, other = (
        demo.write_generated_lists(DATA, tmp_path / name, seed) for name, seed in (("a", 0), ("b", 0), ("c", 1))
    )
    assert [p.read_bytes() for p in first] == [p.read_bytes() for p in again]
    assert [p.read_bytes() for p in first] != [p.read_bytes() for p in other]
    gold = len(read_spans(DATA / "gsml.csv"))
    for how, path in zip(demo.DEGRADATIONS, first, strict=True):
        assert path.stem == how.name and how.name.startswith(demo.PREFIX)
        with path.open(encoding="utf-8", newline="") as file:
            rows = list(csv.DictReader(file))
        kinds = Counter(row["COMMENT"].removeprefix(demo.PREFIX) for row in rows)
        kept = gold * (1 - how.drop)
        assert abs(kinds["alarm"] - round(how.alarms * gold)) == 0
        derived = kinds["kept"] + kinds["shifted"] + kinds["relabelled"]
        assert abs(derived - kept) <= 6 * (gold * how.drop * (1 - how.drop)) ** 0.5 + 1
        assert abs(kinds["relabelled"] - kept * how.relabel * (1 - how.shift)) <= 6 * (kept * 0.25) ** 0.5 + 1
        assert kinds["shifted"] <= kept * how.shift + 6 * (kept * 0.25) ** 0.5 + 1
        tokens = set()
        for row in rows:
            text = (DATA / "texts" / row["TEXT_ID"]).read_text(encoding="utf-8").split()
            start, end = int(row["DOC_TOKEN_START"]), int(row["DOC_TOKEN_END"])
            assert row["TOKENS"] == " ".join(text[start - 1 : end])
            span = {(row["TEXT_ID"], token) for token in range(start, end + 1)}
            assert not span & tokens
            tokens |= span
        assert ("PROBABILITY" in rows[0]) == how.probabilities


def test_the_command_builds_it_and_names_what_it_left_out(tmp_path, monkeypatch, capsys):
    """Without the other corpora's files beside the data folder, the command says each is left out."""
    data = tmp_path / "shared" / "accuracy-shared-task"
    data.parent.mkdir()
    data.symlink_to(DATA)
    monkeypatch.chdir(tmp_path)
    empty = tmp_path / "none"
    args = ["demo", "--data", str(data), "--db", "demo.duckdb", "--participants", str(empty)]
    assert run(args) == 0
    captured = capsys.readouterr()
    assert "Built the demo database demo.duckdb" in captured.out
    assert "accuracy-db fetch-data --participants" in captured.out
    for file in (demo.MUSHROOM_FILE, demo.MQM_FILE):
        assert f"{data.parent / file} not found: its corpus is left out" in " ".join(captured.err.split())
    assert sorted(p.name for p in (tmp_path / "demo-lists").iterdir()) == sorted(
        [f"{how.name}.csv" for how in demo.DEGRADATIONS] + [f"{name}.csv" for name in demo.EXAMPLES]
    )
    assert (tmp_path / "demo-lists" / "submission.csv").resolve() == (EXAMPLES / "submission.csv").resolve()


def test_a_second_run_keeps_the_corpora_without_importing_them_again(demo_db, tmp_path):
    """The build keeps the corpora registered with the database it replaces; the demo imports them only once."""
    db = tmp_path / "demo.duckdb"
    shutil.copy(demo_db[0], db)
    report = demo.build_demo(DATA, db, tmp_path / "lists", tmp_path / "no-participants")
    assert report.corpora == ["mu-en", "ted"] and report.missing == []
    con = database.open_existing(db)
    counts = con.execute("SELECT corpus, count(*) FROM annotation_sets WHERE kind = 'gold' GROUP BY ALL ORDER BY 1")
    assert counts.fetchall() == [("mu-en", 1), ("shared-task", 2), ("ted", 1)]
    con.close()
