"""The dashboard under a crowd (issue 36). Polars ran the dashboard's Python functions of a column
(map_elements) on its own threads, which waited for the interpreter lock while page threads holding it waited
inside polars: under fifteen visitors the server hung for good. So no Python function is handed to polars in
dashboard/ (the crowd itself, ten visitors at once twice over, is in test_dashboard_browser.py, whose browsers
must not run beside it). Nor does a page convert an Altair chart through Streamlit: every chart is drawn from a
spec made once by dashboard/charts.py, under a lock of its own (test_dashboard_charts.py)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
# polars' calls that run a Python function over values, rows, batches or groups.
POLARS_CALLBACKS = {"map_elements", "map_batches", "map_rows", "apply", "map_groups"}
# Streamlit's calls that convert an Altair chart themselves (the built-in charts are Altair charts too).
ALTAIR_DRAWING = {"altair_chart", "line_chart", "bar_chart", "area_chart", "scatter_chart"}


def calls_in(source: str, names: set[str]) -> list[str]:
    """The calls of a function or method of one of these names in Python source, as line:name."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            function = node.func
            name = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", None)
            if name in names:
                found.append(f"{node.lineno}:{name}")
    return found


def calls_in_dashboard(names: set[str]) -> list[str]:
    """calls_in every Python file of dashboard/, as path:line:name."""
    return [
        f"{path.relative_to(REPO)}:{call}"
        for path in sorted((REPO / "dashboard").rglob("*.py"))
        for call in calls_in(path.read_text(encoding="utf-8"), names)
    ]


def test_the_dashboard_hands_polars_no_python_function():
    assert calls_in_dashboard(POLARS_CALLBACKS) == []


@pytest.mark.parametrize("name", sorted(POLARS_CALLBACKS))
def test_the_scan_finds_each_callback_however_it_is_called(name):
    assert calls_in(f"frame.with_columns(pl.col('a').{name}(str))", POLARS_CALLBACKS) == [f"1:{name}"]
    assert calls_in(f"from polars import {name}\n\nx = {name}(frame, f)", POLARS_CALLBACKS) == [f"3:{name}"]


def test_no_page_draws_a_chart_but_through_charts_draw():
    assert calls_in_dashboard(ALTAIR_DRAWING) == []
    found = calls_in("right.altair_chart(chart)\nst.bar_chart(frame)", ALTAIR_DRAWING)
    assert found == ["1:altair_chart", "2:bar_chart"]
