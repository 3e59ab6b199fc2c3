"""accuracy-db agreement and adjudicate: each figure against an independent reference (the oracle's matching,
scikit-learn, scipy, statsmodels' and plain-Python Fleiss, plain-Python Krippendorff, a plain-Python majority rule), hand-worked examples, and
toy lists for splits and merges."""

from __future__ import annotations

import csv
import json
import re
import sys
import tomllib
from collections import Counter, defaultdict
from fractions import Fraction
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from packaging.requirements import Requirement
from scipy import stats
from shared_data import DATA, EXAMPLES, REPO
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import aggregate_raters
from statsmodels.stats.inter_rater import fleiss_kappa as statsmodels_fleiss_kappa
from test_saved_analyses import read_list, spans, taken
from test_schemes import assert_like_nervaluate, assert_like_unit_oracle, by_nervaluate

from accuracy_db.cli.main import run
from accuracy_db.ingest.build import build
from accuracy_db.scoring.evaluate import evaluate
from accuracy_db.scoring.schemes import NERVALUATE_SCHEMES, SCHEMES
from accuracy_db.stats.agreement import (
    CATEGORIES,
    adjudicate,
    agreement,
    category_reliability,
    majority_ratings,
    rating_matrix,
    write_derived_list,
)
from accuracy_db.stats.pair_evaluations import find_sets
from accuracy_db.store import database

S001 = (DATA / "texts" / "S001.txt").read_text(encoding="utf-8").split()
# Three toy lists of S001 (document token ids, inclusive): a split (2-3), a merge (6-8), a partial overlap (10-12),
# a category tie (18) and a mistake a single list marks (4).
TOY = {
    "a": [(2, 3, "NAME"), (6, 8, "NAME"), (10, 11, "NUMBER"), (18, 18, "NAME")],
    "b": [(2, 2, "NAME"), (3, 3, "NAME"), (6, 8, "NAME"), (11, 12, "NUMBER"), (18, 18, "WORD")],
    "c": [(2, 2, "NAME"), (3, 3, "NAME"), (4, 4, "WORD"), (6, 7, "NAME"), (8, 8, "NAME")],
}


def write_toy(path, marks) -> None:
    with path.open("w", encoding="utf-8", newline="") as stream:
        writer = csv.writer(stream, lineterminator="\n")
        writer.writerow(["TEXT_ID", "SENTENCE_ID", "ANNOTATION_ID", "TOKENS", "SENT_TOKEN_START", "SENT_TOKEN_END",
                         "DOC_TOKEN_START", "DOC_TOKEN_END", "TYPE", "CORRECTION", "COMMENT"])  # fmt: skip
        for number, (start, end, category) in enumerate(marks, start=1):
            tokens = " ".join(S001[start - 1 : end])
            writer.writerow(["S001.txt", "", number, tokens, "", "", start, end, category, "", ""])


@pytest.fixture(scope="session")
def toy_db(tmp_path_factory):
    folder = tmp_path_factory.mktemp("toy")
    (folder / "submissions").mkdir()
    for name, marks in TOY.items():
        write_toy(folder / "submissions" / f"{name}.csv", marks)
    build(DATA, folder / "accuracy.duckdb", folder / "submissions")
    return folder / "accuracy.duckdb"


@pytest.fixture
def toy(toy_db):
    con = database.open_existing(toy_db)
    yield con
    con.close()


@pytest.fixture
def two_metrics(two_metrics_db):
    con = database.open_existing(two_metrics_db)
    yield con
    con.close()


def spans_of(adjudication) -> list[tuple]:
    return [(s["text_id"], s["span_start"], s["span_end"], s["category"]) for s in adjudication.spans]


# --- majority gold ---


def test_three_copies_of_the_gold_list_give_it_back_exactly(built, tmp_path):
    (tmp_path / "texts").symlink_to(DATA / "texts")  # evaluate finds the tokens beside the gold list
    adjudication = adjudicate(built, ["gold", "gsml_doc_based", "gsml_sent_based"], 2, "train")
    gold = sorted((r["text_id"], r["start"], r["end"], r["category"]) for r in read_list(DATA / "gsml.csv"))
    assert spans_of(adjudication) == gold
    assert adjudication.ties == []
    path = write_derived_list(built, adjudication, tmp_path, "majority")
    written = read_list(path)
    assert sorted((r["text_id"], r["start"], r["end"], r["category"]) for r in written) == gold
    # both id schemes and the tokens are the gold list's, row for row
    by_span = {(r["text_id"], r["start"]): r for r in read_list(DATA / "gsml.csv")}
    for row in written:
        original = by_span[row["text_id"], row["start"]]
        for column in ("SENTENCE_ID", "SENT_TOKEN_START", "SENT_TOKEN_END", "TOKENS"):
            assert row[column] == original[column]
    # usable as the gold list of an evaluation: the example submission scores as against gsml.csv
    as_gold, original = (
        [{k: v for k, v in row.items() if k != "signature"} for row in evaluate(g, EXAMPLES / "submission.csv")]
        for g in (path, DATA / "gsml.csv")
    )
    assert as_gold == original  # the signature differs: it names the derived file
    sidecar = json.loads((tmp_path / "majority.json").read_text())
    assert "at least 2 of 3 lists" in sidecar["description"] and "gsml_sent_based" in sidecar["description"]


@pytest.mark.parametrize(
    ("min_votes", "expected"),
    [
        # the split of 2-3 (two lists mark two mistakes) and the merge of 6-8 (two lists mark one); the overlap of
        # 10-11 and 11-12 keeps 11; 18 is a tie; 4, which one list marks, is dropped
        (2, [(2, 2, "NAME"), (3, 3, "NAME"), (6, 8, "NAME"), (11, 11, "NUMBER"), (18, 18, "NAME")]),
        # all three: 7-8 is joined by two lists only, so 6-8 splits
        (3, [(2, 2, "NAME"), (3, 3, "NAME"), (6, 7, "NAME"), (8, 8, "NAME")]),
        # any list: one list joining two tokens joins them
        (1, [(2, 3, "NAME"), (4, 4, "WORD"), (6, 8, "NAME"), (10, 12, "NUMBER"), (18, 18, "NAME")]),
    ],
)
def test_toy_splits_merges_and_ties(toy, min_votes, expected):
    adjudication = adjudicate(toy, ["a", "b", "c"], min_votes)
    assert spans_of(adjudication) == [("S001", *span) for span in expected]
    ties = [(t["span_start"], t["tied_categories"]) for t in adjudication.ties]
    assert ties == ([(18, "NAME|WORD")] if min_votes < 3 else [])


def test_ties_are_reported_by_the_command(toy_db, tmp_path, capsys):
    status = run(["adjudicate", "a", "b", "c", "--min-votes", "2", "--as", "toy", "--db", str(toy_db),
                  "--out", str(tmp_path)])  # fmt: skip
    captured = capsys.readouterr()
    assert status == 0
    assert "5 mistakes, 1 category tie(s)" in captured.out
    assert "tie: S001 tokens 18-18: NAME|WORD; NAME taken (the first in report order)" in captured.err
    rows = read_list(tmp_path / "toy.csv")
    assert rows[-1]["COMMENT"] == "marked by 2 of 3 lists; category tie NAME|WORD, the first taken"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["a", "b", "--min-votes", "3", "--as", "x"], "--min-votes is 3: it must be between 1 and the 2 lists given"),
        (["a", "a", "--min-votes", "1", "--as", "x"], "a list is named twice"),
        (["a", "zz", "--min-votes", "1", "--as", "x"], "no list named 'zz'"),
        (["a", "b", "--min-votes", "1", "--as", "../x"], "--as '../x': a name is letters"),
    ],
)
def test_bad_adjudication_settings_are_one_line_errors(toy_db, tmp_path, capsys, args, message):
    assert run(["adjudicate", *args, "--db", str(toy_db), "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not list(tmp_path.iterdir())


def majority_oracle(lists: dict[str, list[tuple]], min_votes: int) -> list[dict]:
    """The rule of docs/agreement.md, token by token: lists maps a name to its (text, start, end, category) marks."""
    marks, joins = defaultdict(dict), Counter()
    for name, spans_ in lists.items():
        for text, start, end, category in spans_:
            for token in range(start, end + 1):
                marks[text, token][name] = category
                if token < end:
                    joins[text, token] += 1
    kept = sorted(key for key, by_list in marks.items() if len(by_list) >= min_votes)
    result, current = [], None
    for text, token in kept:
        if current and current[0] == text and current[2] == token - 1 and joins[text, token - 1] >= min_votes:
            current[2] = token
        else:
            current = [text, token, token]
            result.append(current)
    units = []
    for text, start, end in result:
        given = defaultdict(set)
        for token in range(start, end + 1):
            for name, category in marks[text, token].items():
                given[name].add(category)
        votes = Counter(category for categories in given.values() for category in categories)
        most = max(votes.values())
        tied = [c for c in CATEGORIES if votes[c] == most]
        units.append(
            {"text_id": text, "span_start": start, "span_end": end, "category": tied[0],
             "ratings": {name: next(iter(c)) if len(c) == 1 else None for name, c in given.items()}}
        )  # fmt: skip
    return units


def fleiss_by_hand(matrix: np.ndarray) -> float:
    """Fleiss (1971), written out: the units every rater rates."""
    complete = matrix[:, ~np.isnan(matrix).any(axis=0)].astype(int)
    raters, units = complete.shape
    counts = np.array([[np.sum(complete[:, u] == c) for c in range(len(CATEGORIES))] for u in range(units)])
    agreement = ((counts * (counts - 1)).sum(axis=1) / (raters * (raters - 1))).mean()
    shares = counts.sum(axis=0) / (raters * units)
    chance = (shares**2).sum()
    return (agreement - chance) / (1 - chance)


def krippendorff_by_hand(matrix: np.ndarray) -> float:
    """Krippendorff's alpha for nominal data from the coincidence matrix, units with two values or more."""
    coincidences = np.zeros((len(CATEGORIES), len(CATEGORIES)))
    for unit in matrix.T:
        values = [int(v) for v in unit if not np.isnan(v)]
        if len(values) < 2:
            continue
        for i, c in enumerate(values):
            for j, k in enumerate(values):
                if i != j:
                    coincidences[c, k] += 1 / (len(values) - 1)
    totals = coincidences.sum(axis=0)
    n = totals.sum()
    observed = coincidences.sum() - np.trace(coincidences)
    expected = (n * n - (totals**2).sum()) / (n - 1)
    return 1 - observed / expected


@pytest.mark.parametrize("min_votes", [1, 2, 3])
def test_majority_spans_and_ratings_equal_the_plain_python_rule(two_metrics, min_votes):
    names = ["gold", "half_gold", "submission"]
    files = {"gold": DATA / "gsml.csv", "submission": EXAMPLES / "submission.csv"}
    lists = {name: [(r["text_id"], r["start"], r["end"], r["category"]) for r in read_list(path)]
             for name, path in files.items()}  # fmt: skip
    lists["half_gold"] = lists["gold"][::2]  # as the fixture writes it
    expected = majority_oracle(lists, min_votes)
    sets = find_sets(two_metrics, names)
    rows = majority_ratings(two_metrics, sets, min_votes)
    assert spans_of(adjudicate(two_metrics, names, min_votes)) == [
        (u["text_id"], u["span_start"], u["span_end"], u["category"]) for u in expected
    ]
    name_of = {s.set_id: s.name for s in sets}
    got = defaultdict(dict)
    for row in rows:
        got[row["text_id"], row["span_start"]][name_of[row["set_id"]]] = row["set_category"]
    assert got == {(u["text_id"], u["span_start"]): u["ratings"] for u in expected}
    matrix = rating_matrix(rows, sets)
    figures = {r["measure"]: r for r in category_reliability(matrix)}
    assert figures["fleiss_kappa"]["value"] == pytest.approx(fleiss_by_hand(matrix), abs=1e-12)
    assert figures["krippendorff_alpha"]["value"] == pytest.approx(krippendorff_by_hand(matrix), abs=1e-12)


# --- Fleiss' kappa and Krippendorff's alpha: a hand-worked example ---


def test_fleiss_and_krippendorff_on_a_hand_worked_example():
    name, number, word = (CATEGORIES.index(c) for c in ("NAME", "NUMBER", "WORD"))
    nan = np.nan
    # four spans rated by three lists, and a fifth that one list alone rates (left out of both)
    matrix = np.array(
        [[name, name, number, word, name], [name, name, number, word, nan], [name, number, number, name, nan]],
        dtype=float,
    )
    # Fleiss: the spans' agreement 1, 1/3, 1, 1/3 (mean 2/3); shares NAME 6/12, NUMBER 4/12, WORD 2/12, so chance
    # 1/4 + 1/9 + 1/36 = 7/18; kappa = (2/3 - 7/18) / (1 - 7/18) = 5/11.
    # Krippendorff: 12 pairable values (NAME 6, NUMBER 4, WORD 2); disagreeing ordered pairs 4 in each of two spans,
    # weighted 1/(3-1): observed 4; expected sum n_c n_k = 144 - 56 = 88; alpha = 1 - 11 * 4 / 88 = 1/2.
    figures = {r["measure"]: r for r in category_reliability(matrix)}
    assert figures["fleiss_kappa"]["value"] == pytest.approx(float(Fraction(5, 11)), abs=1e-12)
    assert figures["fleiss_kappa"]["units"] == 4
    assert figures["krippendorff_alpha"]["value"] == pytest.approx(0.5, abs=1e-12)
    assert figures["krippendorff_alpha"]["units"] == 4


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_fleiss_kappa_equals_statsmodels(data):
    # Issue 52: Fleiss' kappa is computed from its formula, without statsmodels (65 MB installed for it alone);
    # statsmodels' fleiss_kappa, a test dependency only, is the reference, over any raters, spans and categories.
    raters, units = data.draw(st.integers(2, 7)), data.draw(st.integers(1, 25))
    cells = st.one_of(st.integers(0, len(CATEGORIES) - 1), st.just(None))  # None: the set does not rate the span
    rows = data.draw(st.lists(st.lists(cells, min_size=units, max_size=units), min_size=raters, max_size=raters))
    matrix = np.array([[np.nan if c is None else c for c in row] for row in rows], dtype=float)
    complete = matrix[:, ~np.isnan(matrix).any(axis=0)].astype(int)
    (kappa,) = [r for r in category_reliability(matrix) if r["measure"] == "fleiss_kappa"]
    if complete.shape[1] == 0 or len(np.unique(complete)) < 2:
        assert kappa["value"] is None and kappa["reason"]
    else:
        table, _ = aggregate_raters(complete.T, n_cat=len(CATEGORIES))
        assert kappa["value"] == pytest.approx(statsmodels_fleiss_kappa(table), abs=1e-12)
        assert kappa["value"] == pytest.approx(fleiss_by_hand(matrix), abs=1e-12)
        assert kappa["units"] == complete.shape[1]


def test_the_agreement_of_three_lists_needs_no_statsmodels():
    # Issue 52: statsmodels is no longer imported (nor in the agreement extra, which a user installs for it).
    matrix = np.array([[0, 0, 1, 2], [0, 0, 1, 2], [0, 1, 1, 0]], dtype=float)  # the hand-worked example's 4 spans
    blocked = dict.fromkeys(["statsmodels", "statsmodels.stats", "statsmodels.stats.inter_rater"])
    with mock.patch.dict(sys.modules, blocked):  # None in sys.modules: an import of it raises ImportError
        figures = {r["measure"]: r for r in category_reliability(matrix)}
    assert figures["fleiss_kappa"]["value"] == pytest.approx(float(Fraction(5, 11)), abs=1e-12)
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    assert [Requirement(r).name for r in extras["agreement"]] == ["krippendorff"]
    assert "statsmodels" in [Requirement(r).name for r in extras["dev"]]  # the reference of the test above
    sources = [p for folder in ("accuracy_db", "etl", "dashboard") for p in (REPO / folder).rglob("*.py")]
    imports = re.compile(r"^\s*(from|import)\s+statsmodels\b", re.MULTILINE)
    assert [str(p) for p in sources if imports.search(p.read_text(encoding="utf-8"))] == []


def test_undefined_reliability_is_none_with_a_reason():
    same = np.array([[0, 0], [0, 0], [0, np.nan]], dtype=float)
    figures = {r["measure"]: r for r in category_reliability(same)}
    assert figures["fleiss_kappa"]["value"] is None and figures["fleiss_kappa"]["reason"]
    assert figures["krippendorff_alpha"]["value"] is None and figures["krippendorff_alpha"]["reason"]


# --- agreement of two lists ---


def test_pair_figures_equal_the_scores_and_the_oracle_both_ways(two_metrics):
    result = agreement(two_metrics, ["half_gold", "submission"])
    half = spans(read_list(DATA / "gsml.csv")[::2])
    submitted = spans(read_list(EXAMPLES / "submission.csv"))
    for reference, compared, ref_spans, cmp_spans in (
        ("half_gold", "submission", half, submitted),
        ("submission", "half_gold", submitted, half),
    ):
        rows = {r["scope"]: r for r in result["pairs"] if r["reference"] == reference and r["compared"] == compared}
        for scope in ("ALL", *CATEGORIES):
            ref_in = [s for s in ref_spans if scope in ("ALL", s.category)]
            cmp_in = [s for s in cmp_spans if scope in ("ALL", s.category)]
            matched = sum(v is not None for v in taken(ref_in, cmp_in).values())
            assert (rows[scope]["matched"], rows[scope]["reference_total"], rows[scope]["compared_total"]) == (
                matched, len(ref_in), len(cmp_in)
            )  # fmt: skip
        pairs = [(r.category, c) for r, c in
                 ((r, {s.key: s.category for s in cmp_spans}[k]) for r in ref_spans
                  for k in [taken(ref_spans, cmp_spans)[r.key]] if k is not None)]  # fmt: skip
        assert rows["ALL"]["kappa_pairs"] == len(pairs)
        assert rows["ALL"]["kappa"] == pytest.approx(cohen_kappa_score(*zip(*pairs)), abs=1e-12)


@pytest.mark.parametrize("scheme", [scheme for scheme in SCHEMES if scheme != "shared-task"])
def test_pair_figures_under_a_scheme_equal_its_reference_both_ways(two_metrics, scheme):
    """Under nervaluate's schemes every count and figure equals nervaluate's, under the token and character
    schemes the unit oracle's (the characters being those of the texts' tokens), in every scope and direction."""
    result = agreement(two_metrics, ["half_gold", "submission"], scheme=scheme)
    half = spans(read_list(DATA / "gsml.csv")[::2])
    submitted = spans(read_list(EXAMPLES / "submission.csv"))
    weights = {
        (text_id, doc_token): len(token)
        for text_id, doc_token, token in two_metrics.execute("SELECT text_id, doc_token, token FROM tokens").fetchall()
    }
    assert result["scheme"] == scheme
    for reference, compared, ref_spans, cmp_spans in (
        ("half_gold", "submission", half, submitted),
        ("submission", "half_gold", submitted, half),
    ):
        rows = {r["scope"]: r for r in result["pairs"] if r["reference"] == reference and r["compared"] == compared}
        assert set(rows) == {"ALL", *CATEGORIES}
        theirs = by_nervaluate(ref_spans, cmp_spans) if scheme in NERVALUATE_SCHEMES else None
        for scope, row in rows.items():
            ours = {**row, "gold_total": row["reference_total"], "submitted_total": row["compared_total"]}
            if theirs:
                assert_like_nervaluate(ours, theirs[scheme, scope])
            else:
                assert "correct" not in row and "token_f1" not in row
                assert_like_unit_oracle(ours, ref_spans, cmp_spans, scheme, scope, weights)
            assert f"|scheme:{scheme}|" in row["signature"]


def test_gold_against_a_submission_is_its_score(built):
    result = agreement(built, ["gold", "submission"], scopes=["ALL", "NAME"])
    scores = {
        scope: (recall, precision, f1)
        for scope, recall, precision, f1 in built.execute(
            "SELECT scope, recall, precision, f1 FROM scores WHERE submission = 'submission' AND split = 'train'"
        ).fetchall()
    }
    for row in result["pairs"]:
        if row["reference"] == "gold":
            assert (row["recall"], row["precision"], row["f1"]) == scores[row["scope"]]
    assert {row["scope"] for row in result["pairs"]} == {"ALL", "NAME"}


def test_correlations_equal_scipy_on_counts_from_the_files(two_metrics):
    result = agreement(two_metrics, ["half_gold", "submission"], scopes=["ALL", "NUMBER"])
    texts = sorted(p.stem for p in (DATA / "texts").glob("*.txt"))
    lists = {"half_gold": read_list(DATA / "gsml.csv")[::2], "submission": read_list(EXAMPLES / "submission.csv")}
    for scope in ("ALL", "NUMBER"):
        counts = {
            name: [sum(r["text_id"] == t and scope in ("ALL", r["category"]) for r in rows) for t in texts]
            for name, rows in lists.items()
        }
        for measure, function in (("pearson", stats.pearsonr), ("spearman", stats.spearmanr)):
            (row,) = [r for r in result["correlations"] if r["scope"] == scope and r["measure"] == measure]
            reference = function(counts["half_gold"], counts["submission"])
            assert row["n"] == 60
            assert row["value"] == pytest.approx(reference.statistic, abs=1e-12)
            assert row["p_value"] == pytest.approx(reference.pvalue, rel=1e-9)


def test_agreement_command_json_and_errors(toy_db, capsys):
    assert run(["agreement", "a", "b", "c", "--scope", "ALL", "--format", "json", "--db", str(toy_db)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert len(result["pairs"]) == 6 and {r["measure"] for r in result["categories"]} == {
        "fleiss_kappa", "krippendorff_alpha"
    }  # fmt: skip
    assert (
        run(["agreement", "a", "b", "--scope", "ALL", "--scheme", "partial", "--format", "csv", "--db", str(toy_db)])
        == 0
    )
    header = csv.DictReader(capsys.readouterr().out.splitlines()).fieldnames
    assert {"correct", "partial", "spurious"} <= set(header) and "token_f1" not in header
    assert run(["agreement", "a", "--db", str(toy_db)]) == 1
    assert "agreement needs two lists or more" in capsys.readouterr().err
    assert run(["agreement", "a", "gold", "--split", "test", "--db", str(toy_db)]) == 1
    assert "no list named 'a' in corpus shared-task, the test split: it is in corpus shared-task, the train split" in (
        capsys.readouterr().err
    )
