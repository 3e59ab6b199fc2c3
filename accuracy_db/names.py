"""The rule for every name a user gives: a corpus, a category, a list (a submission's file name, a list file of a
corpus folder, `adjudicate --as`), a factgenie campaign or annotator.

A name is shown in tables, pages and messages, matched in SQL, and written into file names: it must be one line of
visible text. So it holds no character of Unicode's category C (controls such as the tab, the newline and NUL;
formats such as the zero-width space U+200B, the byte order mark and the bidirectional controls; surrogates;
private use; unassigned code points), nor a line or paragraph separator (U+2028, U+2029); only the zero-width
joiner and non-joiner (U+200C, U+200D) are taken, which Persian, the Indic scripts and emoji spell with. It is not
blank, has no space at either end (two names that look alike would be two names), and has at most MAX_LENGTH
characters. And it is never a word the models give a meaning of their own (RESERVED), in any case: ALL is the scope
of every category (queries/staging/scopes.sql), so a category named ALL would be scored as every category, and gold
names a split's gold list wherever a list is named (pair_evaluations.find_set), so a submission named gold could
not be told from it; bleu, chrf and length are the built-in metrics, and a list is a metric too.
"""

from __future__ import annotations

import unicodedata

from accuracy_db.errors import AccuracyDbError, quoted

MAX_LENGTH = 200
# A corpus's categories are its scopes: each list is scored in each, and the dashboard gives each a colour and
# initials; a thousand is more than any annotation scheme has.
MAX_CATEGORIES = 1000
JOINERS = "\u200c\u200d"
# The reserved words, by the kinds of name that may not take them; "list" is a submission's name (the gold list of
# a corpus folder is the file gold.jsonl, named so on purpose).
# The built-in metrics (accuracy_db/ingest/builtin_metrics.py) are reserved to them; a list is a metric too
# (queries/marts/metric_scores.sql), so no list may take their names either.
BUILTIN_METRICS = ("bleu", "chrf", "length")
RESERVED = {
    "ALL": ("corpus", "category", "list", "campaign", "annotator"),
    "gold": ("list", "metric"),
    **dict.fromkeys(BUILTIN_METRICS, ("list", "metric")),
}
WHY_RESERVED = {
    "ALL": "ALL is the scope of every category",
    "gold": "gold names the gold list",
    **{name: f"{name} is a built-in metric" for name in BUILTIN_METRICS},
}


def invisible(character: str) -> bool:
    category = unicodedata.category(character)
    return (category[0] == "C" and character not in JOINERS) or category in ("Zl", "Zp")


def name_problem(name, kind: str) -> str | None:
    """What is wrong with a name a user gave as the name of a kind of thing ("corpus", "category", "list",
    "campaign", "annotator", "metric"), in a phrase that quotes it; None when nothing is."""
    shown = f"the {kind} name {quoted(name, 60)}"
    if not isinstance(name, str):
        return f"{shown} is not a text"
    if not name.strip():
        return f"{shown} is blank"
    if name != name.strip():
        return f"{shown} begins or ends with white space"
    if len(name) > MAX_LENGTH:
        return f"{shown} has {len(name):,} characters: at most {MAX_LENGTH}"
    hidden = next((character for character in name if invisible(character)), None)
    if hidden is not None:
        return f"{shown} holds {hidden.encode('unicode_escape').decode('ascii')}, a character that is not visible text"
    reserved = next((word for word in RESERVED if word.casefold() == name.casefold()), None)
    if reserved is not None and kind in RESERVED[reserved]:
        return f"{shown} is reserved ({WHY_RESERVED[reserved]}): choose another"
    return None


def check_option(option: str, name: str | None, kind: str) -> None:
    """Refuse a name given on the command line (None: not given) in one line naming the option."""
    problem = None if name is None else name_problem(name, kind)
    if problem is not None:
        raise AccuracyDbError(f"{option}: {problem}")


def too_many_categories(count: int) -> str:
    """The refusal of a list of count categories, more than MAX_CATEGORIES."""
    return f"{count:,} categories: at most {MAX_CATEGORIES:,} (each is a scope every list is scored in)"
