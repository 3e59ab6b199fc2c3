"""Agreement between annotation sets (issue 13, item 2), and majority gold (item 3).

The counts come from SQL: each ordered pair's matching and Cohen's kappa from the views of queries/ over the pair
(pair_evaluations), the per-text counts from the view list_text_counts, the majority spans and each set's
category on them from the query model majority_spans. The coefficients come from libraries: Pearson and Spearman
with their p-values from scipy.stats, Fleiss' kappa from its formula (fleiss_kappa: a few lines, where statsmodels
would be 65 MB installed for it), Krippendorff's alpha from the krippendorff package.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import duckdb
import numpy as np

from accuracy_db import output_files
from accuracy_db.errors import AccuracyDbError
from accuracy_db.output_files import NO_INPUTS, Inputs
from accuracy_db.scoring.scores import check_scopes, fetch_dicts
from accuracy_db.scoring.signature import SCHEME, signature
from accuracy_db.stats.pair_evaluations import (
    AnnotationSet,
    counts_characters,
    figure_models,
    find_sets,
    pair_figures,
    score_pairs,
)
from accuracy_db.stats.validity import correlation, correlation_reason
from accuracy_db.store import database

MEASURES = ("pearson", "spearman")
CATEGORIES = ("NAME", "NUMBER", "WORD", "CONTEXT", "NOT_CHECKABLE", "OTHER")


def majority(count: int) -> int:
    """The smallest number of sets that is more than half of count."""
    return count // 2 + 1


def correlations(con: duckdb.DuckDBPyConnection, sets: list[AnnotationSet], scopes: list[str]) -> list[dict]:
    """Pearson r and Spearman rho, with scipy's two-sided p-values, of two sets' mistakes per text (every text both
    cover: of their split, or of an annotator's own, zeros included), for every two sets and scope."""
    # one array of texts and one of counts per set and scope, in text order (a row per text would be a million
    # Python objects)
    counts: dict[tuple[int, str], tuple[np.ndarray, np.ndarray]] = {
        (set_id, scope): (np.array(text_ids, dtype=object), np.array(mistakes, dtype=float))
        for set_id, scope, text_ids, mistakes in con.execute(
            "SELECT set_id, scope, list(text_id ORDER BY text_id), list(mistakes ORDER BY text_id)"
            " FROM list_text_counts"
            " WHERE list_contains($ids, set_id) AND list_contains($scopes, scope) GROUP BY set_id, scope",
            {"ids": [s.set_id for s in sets], "scopes": scopes},
        ).fetchall()
    }
    results = []
    for a, b in itertools.combinations(sets, 2):
        for scope in scopes:
            x, y = shared_texts(counts[a.set_id, scope], counts[b.set_id, scope])
            reason = correlation_reason(x, y, names=(f"{a.name}'s count", f"{b.name}'s count"))
            for measure in MEASURES:
                value, p_value = (None, None) if reason else correlation(measure, x, y)
                results.append(
                    {"a": a.name, "b": b.name, "scope": scope, "measure": measure, "value": value,
                     "p_value": p_value, "n": len(x), "reason": reason}
                )  # fmt: skip
    return results


def shared_texts(first: tuple[np.ndarray, np.ndarray], second: tuple[np.ndarray, np.ndarray]):
    """Two sets' counts on the texts both cover (list_text_counts: every text of their split, or an annotator's
    own), each (text ids, counts) in text order."""
    (first_texts, x), (second_texts, y) = first, second
    if len(first_texts) == len(second_texts) and (first_texts == second_texts).all():
        return x, y
    _, in_first, in_second = np.intersect1d(first_texts, second_texts, return_indices=True)
    return x[in_first], y[in_second]


def majority_ratings(con: duckdb.DuckDBPyConnection, sets: list[AnnotationSet], min_votes: int) -> list[dict]:
    """The rows of the query model majority_spans: one per (majority span, set marking a token of it)."""
    return fetch_dicts(
        con, database.stats_query("majority_spans"), {"set_ids": [s.set_id for s in sets], "min_votes": min_votes}
    )


def categories_of(con: duckdb.DuckDBPyConnection, corpus: str) -> tuple[str, ...]:
    """A corpus's categories in report order (the shared task's: CATEGORIES)."""
    rows = con.execute("SELECT category FROM categories WHERE corpus = $corpus ORDER BY position", {"corpus": corpus})
    return tuple(category for (category,) in rows.fetchall())


def rating_matrix(rows: list[dict], sets: list[AnnotationSet], categories: tuple[str, ...] = CATEGORIES) -> np.ndarray:
    """Sets x majority spans: the index of each set's category on each span (in categories), NaN when the set
    does not mark it or gives it several categories."""
    units = list(dict.fromkeys((row["text_id"], row["span_start"]) for row in rows))
    column = {unit: number for number, unit in enumerate(units)}
    line = {s.set_id: number for number, s in enumerate(sets)}
    matrix = np.full((len(sets), len(units)), np.nan)
    for row in rows:
        if row["set_category"] is not None:
            unit = column[row["text_id"], row["span_start"]]
            matrix[line[row["set_id"]], unit] = categories.index(row["set_category"])
    return matrix


def fleiss_kappa(ratings: np.ndarray, category_count: int) -> float:
    """Fleiss' kappa (Fleiss 1971) of raters x units, each rating a category's index, every unit rated by every
    rater: (P - Pe) / (1 - Pe), where P is the mean over the units of the share of agreeing ordered pairs of its
    ratings, sum_j n_ij (n_ij - 1) / (n (n - 1)), and Pe the sum over the categories of their squared share of all
    ratings. Defined when the ratings hold two categories or more (else Pe = 1)."""
    raters, units = ratings.shape
    counts = np.zeros((units, category_count))  # n_ij: the raters giving unit i category j
    np.add.at(counts, (np.tile(np.arange(units), raters), ratings.ravel()), 1)
    agreement = ((counts * (counts - 1)).sum(axis=1) / (raters * (raters - 1))).mean()
    chance = ((counts.sum(axis=0) / (raters * units)) ** 2).sum()
    return float((agreement - chance) / (1 - chance))


def category_reliability(matrix: np.ndarray, category_count: int = len(CATEGORIES)) -> list[dict]:
    """Fleiss' kappa over the spans every set rates, and Krippendorff's alpha for nominal data (the krippendorff
    package) over all of them, the missing ratings left out as alpha allows."""
    try:
        from krippendorff import alpha
    except ImportError:
        raise AccuracyDbError(
            "the agreement of three lists or more needs krippendorff: pip install 'accuracy-db[agreement]'"
        ) from None

    complete = matrix[:, ~np.isnan(matrix).any(axis=0)]
    results = []
    if complete.shape[1] == 0:
        reason = "no span is rated by every set"
        results.append({"measure": "fleiss_kappa", "value": None, "units": 0, "reason": reason})
    elif len(np.unique(complete)) < 2:
        results.append(
            {"measure": "fleiss_kappa", "value": None, "units": complete.shape[1],
             "reason": "every rating is the same category"}
        )  # fmt: skip
    else:
        kappa = fleiss_kappa(complete.astype(int), category_count)
        results.append({"measure": "fleiss_kappa", "value": kappa, "units": complete.shape[1]})
    pairable = matrix[:, (~np.isnan(matrix)).sum(axis=0) >= 2]
    observed = np.unique(pairable[~np.isnan(pairable)])
    if len(observed) < 2:
        reason = "fewer than two categories among the spans rated by two sets or more"
        results.append({"measure": "krippendorff_alpha", "value": None, "units": pairable.shape[1], "reason": reason})
    else:
        value = alpha(reliability_data=pairable, level_of_measurement="nominal", value_domain=range(category_count))
        results.append({"measure": "krippendorff_alpha", "value": float(value), "units": pairable.shape[1]})
    return [{"reason": None, **result} for result in results]


def agreement(
    con: duckdb.DuckDBPyConnection,
    names: list[str],
    split: str | None = None,
    scopes: list[str] | None = None,
    corpus: str | None = None,
    scheme: str = SCHEME,
) -> dict:
    """Agreement between two or more annotation sets of one split: for every ordered pair, the figures of the
    compared set scored against the reference as if it were the gold list, under a match scheme (and Cohen's kappa
    of the matched pairs' categories); for every two sets, the correlations of their mistakes per text; for three
    sets or more, Fleiss' kappa and Krippendorff's alpha of the categories the sets give the spans a majority marks."""
    if len(names) < 2:
        raise AccuracyDbError("agreement needs two lists or more")
    return agreement_of(con, find_sets(con, names, split, corpus), scopes, scheme)


def agreement_of(
    con: duckdb.DuckDBPyConnection, sets: list[AnnotationSet], scopes: list[str] | None = None, scheme: str = SCHEME
) -> dict:
    """agreement of sets found already (of one corpus and split), in the scopes (default: ALL and each category of
    their corpus), the pairs' figures under a match scheme."""
    categories = categories_of(con, sets[0].corpus)
    scopes = check_scopes(con, sets[0].corpus, scopes or [])
    pairs = list(itertools.permutations(sets, 2))
    scoring = score_pairs(con, pairs, models=figure_models(scheme), with_tokens=counts_characters(scheme))
    try:
        figures = [row for row in pair_figures(scoring, scheme) if row["scope"] in scopes]
    finally:
        scoring.con.close()
    sha = {s.name: s.sha256 for s in sets}
    for row in figures:
        row["signature"] = signature(sha[row["reference"]], sha[row["compared"]], row["scope"], scheme)
    result = {
        "sets": [s.name for s in sets],
        "split": sets[0].split,
        "scheme": scheme,
        "pairs": figures,
        "correlations": correlations(con, sets, scopes),
        "categories": None,
    }
    if len(sets) >= 3:
        min_votes = majority(len(sets))
        matrix = rating_matrix(majority_ratings(con, sets, min_votes), sets, categories)
        stamp = signature(sets[0].sha256, [s.sha256 for s in sets[1:]], "ALL", min_votes=min_votes)
        result["categories"] = [
            {**row, "min_votes": min_votes, "signature": stamp} for row in category_reliability(matrix, len(categories))
        ]
    return result


@dataclass
class Adjudication:
    """A majority gold list: its spans (text_id, span_start, span_end, category, tied_categories, voters) and the
    lists and rule it came from."""

    sets: list[AnnotationSet]
    min_votes: int
    spans: list[dict]

    @property
    def ties(self) -> list[dict]:
        return [span for span in self.spans if span["tied_categories"]]

    def provenance(self) -> str:
        lists = ", ".join(f"{s.name} ({s.kind}, {s.split}, sha256 {s.sha256[:12]})" for s in self.sets)
        return (
            f"accuracy-db adjudicate: the token spans marked by at least {self.min_votes} of {len(self.sets)} lists"
            f" ({lists}); rule: majority tokens, joined where at least {self.min_votes} lists join them, category"
            f" by majority of lists, ties to the first in report order (docs/agreement.md, Majority gold);"
            f" {len(self.ties)} tie(s)"
        )


def adjudicate(
    con: duckdb.DuckDBPyConnection,
    names: list[str],
    min_votes: int,
    split: str | None = None,
    corpus: str | None = None,
) -> Adjudication:
    """The spans that at least min_votes of the named lists mark, merged and categorised by the rule of
    queries/stats/majority_spans.sql."""
    if len(names) < 2:
        raise AccuracyDbError("adjudicate needs two lists or more")
    if not 1 <= min_votes <= len(names):
        raise AccuracyDbError(f"--min-votes is {min_votes}: it must be between 1 and the {len(names)} lists given")
    sets = find_sets(con, names, split, corpus)
    spans = {}
    for row in majority_ratings(con, sets, min_votes):
        spans.setdefault((row["text_id"], row["span_start"]), row)
    keys = ("text_id", "span_start", "span_end", "category", "tied_categories", "voters")
    return Adjudication(sets, min_votes, [{key: row[key] for key in keys} for row in spans.values()])


MISTAKE_LIST_SQL = """
SELECT
    spans.text_id || '.txt' AS TEXT_ID,
    arg_min(tokens.sentence_id, tokens.doc_token) AS SENTENCE_ID,
    row_number() OVER (ORDER BY spans.text_id, spans.span_start) AS ANNOTATION_ID,
    string_agg(tokens.token, ' ' ORDER BY tokens.doc_token) AS TOKENS,
    arg_min(tokens.sent_token, tokens.doc_token) AS SENT_TOKEN_START,
    arg_max(tokens.sent_token, tokens.doc_token) AS SENT_TOKEN_END,
    spans.span_start AS DOC_TOKEN_START,
    spans.span_end AS DOC_TOKEN_END,
    spans.category AS TYPE,
    '' AS CORRECTION,
    'marked by ' || spans.voters || ' of ' || $lists || ' lists'
    || coalesce('; category tie ' || spans.tied_categories || ', the first taken', '') AS COMMENT
FROM majority AS spans
JOIN tokens ON tokens.text_id = spans.text_id AND tokens.doc_token BETWEEN spans.span_start AND spans.span_end
GROUP BY spans.text_id, spans.span_start, spans.span_end, spans.category, spans.tied_categories, spans.voters
ORDER BY spans.text_id, spans.span_start
"""


def mistake_list_rows(con: duckdb.DuckDBPyConnection, adjudication: Adjudication) -> list[dict]:
    """The majority spans as rows of a shared-task mistake list (both id schemes, the tokens), in text order; the
    comment says how many lists marked the span, and any tie."""
    import pyarrow as pa

    majority_table = pa.Table.from_pylist(
        adjudication.spans,
        schema=pa.schema(
            [("text_id", pa.string()), ("span_start", pa.int32()), ("span_end", pa.int32()),
             ("category", pa.string()), ("tied_categories", pa.string()), ("voters", pa.int64())]
        ),
    )  # fmt: skip
    con.register("majority", majority_table)
    try:
        return fetch_dicts(con, MISTAKE_LIST_SQL, {"lists": len(adjudication.sets)})
    finally:
        con.unregister("majority")


MISTAKE_LIST_COLUMNS = [
    "TEXT_ID", "SENTENCE_ID", "ANNOTATION_ID", "TOKENS", "SENT_TOKEN_START", "SENT_TOKEN_END", "DOC_TOKEN_START",
    "DOC_TOKEN_END", "TYPE", "CORRECTION", "COMMENT",
]  # fmt: skip


def write_derived_list(
    con: duckdb.DuckDBPyConnection,
    adjudication: Adjudication,
    folder,
    name: str,
    force: bool = False,
    inputs: Inputs = NO_INPUTS,
):
    """Write the majority list as folder/NAME.csv (a shared-task mistake list) and its sidecar folder/NAME.json (the
    description records the lists and the rule), as output_files writes a file (neither when one is refused);
    return the CSV's path."""
    import csv
    import io
    import json
    from pathlib import Path

    folder = Path(folder)
    csv_path, sidecar_path = folder / f"{name}.csv", folder / f"{name}.json"
    for path in (csv_path, sidecar_path):
        output_files.check(path, force, inputs)  # before the rows are made
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=MISTAKE_LIST_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(mistake_list_rows(con, adjudication))
    sidecar = {"approach": "human", "description": adjudication.provenance()}
    output_files.make_folder(folder)
    output_files.write_files(
        {csv_path: text.getvalue().encode(), sidecar_path: (json.dumps(sidecar, indent=2) + "\n").encode()},
        force,
        inputs,
    )
    return csv_path


@dataclass
class SoftAdjudication:
    """Soft gold: per text of the lists' split, the runs of characters of constant share (text_id, char_start,
    char_end, lists, share) that queries/stats/soft_gold_spans.sql gives, and the lists they come from."""

    sets: list[AnnotationSet]
    spans: list[dict]

    def provenance(self) -> str:
        lists = ", ".join(f"{s.name} ({s.kind}, sha256 {s.sha256[:12]})" for s in self.sets)
        return f"per character, the share of {len(self.sets)} lists that mark it ({lists})"


def soft_adjudicate(
    con: duckdb.DuckDBPyConnection, names: list[str], split: str | None = None, corpus: str | None = None
) -> SoftAdjudication:
    """The share of the named lists that mark each character of their split's texts, in runs of constant share."""
    if len(names) < 2:
        raise AccuracyDbError("adjudicate needs two lists or more")
    sets = find_sets(con, names, split, corpus)
    without_text = con.execute(
        "SELECT count(*) FROM texts WHERE corpus = $corpus AND split = $split AND generated_text IS NULL",
        {"corpus": sets[0].corpus, "split": sets[0].split},
    ).fetchone()[0]
    if without_text:
        raise AccuracyDbError(
            f"adjudicate --soft counts characters: {without_text} text(s) of {sets[0].corpus}'s split"
            f" {sets[0].split} have no text, only token ids"
        )
    spans = fetch_dicts(con, database.stats_query("soft_gold_spans"), {"set_ids": [s.set_id for s in sets]})
    return SoftAdjudication(sets, spans)


def soft_gold_lines(con: duckdb.DuckDBPyConnection, adjudication: SoftAdjudication) -> list[dict]:
    """One Mu-SHROOM line per text of the split, in text order: its runs as soft labels (prob: the share) and, by
    the task's rule, the runs of share above one half, touching ones joined, as its hard labels."""
    from accuracy_db.etl.mushroom_files import hard_from_soft

    runs: dict[str, list[tuple[int, int, float]]] = {}
    for span in adjudication.spans:
        runs.setdefault(span["text_id"], []).append((span["char_start"], span["char_end"], span["share"]))
    texts = con.execute(
        "SELECT text_id, generated_text FROM texts WHERE corpus = $corpus AND split = $split ORDER BY text_id",
        {"corpus": adjudication.sets[0].corpus, "split": adjudication.sets[0].split},
    ).fetchall()
    return [
        {
            "id": text_id,
            "lang": adjudication.sets[0].split,
            "model_output_text": text,
            "soft_labels": [{"start": s, "end": e, "prob": p} for s, e, p in runs.get(text_id, [])],
            "hard_labels": [[s, e] for s, e in hard_from_soft(runs.get(text_id, []))],
        }
        for text_id, text in texts
    ]


def write_soft_gold(
    con: duckdb.DuckDBPyConnection,
    adjudication: SoftAdjudication,
    folder,
    name: str,
    force: bool = False,
    inputs: Inputs = NO_INPUTS,
):
    """Write the soft gold as folder/NAME.jsonl, a Mu-SHROOM file (`import mushroom` and `evaluate --scheme
    mushroom` read it), as output_files writes a file; return its path."""
    import json
    from pathlib import Path

    path = Path(folder) / f"{name}.jsonl"
    output_files.check(path, force, inputs)
    lines = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in soft_gold_lines(con, adjudication))
    output_files.make_folder(Path(folder))
    output_files.write_file(path, lines.encode(), force, inputs)
    return path
