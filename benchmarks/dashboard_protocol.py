"""Visitors without browsers: sessions that speak Streamlit's own protocol to the dashboard (issue 36).

`benchmarks.dashboard_load --client protocol` walks the same pages as its browsers with these sessions. Each
asks for a run of a page's script over the dashboard's websocket and reads what comes back, as a browser does
(page_run below), and draws nothing: a crowd's timings are then the server's alone. On a machine whose
two cores the server shares with twenty Chromiums, the browsers take most of the CPU (docs/dashboard.md), and the
browsers' timings measure the machine rather than the server.

Each page visit opens a websocket of its own, as a browser's address bar does; a page is done when its script
has finished. A query on the SQL page is a click on Run: a rerun whose widget states say that button was pressed.

This is a load generator's client, not the dashboard's: Streamlit's websocket protocol (streamlit.proto's BackMsg
and ForwardMsg, over the websockets package that Streamlit installs) is not a public interface, and a release of
Streamlit may change it; the package and its tests use none of it (tests/test_dashboard.py checks).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

STREAM = "/_stcore/stream"

RUN_BUTTON = "Run"  # the SQL page's button


@dataclass
class PageRun:
    """What one run of a page's script sent: whether it showed an error, its tables, alerts and buttons (label:
    widget id), the page's script hash, and the addresses of the app's pages (from its navigation)."""

    exception: bool = False
    tables: int = 0
    alerts: int = 0
    buttons: dict[str, str] = field(default_factory=dict)
    page_script_hash: str = ""
    pages: list[str] = field(default_factory=list)


async def page_run(socket, address: str, page_script_hash: str = "", pressed: str | None = None) -> PageRun:
    """Ask the server at the other end of this websocket for one run of the page at address (its path and query
    string; "" for the default page), with the button of widget id `pressed` pressed if given, and read what comes
    back until the run has finished."""
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    parts = urlsplit(address)
    request = BackMsg()
    state = request.rerun_script
    state.query_string = parts.query
    state.page_name = parts.path.strip("/")
    state.page_script_hash = page_script_hash
    if pressed:
        widget = state.widget_states.widgets.add()
        widget.id = pressed
        widget.trigger_value = True
    await socket.send(request.SerializeToString())
    run = PageRun()
    while True:
        message = ForwardMsg.FromString(await socket.recv())
        kind = message.WhichOneof("type")
        if kind == "new_session":
            run.page_script_hash = message.new_session.page_script_hash
        elif kind == "navigation":
            run.pages = [page.url_pathname for page in message.navigation.app_pages]
        elif kind == "delta" and message.delta.WhichOneof("type") == "new_element":
            element = message.delta.new_element
            shown = element.WhichOneof("type")
            if shown == "exception":
                run.exception = True
            elif shown == "alert":
                run.alerts += 1
            elif shown == "dataframe":
                run.tables += 1
            elif shown == "button":
                run.buttons[element.button.label] = element.button.id
        elif kind == "script_finished" and message.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
            return run  # a run that ended early for a rerun is followed by the rerun's messages


def connected(base: str):
    """A websocket to the server at this http:// address, as a new tab opens one (async with connected(base) as
    socket)."""
    import websockets

    return websockets.connect(base.replace("http://", "ws://", 1) + STREAM, subprotocols=["streamlit"], max_size=None)


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
