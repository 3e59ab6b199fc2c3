"""Text from the data shown as it is: file and submission names, paths, corrections, comments, messages.

Streamlit renders the text of st.markdown, st.caption, st.title, st.error and of widget labels as Markdown,
with its own additions (LaTeX between dollars, :colour[…] directives, emoji shortcodes). A name such as
``![x](http:\\\\example.com\\x.png)`` would become an image that the browser fetches from elsewhere. Every
ASCII punctuation character may be escaped with a backslash in Markdown (CommonMark), so escaping them all
leaves nothing for the renderer to interpret; line breaks and other control characters, which could start a new
block, are shown as their Unicode control pictures (␊)."""

from __future__ import annotations

import re
import string

_PUNCTUATION = re.compile("([" + re.escape(string.punctuation) + "])")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def literal(value: object) -> str:
    """Markdown that shows str(value) literally."""
    text = _CONTROL.sub(lambda match: "\u2421" if match[0] == "\x7f" else chr(0x2400 + ord(match[0])), str(value))
    return _PUNCTUATION.sub(r"\\\1", text)
