"""Errors that the command line reports as plain messages, without a traceback."""

from dataclasses import dataclass

from accuracy_db.printable import printable, utf8_text


class AccuracyDbError(Exception):
    """A failure the user can act on; its message is printed as it is."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input file, at a line as an editor shows it (the header is line 1)."""

    file: str
    line: int | None
    message: str

    def __post_init__(self):
        # Recorded in the database and printed: a file name's bytes that are not UTF-8 (or a lone surrogate a cell
        # quoted in the message gave) as escapes, which DuckDB takes.
        object.__setattr__(self, "file", utf8_text(self.file))
        object.__setattr__(self, "message", utf8_text(self.message))

    def __str__(self) -> str:
        """The problem as a message shows it: the file's name and the message made printable (a name or a quoted
        cell may hold what a terminal would act on)."""
        where = f"{self.file}: line {self.line}" if self.line is not None else self.file
        return printable(f"{where}: {self.message}")


def quoted(value, width: int = 80) -> str:
    """A value as a message quotes it: its repr, cut to width characters (a cell or a span may be megabytes: a text
    is cut before its repr is made)."""
    return cut(repr(value[: width + 1]) if isinstance(value, (str, bytes)) else repr(value), width)


def cut(text: str, width: int = 80) -> str:
    """A text as a message shows it: at most width characters, an ellipsis marking a cut."""
    return text if len(text) <= width else f"{text[:width]}…"


class InputError(AccuracyDbError):
    """An input file was refused; every problem found in it is listed."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(problems, key=lambda p: (p.file, p.line or 0))
        super().__init__("\n".join(str(p) for p in self.problems))


class NameTaken(InputError):
    """An input file was refused for a name that a metric or a list loaded before it holds: a name is claimed once,
    and the newcomer is refused (nothing loaded is removed for it). A file of the submissions or the scores folder
    refused so is tried again by a refresh once the name is free."""


@dataclass(frozen=True)
class SpanProblem(Problem):
    """A span that cannot be placed on its text (offsets beyond it, a text not found at its offset, nor exactly once
    elsewhere): the refused half of the offset audit (corpus_rejections.span)."""
