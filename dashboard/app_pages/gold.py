"""Gold explorer: the gold-standard mistakes of a corpus's split by category and by text, the error rate of the
texts per generating system (the shared task's), and the gold mistakes that every submission missed. The last
three are the saved analyses of queries/analysis/ that `accuracy-db query` runs, filtered to the chosen split; the
mistakes per text of another corpus, whose categories are not the analysis's columns, are counted by
data.gold_explorer."""

import altair as alt
import polars as pl
import streamlit as st
from accuracy_db.dashboard import charts, choices, data, links, palette, tables
from accuracy_db.dashboard.literal import literal


def category_bars(by_category: pl.DataFrame, categories: palette.Categories) -> alt.Chart:
    """A bar per category, its gold mistakes, in the category's colour."""
    return (
        alt.Chart(by_category)
        .mark_bar()
        .encode(
            y=alt.Y("category:N", sort=categories.names, title=None),
            x=alt.X("mistakes:Q", axis=charts.count_axis()),
            color=alt.Color("category:N", scale=categories.scale(), legend=None),
            tooltip=["category", "mistakes"],
        )
    )


def text_bars(long: pl.DataFrame, categories: palette.Categories) -> alt.Chart:
    """A bar per text, stacked by category in the categories' order."""
    return (
        alt.Chart(long)
        .mark_bar()
        .encode(
            x=alt.X("text_id:N", title=None),
            y=alt.Y("count:Q", title="gold mistakes", axis=charts.count_axis()),
            color=alt.Color("category:N", scale=categories.scale()),
            order=alt.Order("category_position:Q"),
            tooltip=["text_id", "category", "count"],
        )
        .transform_calculate(category_position=f"indexof({categories.names}, datum.category)")
    )


def text_rows(frame: pl.DataFrame, key: str, **options) -> None:
    """A table of texts whose rows open their text in the document view, with the gold mistakes only, when
    clicked (in the same tab: a link column would open another)."""
    event = tables.table(frame, key=key, on_select="rerun", selection_mode="single-row", **options)
    if event.selection.rows:
        links.follow("document", text=frame["text_id"][event.selection.rows[0]], submission=links.NO_SUBMISSION)


COUNT_COLUMNS = {category.lower(): category for category in palette.CATEGORIES}  # the analyses' column names
st.title("Gold explorer")
several = len(data.corpora()) > 1
corpus, top = data.corpus_and_columns([1]) if several else (data.choose_corpus(), [st])
categories = data.categories(corpus)
shared_task = corpus == data.SHARED_TASK
splits = data.gold_splits(corpus)
if not splits:
    st.info("The corpus has no gold list.")
    st.stop()
split = choices.split(top[0], corpus, splits)
frames = data.gold_explorer(corpus, split)
by_category = frames["by_category"]
if shared_task:
    per_text = frames["per_text"].drop("split").rename(COUNT_COLUMNS)
else:  # the same columns: the text, the system (none known), all its mistakes, then each category's
    long_counts = frames["per_text"]
    per_text = (
        long_counts.pivot(on="category", index="text_id", values="mistakes")
        .with_columns(system=pl.lit(None, pl.String), mistakes=pl.sum_horizontal(categories.names))
        .select("text_id", "system", "mistakes", *categories.names)
    )
total = by_category["mistakes"].sum()

st.subheader("By category")
st.markdown(f"**{total}** gold mistakes in the {len(per_text)} texts of the {literal(split)} split.")
left, right = st.columns([3, 2])
with left:
    tables.table(by_category.sort("mistakes", descending=True, maintain_order=True), key="gold_by_category")
charts.draw(right, category_bars, by_category, categories, width="stretch")

st.subheader("By text")
st.caption(
    "The gold mistakes of each text by category, and the system that generated it where that is known. Click a row "
    "to open the text in the document view."
)
text_rows(per_text, "gold_by_text", column_config={"text_id": "text", "mistakes": "all"}, height=420)
long = per_text.unpivot(on=categories.names, index="text_id", variable_name="category", value_name="count")
charts.draw(None, text_bars, long, categories, width="stretch")

st.subheader("Error rate by generating system")
per_system = frames["per_system"]
if not shared_task:
    st.caption("Which system generated each text is known for the shared task's texts only (nlg_systems).")
else:
    tables.table(
        per_system.drop("split").rename(COUNT_COLUMNS),
        column_config={
            column: st.column_config.NumberColumn(column, format="%.1f") for column in ["mistakes", *palette.CATEGORIES]
        },
        key="gold_by_system",
    )
    if len(per_system) == 1:
        st.caption("Which system generated each text is not known for this split (nlg_systems has none of its texts).")
    else:
        st.caption("Gold mistakes per text. A system's row counts only the texts known to come from it.")

st.subheader("Missed by every submission")
submissions = frames["submissions"]["submissions"][0]
missed = data.with_context(frames["missed"], "gold_mistake_id").select(
    "text_id", "category", "in_context", "correction"
)
if submissions == 0:
    st.caption(f"No submission of the {literal(split)} split is loaded.")
else:
    st.markdown(
        f"**{len(missed)}** of the {total} gold mistakes were missed by all {submissions} submissions of the "
        f"{literal(split)} split (none of them matched it, in the ALL scope as recall counts)."
    )
    text_rows(missed, "missed_by_all")
    st.caption("Click a row to open its text in the document view.")
