"""The dashboard under a crowd (issue 36). Polars ran the dashboard's Python functions of a column
(map_elements) on its own threads, which waited for the interpreter lock while page threads holding it waited
inside polars: under fifteen visitors the server hung for good. So no Python function is handed to polars in
dashboard/ (the crowd itself, ten visitors at once twice over, is in test_dashboard_browser.py, whose browsers
must not run beside it)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
# polars' calls that run a Python function over values, rows, batches or groups.
POLARS_CALLBACKS = {"map_elements", "map_batches", "map_rows", "apply", "map_groups"}


def callbacks_in(source: str) -> list[str]:
    """The calls of a polars callback API in Python source, as line:name."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            function = node.func
            name = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", None)
            if name in POLARS_CALLBACKS:
                found.append(f"{node.lineno}:{name}")
    return found


def test_the_dashboard_hands_polars_no_python_function():
    found = [
        f"{path.relative_to(REPO)}:{call}"
        for path in sorted((REPO / "dashboard").rglob("*.py"))
        for call in callbacks_in(path.read_text(encoding="utf-8"))
    ]
    assert found == []


@pytest.mark.parametrize("name", sorted(POLARS_CALLBACKS))
def test_the_scan_finds_each_callback_however_it_is_called(name):
    assert callbacks_in(f"frame.with_columns(pl.col('a').{name}(str))") == [f"1:{name}"]
    assert callbacks_in(f"from polars import {name}\n\nx = {name}(frame, f)") == [f"3:{name}"]
