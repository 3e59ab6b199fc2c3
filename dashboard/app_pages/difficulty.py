"""Difficulty: each submission's recall over the gold mistakes of each difficulty level, found by k submissions
of the split and marked by k of the three annotators. Both are the saved analyses recall_by_found_by and
recall_by_annotators (of the view recall_by_difficulty), as `accuracy-db difficulty` prints them."""

import altair as alt
import streamlit as st
from accuracy_db.dashboard import bars, charts, choices, data, links, tables
from accuracy_db.dashboard.literal import literal

from accuracy_db import formatting

NOT_CURATED = "not curated"  # the gold mistakes that no mistake of the curation exports covers


def of_split(analysis: str, level: str) -> str:
    """A saved analysis, only the rows of the submissions of the corpus $corpus and split $split, its level as a
    label."""
    label = f"coalesce({level}::VARCHAR, '{NOT_CURATED}')"
    return (
        f"SELECT submission, {label} AS level, gold, matched, recall FROM ({data.saved_analysis(analysis).sql}) "
        "WHERE corpus = $corpus AND split = $split"
    )


# The gold mistakes at a level of a measure, and whether a submission found them (in the ALL scope).
AT_LEVEL = f"""
SELECT difficulty.text_id, difficulty.category, difficulty.tokens, difficulty.correction,
    scored.counterpart_id IS NOT NULL AS found
FROM gold_mistake_difficulty AS difficulty
JOIN scored_mistakes AS scored
    ON scored.mistake_id = difficulty.gold_mistake_id AND scored.side = 'gold'
JOIN evaluations USING (submission_id)
WHERE evaluations.corpus = $corpus AND evaluations.split = $split AND evaluations.submission = $submission
    AND CASE WHEN $measure = 'found_by' THEN difficulty.found_by::VARCHAR
        ELSE coalesce(difficulty.annotators::VARCHAR, '{NOT_CURATED}') END = $level
ORDER BY difficulty.text_id, difficulty.doc_token_start
"""


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
    rows = data.read_one(AT_LEVEL, params | {"measure": measure} | {k: bar[k] for k in ("submission", "level")})
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
frames = data.read(
    found_by=(of_split("recall_by_found_by", "found_by"), params),
    annotators=(of_split("recall_by_annotators", "annotators"), params),
)


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
    f"{NOT_CURATED} gathers the gold mistakes no curated mistake covers (every one, without curation exports). "
    "Click a bar for those mistakes."
)
with st.container(key="annotators_chart"):
    levels = sorted(set(annotators["level"].to_list()), key=lambda level: (level == NOT_CURATED, level))
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
