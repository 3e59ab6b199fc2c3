"""Systems: the systems that generated a corpus's texts ranked by their mean errors per text (an MQM corpus: the MQM
score under the weights chosen; another corpus: its gold list's mistakes), with each mean's bootstrap interval and
the significance clusters, read through the function `accuracy-db systems --ci` calls."""

import polars as pl
import streamlit as st
from accuracy_db.dashboard import data, links, tables
from accuracy_db.dashboard.literal import literal

from accuracy_db.formatting import with_interval

WEIGHTS = ["google", "count"]  # as `accuracy-db systems --weights` names them

st.title("Systems")
corpus, top = data.corpus_and_columns([1, 1, 3])
splits = data.system_splits(corpus)
if not splits:
    st.info(
        f"Corpus {literal(corpus)} names no text's generating system (an MQM file's system column, or the shared "
        "task's nlg_systems.csv), so it has no systems to rank."
    )
    st.stop()
split = links.select(top[0], "Split", "split", splits)
weights = top[1].selectbox(
    "Weights",
    WEIGHTS,
    key="systems_weights",
    help="How an MQM corpus's errors weigh: google (Major 5, Minor 1, Minor Fluency/Punctuation 0.1, "
    "Non-translation 25, Neutral 0) or count (each error 1). A corpus without severities counts its gold list's "
    "mistakes either way.",
)
ranked = data.ranked_systems(corpus, split, weights)
rows = pl.DataFrame(
    [
        {
            "rank": row["rank"],
            "system": row["system"],
            "human": "human reference" if row["human"] else "",
            "texts": row["texts"],
            "score": with_interval(row | {"score_ci": row["ci"]}, "score"),  # as the command's table prints it
            "cluster": row["cluster"],
        }
        for row in ranked
    ],
    schema={"rank": pl.Int64, "system": pl.String, "human": pl.String, "texts": pl.Int64, "score": pl.String}
    | {"cluster": pl.Int64},
)
st.markdown(
    f"Mean errors per text ({literal(weights)} weights), lower first, with its 95% bootstrap interval: the inputs "
    "resampled, every system's texts of an input together. Systems in one cluster are not told apart by the paired "
    "permutation tests (p ≥ 0.05)."
)
ROW_HEIGHT = 35  # st.dataframe's rows (and its header), in pixels
tables.table(
    rows,
    key="systems",
    height=ROW_HEIGHT * (len(rows) + 1) + 3,  # every system in view: the page scrolls, not a box inside it
    column_config={
        "rank": st.column_config.NumberColumn("rank", format="%d"),
        "texts": st.column_config.NumberColumn("texts", format="%d"),
        "score": st.column_config.TextColumn("score", help="The mean errors per text and its 95% interval"),
        "cluster": st.column_config.NumberColumn("cluster", format="%d"),
    },
)
st.caption(
    f"As `accuracy-db systems --corpus {literal(corpus)} --split {literal(split)} --weights {literal(weights)} --ci` "
    "ranks them (1000 resamples, seed 12345, 95%; 10,000 permutation trials behind the clusters)."
)
