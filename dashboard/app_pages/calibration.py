"""Calibration: how good a list's probabilities are, over the characters of a split of a corpus (a Mu-SHROOM list's
soft labels, or any list's spans with a probability): its precision-recall curve over every threshold with its
average precision, and its reliability diagram with its expected calibration error. Every figure is the views'
(queries/stats/probability_*.sql), read as `accuracy-db calibration` reads them (accuracy_db/stats/calibration.py)."""

import altair as alt
import polars as pl
import streamlit as st
from accuracy_db.dashboard import charts, choices, data, links, tables
from accuracy_db.dashboard.literal import literal

from accuracy_db import formatting
from accuracy_db.formatting import figure_text

CHART_PIXELS = 380  # each chart's width and height: both axes run from 0 to 1

QUALITY_COLUMNS = {
    "submission": st.column_config.TextColumn("list"),
    "read_with": st.column_config.TextColumn("read with", help="Soft labels (character labels) or spans"),
    "characters": st.column_config.NumberColumn("characters", format=formatting.COUNT_PRINTF),
    "gold_characters": st.column_config.NumberColumn("gold characters", format=formatting.COUNT_PRINTF),
    "average_precision": st.column_config.NumberColumn("AP", format=formatting.FIGURE_PRINTF, help="Average precision"),
    "calibration_error": st.column_config.NumberColumn(
        "ECE", format=formatting.FIGURE_PRINTF, help="Expected calibration error"
    ),
}


def unit_scale() -> alt.Scale:
    return alt.Scale(domain=[0, 1], nice=False)


def diagonal() -> alt.Chart:
    """The line where the two axes are equal (a perfectly calibrated list's bins lie on it)."""
    return (
        alt.Chart(alt.Data(values=[{"x": 0, "y": 0}, {"x": 1, "y": 1}]))
        .mark_line(color="grey", strokeDash=[4, 4])
        .encode(x=alt.X("x:Q", scale=unit_scale()), y=alt.Y("y:Q", scale=unit_scale()))
    )


def precision_recall_chart(curve: pl.DataFrame) -> alt.Chart:
    """Precision against recall, a point per threshold; between two points the precision of the lower threshold
    holds over the recall it adds (the steps average precision sums)."""
    return (
        alt.Chart(curve.sort("recall", "threshold", descending=[False, True]))
        .mark_line(interpolate="step-before", point=True)
        .encode(
            x=alt.X("recall:Q", scale=unit_scale(), title="recall (gold characters marked)"),
            y=alt.Y("precision:Q", scale=unit_scale(), title="precision (marked characters the gold's)"),
            tooltip=["threshold", "precision", "recall", "true_positives", "false_positives"],
        )
        .properties(width=CHART_PIXELS, height=CHART_PIXELS)
    )


def reliability_chart(diagram: pl.DataFrame) -> alt.LayerChart:
    """Per bin of probability, a bar over the bin as high as the share of its characters the gold marks, and a
    point at its mean probability and that share, sized by its characters; the diagonal is perfect calibration."""
    base = alt.Chart(diagram).encode(
        tooltip=["bin", "low", "high", "characters", "mean_probability", "observed_rate", "gap"]
    )
    bars = base.mark_bar(opacity=0.3).encode(
        x=alt.X("low:Q", scale=unit_scale(), title="probability the list gives"),
        x2="high:Q",
        y=alt.Y("observed_rate:Q", scale=unit_scale(), title="share of characters the gold marks"),
    )
    points = base.mark_circle(opacity=0.8).encode(
        x="mean_probability:Q", y="observed_rate:Q", size=alt.Size("characters:Q", legend=None)
    )
    return (diagonal() + bars + points).properties(width=CHART_PIXELS, height=CHART_PIXELS)


st.title("Calibration")
corpus, top = data.corpus_and_columns([1, 1])
having = data.corpora_with_probabilities()
if corpus not in having:
    elsewhere = f" Corpora that have some: {', '.join(literal(c) for c in having)}." if having else ""
    st.info(
        f"No list of corpus {literal(corpus)} has probabilities: `accuracy-db import mushroom` reads a Mu-SHROOM"
        f" file's soft labels, and a list's PROBABILITY (or probability) column gives its spans theirs.{elsewhere}"
    )
    st.stop()
quality = pl.DataFrame(data.soft_label_quality(corpus))
split = choices.split(top[0], corpus, quality["split"].unique(maintain_order=True).to_list())
of_split = quality.filter(split=split)
submission = links.select(top[1], "List", "submission", of_split["submission"].to_list())

st.subheader("Each list's probabilities over the split's characters")
st.caption(
    "Against the gold, every character of the split's texts pooled (a character's probability: a soft label's, or the"
    " highest of the list's spans covering it): the average precision (AP) of the precision-recall curve, and the"
    " expected calibration error (ECE) of ten bins of probability; best AP first."
)
tables.table(of_split.drop("split"), key="soft_label_quality", column_config=QUALITY_COLUMNS)

chosen = of_split.filter(submission=submission).row(0, named=True)
curve, diagram = (pl.DataFrame(rows) for rows in data.curve_and_diagram(submission, corpus, split))
beside = st.columns(2)
with beside[0]:
    st.subheader(f"Precision and recall: AP {figure_text(chosen['average_precision'])}")
    with st.container(key="precision_recall_chart"):
        charts.draw(None, precision_recall_chart, curve)
    st.caption(
        f"At each probability {literal(submission)} gives a character, the characters of at least that probability"
        " taken as marked."
    )
    with st.expander("The points"):
        tables.table(curve, key="precision_recall_points")
with beside[1]:
    st.subheader(f"Reliability: ECE {figure_text(chosen['calibration_error'])}")
    with st.container(key="reliability_chart"):
        charts.draw(None, reliability_chart, diagram)
    st.caption(
        "The characters in ten bins of equal width by their probability ([0, 0.1) … [0.9, 1]); the ECE weighs each"
        " bin's gap between its share of gold characters and its mean probability by its share of the characters."
    )
    with st.expander("The bins"):
        tables.table(diagram, key="reliability_bins")
