"""How the dashboard's tables show their columns: figures to 3 decimals, plain labels, an undefined figure as
undefined and any other NULL (a missing value) as –, as the command line prints them (accuracy_db/formatting.py)."""

from __future__ import annotations

import polars as pl
import streamlit as st

from accuracy_db import formatting
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
# The statistics' measures in words (the command line's JSON and CSV keep their names).
MEASURES = {
    "pearson": "Pearson's r",
    "spearman": "Spearman's ρ",
    "kendall": "Kendall's τ",
    "fleiss_kappa": "Fleiss' κ",
    "krippendorff_alpha": "Krippendorff's α",
}


def measure_name(measure: str) -> str:
    """A measure as a table names it: in words where it has them."""
    return MEASURES.get(measure, measure)


def score_columns() -> dict:
    """Column settings for the figures of the scores view (and of the mushroom scheme's)."""
    config = {
        key: st.column_config.NumberColumn(label, format=formatting.FIGURE_PRINTF)
        for key, label in (RATIOS | MEANS).items()
    }
    config |= {
        key: st.column_config.NumberColumn(label, format=formatting.COUNT_PRINTF) for key, label in COUNTS.items()
    }
    return config


def with_bounds(row: dict, key: str, name: str | None = None) -> dict:
    """A figure of a row (key, its interval key_ci) as three numbers, so that the table sorts it as a number: name
    (key by default), name_low and name_high (None where there is no interval)."""
    name = name or key
    low, high = row.get(f"{key}_ci") or (None, None)
    return {name: row[key], f"{name}_low": low, f"{name}_high": high}


def bounded(names: list[str]) -> list[str]:
    """The columns with_bounds makes of these figures, each figure followed by its interval's bounds."""
    return [column for name in names for column in (name, f"{name}_low", f"{name}_high")]


# A figure's column and its bounds', narrow: with the names beside them, every column of a table is in view at
# 1440 px (tests/test_dashboard_browser.py).
FIGURE_PIXELS = 70
BOUND_PIXELS = 48


def interval_columns(labels: dict[str, str], interval: str, signed: bool = False) -> dict:
    """Column settings for figures with their intervals (with_bounds): each a number column at the figures'
    decimals, followed by its interval's bounds at theirs (formatting.py decides both), and the counts. Numbers
    sort as numbers, where "0.288 [0.26, 0.32]" as text sorted −0.040 before −0.145 (issue 51)."""
    sign = "+" if signed else ""
    config = {}
    for key, label in labels.items():
        config[key] = st.column_config.NumberColumn(
            label,
            format=formatting.FIGURE_PRINTF.replace("%", f"%{sign}"),
            help=f"The {label}; empty: undefined",
            width=FIGURE_PIXELS,
        )
        for bound, word in (("low", "from"), ("high", "to")):
            config[f"{key}_{bound}"] = st.column_config.NumberColumn(
                bound,
                format=formatting.INTERVAL_PRINTF.replace("%", f"%{sign}"),
                help=f"The {label}'s {interval}: {word}",
                width=BOUND_PIXELS,
            )
    config |= {
        key: st.column_config.NumberColumn(label, format=formatting.COUNT_PRINTF) for key, label in COUNTS.items()
    }
    return config


def with_nulls_shown(frame: pl.DataFrame, config: dict, numbers: tuple[str, ...] = ()) -> tuple[pl.DataFrame, dict]:
    """The frame with every NULL of a text or number column as – (a figure's as undefined), and the column settings
    to match: a number column with a NULL becomes text, in its format (%.3f, %d) where its settings give one, so it
    still sorts as the figures do when they have as many digits (as the dashboard's 0–1 figures do); but the
    columns of numbers stay numbers, sorted as numbers, a NULL an empty cell (a signed figure as text sorts −0.040
    before −0.145)."""
    config = dict(config)
    columns = []
    for name, dtype in frame.schema.items():
        setting = config.get(name)
        if isinstance(setting, dict) and setting.get("type_config", {}).get("type") == "link":
            continue  # a link column shows an empty cell: a – would be a link
        if name in numbers:
            continue
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


def table(frame, key: str, column_config: dict | None = None, numbers: tuple[str, ...] = (), **options):
    """A table without its row index, NULL shown as – (but in the columns of numbers, which stay numbers), in a
    container named by key: the name a test finds it by (AppTest.get_by_key), and a CSS class (st-key-KEY) in the
    browser. st.dataframe keeps a key only for selections. What st.dataframe returns: the selection, with
    on_select."""
    config = column_config or {}
    if isinstance(frame, pl.DataFrame):
        frame, config = with_nulls_shown(frame, config, numbers)
    with st.container(key=key):
        return st.dataframe(frame, hide_index=True, column_config=config or None, **options)


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
