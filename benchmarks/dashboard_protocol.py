"""Visitors without browsers: sessions that speak Streamlit's own protocol to the dashboard (issue 36).

`benchmarks.dashboard_load --client protocol` walks the same pages as its browsers with these sessions. Each
asks for a run of a page's script over the dashboard's websocket and reads what comes back, as a browser does
(accuracy_db.page_visits), and draws nothing: a crowd's timings are then the server's alone. On a machine whose
two cores the server shares with twenty Chromiums, the browsers take most of the CPU (docs/dashboard.md), and the
browsers' timings measure the machine rather than the server.

Each page visit opens a websocket of its own, as a browser's address bar does; a page is done when its script
has finished. A query on the SQL page is a click on Run: a rerun whose widget states say that button was pressed.
"""

from __future__ import annotations

import asyncio
import time

from accuracy_db.page_visits import PageRun, connected, page_run

RUN_BUTTON = "Run"  # the SQL page's button


async def visit(base: str, address: str, query: bool) -> tuple[float, PageRun, float | None, str | None]:
    """Open a page as a new tab would: the seconds until its script had finished, what it sent, and, when query,
    the seconds from pressing Run to the end of that run and what it showed (rows, or refused: no table, or an
    alert)."""
    started = time.perf_counter()
    async with connected(base) as socket:
        shown = await page_run(socket, address)
        opened = time.perf_counter() - started
        if not query:
            return opened, shown, None, None
        started = time.perf_counter()
        answer = await page_run(socket, address, shown.page_script_hash, pressed=shown.buttons[RUN_BUTTON])
        kind = "rows" if answer.tables and not answer.alerts else "refused"
        return opened, shown, time.perf_counter() - started, kind


async def walk(base: str, pages: list, timings: dict, failures: list, timeout: float) -> None:
    """One session's walk, as benchmarks.dashboard_load's browsers walk it: each page timed; a page that fails or
    passes its timeout is recorded, and the walk goes on."""
    for name, address, _ready in pages:
        try:
            opened, shown, answered, kind = await asyncio.wait_for(visit(base, address, name == "sql"), timeout)
            timings.setdefault(name, []).append(opened)
            if answered is not None:
                timings.setdefault("sql query", []).append(answered)
                timings.setdefault("sql answers", []).append(kind)
            if shown.exception:
                failures.append(f"{name}: the page showed an error")
        except TimeoutError:
            failures.append(f"{name} ({address}): Timeout: no end of the page's run after {timeout:g} s")
        except Exception as error:
            failures.append(f"{name} ({address}): {type(error).__name__}: {str(error).splitlines()[0]}")
