"""The dashboard's charts, drawn from Vega-Lite specs made once per set of inputs.

Altair checks a chart's spec against the Vega-Lite schema and copies it on the way: the leaderboard's two charts
took most of the page's CPU a visit, holding the interpreter lock that every other visitor's page
waits for (issue 36). So every chart is drawn by draw(): the first time a chart's inputs are seen its builder runs
and its spec is made; after that the spec comes from Streamlit's cache.

A spec is made as st.altair_chart makes it: without Altair's default theme (whose fixed sizes Streamlit would
override) and without Altair's limit on rows, its datasets in Arrow's format, which Streamlit sends as they are
(from the rows Altair puts inline, made once here with pyarrow rather than at every visit). Altair's theme and data
transformer are settings of the whole process, so specs are made one at a time under a lock; no page calls
st.altair_chart, whose conversion changes the same settings under a lock of Streamlit's own.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import altair as alt
import pyarrow as pa
import streamlit as st

from accuracy_db.formatting import UNDEFINED

_SETTINGS = threading.Lock()  # Altair's theme and data transformer are the process's


def arrow_bytes(rows: list[dict]) -> bytes:
    """A dataset Altair put inline (rows of JSON values) in Arrow's IPC stream format, which st.vega_lite_chart sends
    as it is: each key of any row a column, in the order first met, null where a row lacks it."""
    names = list(dict.fromkeys(name for row in rows for name in row))
    table = pa.table({name: [row.get(name) for row in rows] for name in names})
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return sink.getvalue().to_pybytes()


@st.cache_data(show_spinner=False, max_entries=256)
def _spec(builder: str, _build: Callable[..., alt.TopLevelMixin], args: tuple) -> dict:
    """The Vega-Lite spec of _build(*args); builder names the function for the cache (the arguments are hashed)."""
    with _SETTINGS, alt.theme.enable("none"), alt.data_transformers.enable("default", max_rows=None):
        spec = _build(*args).to_dict()
    if "datasets" in spec:
        spec["datasets"] = {name: arrow_bytes(rows) for name, rows in spec["datasets"].items()}
    return spec


def draw(where, build: Callable[..., alt.TopLevelMixin], *args, **options):
    """Draw build(*args) in where (a container or column; None for the page) as st.altair_chart would, with its
    options (key, on_select, width, ...); it returns what st.altair_chart returns (the selection, when on_select)."""
    code = build.__code__  # pages run as __main__: their functions are told apart by file
    spec = _spec(f"{code.co_filename}:{build.__qualname__}", build, args)
    return (where or st).vega_lite_chart(spec, **options)


def count_axis(**options) -> alt.Axis:
    """An axis of counts: ticks at whole numbers only (not at 0.5), written without decimals."""
    return alt.Axis(tickMinStep=1, format="d", **options)


def sized_by_count(points: alt.Chart, fields: list[str]) -> alt.Chart:
    """Points sized by how many rows share their position (fields: what places a point, and what else tells
    points apart), so that points on top of each other read as the count they are ("texts here" in the
    tooltip): the largest point is drawn first, under the smaller ones."""
    return points.transform_joinaggregate(texts_here="count()", groupby=fields).encode(
        size=alt.Size("texts_here:Q", title="texts at the point", scale=alt.Scale(range=[40, 480])),
        order=alt.Order("texts_here:Q", sort="descending"),
    )


def named_rows(field: str, names: list[str], **axis) -> alt.Y:
    """A row a name, in the order given, each name whole (labelLimit 320 px), without an axis title."""
    return alt.Y(f"{field}:N", sort=names, title=None, axis=alt.Axis(labelLimit=320, **axis))


def dot_and_whisker(base: alt.Chart, value: str, low: str, high: str, title: str, selection=None) -> list[alt.Chart]:
    """The layers of dots at value with whiskers from low to high, on an axis that fits them (not 0 to 1: the
    differences are what is read); a figure with nothing to divide by says undefined at the axis's start. A click
    on a dot makes the selection, when one is given (the leaderboard's; the Metrics page's forest has none)."""
    fitted = alt.Scale(zero=False, nice=False, padding=12)
    whiskers = base.mark_rule(strokeWidth=2).encode(x=alt.X(f"{low}:Q", title=title, scale=fitted), x2=f"{high}:Q")
    dots = base.mark_circle(size=110, opacity=1).encode(x=alt.X(f"{value}:Q", scale=fitted))
    dots = dots if selection is None else dots.add_params(selection)
    undefined = (
        base.mark_text(text=UNDEFINED, align="left", dx=4, fontSize=11, color="#555")
        .encode(x=alt.value(0), color=alt.value("#555"))
        .transform_filter(f"!isValid(datum['{value}'])")
    )
    return [whiskers, dots, undefined]
