"""Half of a UTF-16 surrogate pair, alone: JSON (\\ud800) and YAML (\\ud800, \\U0000d800) let a string escape one,
and json and PyYAML read it into a Python string that is no Unicode text, which DuckDB and polars refuse (a build or a
refresh that met one in a sidecar stopped with a traceback). A value that holds one refuses its file, or its line."""

from __future__ import annotations

import re

from accuracy_db.printable import is_utf8, utf8_text

SURROGATE_ESCAPE = re.compile(r"\\(?:u|U0000)[dD][89a-fA-F]")


class LoneSurrogate(ValueError):
    """A parsed value holds a lone surrogate; the message says which string."""


def lone_surrogate(value, text: str | None = None) -> str | None:
    """What is wrong when a parsed JSON or YAML value (a string, a key) holds a lone surrogate; None when none does.
    Given the text it was parsed from, only a text with a surrogate escape is looked through."""
    if text is not None and ("\\" not in text or not SURROGATE_ESCAPE.search(text)):
        return None
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if not is_utf8(item):
                shown = utf8_text(item)
                shown = shown if len(shown) <= 60 else f"{shown[:60]}…"
                return f"not valid text: '{shown}' holds half of a surrogate pair, which is no character"
        elif isinstance(item, dict):
            pending += [*item.keys(), *item.values()]
        elif isinstance(item, list):
            pending += item
    return None
