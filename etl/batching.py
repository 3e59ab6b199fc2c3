"""How many characters of text the build reads (texts.text_batches) and numbers (token_numbering) at a time:
one size for both, so that each batch read is numbered in one piece."""

BATCH_CHARACTERS = 10_000_000  # about 2.3 million tokens of the generated texts
