"""The models of queries/ in other engines' SQL: the DuckDB files, transpiled with sqlglot, are the one source.

sqlglot passes some DuckDB constructs through to a target that has no such thing, or drops them with only a log
warning (it once dropped IGNORE NULLS for PostgreSQL, and the scores it gave were wrong). So a transpilation here
fails on any warning, on anything sqlglot calls unsupported, and on the constructs it lets through silently.
"""

from __future__ import annotations

import logging
import re
from contextlib import contextmanager

import sqlglot
from sqlglot import ErrorLevel, exp

from accuracy_db import sql_parse
from accuracy_db.errors import AccuracyDbError

DIALECTS = ("postgres", "spark", "trino")


class NotPortable(AccuracyDbError):
    """A model that cannot be written in a target's SQL as it stands."""


@contextmanager
def sqlglot_warnings():
    """The messages sqlglot logs while the block runs (it reports some losses only there)."""
    messages: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            messages.append(record.getMessage())

    logger = logging.getLogger("sqlglot")
    handler, level, propagate = Collect(logging.WARNING), logger.level, logger.propagate
    logger.addHandler(handler)
    logger.setLevel(logging.WARNING)
    logger.propagate = False
    try:
        yield messages
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
        logger.propagate = propagate


def figure_macros() -> dict[str, tuple[list[str], exp.Expression]]:
    """The figure macros of schema/00_figures.sql: name -> (parameters, body)."""
    code = re.sub(r"--[^\n]*", "", sql_parse.figure_macros())
    macros = {}
    for name, parameters, body in re.findall(r"CREATE MACRO (\w+)\(([^)]*)\) AS\s+(.*?);", code, re.DOTALL):
        macros[name.lower()] = ([p.strip().lower() for p in parameters.split(",")], sqlglot.parse_one(body, "duckdb"))
    return macros


def expand_macros(tree: exp.Expression) -> exp.Expression:
    """Every call of a figure macro replaced by its body, its parameters by the arguments."""
    macros = figure_macros()

    def expand(node: exp.Expression) -> exp.Expression:
        if isinstance(node, exp.Anonymous) and node.name.lower() in macros:
            parameters, body = macros[node.name.lower()]
            arguments = {p: exp.paren(a.copy(), copy=False) for p, a in zip(parameters, node.expressions)}
            expanded = body.copy().transform(
                lambda n: (
                    arguments[n.name.lower()].copy()
                    if isinstance(n, exp.Column) and not n.table and n.name.lower() in arguments
                    else n
                )
            )
            return exp.paren(expanded, copy=False)
        return node

    for _ in range(len(macros) + 1):  # a macro's arguments may call macros: expand until none is left
        tree = tree.transform(expand)
    return tree


def non_portable(tree: exp.Expression) -> list[str]:
    """The constructs of a DuckDB query that sqlglot carries into other dialects unchanged, or drops, silently."""
    found = []
    for node in tree.walk():
        if isinstance(node, exp.Star) and any(node.args.get(k) for k in ("except_", "except", "replace", "rename")):
            found.append(f"* EXCLUDE/REPLACE/RENAME ({node.sql('duckdb')})")
        elif isinstance(node, exp.IgnoreNulls | exp.RespectNulls):
            found.append(f"IGNORE/RESPECT NULLS ({node.sql('duckdb')})")
        elif isinstance(node, exp.Slice) and (node.this is None or node.expression is None):
            found.append(f"an open slice ({node.parent.sql('duckdb') if node.parent else node.sql('duckdb')})")
        elif isinstance(node, exp.Group) and node.args.get("all"):
            found.append("GROUP BY ALL")
        elif isinstance(node, exp.Anonymous):
            found.append(f"a function sqlglot does not know: {node.name}()")
        elif isinstance(node, exp.Lambda):
            found.append(f"a lambda ({node.sql('duckdb')})")
        elif isinstance(node, exp.Struct | exp.Array | exp.Bracket):
            found.append(f"a list or struct ({node.sql('duckdb')})")
        elif isinstance(node, exp.Pivot):
            found.append("PIVOT/UNPIVOT")
        elif isinstance(node, exp.Select) and node.args.get("qualify"):
            found.append("QUALIFY")
        elif isinstance(node, exp.ArgMin | exp.ArgMax | exp.AnyValue):
            found.append(f"{node.sql('duckdb')} (not in PostgreSQL)")
        elif isinstance(node, exp.Select) and any(j.args.get("using") for j in node.args.get("joins") or []):
            if any(isinstance(e, exp.Star) or (isinstance(e, exp.Column) and e.is_star) for e in node.expressions):
                found.append("* over JOIN … USING (engines order the key column differently)")
    return found


def literal(value: object) -> exp.Expression:
    """A parameter's value as SQL."""
    if isinstance(value, list | tuple):
        return exp.Array(expressions=[literal(v) for v in value])
    if isinstance(value, str):
        return exp.Literal.string(value)
    if isinstance(value, bool) or value is None:
        return exp.Boolean(this=value) if value is not None else exp.Null()
    return exp.Literal.number(value)


def rounded_to_even(node: exp.Expression, dialect: str) -> exp.Expression:
    """DuckDB's round_even(x, n), the mushroom scheme's rounding (Python's round: the exact value, ties to even), in
    another dialect: ROUND, of a NUMERIC in PostgreSQL (the double's 15 significant digits, ties away from zero);
    they differ from it only on values within about 1e-15 of a half-way point."""
    if not (isinstance(node, exp.Anonymous) and node.name.lower() == "round_even" and len(node.expressions) == 2):
        return node
    value, decimals = node.expressions
    if dialect == "postgres":
        value = exp.Cast(this=value, to=exp.DataType.build("DECIMAL"))
    return exp.Round(this=value, decimals=decimals)


def transpile(sql: str, dialect: str, params: dict | None = None) -> str:
    """A DuckDB model in another dialect, its figure macros expanded and, when given, its $parameters set to
    these values. NotPortable names what stands in the way."""
    tree = expand_macros(sqlglot.parse_one(sql, read="duckdb")).transform(lambda n: rounded_to_even(n, dialect))
    problems = non_portable(tree)
    if problems:
        raise NotPortable("; ".join(dict.fromkeys(problems)))
    if params is not None:
        tree = tree.transform(lambda n: literal(params[n.name]) if isinstance(n, exp.Placeholder) else n)
    if dialect != "postgres":  # PostgreSQL has NOT MATERIALIZED too; Spark and Trino do not
        for cte in tree.find_all(exp.CTE):
            cte.set("materialized", None)
    else:  # unnest(range(a, b)) in a select list: sqlglot writes UNNEST(GENERATE_SERIES(…)), but a series is a set
        # in PostgreSQL, not an array to unnest, and generate_series in a select list gives its rows
        tree = tree.transform(
            lambda n: n.this if isinstance(n, exp.Explode) and isinstance(n.this, exp.GenerateSeries) else n
        )
    with sqlglot_warnings() as warnings:
        try:
            out = tree.sql(dialect=dialect, unsupported_level=ErrorLevel.RAISE)
        except sqlglot.errors.UnsupportedError as error:
            raise NotPortable(str(error).strip()) from None
    if warnings:
        raise NotPortable("; ".join(warnings))
    return out
