"""The choices the pages share, and their defaults, owned here: every page that offers the split or the scope opens
on the same one, and a choice made on one page holds on every page that offers it (links.py keeps it from page to
page, in the session and the address, and says on a page that cannot honour it so, never replacing it silently).
The corpus's default, the shared task, is data.choose_corpus's."""

from __future__ import annotations

from . import data, links

DEFAULT_SCOPE = "ALL"
SCOPE_HELP = "ALL mistakes, or the mistakes of one category alone."
FIRST_LISTS = 4  # the lists the Agreement page compares when it opens: 12 ordered pairs


def default_split(corpus: str) -> str | None:
    """The split every page opens on: the first with submissions ranked under the corpus's opening scheme (test
    first, the split of the shared task's results), the one the Leaderboard opens on; None when no split has a
    ranked submission (a page then opens on its first split)."""
    splits = data.splits_with_submissions(corpus, next(iter(data.scoring_schemes(corpus)), data.SCHEME))
    return splits[0] if splits else None


def split(where, corpus: str, splits: list[str], **options) -> str:
    """The split selector (in where: a column, or None for the page) among a page's splits, from the shared
    choice, else the default split."""
    return links.select(where, "Split", "split", splits, default=default_split(corpus), **options)


def scope(where, corpus: str, scopes: list[str] | None = None, **options) -> str:
    """The scope selector (in where) among the corpus's scopes (or the page's, where it measures fewer), from the
    shared choice, else ALL."""
    options.setdefault("help", SCOPE_HELP)
    offered = data.scopes(corpus) if scopes is None else scopes
    return links.select(where, "Scope", "scope", offered, default=DEFAULT_SCOPE, **options)
