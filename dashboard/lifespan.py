"""The dashboard's server application, the file `accuracy-db dashboard` hands to `streamlit run`: Streamlit's
st.App over app.py (the pages' entry point), with a lifespan that computes each page's first view in this process
(first_views.compute) as soon as the server has started, and again each time `build` or `refresh` republishes the
database, so that no visitor waits for a page's first figures (at scale 100 the leaderboard's and the metrics
page's took seconds each: issue 36). With $ACCURACY_DB_WARM at 0 (`accuracy-db dashboard --no-warm`) each page's
first visitor computes them."""

import contextlib
import os
import sys
import threading

import streamlit as st

from accuracy_db.defaults import WARM_ENV
from accuracy_db.store.publish import publication

REWARM_SECONDS = 2  # how often the server looks whether the database has been republished


def keep_warm(stopped: threading.Event, first_views) -> None:
    """Compute every page's first view (first_views.compute) now and each time the database is republished, until
    stopped; each time, say so in one line, naming any page left cold and why."""
    data, seen = first_views.data, None
    while not stopped.is_set():
        try:
            now = publication(data.db_path())  # as the pages tell a republished database (data.identity)
        except OSError:
            now = None
        if now is not None and now != seen:
            republished, seen = seen is not None, now
            pages, failed, seconds = first_views.compute()
            again = ", for the database as republished" if republished else ""
            cold = f"; left cold: {'; '.join(failed)}" if failed else ""
            print(f"{first_views.WARMED} {pages} pages in {seconds:.1f} s{again}{cold}", file=sys.stderr, flush=True)
        stopped.wait(REWARM_SECONDS)


@contextlib.asynccontextmanager
async def lifespan(_app):
    """While the server runs: keep_warm in a thread of its own (a daemon: a computation under way does not hold
    up the server's stop)."""
    stopped = threading.Event()
    if os.environ.get(WARM_ENV) != "0":
        # Imported once Streamlit's runtime has started, whose caches data.py's reads are made with, and before the
        # server takes its first visitor (whose page would import it too).
        from accuracy_db.dashboard import first_views

        threading.Thread(target=keep_warm, args=(stopped, first_views), name="first-views", daemon=True).start()
    try:
        yield None
    finally:
        stopped.set()


app = st.App("app.py", lifespan=lifespan)
