"""Character spans to whole tokens, and back, with every adjustment made on the way recorded.

A text of a corpus other than the shared task is kept as given; its tokens are its runs of non-whitespace (what
str.split() gives, as for the shared task's texts), each with its character offsets. A span given as a start offset
and its text maps to the tokens its characters touch: an edge inside a token widens the span to the whole token
(recorded as "widened"; whitespace at an edge is left out, "trimmed"); a text that is not the text at the offset is
looked for elsewhere, and used when it occurs exactly once (recorded as "relocated"); anything else is a problem,
never a guess.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from accuracy_db.errors import quoted

TOKEN = re.compile(r"\S+")


def token_offsets(text: str) -> list[tuple[int, int]]:
    """(start, end) of every token of a text, in order: end is one past the token's last character."""
    return [match.span() for match in TOKEN.finditer(text)]


@dataclass(frozen=True)
class TokenSpan:
    """The tokens a character span takes (counted from 1, inclusive), their characters, and the adjustment made:
    None when the span was exactly those tokens' characters."""

    doc_token_start: int
    doc_token_end: int
    char_start: int
    char_end: int
    adjustment: str | None


class TokenIndex:
    """A text's tokens, searchable by character offset."""

    def __init__(self, text: str, offsets: list[tuple[int, int]] | None = None):
        self.text = text
        self.offsets = token_offsets(text) if offsets is None else offsets
        self.starts = [start for start, _ in self.offsets]
        self.ends = [end for _, end in self.offsets]

    def tokens_of(self, start: int, end: int) -> tuple[int, int] | None:
        """The first and last token (from 1) that characters [start, end) touch; None when they touch none."""
        first = bisect.bisect_right(self.ends, start)  # the first token ending after start
        last = bisect.bisect_left(self.starts, end)  # one past the last token starting before end
        if first >= last:
            return None
        return first + 1, last

    def characters_of(self, doc_token_start: int, doc_token_end: int) -> tuple[int, int]:
        """The characters [start, end) of tokens doc_token_start … doc_token_end (from 1, inclusive)."""
        return self.starts[doc_token_start - 1], self.ends[doc_token_end - 1]

    def locate(self, start: int, given: str) -> TokenSpan | str:
        """The tokens of the span that starts at character start and reads given; a problem (a message) when it
        cannot be placed."""
        if not given:
            return "the span's text is empty"
        if start < 0:
            return f"the span's start is {start}: the span was not located in the text"
        end = start + len(given)
        adjustment = None
        if end > len(self.text) or self.text[start:end] != given:
            occurrences = occurrences_of(self.text, given, COUNTED + 1)
            found = self.text[start:end]
            where = (
                f"the text at offset {start} is {quoted(found, 60)}"
                if end <= len(self.text)
                else f"it runs past the end of the text ({len(self.text)} characters)"
            )
            if len(occurrences) != 1:
                elsewhere = f"occurs {len(occurrences)} times" if occurrences else "does not occur in the text"
                if len(occurrences) > COUNTED:
                    elsewhere = f"occurs more than {COUNTED} times"
                return f"the span's text {quoted(given, 60)} is not at offset {start} ({where}) and {elsewhere}"
            start, end, adjustment = occurrences[0], occurrences[0] + len(given), "relocated"
        tokens = self.tokens_of(start, end)
        if tokens is None:
            return f"the span's text {quoted(given, 60)} is only whitespace: it marks no token"
        char_start, char_end = self.characters_of(*tokens)
        if adjustment is None and (char_start < start or char_end > end):
            adjustment = "widened"
        elif adjustment is None and (char_start, char_end) != (start, end):
            adjustment = "trimmed"  # whitespace at an edge, which no token has
        return TokenSpan(tokens[0], tokens[1], char_start, char_end, adjustment)


# Occurrences of a span's text counted for its message, at most: counting them all, a list of spans such as "a"
# misplaced in a text of a million of them did not end (a text-long loop a span).
COUNTED = 100


def occurrences_of(text: str, part: str, limit: int | None = None) -> list[int]:
    """Every offset where part occurs in text, overlapping occurrences included (the first limit of them)."""
    found, at = [], text.find(part)
    while at != -1 and len(found) != limit:
        found.append(at)
        at = text.find(part, at + 1)
    return found
