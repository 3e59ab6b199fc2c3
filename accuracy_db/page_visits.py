"""Visiting the dashboard without a browser: a page run over Streamlit's own protocol, as a browser asks for it.

A browser's page is a websocket to /_stcore/stream: it asks for a run of the page's script (a BackMsg
`rerun_script` with the page's name and address parameters) and draws what comes back (ForwardMsgs: the page's
elements, then `script_finished`). page_run() does the same and draws nothing. `accuracy-db dashboard` visits each
page this way once when its server has started (warm()), so that the first visitor of a page finds its figures
computed (the leaderboard's intervals and clusters took seconds at scale 100); benchmarks.dashboard_protocol sends
crowds of such visitors, whose timings are then the server's alone.
"""

from __future__ import annotations

import asyncio
import time
import urllib.request
from dataclasses import dataclass, field
from urllib.parse import urlsplit

STREAM = "/_stcore/stream"


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


async def visit(base: str, address: str) -> PageRun:
    """One visit of a page, as a new tab makes it (a websocket of its own)."""
    async with connected(base) as socket:
        return await page_run(socket, address)


def answering(base: str, seconds: float = 2) -> bool:
    """Whether the server's health endpoint says ok."""
    try:
        with urllib.request.urlopen(f"{base}/_stcore/health", timeout=seconds) as response:
            return response.read() == b"ok"
    except OSError:
        return False


def warm(base: str, running, page_seconds: float = 1800) -> tuple[int, list[str], float]:
    """Visit every page of the dashboard at base once, the default page first (its navigation names the others),
    as soon as its server answers and while running() says it runs: the pages visited, those that failed
    ("address: why") and the seconds taken."""
    while not answering(base):
        if not running():
            return 0, [], 0.0
        time.sleep(0.2)
    started, visited, failed, waiting = time.perf_counter(), 0, [], [""]
    while waiting and running():
        address = waiting.pop(0)
        try:
            run = asyncio.run(asyncio.wait_for(visit(base, address), page_seconds))
        except Exception as error:  # a closed connection, a timeout: the page is left cold, and said so
            failed.append(f"/{address}: {type(error).__name__}: {error}")
            continue
        visited += 1
        if run.exception:
            failed.append(f"/{address}: the page showed an error")
        if not address:
            waiting += [page for page in run.pages if page]
    return visited, failed, time.perf_counter() - started
