"""Character spans to tokens (etl/char_spans.py): hypothesis draws texts and spans; widening is minimal, a span of
whole tokens maps to exactly those tokens and back, and a text that is not at its offset is placed only when it
occurs exactly once; whitespace at an edge is trimmed, and recorded."""

from __future__ import annotations

from accuracy_db.etl.char_spans import TokenIndex, occurrences_of, token_offsets
from hypothesis import given, settings
from hypothesis import strategies as st

# Few letters and several kinds of whitespace: tokens repeat, spans land on spaces and inside tokens.
TEXTS = st.text(alphabet="ab.é \t\n\u00a0\u2003", max_size=40)
FEW = settings(max_examples=200, deadline=None)


@FEW
@given(TEXTS)
def test_the_tokens_are_what_str_split_gives(text):
    offsets = token_offsets(text)
    assert [text[start:end] for start, end in offsets] == text.split()


@FEW
@given(TEXTS, st.data())
def test_a_span_takes_the_fewest_whole_tokens_that_cover_its_characters(text, data):
    index = TokenIndex(text)
    start = data.draw(st.integers(0, max(len(text) - 1, 0)))
    end = data.draw(st.integers(start + 1, max(len(text), start + 1)))
    span = index.locate(start, text[start:end])
    touched = [i for i, (s, e) in enumerate(index.offsets, start=1) if s < end and e > start]
    if not text[start:end] or not touched:
        assert isinstance(span, str)  # empty text or whitespace only: a problem, never a guess
        return
    assert not isinstance(span, str)
    # Every token the characters touch, and no other: the widening is minimal.
    assert (span.doc_token_start, span.doc_token_end) == (touched[0], touched[-1])
    marked = [at for at in range(start, end) if not text[at].isspace()]
    assert span.char_start <= marked[0] and span.char_end > marked[-1]
    widened = span.char_start < start or span.char_end > end
    exact = (span.char_start, span.char_end) == (start, end)
    assert span.adjustment == (None if exact else "widened" if widened else "trimmed")


@FEW
@given(TEXTS, st.data())
def test_a_span_of_whole_tokens_maps_to_exactly_those_tokens_and_back(text, data):
    index = TokenIndex(text)
    if not index.offsets:
        return
    first = data.draw(st.integers(1, len(index.offsets)))
    last = data.draw(st.integers(first, len(index.offsets)))
    start, end = index.characters_of(first, last)
    span = index.locate(start, text[start:end])
    assert (span.doc_token_start, span.doc_token_end, span.char_start, span.char_end, span.adjustment) == (
        first,
        last,
        start,
        end,
        None,
    )


@FEW
@given(TEXTS, st.data())
def test_a_text_not_at_its_offset_is_placed_only_where_it_occurs_exactly_once(text, data):
    index = TokenIndex(text)
    part = data.draw(st.text(alphabet="ab. ", min_size=1, max_size=4))
    offset = data.draw(st.integers(0, len(text) + 2))
    span = index.locate(offset, part)
    found = [at for at in range(len(text)) if text.startswith(part, at)]
    assert occurrences_of(text, part) == found
    assert occurrences_of(text, part, 2) == found[:2]
    if text[offset : offset + len(part)] == part:
        assert isinstance(span, str) or span.adjustment in (None, "widened", "trimmed")
    elif len(found) == 1 and index.tokens_of(found[0], found[0] + len(part)):
        assert span.adjustment == "relocated"
        touched = [i for i, (s, e) in enumerate(index.offsets, start=1) if s < found[0] + len(part) and e > found[0]]
        assert (span.doc_token_start, span.doc_token_end) == (touched[0], touched[-1])
    else:
        assert isinstance(span, str)


def test_the_problems_say_what_is_wrong():
    index = TokenIndex("Boston beat Boston by 7 points.")
    assert index.locate(-1, "Boston") == "the span's start is -1: the span was not located in the text"
    assert index.locate(0, "") == "the span's text is empty"
    assert index.locate(6, " ") == "the span's text ' ' is only whitespace: it marks no token"
    assert index.locate(3, "Boston") == (
        "the span's text 'Boston' is not at offset 3 (the text at offset 3 is 'ton be') and occurs 2 times"
    )
    moved = index.locate(29, "points")  # runs past the end, but occurs once: there
    assert (moved.doc_token_start, moved.doc_token_end, moved.char_start, moved.adjustment) == (6, 6, 24, "relocated")
    assert index.locate(40, "goals") == (
        "the span's text 'goals' is not at offset 40 (it runs past the end of the text (31 characters))"
        " and does not occur in the text"
    )
    relocated = index.locate(0, "by 7")
    assert (relocated.doc_token_start, relocated.doc_token_end, relocated.adjustment) == (4, 5, "relocated")
    widened = index.locate(24, "point")
    assert (widened.doc_token_start, widened.doc_token_end, widened.char_end, widened.adjustment) == (
        6,
        6,
        31,
        "widened",
    )
    trimmed = index.locate(6, " beat ")
    assert (trimmed.doc_token_start, trimmed.doc_token_end, trimmed.char_start, trimmed.adjustment) == (
        2,
        2,
        7,
        "trimmed",
    )


def test_a_text_that_occurs_often_is_counted_to_a_hundred_and_a_long_one_is_quoted_cut():
    """Counted to the end, each misplaced "a" of a list looped over the half million of a long text of them."""
    index = TokenIndex("a " * 500_000)
    assert index.locate(1, "a") == (
        "the span's text 'a' is not at offset 1 (the text at offset 1 is ' ') and occurs more than 100 times"
    )
    assert index.locate(1, "a " * 100 + "b") == (
        f"the span's text {repr('a ' * 100)[:60]}… is not at offset 1 (the text at offset 1 is"
        f" {repr(' a' * 100 + ' ')[:60]}…) and does not occur in the text"
    )
