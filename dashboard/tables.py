"""How the dashboard's tables show their columns: figures to 3 decimals, undefined ones empty, plain labels."""

from __future__ import annotations

import streamlit as st

RATIOS = {
    "recall": "recall",
    "precision": "precision",
    "f1": "F1",
    "token_recall": "token recall",
    "token_precision": "token precision",
    "token_f1": "token F1",
}
COUNTS = {"matched": "matched", "gold_total": "gold", "submitted_total": "submitted"}


def score_columns() -> dict:
    """Column settings for the figures of the scores view."""
    config = {key: st.column_config.NumberColumn(label, format="%.3f") for key, label in RATIOS.items()}
    config |= {key: st.column_config.NumberColumn(label, format="%d") for key, label in COUNTS.items()}
    return config


def table(frame, key: str, **options) -> None:
    """A table without its row index, in a container named by key: the name a test finds it by
    (AppTest.get_by_key), and a CSS class (st-key-KEY) in the browser. st.dataframe keeps a key only for
    selections."""
    with st.container(key=key):
        st.dataframe(frame, hide_index=True, **options)
