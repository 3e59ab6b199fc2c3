"""The saved analyses of queries/analysis/: queries (not views) that answer common questions, run by name."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from accuracy_db.errors import AccuracyDbError
from accuracy_db.store.database import sql_files

PACKAGE = "accuracy_db.queries.analysis"


@dataclass(frozen=True)
class Analysis:
    """A saved query: its name (the file stem), the question it answers (its first comment line) and its SQL."""

    name: str
    question: str
    sql: str

    @property
    def parameters(self) -> list[str]:
        """The names of its $parameters, in the order they first appear (outside comments and strings)."""
        code = re.sub(r"--[^\n]*|'[^']*'", " ", self.sql)
        return list(dict.fromkeys(re.findall(r"\$([A-Za-z_]\w*)", code)))


def question(sql: str) -> str:
    """The first line of the opening comment."""
    for line in sql.splitlines():
        if line.startswith("--"):
            return line.removeprefix("--").strip()
    return ""


def saved_analyses() -> list[Analysis]:
    """Every saved analysis, by name."""
    analyses = []
    for file in sql_files(PACKAGE):
        sql = file.read_text(encoding="utf-8")
        analyses.append(Analysis(file.name.removesuffix(".sql"), question(sql), sql))
    return analyses


def saved_analysis(name: str) -> Analysis:
    """The saved analysis of that name; an error naming the closest ones when there is none."""
    analyses = {analysis.name: analysis for analysis in saved_analyses()}
    if name in analyses:
        return analyses[name]
    close = difflib.get_close_matches(name, analyses, n=1)
    hint = f"did you mean {close[0]}? " if close else ""
    raise AccuracyDbError(f"no saved analysis named {name!r}: {hint}`accuracy-db query --list` lists them")
