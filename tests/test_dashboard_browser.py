"""The dashboard as a person sees it: `accuracy-db dashboard` started as a process on a free loopback port, and
Debian's chromium (headless) driven by Playwright. Playwright's own browser download is not used: .ci/run
installs the chromium package when /usr/bin/chromium is missing.

Set DASHBOARD_SCREENSHOTS=DIR to also save the screenshots there (docs/dashboard-document.png was made so)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
STARTUP_SECONDS = 60
PAGE_TIMEOUT_MS = 30_000


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
            return response.read() == b"ok"
    except OSError:
        return False


@pytest.fixture(scope="module")
def dashboard_url(built_db, tmp_path_factory):
    """`accuracy-db dashboard --db … --port N` running until the module's tests are done."""
    port = free_port()
    log = tmp_path_factory.mktemp("dashboard") / "server.log"
    command = [str(Path(sys.executable).with_name("accuracy-db")), "dashboard", "--db", str(built_db)]
    with log.open("wb") as output:
        server = subprocess.Popen(
            [*command, "--port", str(port)], stdout=output, stderr=subprocess.STDOUT, start_new_session=True
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while not healthy(url):
            if server.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the dashboard did not come up at {url}:\n{log.read_text()}")
            time.sleep(0.2)
        yield url
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=10)


@pytest.fixture(scope="module")
def browser():
    assert CHROMIUM.is_file(), "install Debian's chromium (apt-get install chromium), as .ci/run does"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser) -> Page:
    context = browser.new_context(viewport={"width": 1500, "height": 1000}, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    yield page
    context.close()


def visit(page: Page, url: str) -> float:
    """Open a page of the dashboard and wait until its script has finished running; the seconds it took."""
    started = time.perf_counter()
    page.goto(url)
    page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]')
    expect(page.get_by_test_id("stStatusWidget")).to_have_count(0)  # no "Running…" left
    return time.perf_counter() - started


def screenshot(page: Page, tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"{name}.png"
    page.screenshot(path=path)
    if os.environ.get("DASHBOARD_SCREENSHOTS"):
        page.screenshot(path=Path(os.environ["DASHBOARD_SCREENSHOTS"]) / f"{name}.png")
    return path


def table_rows(page: Page, key: str) -> list[list[str]]:
    """The cells of a table (st.dataframe draws on a canvas, and keeps the cells in a table for screen readers)."""
    rows = page.locator(f".st-key-{key} tbody tr")
    rows.first.wait_for(state="attached")  # the grid fills this hidden table after the script has run
    return [row.locator("td").all_inner_texts() for row in rows.all()]


def test_leaderboard_in_the_browser(page, dashboard_url, tmp_path):
    seconds = visit(page, dashboard_url)
    expect(page.get_by_role("heading", name="Leaderboard", level=1)).to_be_visible()
    expect(page.get_by_text("Ranked by mistake recall, then precision")).to_be_visible()
    for title in ("Leaderboard", "Errors browser", "Document view", "Gold explorer", "Refresh status", "SQL"):
        expect(page.get_by_test_id("stSidebarNav").get_by_text(title, exact=True)).to_be_visible()
    rows = table_rows(page, "leaderboard")
    assert [row[1] for row in rows] == [
        "gsml_doc_based",
        "gsml_sent_based",
        "submission",
        "submission_doc_based",
        "submission_sent_based",
    ]
    rank, name, recall, precision = rows[2][:4]  # the screen readers' table holds the values unrounded
    assert (rank, name, round(float(recall), 3), round(float(precision), 3)) == ("3", "submission", 0.288, 0.613)
    assert screenshot(page, tmp_path, "dashboard-leaderboard").stat().st_size > 0
    print(f"leaderboard: {seconds:.2f} s to a finished page")


def test_document_view_in_the_browser(page, dashboard_url, tmp_path):
    seconds = visit(page, f"{dashboard_url}/document?text=S001&submission=submission")
    expect(page.get_by_role("heading", name="Los Angeles Lakers at Boston Celtics")).to_be_visible()
    wednesday = page.locator("span[title^='Gold mistake G1 · NAME · matched']")
    expect(wednesday).to_have_text("Wednesday")
    expect(wednesday).to_be_visible()
    expect(page.get_by_text("G16✗")).to_be_visible()  # the last gold mistake of S001, which the example misses
    expect(page.get_by_text("8 gold mistakes matched, 8 missed, 4 false alarms")).to_be_visible()
    expect(page.get_by_role("link", name="box score on basketball-reference.com")).to_have_attribute(
        "href", "https://www.basketball-reference.com/boxscores/201702030BOS.html"
    )
    assert ["Celtics", "32–18", "29", "33", "20", "31", "113"] == table_rows(page, "team_lines")[1][:7]
    assert screenshot(page, tmp_path, "dashboard-document").stat().st_size > 0
    print(f"document view: {seconds:.2f} s to a finished page")

    page.get_by_role("button", name="Next").click()
    page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]')
    expect(page.get_by_text("S002 (train)")).to_be_visible()


def test_errors_download_in_the_browser(page, dashboard_url, tmp_path):
    visit(page, f"{dashboard_url}/errors")
    expect(page.get_by_role("heading", name="Errors browser", level=1)).to_be_visible()
    with page.expect_download() as download:
        page.get_by_role("button", name="Download these rows as CSV").click()
    lines = Path(download.value.path()).read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("submission,text_id,outcome,category,in_context,marked,correction,comment")
    header = page.get_by_role("heading", name="mistakes", exact=False).first.inner_text()
    assert len(lines) - 1 == int(header.split()[0])


# --- the command itself: a port in use, and Ctrl+C ---


def dashboard_command(db: Path, port: int) -> list[str]:
    return [str(Path(sys.executable).with_name("accuracy-db")), "dashboard", "--db", str(db), "--port", str(port)]


def test_a_port_in_use_is_one_clear_line_before_anything_is_served(built_db):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(dashboard_command(built_db, port), capture_output=True, text=True, timeout=60)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == f"error: port {port} of 127.0.0.1 is already in use; give another one with --port\n"


@pytest.mark.parametrize("up", [False, True], ids=["starting", "serving"])
def test_ctrl_c_ends_the_dashboard_quietly_and_leaves_no_server(built_db, tmp_path, up):
    """Ctrl+C in a terminal signals the whole foreground process group: the command and the server it started.
    Whether it comes while Streamlit is still starting or once it serves, no traceback, no server left behind."""
    port, log = free_port(), tmp_path / "server.log"
    with log.open("w") as output:
        server = subprocess.Popen(
            dashboard_command(built_db, port),
            stdout=output,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while not (healthy(f"http://127.0.0.1:{port}") if up else "Serving" in log.read_text()):
            if server.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the dashboard did not start:\n{log.read_text()}")
            time.sleep(0.05)
        os.killpg(server.pid, signal.SIGINT)
        server.wait(timeout=30)
        # 130 with "Aborted." when the signal came before the command had started the server
        assert server.returncode in (0, 130) and "Traceback" not in log.read_text(), log.read_text()
        with pytest.raises(ProcessLookupError):  # the server, in the same group, is gone too
            os.killpg(server.pid, 0)
    except BaseException:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGKILL)
        raise
    assert not healthy(f"http://127.0.0.1:{port}")
