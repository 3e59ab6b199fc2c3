"""Leaderboard: the submissions of a split ranked as the shared task ranked them, each one's figures per
category, and a chart comparing them category by category. Every figure comes from the scores and leaderboard
views, as `accuracy-db leaderboard` prints them."""

import altair as alt
import streamlit as st
from accuracy_db.dashboard import data, palette, tables

LEADERBOARD = """
SELECT
    leaderboard.rank,
    leaderboard.submission,
    meta.team,
    meta.system,
    meta.approach,
    leaderboard.recall,
    leaderboard.precision,
    leaderboard.f1,
    leaderboard.token_recall,
    leaderboard.token_precision,
    leaderboard.token_f1,
    leaderboard.matched,
    leaderboard.gold_total,
    leaderboard.submitted_total
FROM leaderboard
LEFT JOIN submission_metadata AS meta USING (submission)
WHERE leaderboard.scope = 'ALL' AND leaderboard.split = $split
ORDER BY leaderboard.rank, leaderboard.submission
"""

CATEGORY_SCORES = """
SELECT submission, scope, position, recall, precision, f1, token_recall, token_precision, token_f1,
    matched, gold_total, submitted_total
FROM scores
WHERE split = $split
ORDER BY submission, position
"""

METADATA = """
SELECT meta.submission, meta.team, meta.system, meta.approach, meta.description, meta.url
FROM submission_metadata AS meta
WHERE meta.submission IN (SELECT submission FROM evaluations WHERE split = $split)
ORDER BY meta.submission
"""

st.title("Leaderboard")
splits = data.splits_with_submissions()
if not splits:
    st.info("No submission is loaded yet: give `accuracy-db build` a folder of submissions.")
    st.stop()

split = st.selectbox("Split", splits, help="train is the split the data calls dev (S001–S060); test is T001–T030.")
frames = data.read(
    leaderboard=(LEADERBOARD, {"split": split}),
    categories=(CATEGORY_SCORES, {"split": split}),
    metadata=(METADATA, {"split": split}),
)
board = frames["leaderboard"]
shown = [c for c in board.columns if c not in ("team", "system", "approach") or board[c].is_not_null().any()]
st.caption(
    "Ranked by mistake recall, then precision, in the ALL scope. Click a column heading to sort by it; "
    "an empty cell is a figure with nothing to divide by."
)
tables.table(board.select(shown), column_config=tables.score_columns(), key="leaderboard")

if not frames["metadata"].is_empty():
    with st.expander("What the submitters say about their submissions"):
        tables.table(
            frames["metadata"],
            column_config={"url": st.column_config.LinkColumn("url")},
            key="metadata",
        )

st.subheader("One submission, category by category")
categories = frames["categories"]
submission = st.selectbox("Submission", board["submission"].to_list())
tables.table(
    categories.filter(submission=submission).drop("submission", "position"),
    column_config=tables.score_columns(),
    key="category_scores",
)

st.subheader("Submissions compared per category")
figure = st.radio("Figure", list(tables.RATIOS), format_func=tables.RATIOS.get, horizontal=True)
per_category = categories.filter(categories["scope"] != "ALL")
chart = (
    alt.Chart(per_category)
    .mark_bar()
    .encode(
        x=alt.X("scope:N", sort=palette.CATEGORIES, title=None),
        xOffset=alt.XOffset("submission:N"),
        y=alt.Y(f"{figure}:Q", title=tables.RATIOS[figure], scale=alt.Scale(domain=[0, 1])),
        color=alt.Color("submission:N", title="submission"),
        tooltip=["submission", "scope", alt.Tooltip(f"{figure}:Q", format=".3f"), "matched", "gold_total"],
    )
)
st.altair_chart(chart, width="stretch")
st.caption("A missing bar is an undefined figure: a category the submission listed no mistake of, for precision.")
