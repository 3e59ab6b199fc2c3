"""A page of the dashboard holds layout only: its SQL is in dashboard/data.py (the only module that reads the
database), named by a function the page calls, or in queries/. No string of dashboard/app_pages/ (nor of
dashboard/app.py, the entry point that runs them) holds SELECT, apart from the allow-list: the SQL page's example of
a query of the user's own, which it puts in the query box for the user to run, not SQL of the page."""

from __future__ import annotations

import ast
import re
from pathlib import Path

DASHBOARD = Path(__file__).resolve().parent.parent / "dashboard"
PAGES = DASHBOARD / "app_pages"
# (page, name): the strings assigned to these names are the user's, not the page's.
ALLOWED = {("sql.py", "EXAMPLE")}  # the query the SQL page's box opens with, for the user to run and change
SELECT = re.compile(r"\bselect\b", re.IGNORECASE)


def selects(page: str, source: str) -> list[int]:
    """The lines of the strings of a page's source (f-strings' pieces too) that hold SELECT, outside the
    allow-list's assignments. Python's own select (links.select, frame.select) is a name, not a string."""
    tree = ast.parse(source)
    allowed = {
        id(node)
        for statement in tree.body
        if isinstance(statement, ast.Assign)
        and any(isinstance(target, ast.Name) and (page, target.id) in ALLOWED for target in statement.targets)
        for node in ast.walk(statement.value)
    }
    return sorted(
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in allowed
        and SELECT.search(node.value)
    )


def test_no_page_holds_sql():
    layout = [*sorted(PAGES.glob("*.py")), DASHBOARD / "app.py"]
    found = {page.name: selects(page.name, page.read_text(encoding="utf-8")) for page in layout}
    assert "app.py" in found and "leaderboard.py" in found
    assert {page: lines for page, lines in found.items() if lines} == {}


def test_the_check_finds_sql_in_a_page_and_allows_only_the_named_example():
    source = (
        'EXAMPLE = """SELECT 1"""\n'
        'QUERY = "select text_id FROM texts"\n'
        'rows = read(f"SELECT * FROM ({analysis}) WHERE split = $split")\n'
        'picked = links.select(where, "Split", "split", splits)\n'
    )
    assert selects("sql.py", source) == [2, 3]
    assert selects("gold.py", source) == [1, 2, 3]
    assert selects("sql.py", "picked = frame.select('text_id')\n") == []
