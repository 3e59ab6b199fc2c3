"""Gold explorer: the gold-standard mistakes of a corpus's split by category and by text, the error rate of the
texts per generating system (the shared task's), and the gold mistakes that every submission missed. The last
three are the saved analyses of queries/analysis/ that `accuracy-db query` runs, filtered to the chosen split; the
mistakes per text of another corpus, whose categories are not the analysis's columns, are counted here."""

import altair as alt
import polars as pl
import streamlit as st
from accuracy_db.dashboard import charts, choices, data, links, palette, tables
from accuracy_db.dashboard.literal import literal

BY_CATEGORY = """
SELECT categories.category, count(gold.mistake_id) AS mistakes, categories.description
FROM categories
LEFT JOIN (
    SELECT gold.* FROM gold_mistakes AS gold JOIN annotation_sets AS lists ON lists.set_id = gold.gold_id
    WHERE lists.corpus = $corpus
) AS gold ON gold.category = categories.category AND gold.split = $split
WHERE categories.corpus = $corpus
GROUP BY ALL
ORDER BY any_value(categories.position)
"""


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


def of_split(analysis: str) -> str:
    """A saved analysis, only the rows of the texts of the corpus $corpus and split $split, in the analysis's own
    order. The texts are a list the rows are checked against, not a join: DuckDB keeps the order of the rows
    through a filter, and a join (IN a subquery is one) hashes them out of it (the By text table went T005,
    T010, T016, …)."""
    return (
        f"SELECT * FROM ({data.saved_analysis(analysis).sql}) WHERE split = $split"
        " AND list_contains((SELECT list(text_id) FROM texts WHERE corpus = $corpus AND split = $split), text_id)"
    )


# Another corpus's gold mistakes per text and category (mistakes_per_text has the shared task's categories as
# its columns): one row per text and category, pivoted below.
PER_TEXT_AND_CATEGORY = """
SELECT texts.text_id, categories.category, count(gold.mistake_id) AS mistakes
FROM texts
JOIN categories ON categories.corpus = texts.corpus
LEFT JOIN gold_mistakes AS gold ON gold.text_id = texts.text_id AND gold.category = categories.category
WHERE texts.corpus = $corpus AND texts.split = $split
GROUP BY ALL
ORDER BY texts.text_id, any_value(categories.position)
"""


MISSED_BY_ALL = f"""
SELECT text_id, category, correction, gold_mistake_id
FROM ({of_split("missed_by_every_submission")})
ORDER BY text_id, doc_token_start
"""


def text_rows(frame: pl.DataFrame, key: str, **options) -> None:
    """A table of texts whose rows open their text in the document view, with the gold mistakes only, when
    clicked (in the same tab: a link column would open another)."""
    event = tables.table(frame, key=key, on_select="rerun", selection_mode="single-row", **options)
    if event.selection.rows:
        links.follow("document", text=frame["text_id"][event.selection.rows[0]], submission=links.NO_SUBMISSION)


COUNT_COLUMNS = {category.lower(): category for category in palette.CATEGORIES}  # the analyses' column names
GOLD_SPLITS = """
SELECT split
FROM annotation_sets
WHERE kind = 'gold' AND corpus = $corpus
ORDER BY split <> 'test', split
"""

st.title("Gold explorer")
several = len(data.corpora()) > 1
corpus, top = data.corpus_and_columns([1]) if several else (data.choose_corpus(), [st])
categories = data.categories(corpus)
shared_task = corpus == data.SHARED_TASK
splits = data.read_one(GOLD_SPLITS, {"corpus": corpus})
if splits.is_empty():
    st.info("The corpus has no gold list.")
    st.stop()
split = choices.split(top[0], corpus, splits["split"].to_list())
params = {"corpus": corpus, "split": split}
frames = data.read(
    by_category=(BY_CATEGORY, params),
    per_text=(of_split("mistakes_per_text"), params) if shared_task else (PER_TEXT_AND_CATEGORY, params),
    per_system=(
        f"SELECT * FROM ({data.saved_analysis('mistakes_per_text_by_system').sql}) WHERE split = $split",
        params,
    ),
    missed=(MISSED_BY_ALL, params),
    submissions=("SELECT count(*) AS submissions FROM evaluations WHERE corpus = $corpus AND split = $split", params),
)
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
