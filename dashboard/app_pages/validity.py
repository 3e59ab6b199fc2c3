"""Validity: does a submission's count of mistakes track the gold list's, text by text? A scatter of the gold
against the submitted mistakes of every text of the split (from the stats layer's text_statistics, the counts
every score sums up); clicking a text opens it in the document view."""

import altair as alt
import streamlit as st
from accuracy_db.dashboard import data, tables
from accuracy_db.dashboard.literal import literal

from accuracy_db import formatting

SUBMISSIONS = """
SELECT submission_id, submission, split
FROM evaluations
WHERE corpus = $corpus
ORDER BY split <> 'test', split, submission
"""

PER_TEXT = """
SELECT text_id, gold, submitted, matched
FROM text_statistics
WHERE submission_id = $submission_id AND scope = $scope
ORDER BY text_id
"""


def scatter(per_text, submission: str) -> alt.LayerChart:
    """One point per text, gold mistakes across and submitted ones up, with the line where they are equal."""
    most = max(per_text["gold"].max() or 0, per_text["submitted"].max() or 0, 1)
    equal = (
        alt.Chart(alt.Data(values=[{"x": 0, "y": 0}, {"x": most, "y": most}]))
        .mark_line(color="grey", strokeDash=[4, 4])
        .encode(x="x:Q", y="y:Q")
    )
    clicked = alt.selection_point(name="text", fields=["text_id"], on="click")
    points = (
        alt.Chart(per_text)
        .mark_circle(size=80, opacity=0.6)
        .encode(
            x=alt.X("gold:Q", title="gold mistakes in the text"),
            y=alt.Y("submitted:Q", title=f"mistakes {submission} lists in it"),
            tooltip=["text_id", "gold", "submitted", "matched"],
        )
        .add_params(clicked)
    )
    return equal + points


st.title("Validity")
corpus, top = data.corpus_and_columns([1, 1])
submissions = data.read_one(SUBMISSIONS, {"corpus": corpus})
if submissions.is_empty():
    st.info("No submission is loaded yet: give `accuracy-db build` a folder of submissions.")
    st.stop()

submission = top[0].selectbox("Submission", submissions["submission"].to_list())
scope = top[1].selectbox(
    "Scope", data.scopes(corpus), help="ALL mistakes, or the mistakes of one category alone.", key=f"scope-{corpus}"
)
chosen = submissions.filter(submission=submission).row(0, named=True)
split = chosen["split"]
per_text = data.read_one(PER_TEXT, {"submission_id": chosen["submission_id"], "scope": scope})

st.subheader("How closely the counts follow the gold list's")
figures = data.correlations(submission, split, scope, corpus)
tables.table(
    [
        {
            "measure": row["measure"],
            f"value [{data.RESAMPLING.signed()['ci']}% interval]": formatting.with_interval(
                {"value": row["value"], "value_ci": row["ci"]}, "value"
            ),
            "p-value": formatting.p_value_text(row["p_value"]),
            "texts": row["n"],
            "note": row["reason"] or "",
        }
        for row in figures
    ],
    key="validity_figures",
)
st.caption(f"Signature: {literal(figures[0]['signature'])}" if figures else "")

st.subheader("Mistakes per text, gold and submitted")
st.caption(
    f"One point per text of the {literal(split)} split ({len(per_text)} texts), in scope {scope}. "
    "On the dashed line the submission lists as many mistakes as the gold list has; points on top of each other "
    "are texts with the same "
    "counts. Hover over a point for its text; click it to open the text in the document view."
)
with st.container(key="validity_scatter"):
    event = st.altair_chart(scatter(per_text, submission), on_select="rerun", selection_mode="text", key="scatter")
chosen = event.selection.get("text") or []
if chosen:
    st.switch_page("app_pages/document.py", query_params={"text": chosen[0]["text_id"], "submission": submission})
