"""Text that no table can hold, in a parsed value: half of a UTF-16 surrogate pair alone, or a NUL.

JSON (\\ud800) and YAML (\\ud800, \\U0000d800) let a string escape a lone surrogate, and json and PyYAML read it into
a Python string that is no Unicode text, which DuckDB and polars refuse (a build or a refresh that met one in a
sidecar stopped with a traceback). JSON (\\u0000) and YAML (\\0, \\x00, \\u0000, \\U00000000) let a string escape a
NUL, which DuckDB stores but PostgreSQL's text cannot (export postgres failed as a whole, naming no table or row).
A value that holds either refuses its file, or its line. (A NUL written as such, in a CSV or a text file, is refused
as the file is decoded: accuracy_db/regular_files.py.)"""

from __future__ import annotations

import re

from accuracy_db.printable import is_utf8, utf8_text

UNSTORABLE_ESCAPE = re.compile(r"\\(?:u|U0000)[dD][89a-fA-F]|\\(?:u0000|U00000000|x00|0)")


class UnstorableText(ValueError):
    """A parsed value holds text no table can hold; the message says which string."""


def unstorable_text(value, text: str | None = None) -> str | None:
    """What is wrong when a parsed JSON or YAML value (a string, a key) holds a lone surrogate or a NUL; None when
    none does. Given the text it was parsed from, only a text with such an escape is looked through."""
    if text is not None and ("\\" not in text or not UNSTORABLE_ESCAPE.search(text)):
        return None
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if not is_utf8(item):
                return f"not valid text: {shown(item)} holds half of a surrogate pair, which is no character"
            if "\0" in item:
                return f"not valid text: {shown(item)} holds a NUL (\\u0000), which no text can hold"
        elif isinstance(item, dict):
            pending += [*item.keys(), *item.values()]
        elif isinstance(item, list):
            pending += item
    return None


def shown(item: str) -> str:
    """A string quoted in a message: its lone surrogates and NULs as escapes, cut to 60 characters."""
    escaped = utf8_text(item).replace("\0", "\\x00")
    return f"'{escaped}'" if len(escaped) <= 60 else f"'{escaped[:60]}…'"
