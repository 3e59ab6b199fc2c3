"""The per-scheme branches of text_scheme_statistics are kept in step: each scheme is a UNION ALL branch of its
own, with its name as a constant (so that a query for one scheme computes only its own counts: the branches give
DuckDB's optimizer the pruning), and the branches must not drift apart. Parsed with sqlglot, the branches of one
union have the same columns in the same order, and differ, once the scheme's name is set aside, only where the
scheme's rule is: in the counting columns and the pairs or units they read. The mart that sums the counts takes the
schemes as rows of one join (a branch each would plan text_scheme_statistics once a branch), and names each scheme
exactly once in each of the two places that select it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import sqlglot
from sqlglot import exp

from accuracy_db.scoring.schemes import NERVALUATE_SCHEMES, SCHEMES, UNIT_SCHEMES

QUERIES = Path(__file__).resolve().parent.parent / "queries"
# model -> (schemes of a union, the columns in which its branches may differ, whether their sources may differ)
RULES = {
    ("text_scheme_statistics", NERVALUATE_SCHEMES): ({"correct", "incorrect", "partial"}, True),  # leftmost/closest
    ("text_scheme_statistics", UNIT_SCHEMES): ({"matched", "gold_total", "submitted_total"}, True),  # tokens/chars
}


def branches_of(union: exp.Union) -> list[exp.Expression]:
    if isinstance(union, exp.Union):
        return branches_of(union.left) + branches_of(union.right)
    return [union]


def scheme_of(branch: exp.Expression) -> str | None:
    if not isinstance(branch, exp.Select):
        return None
    named = [e.unalias() for e in branch.expressions if e.alias_or_name == "scheme"]
    return named[0].this if named and isinstance(named[0], exp.Literal) else None


def scheme_unions(sql: str) -> list[tuple[tuple[str, ...], list[exp.Select]]]:
    """Every union of a model whose branches are one scheme each: (the schemes, the branches)."""
    tree = sqlglot.parse_one(re.sub(r"\$\w+", "NULL", sql), read="duckdb")
    found = []
    for union in tree.find_all(exp.Union):
        if isinstance(union.parent, exp.Union):
            continue
        branches = branches_of(union)
        schemes = tuple(scheme_of(branch) for branch in branches)
        if all(scheme in SCHEMES for scheme in schemes):
            found.append((schemes, branches))
    return found


def drift(branches: list[exp.Select], schemes: tuple[str, ...]) -> tuple[list[list[str]], set[str], int]:
    """The branches' column names, the columns whose expressions differ once the scheme's name is set aside, and
    how many distinct sources (FROM, joins, WHERE) they read."""

    def neutral(node: exp.Expression | None, scheme: str) -> str:
        return "" if node is None else node.sql().replace(f"'{scheme}'", "'<scheme>'")

    columns = [[e.alias_or_name for e in branch.expressions] for branch in branches]
    differing = {
        name
        for position, name in enumerate(columns[0])
        if len({neutral(b.expressions[position], s) for b, s in zip(branches, schemes)}) > 1
    }
    sources = {
        neutral(b.args.get("from"), s)
        + " ".join(neutral(join, s) for join in b.args.get("joins") or [])
        + neutral(b.args.get("where"), s)
        for b, s in zip(branches, schemes)
    }
    return columns, differing, len(sources)


def model_sql(name: str) -> str:
    (path,) = QUERIES.glob(f"*/{name}.sql")
    return path.read_text(encoding="utf-8")


def test_every_union_of_schemes_is_one_the_rules_name():
    found = {
        (path.stem, schemes)
        for path in QUERIES.glob("*/*.sql")
        for schemes, _ in scheme_unions(path.read_text(encoding="utf-8"))
    }
    assert found == set(RULES)


@pytest.mark.parametrize(("model", "schemes"), sorted(RULES))
def test_the_branches_of_a_union_differ_only_where_the_scheme_s_rule_is(model, schemes):
    (branches,) = [found for named, found in scheme_unions(model_sql(model)) if named == schemes]
    columns, differing, sources = drift(branches, schemes)
    allowed, sources_may_differ = RULES[model, schemes]
    assert all(names == columns[0] for names in columns)
    assert differing <= allowed
    assert sources == 1 or sources_may_differ


def test_a_branch_that_drifts_is_found():
    """The check can fail: the exact branch of text_scheme_statistics counting another column than its siblings."""
    sql = model_sql("text_scheme_statistics")
    sibling = "sizes.gold_mistakes,\n        sizes.submitted_mistakes\n    FROM text_sizes AS sizes\n"
    exact_branch = sql.index("'exact' AS scheme")
    at = sql.index(sibling, exact_branch)
    drifted = (
        sql[:at]
        + sibling.replace("sizes.gold_mistakes", "sizes.submitted_mistakes AS gold_mistakes")
        + sql[at + len(sibling) :]
    )
    (branches,) = [found for named, found in scheme_unions(drifted) if named == NERVALUATE_SCHEMES]
    _, differing, _ = drift(branches, NERVALUATE_SCHEMES)
    allowed, _ = RULES["text_scheme_statistics", NERVALUATE_SCHEMES]
    assert differing - allowed == {"gold_mistakes"}


def schemes_named(sql: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The schemes of a mart's VALUES list (the rows it scores) and of its IN filter (what it reads)."""
    tree = sqlglot.parse_one(sql, read="duckdb")
    (values,) = tree.find_all(exp.Values)
    (chosen,) = tree.find_all(exp.In)
    return tuple(row.expressions[0].this for row in values.expressions), tuple(e.this for e in chosen.expressions)


def test_the_counts_mart_scores_and_reads_each_scheme_of_text_scheme_statistics():
    assert schemes_named(model_sql("scheme_counts")) == (NERVALUATE_SCHEMES + UNIT_SCHEMES,) * 2
    assert not scheme_unions(model_sql("scheme_counts"))  # one join, no branch a scheme
