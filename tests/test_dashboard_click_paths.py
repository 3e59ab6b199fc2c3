"""The click paths of issue 51 on the demo database, in headless Chromium (as tests/test_dashboard_browser.py drives
it: `accuracy-db dashboard` as a process, Debian's chromium through Playwright): Leaderboard → Errors browser →
Document view; a cell of the Significance matrix → the pair → both lists' errors; a bar of the leaderboard's
categories → that category's false alarms. And p written one way (`< 0.0001`, else three significant digits) on the
Significance matrix and the Agreement and Validity tables; a value column of Agreement, Validity and Metrics, sorted
ascending by a click on its heading, in numeric order (not the text's: −0.040 before −0.048). One server for the
module."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Page, expect
from shared_data import DATA
from test_dashboard_browser import (  # noqa: F401  (browser and page are fixtures)
    ROW_PIXELS,
    browser,
    finished_running,
    page,
    serving,
    table_rows,
    visit,
)

from accuracy_db.interchange.demo import build_demo

# p as every page writes it (formatting.p_value_text): at the floor, else three significant digits
P_TEXT = re.compile(r"< 0\.0001|1\.00|0\.(?:0{0,3})[1-9]\d\d")
UNDEFINED = "–"


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("demo")
    path = folder / "demo.duckdb"
    build_demo(DATA, path, folder / "lists")
    return path


@pytest.fixture(scope="module")
def demo_url(demo_db, tmp_path_factory):
    with serving(demo_db, tmp_path_factory.mktemp("dashboard") / "server.log") as (url, _):
        yield url


def address(view: Page) -> dict[str, list[str]]:
    return parse_qs(urlsplit(view.url).query)


def heading(view: Page, title: str) -> None:
    """Wait until the page titled `title` has been opened and its script has run to its end."""
    expect(view.get_by_role("heading", name=title, level=1)).to_be_visible()
    finished_running(view)


def test_leaderboard_to_errors_to_document(page, demo_url):  # noqa: F811
    """A click on a row of the leaderboard opens the Errors browser on what that list missed and listed wrongly; a
    click on an error opens its detail, whose link opens its text in the Document view with that list."""
    visit(page, f"{demo_url}/?split=train")
    heading(page, "Leaderboard")
    rows = table_rows(page, "leaderboard")
    names = [row[2] for row in rows]
    assert len(names) >= 7 and all(row[3] == "submission" for row in rows)  # no copy of the gold list ranks
    second = names[1]
    grid = page.locator('.st-key-leaderboard [data-testid="stDataFrame"]').bounding_box()
    page.mouse.click(grid["x"] + 15, grid["y"] + ROW_PIXELS * 2 + ROW_PIXELS / 2)  # the second row's marker
    heading(page, "Errors browser")
    assert (address(page)["submission"], address(page)["outcome"]) == ([second], ["missed", "false_alarm"])
    expect(page.locator(".st-key-error_filters")).to_contain_text(f"submissions: {second}")

    page.locator(".st-key-error_page").evaluate("pages => pages.scrollIntoView()")  # the rows, under the header
    box = page.locator('.st-key-error_rows [data-testid="stDataFrame"]').bounding_box()
    page.mouse.click(box["x"] + 15, box["y"] + ROW_PIXELS + ROW_PIXELS / 2)  # the first error
    detail = page.locator(".st-key-error_detail")
    expect(detail).to_contain_text("[")  # its context, the mistake's tokens in brackets
    first_text = table_rows(page, "error_rows")[0]
    detail.get_by_role("link", name="in the Document view").click()
    heading(page, "Document view")
    assert address(page)["submission"] == [second]
    text = address(page)["text"][0]
    assert text in first_text, (text, first_text)  # the error's own text
    expect(page.get_by_text(f"{text} (train)")).to_be_visible()


def test_a_significance_cell_to_the_pair_to_both_lists_errors(page, demo_url):  # noqa: F811
    """A click on a cell of the matrix gives the pair (both figures, the difference, p and the command), and a link
    to what the figure of both counts against them in the Errors browser."""
    visit(page, f"{demo_url}/significance?split=train")
    heading(page, "Significance")
    cells = page.locator(".st-key-significance_matrix [aria-roledescription='rect mark']")
    expect(cells.first).to_be_attached()
    labels = cells.evaluate_all("cells => cells.map(cell => cell.getAttribute('aria-label'))")
    fields = [dict(part.split(": ", 1) for part in label.split("; ")) for label in labels]
    assert {field["p"] for field in fields} - {UNDEFINED} and all(
        P_TEXT.fullmatch(field["p"]) for field in fields if field["p"] != UNDEFINED
    ), {field["p"] for field in fields}
    # a pair the test settles, and one whose A is lower: the colour says who wins
    verdicts = {field["verdict"] for field in fields}
    assert {"A higher, p < 0.01", "B higher, p < 0.01"} <= verdicts, verdicts
    chosen = next(i for i, field in enumerate(fields) if field["verdict"] == "B higher, p < 0.01")
    a, b = fields[chosen]["a"], fields[chosen]["b"]
    cells.nth(chosen).dispatch_event("click")  # the cell itself (its labels are drawn over it)
    pair = page.locator(".st-key-significance_pair")
    expect(pair).to_contain_text(f"{a} against {b}")
    expect(pair).to_contain_text(f"p {fields[chosen]['p']}")
    expect(pair).to_contain_text(f"accuracy-db compare {a} {b} --split train")
    pair.get_by_role("link", name=re.compile("in the Errors browser")).click()
    heading(page, "Errors browser")
    assert sorted(address(page)["submission"]) == sorted([a, b])
    assert address(page)["outcome"] == ["missed"]  # what recall counts against them
    expect(page.locator(".st-key-error_filters")).to_contain_text("outcomes: missed")


def test_a_bar_of_precision_to_that_categorys_false_alarms(page, demo_url):  # noqa: F811
    """A click on a list's precision bar of a category opens that list's false alarms of that category."""
    visit(page, f"{demo_url}/?split=train")
    heading(page, "Leaderboard")
    name = "generated-drop10-alarms30-p"  # 30 % false alarms added: every category has some
    bars = page.locator(f".st-key-category_chart [aria-roledescription='bar'][aria-label*='submission: {name};']")
    bar = bars.and_(page.locator("[aria-label*='scope: NUMBER;'][aria-label*='figure: precision;']"))
    bar.scroll_into_view_if_needed()
    bar.click()
    heading(page, "Errors browser")
    assert address(page)["submission"] == [name] and address(page)["outcome"] == ["false_alarm"]
    expect(page.locator(".st-key-error_filters")).to_contain_text("categories: NUMBER · outcomes: false alarm")
    assert set(column(page, "error_rows", "outcome")) == {"false alarm"}


def column(view: Page, key: str, name: str) -> list[str]:
    """The cells of a table's column `name`, as its table for screen readers holds them (numbers unformatted)."""
    return cells(view, key, index_of(view, key, name))


def index_of(view: Page, key: str, name: str) -> str:
    """The place of column `name` in the table (aria-colindex), before any sort (which marks the heading)."""
    table_rows(view, key)  # (waits for the table's rows)
    head = view.locator(f".st-key-{key} thead th").filter(has_text=re.compile(f"^{re.escape(name)}$"))
    expect(head).to_have_count(1)
    return head.get_attribute("aria-colindex")


def cells(view: Page, key: str, index: str) -> list[str]:
    return view.locator(f".st-key-{key} tbody td[aria-colindex='{index}']").all_text_contents()


# The pages with a table of p-values (its key and the p-values' heading) on the demo database.
P_TABLES = {
    "agreement?split=train": ("agreement_correlations", "p-value"),
    "validity?split=train": ("validity_figures", "p-value"),
}


@pytest.mark.parametrize("path", P_TABLES)
def test_p_is_written_one_way(page, demo_url, path):  # noqa: F811
    """Agreement and Validity write p as the Leaderboard and Significance do (they printed 4.04e-06 and 0.00)."""
    key, p_heading = P_TABLES[path]
    visit(page, f"{demo_url}/{path}")
    written = [cell for cell in column(page, key, p_heading) if cell != UNDEFINED]
    assert written and all(P_TEXT.fullmatch(cell) for cell in written), written


CELLS = "([key, index]) => [...document.querySelectorAll(`.st-key-${key} tbody td[aria-colindex='${index}']`)]"
CHANGED = f"([key, index, before]) => ({CELLS})([key, index]).map(cell => cell.textContent).join('\\n') !== before"
SELECTED = """([key, row]) => {
    const cell = document.querySelector(`.st-key-${key} tbody td[aria-selected='true']`);
    return cell && cell.parentElement.getAttribute('aria-rowindex') === String(row) ? cell : null;
}"""
STEP = 20  # pixels between the cells clicked to find a column: less than a third of the narrowest one


def sorted_by_click(view: Page, key: str, name: str) -> list[str]:
    """Click the heading of column `name` once (the grid sorts by it, ascending), and return its cells as they then
    read. The grid draws on a canvas: the column's place is found by clicking cells along the first two rows until
    the cell selected (in the grid's table for screen readers) is one of that column's."""
    index = index_of(view, key, name)
    before = cells(view, key, index)
    grid = view.locator(f'.st-key-{key} [data-testid="stDataFrame"]')
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    inside = []
    for step, x in enumerate(range(int(box["x"]) + STEP, int(box["x"] + box["width"]), STEP)):
        row = 1 + step % 2  # the first row, then the second: each click's selection told from the one before
        view.mouse.click(x, box["y"] + ROW_PIXELS * (row + 0.5))
        selected = view.wait_for_function(SELECTED, arg=[key, row + 1]).get_property("ariaColIndex").json_value()
        if selected == index:
            inside.append(x)
        elif inside:
            break
    assert inside, f"no cell of {name} found in {key}"
    view.mouse.click((inside[0] + inside[-1]) / 2, box["y"] + ROW_PIXELS / 2)
    view.wait_for_function(CHANGED, arg=[key, index, "\n".join(before)])
    return cells(view, key, index)


# The pages with a table of values (its key and the values' heading) on the demo database.
VALUE_TABLES = {
    "agreement?split=train": ("agreement_correlations", "value"),
    "validity?split=train": ("validity_figures", "value"),
    "metrics?split=train&scope=ALL": ("metrics_text", "value"),
}


@pytest.mark.parametrize("path", VALUE_TABLES)
def test_values_sort_as_numbers(page, demo_url, path):  # noqa: F811
    """A column of values sorted ascending by a click on its heading reads in numeric order (as text, "value
    [interval]" sorted −0.040, −0.048, −0.073, …, then 0.068)."""
    key, name = VALUE_TABLES[path]
    visit(page, f"{demo_url}/{path}")
    shown = sorted_by_click(page, key, name)
    numbers = [float(cell) for cell in shown if cell != ""]
    assert len(set(numbers)) > 1 and numbers == sorted(numbers), shown
    if path.startswith("metrics"):  # negative values, whose text sorts otherwise (-0.056 first): the check has teeth
        assert numbers[0] < 0 and sorted(shown) != shown
