"""The dashboard under a crowd (issue 36): N visitors at once, each a Chromium session of its own, in batches.

    python -m benchmarks.dashboard_load --db DB [--sessions 1,5,10,20] [--batches 5] [--documents 5]
        [--client browser|protocol] [--no-warm] [--out benchmarks/results/dashboard-load-DATE.md]

For each N it starts `accuracy-db dashboard --db DB` afresh (so each N's memory is its own), waits until the
command says it has computed every page's first view (as it does when it starts; --no-warm starts it without), and opens
N browser contexts in one headless Debian /usr/bin/chromium driven by Playwright (never `playwright install`).
With --client protocol the sessions are not browsers but speak Streamlit's protocol from this process
(benchmarks.dashboard_protocol), so that the timings are the server's alone, without twenty Chromiums drawing
pages on the same cores. In each
batch every session walks the same pages at once: the leaderboard, the errors page with filters and a search
(?search=the), DOCUMENTS texts in the lanes layout, the gold explorer, the agreement page, and the SQL page,
where it runs one query. A page's time is from asking for its address until its main content is drawn (a
table's rows, a chart, the lanes) and its script has finished; a query's, from the click on Run until its rows
or its refusal show. After each batch the health endpoint (/_stcore/health) must answer within 5 s.

It samples the server's memory from /proc every 0.2 s: the resident memory of the command, its Streamlit server
and the server's query processes together (their peak), and the Streamlit process's own peak (VmHWM). It also
reports the CPU seconds the server and the browsers used, which tell where a slow page's time went on a machine
whose cores both have to share. At the end it stops the command with SIGTERM and reports how long it took.

It prints one JSON line (the figures), and with --out writes them as Markdown. Exit status 1 when a batch hung
(a page passed its timeout, or the server stopped answering), else 0: the goals are reported, not enforced.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import json
import os
import platform
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlencode

from accuracy_db.dashboard.first_views import WARMED

from benchmarks import dashboard_protocol

CHROMIUM = Path("/usr/bin/chromium")
# How Debian's Chromium is launched here and in tests/test_dashboard_browser.py: headless, and without the
# background connections this machine's closed network refuses.
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
# Every session prefers reduced motion, here and in the tests: Streamlit then skips the animations it would repaint
# while a page runs, and the browsers, which share the machine with the server, draw the errors page with 3.2-3.8
# CPU seconds instead of 4.2-5.3 (alternating, one session, the shared-task database, 2026-11-28).
REDUCED_MOTION = "reduce"
DONE = '[data-testid="stApp"][data-test-script-state="notRunning"]'  # the page's script has finished
QUERY = "SELECT text_id, count(*) AS gold FROM gold_mistakes GROUP BY text_id ORDER BY gold DESC, text_id LIMIT 20"
STARTUP_SECONDS = 120
WARM_SECONDS = 3600  # for `accuracy-db dashboard` to compute every page's first view, as it does when it starts
HEALTH_SECONDS = 5
STOP_BOUND_SECONDS = 30  # the command is killed, and the run reported as failed, when SIGTERM has not ended it by then
PAGES = ("leaderboard", "errors", "document", "gold", "agreement", "sql")  # a session's walk, in its order
GOALS = {"p95_seconds": 3.0, "server_mb": 2048}  # issue 36's, at N = 20
GIB = 2**30


# --- the server ---


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def descendants(pid: int) -> list[int]:
    """A process's children, theirs, and so on (from /proc; none once it is gone)."""
    found, waiting = [], [pid]
    while waiting:
        parent = waiting.pop()
        try:
            tasks = list(Path(f"/proc/{parent}/task").iterdir())
        except FileNotFoundError:
            continue
        for task in tasks:
            try:
                children = [int(child) for child in (task / "children").read_text().split()]
            except FileNotFoundError:
                continue
            found += children
            waiting += children
    return found


def status_kb(pid: int, field: str) -> int:
    """A field of /proc/PID/status in kB (VmRSS, VmHWM); 0 once the process is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError):
        pass
    return 0


def cpu_seconds(pids: list[int]) -> float:
    """CPU time of these processes and of their children that have ended (utime, stime, cutime, cstime)."""
    ticks = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        ticks += sum(int(value) for value in fields[11:15])
    return ticks / os.sysconf("SC_CLK_TCK")


class MemorySampler(threading.Thread):
    """The resident memory of a process and its descendants together, sampled until stopped: the peak."""

    def __init__(self, pid: int, every: float = 0.2) -> None:
        super().__init__(daemon=True)
        self.pid, self.every, self.peak_kb = pid, every, 0
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.wait(self.every):
            total = sum(status_kb(pid, "VmRSS") for pid in [self.pid, *descendants(self.pid)])
            self.peak_kb = max(self.peak_kb, total)


def answering(base: str, seconds: float = 2) -> bool:
    """Whether the server's health endpoint says ok."""
    try:
        with urllib.request.urlopen(f"{base}/_stcore/health", timeout=seconds) as response:
            return response.read() == b"ok"
    except OSError:
        return False


@contextlib.contextmanager
def dashboard(db: Path, log: Path, warm: bool = True):
    """`accuracy-db dashboard --db DB` on a free port while the block runs: (url, the command's process). With warm
    (the command's default), the block starts once the command says it has computed every page's first view."""
    port = free_port()
    command = [str(Path(sys.executable).with_name("accuracy-db")), "dashboard", "--db", str(db), "--port", str(port)]
    url = f"http://127.0.0.1:{port}"
    with log.open("wb") as output:
        server = subprocess.Popen(command + ([] if warm else ["--no-warm"]), stdout=output, stderr=subprocess.STDOUT)
    try:
        awaited(server, lambda: answering(url), STARTUP_SECONDS, f"come up at {url}", log)
        if warm:
            awaited(server, lambda: warmed(log), WARM_SECONDS, "say it had computed its pages' first views", log)
        yield url, server
    finally:
        if server.poll() is None:
            stopped_by_sigterm(server)


def awaited(server: subprocess.Popen, ready, seconds: float, what: str, log: Path) -> None:
    """Wait until ready() while the command runs, at most seconds; else fail saying it did not do what."""
    deadline = time.monotonic() + seconds
    while not ready():
        if server.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"the dashboard did not {what}:\n{log.read_text()}")
        time.sleep(0.2)


def warmed(log: Path) -> str | None:
    """The command's line saying it has computed every page's first view (how many, in how long), once written."""
    return next((line for line in log.read_text(errors="replace").splitlines() if line.startswith(WARMED)), None)


def stopped_by_sigterm(server: subprocess.Popen) -> float | None:
    """SIGTERM to the command, as a service manager sends it: the seconds until it and its server had ended, or None
    when they had not after STOP_BOUND_SECONDS (then they are killed)."""
    family = [server.pid, *descendants(server.pid)]
    started = time.perf_counter()
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=STOP_BOUND_SECONDS)
    except subprocess.TimeoutExpired:
        for pid in family:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        return None
    while any(Path(f"/proc/{pid}").exists() and status_kb(pid, "VmRSS") for pid in family[1:]):
        if time.perf_counter() - started > STOP_BOUND_SECONDS:
            return None
        time.sleep(0.05)
    return time.perf_counter() - started


# --- what a visitor does ---


def walk_of(db: Path, documents: int) -> tuple[list[tuple[str, str, str]], list[str]]:
    """The pages a session opens, as (page, address, what shows its main content), and the texts it reads in
    lanes (the corpus's first submission beside the gold list)."""
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        split, submission = con.execute(
            "SELECT split, min(submission) FROM evaluations GROUP BY split ORDER BY split <> 'test' LIMIT 1"
        ).fetchone()
        texts = [
            row[0]
            for row in con.execute("SELECT text_id FROM texts WHERE split = ? ORDER BY text_id", [split]).fetchall()
        ]
    finally:
        con.close()
    step = max(1, len(texts) // documents)
    errors = urlencode([("search", "the"), ("category", "NAME"), ("category", "NUMBER"), ("outcome", "missed")])
    pages = [
        ("leaderboard", "", ".st-key-leaderboard tbody tr"),
        ("errors", f"errors?{errors}", '.st-key-error_rows [data-testid="stDataFrame"]'),
    ]
    pages += [
        ("document", "document?" + urlencode({"text": text, "submission": submission, "layout": "lanes"}),
         ".st-key-lanes_text .adb-mark")
        for text in texts[::step][:documents]
    ]  # fmt: skip
    pages += [
        ("gold", "gold", ".st-key-gold_by_text tbody tr"),
        ("agreement", "agreement", ".st-key-agreement_matrix canvas, .st-key-agreement_matrix svg"),
        ("sql", "sql?" + urlencode({"sql": QUERY}), 'textarea[aria-label="Query"]'),
    ]
    return pages, texts


async def open_page(page, url: str, ready: str) -> float:
    started = time.perf_counter()
    await page.goto(url)
    await page.locator(ready).first.wait_for(state="attached")
    await page.wait_for_selector(DONE)
    return time.perf_counter() - started


async def run_query(page) -> tuple[float, str]:
    """Press Run on the SQL page: the seconds until its rows (or why there are none) show, and which it was."""
    started = time.perf_counter()
    await page.get_by_role("button", name="Run").click()
    answer = page.locator('.st-key-sql_result [data-testid="stDataFrame"], [data-testid="stAlert"]').first
    await answer.wait_for(state="visible")
    await page.wait_for_selector(DONE)
    kind = "rows" if await page.locator(".st-key-sql_result").count() else "refused"
    return time.perf_counter() - started, kind


async def walk(context, base: str, pages: list, timings: dict, failures: list) -> None:
    """One session's walk: each page timed; a page that fails or passes its timeout is recorded, and the walk
    goes on."""
    page = context.pages[0] if context.pages else await context.new_page()
    for name, address, ready in pages:
        try:
            timings.setdefault(name, []).append(await open_page(page, f"{base}/{address}", ready))
            if name == "sql":
                seconds, kind = await run_query(page)
                timings.setdefault("sql query", []).append(seconds)
                timings.setdefault("sql answers", []).append(kind)
            if await page.get_by_test_id("stException").count():
                failures.append(f"{name}: the page showed an error")
        except Exception as error:  # a timeout above all: the batch goes on, and the run reports it
            failures.append(f"{name} ({address}): {type(error).__name__}: {str(error).splitlines()[0]}")


async def crowd(
    url: str,
    pages: list,
    sessions: int,
    batches: int,
    timeout_ms: int,
    server_pid: int,
    budget: float | None,
    client: str = "browser",
) -> dict:
    """N sessions walking the pages at once, batch after batch (no batch started once budget seconds have passed,
    when given): their timings, failures and the health after each batch, and the CPU seconds of the server and
    of the clients (the browsers, or this process for protocol sessions)."""
    timings: dict[str, list] = {}
    failures: list[str] = []
    health = []
    server_cpu = cpu_seconds([server_pid, *descendants(server_pid)])
    async with contextlib.AsyncExitStack() as stack:
        if client == "protocol":
            own_cpu = time.process_time()

            def walker(_session):
                return dashboard_protocol.walk(url, pages, timings, failures, timeout_ms / 1000)

            clients = list(range(sessions))
        else:
            from playwright.async_api import async_playwright

            playwright = await stack.enter_async_context(async_playwright())
            browser = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            stack.push_async_callback(browser.close)
            clients = []
            for _ in range(sessions):
                context = await browser.new_context(
                    viewport={"width": 1440, "height": 1000}, reduced_motion=REDUCED_MOTION
                )
                context.set_default_timeout(timeout_ms)
                clients.append(context)

            def walker(context):
                return walk(context, url, pages, timings, failures)

        batch_seconds, began = [], time.perf_counter()
        for batch in range(batches):
            if budget and batch and time.perf_counter() - began > budget:
                break
            started = time.perf_counter()
            await asyncio.gather(*(walker(session) for session in clients))
            batch_seconds.append(round(time.perf_counter() - started, 2))
            health.append(await asyncio.to_thread(answering, url, HEALTH_SECONDS))
            print(
                f"  N = {sessions}, batch {batch + 1}: {batch_seconds[-1]:.0f} s, healthy: {health[-1]}, "
                f"failures so far: {len(failures)}, load {os.getloadavg()[0]:.1f}",
                file=sys.stderr,
                flush=True,
            )
        if client == "protocol":
            client_cpu, version = time.process_time() - own_cpu, None
        else:
            browsers = [pid for pid in descendants(os.getpid()) if pid not in [server_pid, *descendants(server_pid)]]
            client_cpu, version = cpu_seconds(browsers), browser.version
    return {
        "timings": timings,
        "failures": failures,
        "healthy_after_batch": health,
        "batch_seconds": batch_seconds,
        "server_cpu_seconds": round(cpu_seconds([server_pid, *descendants(server_pid)]) - server_cpu, 1),
        "client_cpu_seconds": round(client_cpu, 1),
        "chromium": version,
    }


def percentile(values: list[float], fraction: float) -> float:
    """The value below which this fraction of the values lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(fraction * len(ordered) + 0.5) - 1))]


def summary(timings: dict) -> dict:
    pages = {}
    for name, values in timings.items():
        if name == "sql answers":
            continue
        pages[name] = {
            "count": len(values),
            "p50": round(statistics.median(values), 2),
            "p95": round(percentile(values, 0.95), 2),
            "max": round(max(values), 2),
        }
    return pages


def run_n(
    db: Path,
    pages: list,
    sessions: int,
    batches: int,
    timeout_ms: int,
    log: Path,
    budget: float | None,
    client: str = "browser",
    warm: bool = True,
) -> dict:
    """One N: a fresh server (which has computed its pages' first views, when warm), the crowd's batches, the server's
    memory, and SIGTERM at the end."""
    load_before = os.getloadavg()
    with dashboard(db, log, warm) as (url, server):
        sampler = MemorySampler(server.pid)
        sampler.start()
        (streamlit,) = descendants(server.pid)[:1] or [server.pid]
        idle_kb = status_kb(streamlit, "VmRSS")  # before the first batch (after the warm-up, when warm)
        started = time.perf_counter()
        result = asyncio.run(crowd(url, pages, sessions, batches, timeout_ms, server.pid, budget, client))
        sampler.stopped.set()
        sampler.join()
        streamlit_peak_kb = status_kb(streamlit, "VmHWM")
        still_answers = answering(url, HEALTH_SECONDS)
        stop_seconds = stopped_by_sigterm(server)
    answers = result["timings"].pop("sql answers", [])
    return {
        "sessions": sessions,
        "warmed": warmed(log) if warm else "not warmed (--no-warm)",
        "batches": len(result["batch_seconds"]),
        "seconds": round(time.perf_counter() - started, 1),
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in os.getloadavg()],
        "pages": summary(result["timings"]),
        "sql_answers": {kind: answers.count(kind) for kind in sorted(set(answers))},
        "failures": result["failures"],
        "healthy_after_batch": result["healthy_after_batch"],
        "answers_after_last_batch": still_answers,
        "batch_seconds": result["batch_seconds"],
        "server_idle_mb": round(idle_kb / 1024),
        "server_peak_mb": round(streamlit_peak_kb / 1024),
        "server_tree_peak_mb": round(sampler.peak_kb / 1024),
        "server_cpu_seconds": result["server_cpu_seconds"],
        "client_cpu_seconds": result["client_cpu_seconds"],
        "sigterm_stop_seconds": None if stop_seconds is None else round(stop_seconds, 2),
        "chromium": result["chromium"],
    }


def hung(run: dict) -> bool:
    """Whether a run shows a hang: a page that passed its timeout, the health endpoint silent after a batch, or a
    server that SIGTERM did not stop."""
    timed_out = any("Timeout" in failure for failure in run["failures"])
    return timed_out or not all(run["healthy_after_batch"]) or run["sigterm_stop_seconds"] is None


# --- the report ---


def machine() -> dict:
    model = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if "model name" in line
        ),
        platform.processor(),
    )
    memory_kb = int(Path("/proc/meminfo").read_text().split()[1])
    import streamlit

    return {
        "cpus": os.cpu_count(),
        "cpu": model,
        "memory_gb": round(memory_kb / 2**20, 1),
        "python": platform.python_version(),
        "streamlit": streamlit.__version__,
        "platform": platform.platform(),
    }


def busiest_processes(count: int = 6) -> list[str]:
    """What else was running: the processes using the most CPU (ps's %CPU: over each one's life)."""
    lines = subprocess.run(
        ["ps", "-eo", "pcpu,rss,comm", "--sort=-pcpu", "--no-headers"], capture_output=True, text=True
    ).stdout.splitlines()
    return [" ".join(line.split()) for line in lines[:count]]


def markdown(report: dict) -> str:
    protocol = report["client"] == "protocol"
    clients = (
        "sessions speaking Streamlit's protocol without a browser (benchmarks.dashboard_protocol), all in this driver"
        if protocol
        else f"Chromium {report['runs'][0]['chromium'] if report['runs'] else '?'}"
    )
    lines = [
        f"# The dashboard under a crowd ({report['started']} – {report['ended']})",
        "",
        f"`python -m benchmarks.dashboard_load {' '.join(report['arguments'])}` on `{report['db']}` "
        f"({report['texts']} texts). Machine: {report['machine']['cpus']} cores ({report['machine']['cpu']}), "
        f"{report['machine']['memory_gb']} GB, Python {report['machine']['python']}, Streamlit "
        f"{report['machine']['streamlit']}, {clients}; the server and the "
        f"{'driver' if protocol else 'browsers and this driver'} share the machine's cores (and its other users' "
        "work: the load averages beside each N).",
        "",
        "Busiest processes when it started (ps, %CPU over each one's life, RSS kB): "
        + "; ".join(f"`{line}`" for line in report["busiest_before"])
        + ".",
        "",
        "| N | page | visits | p50 s | p95 s | max s |",
        "| ---: | --- | ---: | ---: | ---: | ---: |",
    ]
    for run in report["runs"]:
        for name, figures in run["pages"].items():
            lines.append(
                f"| {run['sessions']} | {name} | {figures['count']} | {figures['p50']:.2f} | {figures['p95']:.2f} | "
                f"{figures['max']:.2f} |"
            )
    lines += [
        "",
        "| N | batches (s each) | healthy after each batch | failures | SQL answers | server MB before / peak (VmHWM) |"
        " server and its query processes, peak MB | CPU s: server / "
        f"{'driver' if protocol else 'browsers'} | SIGTERM to exit | load before → after |",
        "| ---: | --- | --- | ---: | --- | --- | ---: | --- | ---: | --- |",
    ]
    for run in report["runs"]:
        stop = run["sigterm_stop_seconds"]
        lines.append(
            f"| {run['sessions']} | {', '.join(f'{s:.0f}' for s in run['batch_seconds'])} | "
            f"{' '.join('yes' if ok else 'NO' for ok in run['healthy_after_batch'])}"
            f"{'' if run['answers_after_last_batch'] else ' (NOT at the end)'} | {len(run['failures'])} | "
            f"{', '.join(f'{count} {kind}' for kind, count in run['sql_answers'].items())} | "
            f"{run['server_idle_mb']} / {run['server_peak_mb']} | {run['server_tree_peak_mb']} | "
            f"{run['server_cpu_seconds']:.0f} / {run['client_cpu_seconds']:.0f} | "
            f"{'did not stop' if stop is None else f'{stop:.1f} s'} | "
            f"{run['load_before'][0]:.1f} → {run['load_after'][0]:.1f} |"
        )
    lines += ["", "Before its first batch, each N's fresh server (`accuracy-db dashboard`) said:", ""]
    lines += [f"- N = {run['sessions']}: {run['warmed']}" for run in report["runs"]]
    failures = [f"- N = {run['sessions']}: {failure}" for run in report["runs"] for failure in run["failures"]]
    if failures:
        lines += ["", "Failures:", "", *failures[:40]]
    lines += ["", *goal_lines(report["runs"])]
    return "\n".join(lines) + "\n"


def goal_lines(runs: list[dict]) -> list[str]:
    """PASS or MISS for issue 36's goals, at the largest N run."""
    if not runs:
        return []
    top = max(runs, key=lambda run: run["sessions"])
    worst = max(top["pages"], key=lambda name: top["pages"][name]["p95"])
    checks = [
        (f"no hang at N = {top['sessions']}", not hung(top), f"{len(top['failures'])} failures"),
        (
            f"p95 under {GOALS['p95_seconds']:g} s for every page at N = {top['sessions']}",
            top["pages"][worst]["p95"] < GOALS["p95_seconds"],
            f"worst {worst} {top['pages'][worst]['p95']:.2f} s",
        ),
        (
            f"server under {GOALS['server_mb'] / 1024:g} GB at N = {top['sessions']}",
            top["server_tree_peak_mb"] < GOALS["server_mb"],
            f"{top['server_tree_peak_mb']} MB with its query processes",
        ),
        ("the server answers after the last batch", top["answers_after_last_batch"], ""),
    ]
    return [f"{'PASS' if ok else 'MISS'}  {label}{': ' + detail if detail else ''}" for label, ok, detail in checks]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--sessions", default="1,5,10,20", help="comma-separated numbers of sessions at once")
    parser.add_argument("--batches", type=int, default=5)
    parser.add_argument("--documents", type=int, default=5, help="texts each session reads in lanes")
    parser.add_argument("--pages", default=",".join(PAGES), help="the pages each session opens (comma-separated)")
    parser.add_argument("--timeout", type=float, default=60, help="seconds a page may take before it counts as hung")
    parser.add_argument("--budget", type=float, help="seconds after which an N starts no further batch")
    parser.add_argument(
        "--client",
        choices=["browser", "protocol"],
        default="browser",
        help="browser: a Chromium session each; protocol: Streamlit's websocket protocol without a browser "
        "(benchmarks.dashboard_protocol), so that the timings are the server's alone",
    )
    parser.add_argument(
        "--no-warm",
        dest="warm",
        action="store_false",
        help="start the servers with --no-warm: each page's first visitor computes its figures",
    )
    parser.add_argument("--out", type=Path, help="write the report as Markdown here")
    parser.add_argument("--logs", type=Path, default=Path("/tmp"), help="where the servers' output goes")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # as Ctrl+C: the server is stopped, the browser closed
    if args.client == "browser" and not CHROMIUM.is_file():
        sys.exit(f"error: {CHROMIUM} is missing: install Debian's chromium (make chromium)")
    pages, texts = walk_of(args.db, args.documents)
    pages = [page for page in pages if page[0] in args.pages.split(",")]
    report = {
        "arguments": sys.argv[1:],
        "db": str(args.db),
        "client": args.client,
        "texts": len(texts),
        "machine": machine(),
        "busiest_before": busiest_processes(),
        "started": f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC",
        "runs": [],
    }
    for sessions in (int(n) for n in args.sessions.split(",")):  # in the order given: the largest first, if wanted
        print(f"N = {sessions} …", file=sys.stderr, flush=True)
        log = args.logs / f"dashboard-load-{sessions}.log"
        run = run_n(
            args.db, pages, sessions, args.batches, int(args.timeout * 1000), log, args.budget, args.client, args.warm
        )
        report["runs"].append(run)
        print(json.dumps({key: run[key] for key in ("sessions", "pages", "failures")}), file=sys.stderr, flush=True)
        report["ended"] = f"{datetime.datetime.now(datetime.UTC):%H:%M} UTC"
        if args.out:  # after each N, so that a long run leaves what it measured
            args.out.write_text(markdown(report), encoding="utf-8")
    print(json.dumps(report))
    sys.exit(1 if any(hung(run) for run in report["runs"]) else 0)


if __name__ == "__main__":
    main()
