"""The dashboard under a crowd (issue 36). Polars ran the dashboard's Python functions of a column
(map_elements) on its own threads, which waited for the interpreter lock while page threads holding it waited
inside polars: under fifteen visitors the server hung for good. So no Python function is handed to polars in
dashboard/, and ten visitors at once, twice over, must leave the server answering (benchmarks.dashboard_load,
the short version of its walk, on the shared-task database)."""

from __future__ import annotations

import ast
import contextlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
# polars' calls that run a Python function over values, rows, batches or groups.
POLARS_CALLBACKS = {"map_elements", "map_batches", "map_rows", "apply", "map_groups"}
SESSIONS, BATCHES = 10, 2
# The errors page with a search: its rows went through two polars callbacks. One page keeps the test affordable:
# Chromium spends several CPU seconds drawing a page, the server half a second (benchmarks/results).
WALK = "errors"
HANG_GUARD_SECONDS = 1200  # the whole run, on a machine that may be shared; each page has its own timeout


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


def test_ten_visitors_at_once_twice_over_neither_hang_the_server_nor_silence_it(built_db, tmp_path):
    """Each session a Chromium context of its own; the driver's output is the benchmark's report."""
    command = [sys.executable, "-m", "benchmarks.dashboard_load", "--db", str(built_db), "--logs", str(tmp_path)]
    command += ["--sessions", str(SESSIONS), "--batches", str(BATCHES), "--pages", WALK, "--timeout", "300"]
    driver = subprocess.Popen(
        command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        stdout, stderr = driver.communicate(timeout=HANG_GUARD_SECONDS)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the crowd's run did not end within {HANG_GUARD_SECONDS} s")
    finally:
        with contextlib.suppress(ProcessLookupError):  # the driver's group: it, the server, the browser
            os.killpg(driver.pid, signal.SIGKILL)
    assert stdout, stderr
    (run,) = json.loads(stdout.splitlines()[-1])["runs"]
    assert run["failures"] == []
    assert run["healthy_after_batch"] == [True] * BATCHES and run["answers_after_last_batch"]
    assert run["sigterm_stop_seconds"] is not None  # SIGTERM ended the command and its server
    assert {name: figures["count"] for name, figures in run["pages"].items()} == {
        name: SESSIONS * BATCHES for name in WALK.split(",")
    }
    assert driver.returncode == 0, stderr
    print(
        json.dumps(run["pages"]), f"server CPU {run['server_cpu_seconds']} s, browsers {run['browser_cpu_seconds']} s"
    )
