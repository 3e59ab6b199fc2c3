"""The dashboard's screenshots in docs/, taken from the demo database (issue 51).

    accuracy-db demo --db demo.duckdb        # or make demo
    python -m benchmarks.screenshots --db demo.duckdb [--out docs] [--only dashboard-errors ...]

It starts `accuracy-db dashboard --db DB --no-warm` on a free loopback port (benchmarks.dashboard_load's
dashboard), opens each page of SHOTS in headless Chromium (Debian's /usr/bin/chromium driven by Playwright, as the
browser tests do) at 1440 × 1000 pixels, waits until the page's script has finished and what the picture shows is
drawn, scrolls it to the top of the picture, and saves it as OUT/NAME.png: the images docs/dashboard.md and
docs/metrics.md show. Each is a page's address, so a picture shows what that link shows.
"""

from __future__ import annotations

import argparse
import tempfile
from dataclasses import dataclass
from pathlib import Path

from benchmarks.dashboard_load import CHROMIUM, CHROMIUM_ARGS, DONE, REDUCED_MOTION, dashboard

REPO = Path(__file__).resolve().parents[1]
VIEWPORT = {"width": 1440, "height": 1000}
TIMEOUT_MS = 120_000  # a page's first visit on a loaded machine (the server is not warmed)
RUNNING = '[data-testid="stStatusWidget"]'  # "Running…", while a script runs


@dataclass(frozen=True)
class Shot:
    """A picture: its file's name, the page's address (after the dashboard's URL), what must be drawn before it is
    taken (a CSS selector), and what the page is scrolled to first (a selector; None: the top of the page)."""

    name: str
    address: str
    drawn: str
    top: str | None = None


def chart(key: str) -> str:
    """A chart of the container `key` (Vega-Lite draws on a canvas or in an SVG)."""
    return f".st-key-{key} canvas, .st-key-{key} svg"


SHOTS = (
    Shot("dashboard-leaderboard", "/?split=train", chart("interval_chart"), ".st-key-board_level"),
    Shot(
        "dashboard-errors",
        "/errors?split=train&submission=generated-drop40-shift20-p&outcome=missed&outcome=false_alarm",
        chart("error_counts"),
    ),
    Shot(
        "dashboard-document",
        "/document?text=S001&submission=generated-drop40-shift20-p",
        ".st-key-box_score table.adb-players",
    ),
    Shot(
        "dashboard-agreement", "/agreement?split=train", ".st-key-agreement_matrix canvas, .st-key-agreement_matrix svg"
    ),
    Shot("dashboard-validity", "/validity?split=train", chart("validity_scatter"), ".st-key-validity_scatter"),
    Shot("dashboard-metrics", "/metrics?split=train&scope=ALL", chart("metric_forest")),
    Shot(
        "dashboard-metrics-texts",
        "/metrics?split=train&scope=CONTEXT&metric=length",
        chart("metric_roc"),
        ".st-key-metric_scatter",
    ),
)


def take(db: Path, out: Path, shots: tuple[Shot, ...] = SHOTS) -> list[Path]:
    """Each shot of the dashboard on db, saved in out; the files written."""
    from playwright.sync_api import sync_playwright

    written = []
    with tempfile.TemporaryDirectory() as scratch, dashboard(db, Path(scratch) / "server.log", warm=False) as (url, _):
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            context = browser.new_context(viewport=VIEWPORT, reduced_motion=REDUCED_MOTION)
            page = context.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            for shot in shots:
                page.goto(url + shot.address)
                page.wait_for_selector(DONE)
                page.wait_for_selector(RUNNING, state="detached")
                page.locator(shot.drawn).first.wait_for(state="visible")
                if shot.top is not None:
                    page.locator(shot.top).first.evaluate("element => element.scrollIntoView()")
                page.wait_for_timeout(500)  # the charts' entrance (reduced motion: none) and the grid's last paint
                path = out / f"{shot.name}.png"
                page.screenshot(path=path)
                written.append(path)
                print(f"{path}: {url}{shot.address}")
            browser.close()
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True, help="the demo database (accuracy-db demo)")
    parser.add_argument("--out", type=Path, default=REPO / "docs", help="the folder of the images (default: docs/)")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="these shots alone (their names, as in SHOTS)")
    args = parser.parse_args()
    names = [shot.name for shot in SHOTS]
    unknown = sorted(set(args.only or ()) - set(names))
    if unknown:
        parser.error(f"no shot named {', '.join(unknown)}; the shots: {', '.join(names)}")
    take(args.db, args.out, tuple(shot for shot in SHOTS if not args.only or shot.name in args.only))


if __name__ == "__main__":
    main()
