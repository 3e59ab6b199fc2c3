"""Text from the inputs, made safe to print on a terminal.

A submission's file name, a cell of a list or a team's name may hold characters a terminal acts on instead of
showing: ESC starts sequences that set its title, write its clipboard (OSC 52), move the cursor or clear what was
printed; a carriage return or a backspace writes over a line; C1 codes do what ESC does; a bidirectional override
shows what follows reversed. Every message and table cell the commands print passes through printable(), which
shows each of them as its escape (\\x1b, \\r, \\u202e), as ls shows such file names; tabs stay. The formats for
programs (JSON, CSV, Parquet) give the data as it is: JSON escapes them itself.
"""

from __future__ import annotations

import re

# C0 but the tab, DEL, C1, and the bidirectional embeddings, overrides and isolates (U+202A-E, U+2066-9)
UNPRINTABLE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def escaped(match: re.Match) -> str:
    return match.group().encode("unicode_escape").decode("ascii")


def printable(text: str) -> str:
    """The text with each character a terminal would act on shown as its escape."""
    return UNPRINTABLE.sub(escaped, text)


def markup_free(text: str) -> str:
    """Text from the inputs where rich reads markup (a message, a table's title, heading or caption): printable,
    and its [brackets] escaped, so that a name such as a[b] is text."""
    from rich.markup import escape  # (rich is imported only by what prints with it)

    return escape(printable(text))
