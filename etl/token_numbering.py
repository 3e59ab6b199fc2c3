"""Number the tokens of texts in polars, by the rule of text_tokens.sql, each text's list of words at once.

The window of text_tokens.sql sorts the tokens of each text, which splitting already gives in order: at scale 1000
(60,000 texts, 20 million tokens) load_texts takes a third less time this way (benchmarks/results/code-timings.md;
the rows go to DuckDB through their Arrow C streams). Polars is imported only here, so that a process that
numbers a few texts in SQL (the drop-in evaluate) never pays its import.
"""

from __future__ import annotations

from collections.abc import Iterator

import polars as pl

from .batching import BATCH_CHARACTERS

NUMBERS = ("doc_token", "sentence_id", "sent_token", "char_start", "char_end")

# Expressions over the words of one text (pl.element() in list.eval), in the order splitting gives them.
WORD = pl.element()
FULL_STOP = (WORD == ".").cast(pl.Int64)
WIDTH = WORD.str.len_chars().cast(pl.Int64) + 1  # in characters (code points), with the space after the word
POSITION = pl.int_range(1, pl.len() + 1, dtype=pl.Int64)
SENTENCE_START = (POSITION == 1) | (WORD.shift(1) == ".")  # the first word, and each one after a full stop


def text_frames(split: str, text_ids: list[str], generated_texts: list[str]) -> Iterator[tuple[str, pl.DataFrame]]:
    """The rows of the texts table and of the tokens table, made a batch of texts at a time: polars' allocator keeps
    what it took at its peak, which the steps of a build after this one then lack (the 20 million tokens of scale
    1000 at once left 0.7-1 GB more resident)."""
    for batch in batches(generated_texts):
        numbered = numbered_words(text_ids[batch], generated_texts[batch])
        yield (
            "texts",
            numbered.select(
                "text_id",
                "generated_text",
                split=pl.lit(split),
                token_count=pl.col("token").list.len(),
                sentence_count=pl.col("sentence_id").list.last().fill_null(0),  # an empty text has none
            ),
        )
        tokens = numbered.filter(pl.col("token").list.len() > 0).select("text_id", "token", *NUMBERS)
        yield "tokens", tokens.explode(["token", *NUMBERS])


def batches(generated_texts: list[str]) -> Iterator[slice]:
    """Consecutive slices of the texts, each of BATCH_CHARACTERS or more (but the last), or a single text."""
    start, characters = 0, 0
    for end, text in enumerate(generated_texts, start=1):
        characters += len(text)
        if characters >= BATCH_CHARACTERS:
            yield slice(start, end)
            start, characters = end, 0
    if start < len(generated_texts):
        yield slice(start, len(generated_texts))


def numbered_words(text_ids: list[str], generated_texts: list[str]) -> pl.DataFrame:
    """A row a text whose words are joined by single spaces: text_id, generated_text, its words (token) and their
    numbers (NUMBERS), each a list in the order of the words."""
    texts = pl.DataFrame(
        {"text_id": text_ids, "generated_text": generated_texts},
        schema={"text_id": pl.String, "generated_text": pl.String},
    )
    no_words = pl.lit([], dtype=pl.List(pl.String))  # splitting an empty text would give one empty word
    words = texts.with_columns(
        token=pl.when(pl.col("generated_text") == "").then(no_words).otherwise(pl.col("generated_text").str.split(" "))
    )
    return words.with_columns(
        doc_token=numbers(POSITION),
        sentence_id=numbers(FULL_STOP.cum_sum() - FULL_STOP + 1),  # one more than the full stops before the word
        sent_token=numbers(POSITION - pl.when(SENTENCE_START).then(POSITION).forward_fill() + 1),
        char_start=numbers(WIDTH.cum_sum() - WIDTH),
        char_end=numbers(WIDTH.cum_sum() - 1),
    )


def numbers(per_word: pl.Expr) -> pl.Expr:
    """A number of each word of each text, as an INTEGER of the tokens table: summed as 64 bits, so that one that
    does not fit 32 is an error of the cast, not a number that wrapped."""
    return pl.col("token").list.eval(per_word).cast(pl.List(pl.Int32))
