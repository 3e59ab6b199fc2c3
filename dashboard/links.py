"""Links between the pages, and the page's state in its address (st.query_params), so that what a page shows can
be shared as a link."""

from __future__ import annotations

from urllib.parse import urlencode

import streamlit as st

NO_SUBMISSION = "(gold mistakes only)"  # the document view's choice of no submission


def document(text_id: str, submission: str | None = None) -> str:
    """The address of a text in the document view, with a submission's mistakes (or the gold mistakes only)."""
    return "document?" + urlencode({"text": text_id, "submission": submission or NO_SUBMISSION})


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
    """Put the page's state in its address: one parameter a value, repeated for a list, none for None."""
    wanted = {name: value for name, value in values.items() if value is not None}
    current = {name: st.query_params.get_all(name) for name in st.query_params}
    as_lists = {name: value if isinstance(value, list) else [value] for name, value in wanted.items()}
    if current != {name: [str(v) for v in value] for name, value in as_lists.items()}:
        st.query_params.from_dict(wanted)
