"""Difficulty: each submission's recall over the gold mistakes of each difficulty level, found by k submissions
of the split and marked by k of the three annotators. Both are the saved analyses recall_by_found_by and
recall_by_annotators (of the view recall_by_difficulty), as `accuracy-db difficulty` prints them."""

import altair as alt
import streamlit as st
from accuracy_db.dashboard import bars, data, links
from accuracy_db.dashboard.literal import literal

NOT_CURATED = "not curated"  # the gold mistakes that no mistake of the curation exports covers


def of_split(analysis: str, level: str) -> str:
    """A saved analysis, only the rows of the submissions of the corpus $corpus and split $split, its level as a
    label."""
    label = f"coalesce({level}::VARCHAR, '{NOT_CURATED}')"
    return (
        f"SELECT submission, {label} AS level, gold, matched, recall FROM ({data.saved_analysis(analysis).sql}) "
        "WHERE corpus = $corpus AND split = $split"
    )


def recall_chart(frame, title: str, levels: list[str]) -> alt.Chart:
    """Recall at each level, one bar per submission."""
    return bars.figure_bars(
        alt.Chart(frame).encode(
            x=alt.X("level:N", sort=levels, title=title),
            xOffset=alt.XOffset("submission:N"),
            y=alt.Y("recall:Q", title="recall", scale=alt.Scale(domain=[0, 1])),
            color=alt.Color("submission:N", title="submission"),
            tooltip=["submission", "level", "gold", "matched", alt.Tooltip("recall:Q", format=".3f")],
        ),
        "recall",
    )


st.title("Difficulty")
corpus, top = data.corpus_and_columns([1]) if len(data.corpora()) > 1 else (data.choose_corpus(), [st])
splits = data.splits_with_submissions(corpus)
if not splits:
    st.info("No submission is loaded yet: give `accuracy-db build` a folder of submissions.")
    st.stop()
split = links.select(top[0], "Split", "split", splits)
params = {"corpus": corpus, "split": split}
frames = data.read(
    found_by=(of_split("recall_by_found_by", "found_by"), params),
    annotators=(of_split("recall_by_annotators", "annotators"), params),
)

st.subheader("Recall by how many submissions found the mistake")
found_by = frames["found_by"]
st.caption(
    f"k = how many of the {literal(split)} split's submissions found a gold mistake (0: every one missed it). "
    "Hover over a bar for the gold mistakes at that level and how many of them the submission found."
)
with st.container(key="found_by_chart"):
    levels = sorted(set(found_by["level"].to_list()), key=int)
    st.altair_chart(recall_chart(found_by, "found by k submissions", levels), width="stretch")

st.subheader("Recall by how many annotators marked the mistake")
annotators = frames["annotators"]
st.caption(
    "k = how many of the three annotators marked the gold mistake (as the curation exports record it); "
    f"{NOT_CURATED} gathers the gold mistakes no curated mistake covers (every one, without curation exports)."
)
with st.container(key="annotators_chart"):
    levels = sorted(set(annotators["level"].to_list()), key=lambda level: (level == NOT_CURATED, level))
    st.altair_chart(recall_chart(annotators, "marked by k annotators", levels), width="stretch")
