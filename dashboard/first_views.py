"""The first view of each page computed ahead of its first visitor, in the server's own process: each page's
opening reads, called through data.py's cached reads with the choices the page opens on (the corpus, split, scope
and scheme a visitor who gives none sees), so that they are cached when someone opens the page. The lifespan of
the server (lifespan.py) calls compute() when the server starts and again each time `build` or `refresh`
republishes the database (the cache is keyed by the file, so the new file's figures are computed anew).

Each page's function follows the page's opening: tests/test_dashboard.py runs each page in AppTest after it and
checks that the page's first view computes no statistic anew."""

from __future__ import annotations

import time
from collections.abc import Callable

from . import choices, data, links, tables

WARMED = "Computed the first view of"  # how the server says it has computed them (benchmarks wait for it)


def opening_corpus() -> str:
    """The corpus a page opens on (data.choose_corpus with nothing given): the shared task, else the first."""
    return links.opening(data.corpora(), data.SHARED_TASK)


def opening_split(corpus: str, splits: list[str]) -> str | None:
    """The split a page that offers these opens on (choices.split with nothing given)."""
    return links.opening(splits, choices.default_split(corpus))


def ranked_opening(corpus: str) -> tuple[str, str | None]:
    """The scheme and split the pages that rank submissions open on: the corpus's first scoring scheme, and the
    opening split among those with submissions scored under it (None when none has)."""
    scheme = next(iter(data.scoring_schemes(corpus)), data.SCHEME)
    return scheme, opening_split(corpus, data.splits_with_submissions(corpus, scheme))


def opening_scope(corpus: str) -> str:
    """The scope a page that offers the corpus's scopes opens on (choices.scope with nothing given)."""
    return links.opening(data.scopes(corpus), choices.DEFAULT_SCOPE)


def leaderboard(corpus: str) -> None:
    scheme, split = ranked_opening(corpus)
    if split is None:
        return
    if scheme == data.MUSHROOM:
        data.ranked_with_intervals(split, "ALL", corpus, data.MUSHROOM)
        return
    scope = opening_scope(corpus)
    ranked = data.ranked_with_intervals(split, scope, corpus)
    names = [row["submission"] for row in ranked]
    if len(names) > 1:
        data.against_best(names, scope, next(iter(tables.RATIOS)), split, corpus)
    categories = data.scores_and_metadata(corpus, split)["categories"]
    data.best_submission(corpus, split)
    data.category_intervals(categories["submission_id"].unique().sort().to_list(), data.scopes(corpus)[1:])


def significance(corpus: str) -> None:
    scheme, split = ranked_opening(corpus)
    if split is None:
        return
    scope = "ALL" if scheme == data.MUSHROOM else opening_scope(corpus)
    names = data.ranked_submissions(corpus, split, scope, scheme)
    if len(names) > 1:
        data.pairwise(names, scope, data.scheme_figures(scheme)[0], split, corpus, scheme)


def agreement(corpus: str) -> None:
    lists = data.comparable_lists(corpus)
    splits = [split for split, count in lists.group_by("split", maintain_order=True).len().iter_rows() if count >= 2]
    if not splits:
        return
    split = opening_split(corpus, splits)
    chosen = lists.filter(split=split)["set_id"].to_list()[: choices.FIRST_LISTS]
    data.refused_lists(corpus, split)
    data.agreement_of(chosen, data.scopes(corpus), data.SCHEMES[0])
    if len(chosen) > 1 and (text_ids := data.texts_of(corpus, split)):  # two lists text by text: A first, B last
        data.pair_outcomes(chosen[0], chosen[-1], text_ids[0])
        data.tokens_of(text_ids[0])


def validity(corpus: str) -> None:
    submissions = data.evaluated_submissions(corpus)
    if submissions.is_empty():
        return
    first_split = choices.default_split(corpus) or submissions["split"][0]
    submission = links.opening(submissions["submission"].to_list(), data.best_submission(corpus, first_split))
    chosen = submissions.filter(submission=submission)
    data.correlations(submission, chosen["split"][0], opening_scope(corpus), corpus)
    data.counts_per_text(chosen["submission_id"].to_list())


def calibration(corpus: str) -> None:
    if corpus not in data.corpora_with_probabilities():
        return
    quality = data.soft_label_quality(corpus)
    split = opening_split(corpus, list(dict.fromkeys(row["split"] for row in quality)))
    of_split = [row["submission"] for row in quality if row["split"] == split]
    data.curve_and_diagram(links.opening(of_split), corpus, split)


def metrics(corpus: str) -> None:
    splits = data.metric_splits(corpus)
    if splits:
        split = opening_split(corpus, splits)
        data.metric_table(split, links.opening(data.metric_scopes(corpus), choices.DEFAULT_SCOPE), corpus)


def systems(corpus: str) -> None:
    if splits := data.system_splits(corpus):
        data.ranked_systems(corpus, links.opening(splits))


def difficulty(corpus: str) -> None:
    split = opening_split(corpus, data.splits_with_submissions(corpus))
    if split is not None:
        data.recall_by_difficulty(corpus, split)


def errors(corpus: str) -> None:
    split = opening_split(corpus, data.splits_with_submissions(corpus))
    if split is not None:
        data.error_choices(corpus, split)


def document(corpus: str) -> None:
    data.document_choices(corpus)


def gold(corpus: str) -> None:
    split = opening_split(corpus, data.gold_splits(corpus))
    if split is not None:
        data.gold_explorer(corpus, split)


def refresh(corpus: str) -> None:
    data.refresh_status()


def sql(corpus: str) -> None:
    data.relations()


# A page of app.py (its file in app_pages/) and the function that computes its first view.
PAGES: dict[str, Callable[[str], None]] = {
    "leaderboard": leaderboard,
    "significance": significance,
    "agreement": agreement,
    "validity": validity,
    "calibration": calibration,
    "metrics": metrics,
    "systems": systems,
    "difficulty": difficulty,
    "errors": errors,
    "document": document,
    "gold": gold,
    "refresh": refresh,
    "sql": sql,
}


def compute() -> tuple[int, list[str], float]:
    """Compute every page's first view: the pages computed, those that failed ("page: why") and the seconds
    taken."""
    started, failed = time.perf_counter(), []
    try:
        data.latest_publication()  # the sidebar's, on every page
        corpus = opening_corpus()
    except Exception as error:  # no database to read (it cannot be opened, say): every page left cold
        return 0, [f"{type(error).__name__}: {error}"], time.perf_counter() - started
    for page, first_view in PAGES.items():
        try:
            first_view(corpus)
        except Exception as error:  # the page is left cold, and said so; its first visitor sees why
            failed.append(f"{page}: {type(error).__name__}: {error}")
    return len(PAGES) - len(failed), failed, time.perf_counter() - started
