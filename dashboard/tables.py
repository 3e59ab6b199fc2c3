"""How the dashboard's tables show their columns: figures to 3 decimals, plain labels, an undefined figure as
undefined and any other NULL (a missing value) as –, as the command line prints them (accuracy_db/formatting.py)."""

from __future__ import annotations

import polars as pl
import streamlit as st

from accuracy_db.formatting import (
    DISPLAY_CHARS,  # a cell shows at most so many characters of a text, or items of a list
    NULL,
    UNDEFINED,
)

RATIOS = {
    "recall": "recall",
    "precision": "precision",
    "f1": "F1",
    "token_recall": "token recall",
    "token_precision": "token precision",
    "token_f1": "token F1",
}
COUNTS = {"matched": "matched", "gold_total": "gold", "submitted_total": "submitted"}
FIGURES = (*RATIOS, "kappa")  # a NULL in these columns is a figure with nothing to divide by
MEANS = {"iou": "IoU", "cor": "cor"}  # the mushroom scheme's figures, means over texts


def score_columns() -> dict:
    """Column settings for the figures of the scores view (and of the mushroom scheme's)."""
    config = {key: st.column_config.NumberColumn(label, format="%.3f") for key, label in (RATIOS | MEANS).items()}
    config |= {key: st.column_config.NumberColumn(label, format="%d") for key, label in COUNTS.items()}
    return config


def interval_columns(interval: str) -> dict:
    """Column settings for figures shown with their intervals as text ("0.288 [0.26, 0.32]"), and the counts."""
    config = {
        key: st.column_config.TextColumn(label, help=f"The {label} and its {interval}") for key, label in RATIOS.items()
    }
    config |= {key: st.column_config.NumberColumn(label, format="%d") for key, label in COUNTS.items()}
    return config


def with_nulls_shown(frame: pl.DataFrame, config: dict) -> tuple[pl.DataFrame, dict]:
    """The frame with every NULL of a text or number column as – (a figure's as undefined), and the column settings
    to match: a number column with a NULL becomes text, in its format (%.3f, %d) where its settings give one, so it
    still sorts as the figures do when they have as many digits (as the dashboard's 0–1 figures do)."""
    config = dict(config)
    columns = []
    for name, dtype in frame.schema.items():
        setting = config.get(name)
        if isinstance(setting, dict) and setting.get("type_config", {}).get("type") == "link":
            continue  # a link column shows an empty cell: a – would be a link
        if dtype == pl.String:
            columns.append(pl.col(name).fill_null(NULL))
        elif dtype.is_numeric() and frame[name].null_count():
            number_format = setting.get("type_config", {}).get("format") if isinstance(setting, dict) else None
            missing = UNDEFINED if name in FIGURES else NULL
            columns.append(
                pl.Series(name, shown_numbers(frame[name].to_list(), number_format, missing), dtype=pl.String)
            )
            settings = setting if isinstance(setting, dict) else {"label": setting}
            config[name] = st.column_config.TextColumn(
                settings.get("label") or name, help=settings.get("help"), width=settings.get("width")
            )
    return frame.with_columns(columns) if columns else frame, config


def shown_numbers(values: list, number_format: str | None, missing: str = NULL) -> list[str]:
    """Numbers as a table shows them in a text column: in the format (%.3f, %d) or as Python writes them, NULL as
    missing.
    Plain Python in the page's thread: polars runs a Python function of a column (map_elements) on its own threads,
    where it waits for the interpreter lock while another page's thread holds it waiting inside polars for those
    threads; under a crowd of visitors the server hung so (issue 36)."""
    return [missing if value is None else number_format % value if number_format else str(value) for value in values]


def table(frame, key: str, column_config: dict | None = None, **options) -> None:
    """A table without its row index, NULL shown as –, in a container named by key: the name a test finds it by
    (AppTest.get_by_key), and a CSS class (st-key-KEY) in the browser. st.dataframe keeps a key only for
    selections."""
    config = column_config or {}
    if isinstance(frame, pl.DataFrame):
        frame, config = with_nulls_shown(frame, config)
    with st.container(key=key):
        st.dataframe(frame, hide_index=True, column_config=config or None, **options)


def cut_long_values(frame: pl.DataFrame) -> tuple[pl.DataFrame, int]:
    """The frame as a table shows it: texts longer than DISPLAY_CHARS characters cut (ending in …), and lists
    longer than DISPLAY_CHARS items cut; and how many values were cut."""
    texts = [name for name, dtype in frame.schema.items() if dtype == pl.String]
    lists = [name for name, dtype in frame.schema.items() if isinstance(dtype, pl.List)]
    long = [pl.col(name).str.len_chars() > DISPLAY_CHARS for name in texts]
    long += [pl.col(name).list.len() > DISPLAY_CHARS for name in lists]
    if not long:
        return frame, 0
    cut = int(frame.select(pl.sum_horizontal(flag.fill_null(False).sum() for flag in long)).item())
    shown = frame.with_columns(
        *(
            pl.when(pl.col(name).str.len_chars() > DISPLAY_CHARS)
            .then(pl.col(name).str.slice(0, DISPLAY_CHARS) + "…")
            .otherwise(pl.col(name))
            for name in texts
        ),
        *(pl.col(name).list.head(DISPLAY_CHARS) for name in lists),
    )
    return shown, cut
