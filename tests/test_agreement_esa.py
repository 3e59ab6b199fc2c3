"""agreement under the esa scheme (issue 49, item 4): each ordered pair of raters scored as WMT25's error-span task
scores a prediction against its gold, on the items both rated. The TED zh→en file has one rater per item, so the
test writes an MQM file from it with a second rater on some items (other severities, an item without error) and
checks every pair against tests/esa_oracle.py on the items the two share."""

from __future__ import annotations

import itertools
from collections import defaultdict

import pytest
from esa_oracle import char_f1
from mqm_oracle import clean, marked
from mqm_oracle import rows as file_rows

from accuracy_db.cli.main import run
from accuracy_db.stats.agreement import agreement
from accuracy_db.store import database

CORPUS = "two-raters"
SYSTEMS = ("DIDI-NLP", "Online-W", "refB")
SWAPPED = {"Major": "Minor", "Minor": "Major"}


@pytest.fixture(scope="module")
def two_raters(tmp_path_factory):
    """The file's items of three systems on its first 12 segments, and a rater `second` on those of the first 8:
    every other error of an item at the other severity, and the first item's errors none (a No-error row)."""
    source = [row for row in file_rows() if row["system"] in SYSTEMS]
    segments = sorted({int(row["seg_id"]) for row in source})[:12]
    kept = [row for row in source if int(row["seg_id"]) in segments]
    rerated = [row for row in kept if int(row["seg_id"]) in segments[:8]]
    first = rerated[0]
    no_error = {"rater": "second", "target": clean(first["target"]), "category": "No-error", "severity": "No-error"}
    second = [first | no_error]
    for number, row in enumerate(rerated):
        if (row["system"], row["doc"], row["seg_id"]) == (first["system"], first["doc"], first["seg_id"]):
            continue
        severity = SWAPPED.get(row["severity"], row["severity"]) if number % 2 else row["severity"]
        second.append(row | {"rater": "second", "severity": severity})
    columns = list(kept[0])
    folder = tmp_path_factory.mktemp("agreement-esa")
    path = folder / "two.tsv"
    path.write_text(
        "\n".join(["\t".join(columns)] + ["\t".join(row[c] for c in columns) for row in kept + second]) + "\n",
        encoding="utf-8",
    )
    return path, kept + second


@pytest.fixture
def esa_pairs_db(db, two_raters):
    path, _ = two_raters
    assert run(["import", "mqm", "--db", str(db), "--corpus", CORPUS, str(path)]) == 0
    return db


def oracle_pairs(file: list[dict]) -> dict[tuple[str, str], tuple[int, tuple | None]]:
    """Per ordered pair of raters (reference, compared): the items both rated, and the oracle's (precision,
    recall, f1) of the compared rater's target errors against the reference's on those items (None: none)."""
    items, errors, length = defaultdict(set), defaultdict(list), {}
    for row in file:
        key = (row["system"], row["doc"], row["seg_id"])
        items[row["rater"]].add(key)
        length[key] = len(clean(row["target"]))
        span = marked(row["target"])
        if row["severity"] != "No-error" and span is not None:
            errors[row["rater"], key].append((*span, row["severity"]))
    found = {}
    for reference, compared in itertools.permutations(sorted(items), 2):
        shared = sorted(items[reference] & items[compared])
        hypotheses = [(errors[reference, key], errors[compared, key], length[key]) for key in shared]
        found[f"rater/{reference}", f"rater/{compared}"] = (len(shared), char_f1(hypotheses) if shared else None)
    return found


def test_each_pair_of_raters_scores_as_the_oracle_on_the_items_both_rated(esa_pairs_db, two_raters):
    _, file = two_raters
    expected = oracle_pairs(file)
    raters = sorted({name for pair in expected for name in pair})
    assert "rater/second" in raters and len(raters) >= 3
    con = database.open_existing(esa_pairs_db)
    result = agreement(con, raters, corpus=CORPUS, scheme="esa")
    assert result["scheme"] == "esa"
    pairs = {(row["reference"], row["compared"]): row for row in result["pairs"]}
    assert set(pairs) == set(expected)
    for pair, (texts, figures) in expected.items():
        row = pairs[pair]
        assert row["scope"] == "ALL" and row["texts"] == texts, pair
        assert "|scheme:esa|" in row["signature"]
        if figures is None:  # no item shared: no figure, where the task's convention would give 1
            assert (row["precision"], row["recall"], row["f1"]) == (None, None, None), pair
        else:
            assert (row["precision"], row["recall"], row["f1"]) == pytest.approx(figures, abs=1e-9), pair
    # the second rater disagrees on severities: partial credit, neither 0 nor 1, where it regraded an error
    shared = [figures for (a, b), (_, figures) in expected.items() if "rater/second" in (a, b) and figures]
    assert shared and any(0 < f1 < 1 for *_, f1 in shared)


def test_the_command_takes_the_scheme(esa_pairs_db, capsys):
    con = database.open_existing(esa_pairs_db)
    (other,) = con.execute(
        "SELECT min(name) FROM annotation_sets WHERE corpus = ? AND kind = 'submission' AND name <> 'rater/second'",
        [CORPUS],
    ).fetchone()
    con.close()
    args = ["agreement", "rater/second", other, "--db", str(esa_pairs_db), "--corpus", CORPUS, "--scheme", "esa"]
    capsys.readouterr()
    assert run([*args, "--format", "csv"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("table,reference,compared,scope,texts,recall,precision,f1")
    assert "scheme:esa" in out
