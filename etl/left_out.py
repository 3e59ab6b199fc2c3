"""What a reader leaves out of a file, where the format's own tool reads the file without complaint: an empty span
(start = end), which marks nothing, or a field the tool never reads (a Mu-SHROOM file's annotations). Each is
counted by its kind and reported in one line a file (how many, in which field, the first); under strict each is
refused as a problem of its line, as any other.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from accuracy_db.errors import Problem

EMPTY = "empty span(s) (start = end) left out: they mark nothing"


@dataclass
class LeftOut:
    """The problems of a read that leave a part of a line out rather than refuse the file, by (file, kind)."""

    strict: bool = False
    found: dict[tuple[str, str], list[tuple[str, Problem]]] = field(default_factory=dict)

    def leave_out(self, problems: list[Problem], kind: str, where: str, problem: Problem) -> None:
        """A part of a line left out (kind, in field where); under strict, a problem that refuses the file."""
        if self.strict:
            problems.append(problem)
        else:
            self.found.setdefault((problem.file, kind), []).append((where, problem))

    def summary(self) -> list[Problem]:
        """One line a file and kind: how many, in which fields, and the first (in the order of the file)."""
        lines = []
        for (file, kind), found in self.found.items():
            fields = Counter(where for where, _ in found)
            first = min((problem for _, problem in found), key=lambda problem: problem.line or 0)
            counts = ", ".join(f"{where} {count}" for where, count in sorted(fields.items()))
            lines.append(
                Problem(
                    file,
                    None,
                    f"{len(found)} {kind} ({counts}); first: line {first.line}: {first.message}; --strict refuses them",
                )
            )
        return lines
