"""Number the tokens of texts in polars, by the rule of text_tokens.sql, each text's list of words at once.

The window of text_tokens.sql sorts the tokens of each text, which splitting already gives in order: at scale 1000
(20 million tokens) it takes 8-9 s at two cores, this 1.6-1.8 s (the rows then go to DuckDB through their Arrow C
stream). Polars is imported only here, so that a process that numbers a few texts in SQL (the drop-in evaluate)
never pays its import.
"""

from __future__ import annotations

import polars as pl

NUMBERS = ("doc_token", "sentence_id", "sent_token", "char_start", "char_end")

# Expressions over the words of one text (pl.element() in list.eval), in the order splitting gives them.
WORD = pl.element()
FULL_STOP = (WORD == ".").cast(pl.Int64)
WIDTH = WORD.str.len_chars().cast(pl.Int64) + 1  # in characters (code points), with the space after the word
POSITION = pl.int_range(1, pl.len() + 1, dtype=pl.Int64)
SENTENCE_START = (POSITION == 1) | (WORD.shift(1) == ".")  # the first word, and each one after a full stop


def text_frames(split: str, text_ids: list[str], generated_texts: list[str]) -> dict[str, pl.DataFrame]:
    """The rows of the texts table (their counts left at 0) and of the tokens table."""
    texts = {
        "text_id": text_ids,
        "split": split,
        "generated_text": generated_texts,
        "token_count": 0,
        "sentence_count": 0,
    }
    return {"texts": pl.DataFrame(texts), "tokens": numbered_tokens(text_ids, generated_texts)}


def numbered_tokens(text_ids: list[str], generated_texts: list[str]) -> pl.DataFrame:
    """The rows of the tokens table (text_tokens.sql's grain and columns) of texts whose words are joined by
    single spaces."""
    words = pl.DataFrame(
        {"text_id": text_ids, "token": generated_texts}, schema={"text_id": pl.String, "token": pl.String}
    )
    words = words.with_columns(pl.col("token").str.split(" "))
    numbered = words.with_columns(
        doc_token=numbers(POSITION),
        sentence_id=numbers(FULL_STOP.cum_sum() - FULL_STOP + 1),  # one more than the full stops before the word
        sent_token=numbers(POSITION - pl.when(SENTENCE_START).then(POSITION).forward_fill() + 1),
        char_start=numbers(WIDTH.cum_sum() - WIDTH),
        char_end=numbers(WIDTH.cum_sum() - 1),
    )
    # An empty text splits into one empty word: it has no tokens.
    return numbered.explode(["token", *NUMBERS]).filter(pl.col("token") != "")


def numbers(per_word: pl.Expr) -> pl.Expr:
    """A number of each word of each text, as an INTEGER of the tokens table: summed as 64 bits, so that one that
    does not fit 32 is an error of the cast, not a number that wrapped."""
    return pl.col("token").list.eval(per_word).cast(pl.List(pl.Int32))
