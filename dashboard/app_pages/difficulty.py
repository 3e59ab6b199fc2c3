"""Difficulty: each submission's recall over the gold mistakes of each difficulty level, found by k submissions
of the split and marked by k of the three annotators. Both are the saved analyses recall_by_found_by and
recall_by_annotators (of the view recall_by_difficulty), as `accuracy-db difficulty` prints them."""

import altair as alt
import streamlit as st
from accuracy_db.dashboard import bars, charts, choices, data, links, tables
from accuracy_db.dashboard.literal import literal

from accuracy_db import formatting


def recall_chart(frame, title: str, levels: list[str]) -> alt.Chart:
    """Recall at each level, one bar per submission; a click on a bar selects its submission and level."""
    return bars.figure_bars(
        alt.Chart(frame).encode(
            x=alt.X("level:N", sort=levels, title=title),
            xOffset=alt.XOffset("submission:N"),
            y=alt.Y("recall:Q", title="recall", scale=alt.Scale(domain=[0, 1])),
            color=alt.Color("submission:N", title="submission"),
            tooltip=[
                "submission",
                "level",
                alt.Tooltip("gold:Q", title="gold mistakes"),
                alt.Tooltip("matched:Q", title="matched"),
                alt.Tooltip("recall:Q", format=formatting.FIGURE_D3),
            ],
        ),
        "recall",
        alt.selection_point(name="bar", fields=["submission", "level"]),
    )


def mistakes_at(event, params: dict, measure: str, words: str) -> None:
    """Under a chart: the gold mistakes (of the corpus and split of params) of the bar clicked, at its level, and
    whether its submission found each; a click on a row opens its text in the Document view."""
    picked = event.selection.get("bar") or []
    if not picked:
        return
    bar = picked[0]
    rows = data.gold_mistakes_at_level(params["corpus"], params["split"], bar["submission"], measure, bar["level"])
    st.markdown(
        f"The {len(rows)} gold mistakes {words} {literal(bar['level'])}, and whether "
        f"**{literal(bar['submission'])}** found each; click a row for its text in the Document view."
    )
    chosen = tables.table(
        rows, key=f"{measure}_mistakes", on_select="rerun", selection_mode="single-row"
    ).selection.rows
    if chosen:
        links.follow("document", text=rows["text_id"][chosen[0]], submission=bar["submission"])


st.title("Difficulty")
corpus, top = data.corpus_and_columns([1]) if len(data.corpora()) > 1 else (data.choose_corpus(), [st])
splits = data.splits_with_submissions(corpus)
if not splits:
    # why, in one line: no submission loaded, or a corpus the match schemes cannot score (mushroom's)
    st.info(f"Nothing to rank by difficulty: {literal(data.not_scored(corpus))}.")
    st.stop()
split = choices.split(top[0], corpus, splits)
params = {"corpus": corpus, "split": split}
frames = data.recall_by_difficulty(corpus, split)


st.subheader("Recall by how many submissions found the mistake")
found_by = frames["found_by"]
st.caption(
    f"k = how many of the {literal(split)} split's submissions found a gold mistake (0: every one missed it). "
    "Hover over a bar for the gold mistakes at that level and how many of them the submission found; click it for "
    "those mistakes."
)
with st.container(key="found_by_chart"):
    levels = sorted(set(found_by["level"].to_list()), key=int)
    event = charts.draw(
        None,
        recall_chart,
        found_by,
        "found by k submissions",
        levels,
        width="stretch",
        on_select="rerun",
        key="found_by",
    )
mistakes_at(event, params, "found_by", "found by k =")

st.subheader("Recall by how many annotators marked the mistake")
annotators = frames["annotators"]
st.caption(
    "k = how many of the three annotators marked the gold mistake (as the curation exports record it); "
    f"{data.NOT_CURATED} gathers the gold mistakes no curated mistake covers (every one, without curation exports). "
    "Click a bar for those mistakes."
)
with st.container(key="annotators_chart"):
    levels = sorted(set(annotators["level"].to_list()), key=lambda level: (level == data.NOT_CURATED, level))
    event = charts.draw(
        None,
        recall_chart,
        annotators,
        "marked by k annotators",
        levels,
        width="stretch",
        on_select="rerun",
        key="annotated",
    )
mistakes_at(event, params, "annotators", "marked by k =")
