"""Google's MQM TSV imported (etl/mqm_files.py) and scored (mqm_segments), checked against the real file of the
WMT21 TED talks, zh→en, read independently (tests/mqm_oracle.py), against the repository's own per-segment scores
(its avg_seg_scores file) and against the table its README publishes."""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
from database_rows import rows
from mqm_oracle import (
    GOOGLE,
    SOURCE_ERRORS,
    TED_ZHEN,
    clean,
    marked,
    published_segment_scores,
    segment_scores,
)
from mqm_oracle import rows as file_rows

from accuracy_db.cli.main import run
from accuracy_db.scoring.mqm_weights import weighted_by
from accuracy_db.store import database

CORPUS = "ted-zhen"
# The README's table of the TED talks, zh→en (most figures rounded, a few truncated: Borderline's mean is 2.4053).
PUBLISHED = {
    "refB": 0.42,
    "DIDI-NLP": 1.65,
    "metricsystem2": 1.76,
    "metricsystem1": 1.90,
    "MiSS": 1.97,
    "IIE-MT": 1.98,
    "metricsystem4": 2.05,
    "metricsystem5": 2.15,
    "SMU": 2.202,
    "Borderline": 2.40,
    "NiuTrans": 2.49,
    "Facebook-AI": 2.64,
    "Online-W": 2.93,
    "metricsystem3": 2.99,
    "ref": 5.52,
}


@pytest.fixture(scope="module")
def mqm_db(built_db, tmp_path_factory) -> Path:
    """The built database with the TED zh→en file imported as corpus ted-zhen."""
    path = tmp_path_factory.mktemp("mqm") / "accuracy.duckdb"
    shutil.copyfile(built_db, path)
    assert run(["import", "mqm", "--db", str(path), "--corpus", CORPUS, str(TED_ZHEN)]) == 0
    return path


def test_every_target_is_a_text_without_markers_with_its_source_and_system(mqm_db):
    items = {}
    for row in file_rows():
        items[(row["system"], row["doc"], row["seg_id"])] = (clean(row["target"]), clean(row["source"]))
    texts = rows(
        mqm_db,
        "SELECT system, doc, seg_id, generated_text, json_extract_string(source_data, '$.source'), human"
        " FROM texts JOIN text_systems USING (text_id) WHERE corpus = 'ted-zhen'",
    )
    assert len(texts) == len(items) == 15 * 529
    assert {(s, d, i): (t, src) for s, d, i, t, src, _ in texts} == items
    assert {s for s, *_, human in texts if human} == {"ref", "refB"}


def test_every_error_keeps_its_span_category_severity_and_rater(mqm_db):
    expected = Counter()
    for line, row in enumerate(file_rows(), start=2):
        if row["severity"] == "No-error":
            continue
        target, source = marked(row["target"]), marked(row["source"])
        side, span = ("target", target) if target else ("source", source) if source else ("none", None)
        text = clean(row["target"] if side == "target" else row["source"])
        given = None if span is None else text[span[0] : span[1]]
        expected[(line, row["rater"], row["category"], row["severity"], side, given)] += 1
    found = rows(
        mqm_db,
        """
        SELECT e.line_number, e.rater, e.category, e.severity, e.side,
            CASE e.side WHEN 'target' THEN t.generated_text[e.char_start + 1:e.char_end]
                WHEN 'source' THEN json_extract_string(t.source_data, '$.source')[e.char_start + 1:e.char_end] END
        FROM mqm_errors AS e JOIN texts AS t USING (text_id)
        JOIN annotation_sets AS s USING (set_id) WHERE s.corpus = 'ted-zhen' AND s.kind = 'gold'
        """,
    )
    assert Counter(map(tuple, found)) == expected
    assert sum(side == "source" for _, _, _, _, side, _ in expected) == 349


def test_target_errors_are_the_gold_spans_with_severities_and_each_rater_a_list(mqm_db):
    spans = rows(
        mqm_db,
        """
        SELECT s.name, count(*), count(m.severity), count(DISTINCT m.text_id)
        FROM mistakes AS m JOIN annotation_sets AS s USING (set_id) WHERE s.corpus = 'ted-zhen'
        GROUP BY s.name ORDER BY s.name
        """,
    )
    errors = [r for r in file_rows() if r["severity"] != "No-error" and "<v>" in r["target"]]
    by_rater = Counter(r["rater"] for r in errors)
    assert spans[0][:2] == ("gold", len(errors)) and spans[0][2] == len(errors)
    assert {name: count for name, count, *_ in spans[1:]} == {f"rater/{r}": n for r, n in by_rater.items()}
    linked = rows(
        mqm_db,
        "SELECT s.name, count(*) FROM mqm_errors AS e JOIN mistakes AS m USING (mistake_id)"
        " JOIN annotation_sets AS s ON s.set_id = e.set_id AND s.set_id = m.set_id"
        " WHERE e.severity = m.severity AND e.category = m.category AND s.corpus = 'ted-zhen' GROUP BY s.name",
    )
    assert dict(linked) == {"gold": len(errors)} | {f"rater/{r}": n for r, n in by_rater.items()}
    # The shared task's lists have no severity.
    assert rows(
        mqm_db, "SELECT count(severity) FROM mistakes JOIN annotation_sets USING (set_id) WHERE corpus = 'shared-task'"
    ) == [(0,)]


def test_the_categories_are_a_hierarchy(mqm_db):
    levels = rows(mqm_db, "SELECT category, top_level, sub_category FROM category_levels WHERE corpus = 'ted-zhen'")
    categories = {r["category"] for r in file_rows() if r["category"] != "No-error"}
    assert {category for category, _, _ in levels} == categories
    for category, top, sub in levels:
        assert (top, sub) == (tuple(category.split("/", 1)) if "/" in category else (category, None))


def test_a_span_never_closed_runs_to_the_end_of_its_target(mqm_db):
    (row,) = [r for r in file_rows() if r["target"].count("<v>") != r["target"].count("</v>")]
    found = rows(
        mqm_db,
        "SELECT char_start, char_end, length(generated_text) FROM mqm_errors JOIN texts USING (text_id)"
        " JOIN annotation_sets AS s USING (set_id) WHERE line_number = 9622 AND s.name = 'gold'",
    )
    assert found == [(0, len(clean(row["target"])), len(clean(row["target"])))]


def test_mqm_segments_equal_the_repositorys_scores_on_every_rated_segment(mqm_db):
    published = published_segment_scores()
    segments = rows(mqm_db, "SELECT system, seg_id, score, raters FROM mqm_segments WHERE corpus = 'ted-zhen'")
    assert len(segments) == 15 * 529
    for system, seg_id, score, raters in segments:
        assert raters == 1
        assert published[(system, seg_id)] == pytest.approx(score, abs=1e-9)
    rated = {key for key, value in published.items() if value is not None}
    assert rated == {(system, seg_id) for system, seg_id, _, _ in segments}


def test_the_readmes_table_is_reproduced_within_0_01(mqm_db):
    means = dict(rows(mqm_db, "SELECT system, avg(score) FROM mqm_segments WHERE corpus = 'ted-zhen' GROUP BY 1"))
    assert means.keys() == PUBLISHED.keys()
    for system, published in PUBLISHED.items():
        assert means[system] == pytest.approx(published, abs=0.01), system
    assert means["Borderline"] == pytest.approx(2.4053, abs=5e-5)


@pytest.mark.parametrize(
    ("weights", "rules", "oracle"),
    [
        ("count", None, {"major": 1, "minor": 1, "neutral": 1, "critical": 1}),
        (
            "file",
            "category,severity,weight\n,Major,10\n*,minor,2\nAccuracy,Major,7\nAccuracy/Omission,major,0.5\n",
            {"major": 10, "minor": 2, "major/accuracy": 7, "major/accuracy/omission": 0.5},
        ),
    ],
)
def test_other_weights_give_the_oracles_scores(mqm_db, tmp_path, weights, rules, oracle):
    if rules is not None:
        weights = str(tmp_path / "weights.csv")
        Path(weights).write_text(rules)
    expected = segment_scores(oracle)
    con = database.open_existing(mqm_db)
    try:
        with weighted_by(con, weights):
            found = con.execute(
                "SELECT system, doc, seg_id, score FROM mqm_segments WHERE corpus = 'ted-zhen'"
            ).fetchall()
        google = con.execute("SELECT sum(score) FROM mqm_segments WHERE corpus = 'ted-zhen'").fetchone()[0]
    finally:
        con.close()
    assert {(s, d, i): pytest.approx(v, abs=1e-9) for s, d, i, v in found} == expected
    assert google == pytest.approx(sum(segment_scores(GOOGLE).values()), abs=1e-6)  # the database's, untouched


def test_a_file_rating_the_corpus_loads_as_a_submission(mqm_db, tmp_path):
    lines = TED_ZHEN.read_text(encoding="utf-8").split("\n")
    mine = [line for line in lines[1:] if line.startswith("SMU\t")]
    path = tmp_path / "smu.tsv"
    path.write_text("\n".join([lines[0], *mine]) + "\n", encoding="utf-8")
    db = tmp_path / "copy.duckdb"
    shutil.copyfile(mqm_db, db)
    assert run(["import", "mqm", "--db", str(db), "--corpus", CORPUS, "--as", "submission", str(path)]) == 0
    errors = [line for line in mine if "<v>" in line.split("\t")[6]]
    assert rows(
        db, "SELECT name, count(*) FROM mistakes JOIN annotation_sets USING (set_id) WHERE name = 'smu' GROUP BY name"
    ) == [("smu", len(errors))]


def refused(db: Path, path: Path, capsys, *more: str) -> list[str]:
    before = rows(db, "SELECT count(*) FROM annotation_sets")
    assert run(["import", "mqm", "--db", str(db), "--corpus", "other", *more, str(path)]) == 1
    assert rows(db, "SELECT count(*) FROM annotation_sets") == before
    assert rows(db, "SELECT count(*) FROM corpora WHERE corpus = 'other'") == [(0,)]
    return capsys.readouterr().err.splitlines()


def test_the_source_errors_file_whose_rows_lack_two_columns_is_refused_in_one_line(db, capsys):
    lines = refused(db, SOURCE_ERRORS, capsys)
    assert lines[0] == (f"{SOURCE_ERRORS}: line 2: 8 field(s) where the header has 9 (and 192 more line(s) like it)")
    assert len(lines) == 2


HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity"
GOOD = "A\td\t1\t1\tr1\t源\tThe <v>cat</v> sat\tAccuracy/Mistranslation\tMajor"


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ([HEADER.replace("\trater", ""), GOOD], "line 1: the header has no column rater: expected"),
        ([HEADER, GOOD, GOOD.replace("Major", "Huge")], "line 3: the severity 'Huge' is not Major, Minor"),
        ([HEADER, GOOD.replace("sat", "<v>sat</v>")], "line 2: the target's <v>…</v> markers are not one pair"),
        ([HEADER, GOOD.replace("源", "<v>源</v>")], "line 2: both the source and the target have <v>…</v> markers"),
        ([HEADER, GOOD, GOOD.replace("cat</v> sat", "cat</v> sit")], "line 3: the target differs from line 2's"),
        (
            [HEADER, GOOD, GOOD.replace("A\t", "B\t", 1).replace("源", "源!")],
            "line 3: the source differs from line 2's",
        ),
        ([HEADER, GOOD.replace("\tr1\t", "\t\t")], "line 2: rater is empty"),
        # names that passed on an earlier row: the row's own cells are still checked
        ([HEADER, GOOD, GOOD.replace("A\td\t", "A\t\t")], "line 3: doc is empty"),
        ([HEADER, GOOD, GOOD.replace("\t1\tr1", "\t\tr1")], "line 3: seg_id is empty"),
        ([HEADER, GOOD.replace("Accuracy/Mistranslation", "")], "line 2: the error has no category"),
        (
            [HEADER, GOOD.replace("A\td", "A/x\td"), GOOD.replace("A\td", "A\tx/d")],
            "line 3: the text id other/A/x/d/1 is line 2's too",
        ),
    ],
)
def test_bad_rows_are_refused_with_file_and_line(db, tmp_path, capsys, lines, message):
    path = tmp_path / "bad.tsv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    found = refused(db, path, capsys)
    assert found[0].startswith(f"{path}: {message}")


def test_many_bad_rows_of_one_kind_are_one_line_with_their_count(db, tmp_path, capsys):
    path = tmp_path / "bad.tsv"
    path.write_text("\n".join([HEADER, *[GOOD.replace("Major", "Huge")] * 500]) + "\n", encoding="utf-8")
    found = refused(db, path, capsys)
    assert found == [
        f"{path}: line 2: the severity 'Huge' is not Major, Minor, Critical, Neutral or No-error"
        " (and 499 more line(s) like it)",
        f"1 problem(s) in {path}; nothing was loaded.",
    ]


def test_what_the_peers_accept_is_accepted(db, tmp_path):
    """Columns in another order and an extra one (score_mqm.py reads them by name), CRLF line ends, a byte order
    mark, lower-case severities, a trailing empty field, a No-error row: read as the file means them."""
    header = "severity\tcategory\ttarget\tsource\trater\tseg_id\tdoc\tsystem\tglobalSegId"
    lines = [
        "\ufeff" + header,
        "major\tAccuracy/Mistranslation\tThe <v>cat</v> sat\t源\tr1\t1\td\tHuman-B.0\t7\t",
        "no-error\tNo-error\tA dog\t源2\tr1\t2\td\tHuman-B.0\t8",
        "Minor\tFluency/Punctuation\tA dog<v>.</v>\t源2\tr2\t2\td\tsys\t8",
    ]
    path = tmp_path / "peers.tsv"
    path.write_bytes("\r\n".join(lines).encode("utf-8") + b"\r\n")
    assert run(["import", "mqm", "--db", str(db), "--corpus", "peers", str(path)]) == 0
    found = rows(
        db,
        "SELECT system, seg_id, generated_text, raters, score FROM mqm_segments JOIN texts"
        " USING (text_id) ORDER BY ALL",
    )
    assert found == [
        ("Human-B.0", "1", "The cat sat", 1, 5.0),
        ("Human-B.0", "2", "A dog", 1, 0.0),
        ("sys", "2", "A dog.", 1, pytest.approx(0.1)),
    ]
    assert rows(db, "SELECT system, human FROM text_systems WHERE text_id LIKE 'peers/%' ORDER BY ALL") == [
        ("Human-B.0", True),
        ("Human-B.0", True),
        ("sys", False),
    ]


def test_human_references_can_be_named(db, tmp_path):
    path = tmp_path / "named.tsv"
    path.write_text("\n".join([HEADER, GOOD, GOOD.replace("A\t", "refA\t", 1)]) + "\n", encoding="utf-8")
    assert run(["import", "mqm", "--db", str(db), "--corpus", "named", "--human", "A", str(path)]) == 0
    assert rows(db, "SELECT system, human FROM text_systems WHERE text_id LIKE 'named/%' ORDER BY ALL") == [
        ("A", True),
        ("refA", False),
    ]


def test_segments_whose_names_join_alike_stay_two_items(db, tmp_path):
    """doc x|1 with seg_id 2 and doc x with seg_id 1|2 are two segments: the key that groups a segment's texts
    (mqm_segments.item, read by systems and metrics) keeps them apart, as a plain doc|seg_id would not."""
    lines = [
        "system\tdoc\tseg_id\trater\tsource\ttarget\tcategory\tseverity",
        "A\tx|1\t2\tr1\tone\tThe <v>cat</v> sat\tAccuracy/Mistranslation\tMajor",
        "B\tx|1\t2\tr1\tone\tThe cat sits\tNo-error\tNo-error",
        "A\tx\t1|2\tr1\ttwo\tA dog ran\tNo-error\tNo-error",
        "B\tx\t1|2\tr1\ttwo\tA dog <v>runs</v>\tAccuracy/Mistranslation\tMinor",
    ]
    path = tmp_path / "joined.tsv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert run(["import", "mqm", "--db", str(db), "--corpus", "joined", str(path)]) == 0
    for sql in (
        "SELECT doc, seg_id, count(DISTINCT item) FROM mqm_segments WHERE corpus = 'joined' GROUP BY ALL",
        "SELECT doc, seg_id, count(DISTINCT input_id) FROM mqm_metric_targets JOIN mqm_segments USING (text_id)"
        " WHERE mqm_metric_targets.corpus = 'joined' GROUP BY ALL",
    ):
        assert sorted(rows(db, sql)) == [("x", "1|2", 1), ("x|1", "2", 1)]
    items = rows(db, "SELECT DISTINCT item FROM system_text_scores WHERE corpus = 'joined'")
    assert len(items) == 2
    targets = rows(db, "SELECT DISTINCT input_id FROM mqm_metric_targets WHERE corpus = 'joined'")
    assert len(targets) == 2


def test_a_build_loads_the_imported_files_again_with_their_human_references(db, tmp_path):
    from shared_data import DATA, EXAMPLES

    from accuracy_db.ingest.build import build

    gold, rating = tmp_path / "gold.tsv", tmp_path / "rating.tsv"
    gold.write_text("\n".join([HEADER, GOOD, GOOD.replace("A\t", "B\t", 1)]) + "\n", encoding="utf-8")
    rating.write_text("\n".join([HEADER, GOOD.replace("Major", "Minor")]) + "\n", encoding="utf-8")
    assert run(["import", "mqm", "--db", str(db), "--corpus", "re", "--human", "B", str(gold)]) == 0
    assert run(["import", "mqm", "--db", str(db), "--corpus", "re", "--as", "submission", str(rating)]) == 0
    query = (
        "SELECT s.kind, s.name, m.text_id, m.severity, ts.human FROM mistakes AS m JOIN annotation_sets AS s"
        " USING (set_id) JOIN text_systems AS ts USING (text_id) WHERE s.corpus = 're' ORDER BY ALL"
    )
    before = rows(db, query)
    segments = rows(db, "SELECT * FROM mqm_segments WHERE corpus = 're' ORDER BY ALL")
    assert [(kind, name, human) for kind, name, _, _, human in before] == [
        ("gold", "gold", False),
        ("gold", "gold", True),
        ("submission", "rater/r1", False),
        ("submission", "rater/r1", True),
        ("submission", "rating", False),
    ]
    report = build(DATA, db, EXAMPLES)
    assert report.corpora_loaded == ["re"] and report.corpus_refusals == {}
    assert rows(db, query) == before
    assert rows(db, "SELECT * FROM mqm_segments WHERE corpus = 're' ORDER BY ALL") == segments


def placed_by_oracle(text: str, start: int, end: int) -> tuple[int, int, int, int, str | None] | None:
    """Where a marked span of a target lands: the tokens (runs of non-white space, from 1) its characters touch,
    their characters, and how the span was changed to reach them; None when it touches none (empty, white space)."""
    touched = [
        (number, match.start(), match.end())
        for number, match in enumerate(re.finditer(r"\S+", text), start=1)
        if match.end() > start and match.start() < end and end > start
    ]
    if not touched:
        return None
    first, last = touched[0], touched[-1]
    char_start, char_end = first[1], last[2]
    change = (
        "widened"
        if char_start < start or char_end > end
        else "trimmed"
        if (char_start, char_end) != (start, end)
        else None
    )
    return first[0], last[0], char_start, char_end, change


def test_each_target_error_is_placed_on_the_tokens_its_characters_touch(db, tmp_path):
    """Spans inside a word, with white space at an edge, empty, only white space, after characters outside the
    Basic Multilingual Plane (offsets count characters, not bytes or UTF-16 units), over several words, and one
    error of a rater that a second rater's list must not take."""
    targets = [
        "The <v>ca</v>t sat",
        "𝒜 émoji 😀 <v>then</v> words",
        "Lead<v> space</v> here",
        "An <v></v>empty one",
        "Only<v>  </v>blanks",
        "Two <v>whole words</v> and more",
        "<v>😀😀</v> x",
    ]
    lines = [HEADER] + [
        f"A\td\t1\t{seg}\tr{1 + seg % 2}\t源{seg}\t{target}\tAccuracy/Mistranslation\tMinor"
        for seg, target in enumerate(targets)
    ]
    path = tmp_path / "edges.tsv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert run(["import", "mqm", "--db", str(db), "--corpus", "edges", str(path)]) == 0
    expected = {}
    for seg, target in enumerate(targets):
        start, end = target.index("<v>"), target.index("</v>") - 3
        placed = placed_by_oracle(target.replace("<v>", "").replace("</v>", ""), start, end)
        if placed is not None:
            given = target.replace("<v>", "").replace("</v>", "")[start:end] if placed[-1] else None
            expected[str(seg)] = (f"r{1 + seg % 2}", *placed, given)
    found = rows(
        db,
        "SELECT ts.seg_id, e.rater, m.doc_token_start, m.doc_token_end, t1.char_start, t2.char_end,"
        " a.adjustment, a.given_text, s.name FROM mqm_errors e JOIN mistakes m USING (mistake_id)"
        " JOIN annotation_sets s ON s.set_id = m.set_id JOIN text_systems ts ON ts.text_id = m.text_id"
        " JOIN tokens t1 ON t1.text_id = m.text_id AND t1.doc_token = m.doc_token_start"
        " JOIN tokens t2 ON t2.text_id = m.text_id AND t2.doc_token = m.doc_token_end"
        " LEFT JOIN offset_adjustments a ON a.set_id = m.set_id AND a.line_number = m.line_number"
        " WHERE s.corpus = 'edges' ORDER BY s.name, ts.seg_id",
    )
    assert found == sorted(
        [(seg, *placed, "gold") for seg, placed in expected.items()]
        + [(seg, *placed, f"rater/{placed[0]}") for seg, placed in expected.items()],
        key=lambda row: (row[-1], row[0]),
    )
    assert [row[6] for row in found[:5]] == ["widened", None, "trimmed", None, None]
    # the empty and blank spans are kept as errors, with no span
    assert rows(
        db,
        "SELECT count(*) FROM mqm_errors JOIN annotation_sets USING (set_id)"
        " WHERE corpus = 'edges' AND kind = 'gold' AND mistake_id IS NULL",
    ) == [(2,)]
