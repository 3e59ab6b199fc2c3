"""Links between the pages, and the page's state in its address (st.query_params), so that what a page shows can
be shared as a link.

The choices the pages share (SHARED: the corpus, through data.choose_corpus, the split, the submission, the scope
and the match scheme) are kept from page to page in the session and written in the address of every page that
offers them. The address
wins over what is kept: a link (or a shared address) names what it opens. Links between pages are made by one
helper, target(), which adds the shared choices kept to what the link names, so that a page opened from another
shows the same split, scope and submission; they open in the same tab (st.page_link, st.switch_page), keeping
the session."""

from __future__ import annotations

import streamlit as st

from .literal import literal

NO_SUBMISSION = "(gold mistakes only)"  # the document view's choice of no submission
SHARED = ("corpus", "split", "submission", "scope", "scheme")  # the choices kept from page to page
KEPT = "kept-"  # the session's key of a shared choice: KEPT + its name (a widget's own state is its page's)

PAGES = {  # the pages a link opens, by the name of their address (/errors)
    "metrics": "app_pages/metrics.py",
    "errors": "app_pages/errors.py",
    "document": "app_pages/document.py",
}


def kept(name: str):
    """The value of a shared choice kept in this session, or None."""
    return st.session_state.get(KEPT + name)


def keep(name: str, value) -> None:
    """Keep a shared choice for the other pages (a choice made otherwise than by select: a multiselect's one value)."""
    st.session_state[KEPT + name] = value


def opening(choices: list, default=None):
    """The value a shared choice opens on when neither the address nor another page gives one: the default when it
    is one of the choices, else the first choice (None when there is none)."""
    return default if default is not None and default in choices else next(iter(choices), None)


def shared(name: str, choices: list, default=None):
    """A shared choice's value on this run of a page: the address's when it is one of the choices, else the one
    kept from another page, else the default (or the first choice). It is kept, and written in the address.
    A value the page cannot honour (given in the address, or kept from another page, but not among its choices)
    is never silently replaced: the page says so (unhonoured), and the kept value stays for the pages that can
    show it."""
    given = st.query_params.get(name)
    wanted = next((value for value in (given, kept(name)) if value is not None), None)
    value = next(
        (value for value in (given, kept(name)) if value is not None and value in choices), opening(choices, default)
    )
    if wanted is not None and wanted not in choices:
        unhonoured(name, wanted, value)
        if given is not None and given not in choices:
            del st.query_params[name]
        return value
    keep(name, value)
    if value is not None and given != value:
        st.query_params[name] = value
    return value


def unhonoured(name: str, wanted, shown) -> None:
    """Say on the page that a shared choice made elsewhere (or in the address) is not among its choices, and what
    it shows instead."""
    instead = "nothing" if shown is None else f"the {name} {literal(str(shown))}"
    st.caption(
        f":material/info: This page has no {name} {literal(str(wanted))} (chosen earlier) to show: it shows "
        f"{instead}. The other pages keep {literal(str(wanted))}."
    )


def _chosen(name: str, key: str) -> None:
    """A shared selector's change: kept, and in the address (which would otherwise win on the next run)."""
    keep(name, st.session_state[key])
    st.query_params[name] = st.session_state[key]


def select(where, label: str, name: str, choices: list, default=None, **options):
    """A selector (in where: a column, or st) of a shared choice: it starts from shared(), and what the visitor
    chooses is kept for the other pages and put in the address."""
    key = f"shared-{name}"
    st.session_state[key] = shared(name, choices, default)
    return (where or st).selectbox(label, choices, key=key, on_change=_chosen, args=(name, key), **options)


def target(page: str, **values) -> tuple[str, dict]:
    """A link to a page: its file and its address's parameters, the shared choices kept and the values given (a
    list repeats its parameter; None drops it)."""
    params = {name: kept(name) for name in SHARED} | values
    return PAGES[page], {name: value for name, value in params.items() if value is not None}


def link(where, page: str, label: str, icon: str | None = None, **values) -> None:
    """A link (in where) to a page with target()'s parameters, opened in the same tab."""
    file, params = target(page, **values)
    (where or st).page_link(file, label=label, icon=icon, query_params=params)


def follow(page: str, **values):
    """Go to a page with target()'s parameters, in the same tab (a click on a chart's mark or a table's row)."""
    file, params = target(page, **values)
    st.switch_page(file, query_params=params)


def from_address(key: str, name: str, choices: list | None = None, default=None, many: bool = False) -> None:
    """Start the widget with this key from the address's parameter `name` when it first appears (later runs keep
    what the visitor chose): one value, or every value given when many; values not among the choices are
    ignored, and without any the default holds."""
    if key in st.session_state:
        return
    given = st.query_params.get_all(name)
    if choices is not None:
        given = [value for value in given if value in choices]
    if many:
        st.session_state[key] = list(dict.fromkeys(given)) if given else list(default or [])
    elif given:
        st.session_state[key] = given[0]
    elif default is not None:
        st.session_state[key] = default


def to_address(**values) -> None:
    """Put these parts of the page's state in its address: one parameter a value, repeated for a list, none for
    None. Other parameters (the shared choices select() wrote) stay."""
    for name, value in values.items():
        wanted = None if value is None else [str(v) for v in value] if isinstance(value, list) else [str(value)]
        if wanted is None:
            if name in st.query_params:
                del st.query_params[name]
        elif st.query_params.get_all(name) != wanted:
            st.query_params[name] = wanted if isinstance(value, list) else wanted[0]


def errors_of(submissions: str | list[str], category: str, figure: str | None = None) -> dict:
    """The Errors browser's filters (for target()) that show what a figure of submissions counts against them in a
    scope: the gold mistakes they missed (recall) and their false alarms (precision), or both; in a category,
    matched within each category, as the category's scores are; in ALL, across categories."""
    outcomes = {"recall": ["missed"], "precision": ["false_alarm"]}.get((figure or "").removeprefix("token_"))
    return {
        "submission": submissions,
        "category": None if category == "ALL" else category,
        "matching": "across categories" if category == "ALL" else "within each category",
        "outcome": outcomes or ["missed", "false_alarm"],
    }
