"""Text from the inputs, made safe to print on a terminal.

A submission's file name, a cell of a list or a team's name may hold characters a terminal acts on instead of
showing: ESC starts sequences that set its title, write its clipboard (OSC 52), move the cursor or clear what was
printed; a carriage return or a backspace writes over a line; C1 codes do what ESC does; a bidirectional override
shows what follows reversed. Every message and table cell the commands print passes through printable(), which
shows each of them as its escape (\\x1b, \\r, \\u202e), as ls shows such file names; tabs stay. The formats for
programs (JSON, CSV, Parquet) give the data as it is: JSON escapes them itself.

A file's name may also hold bytes that are not UTF-8, which Python reads as lone surrogates, as a JSON escape can
give one (\\ud800): text that neither DuckDB nor a UTF-8 terminal takes. utf8_text() shows each as its escape
(the byte of a name as \\xff), and printable() does too.
"""

from __future__ import annotations

import re

# C0 but the tab, DEL, C1, the bidirectional embeddings, overrides and isolates (U+202A-E, U+2066-9), and lone
# surrogates
UNPRINTABLE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def escaped(match: re.Match) -> str:
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:  # a byte of a file name that is not UTF-8, as os.fsdecode reads it
        return f"\\x{code - 0xDC00:02x}"
    return match.group().encode("unicode_escape").decode("ascii")


def is_utf8(text: str) -> bool:
    """Whether UTF-8 can encode the text: it holds no lone surrogate."""
    return text.isascii() or LONE_SURROGATE.search(text) is None


def utf8_text(text: str) -> str:
    """The text, with what UTF-8 cannot encode (a lone surrogate: a byte of a file name that is not UTF-8, or a JSON
    escape) shown as its escape: text that DuckDB takes, and that names its file or cell unmistakably."""
    return text if is_utf8(text) else LONE_SURROGATE.sub(escaped, text)


def printable(text: str) -> str:
    """The text with each character a terminal would act on shown as its escape."""
    return UNPRINTABLE.sub(escaped, text)


def markup_free(text: str) -> str:
    """Text from the inputs where rich reads markup (a message, a table's title, heading or caption): printable,
    and its [brackets] escaped, so that a name such as a[b] is text."""
    from rich.markup import escape  # (rich is imported only by what prints with it)

    return escape(printable(text))
