"""The accuracy-db command's entry point, lighter than the command line itself: `accuracy-db query` starts its
query's process first (sandbox.start_early), so that the process's start (Python, DuckDB, sqlglot) overlaps the
command's own (click, the command's modules, its checks); then it runs the command line (cli/main.py)."""

from __future__ import annotations

import sys

RUNS_NO_QUERY = {"-h", "--help", "--list"}  # options with which the query command runs no query


def main() -> None:
    args = sys.argv[1:]
    if args[:1] == ["query"] and not RUNS_NO_QUERY & set(args):
        from accuracy_db.sqlbox.sandbox import start_early

        start_early()
    from accuracy_db.cli.main import main as command_line

    command_line()
