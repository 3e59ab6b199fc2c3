"""Validity: does a submission's count of mistakes track the gold list's, text by text? A scatter per scope (ALL and
each category) of the gold against the submitted mistakes of every text of the split (from the stats layer's
text_statistics, the counts every score sums up), several submissions overlaid on demand; clicking a text opens it
in the document view."""

import altair as alt
import polars as pl
import streamlit as st
from accuracy_db.dashboard import charts, choices, data, links, tables
from accuracy_db.dashboard.literal import literal

from accuracy_db import formatting

SCATTER_PIXELS = 230  # each scatter's width and height: equal axes, so that y = x is the diagonal
SCATTERS_A_ROW = 3  # at 1440 px beside the sidebar: three squares and their axes


def scatter_name(index: int) -> str:
    """The selection of the index-th scatter (one shared by all is deduplicated with a warning)."""
    return f"text_{index}"


def scatters(per_text, scopes: list[str]) -> alt.ConcatChart:
    """A scatter per scope, one point per text and submission, gold mistakes across and submitted ones up, with
    the line where they are equal, on equal axes (the same span in the same pixels: each scope's own most), ticks
    at whole numbers; the submissions by colour, a point as large as the texts it stands for. A click on a point
    selects its text and submission."""
    drawn = []
    for index, scope in enumerate(scopes):
        of_scope = per_text.filter(scope=scope)
        most = max(of_scope["gold"].max() or 0, of_scope["submitted"].max() or 0, 1)
        span = alt.Scale(domain=[0, most], nice=False)
        equal = (
            alt.Chart(alt.Data(values=[{"x": 0, "y": 0}, {"x": most, "y": most}]))
            .mark_line(color="grey", strokeDash=[4, 4])
            .encode(x=alt.X("x:Q", scale=span), y=alt.Y("y:Q", scale=span))
        )
        clicked = alt.selection_point(name=scatter_name(index), fields=["text_id", "submission"])
        points = (
            alt.Chart(per_text)
            .transform_filter(alt.datum.scope == scope)
            .mark_circle(opacity=0.6)
            .encode(
                x=alt.X("gold:Q", title="gold mistakes", scale=span, axis=charts.count_axis()),
                y=alt.Y("submitted:Q", title="submitted mistakes", scale=span, axis=charts.count_axis()),
                color=alt.Color("submission:N", legend=alt.Legend(orient="top", labelLimit=320)),
                tooltip=[
                    "submission",
                    "text_id",
                    alt.Tooltip("gold:Q", title="gold mistakes"),
                    alt.Tooltip("submitted:Q", title="submitted mistakes"),
                    alt.Tooltip("matched:Q", title="matched"),
                    alt.Tooltip("texts_here:Q", title="texts at this point"),
                ],
            )
            .add_params(clicked)
        )
        points = charts.sized_by_count(points, ["submission", "gold", "submitted"])
        drawn.append((equal + points).properties(title=scope, width=SCATTER_PIXELS, height=SCATTER_PIXELS))
    return alt.concat(*drawn, columns=SCATTERS_A_ROW)


st.title("Validity")
corpus, top = data.corpus_and_columns([1, 1])
submissions = data.evaluated_submissions(corpus)
if submissions.is_empty():
    # why, in one line: no submission loaded, or a corpus the match schemes cannot score (mushroom's)
    st.info(f"Nothing to correlate: {literal(data.not_scored(corpus))}.")
    st.stop()

# First the best submission of the split kept from another page (of the default split, when none is kept).
kept_split = links.kept("split")
first_split = kept_split or choices.default_split(corpus) or submissions["split"][0]
submission = links.select(
    top[0],
    "Submission",
    "submission",
    submissions["submission"].to_list(),
    default=data.best_submission(corpus, first_split),
)
scope = choices.scope(top[1], corpus)
chosen = submissions.filter(submission=submission).row(0, named=True)
split = chosen["split"]
if kept_split is not None and kept_split not in submissions["split"]:  # said, and kept for the other pages
    links.unhonoured("split", kept_split, split)
else:
    links.keep("split", split)
links.to_address(split=split)
st.subheader("How closely the counts follow the gold list's")
figures = data.correlations(submission, split, scope, corpus)
INTERVAL = f"{data.RESAMPLING.confidence:.0%} interval"
tables.table(
    pl.DataFrame(
        [
            {"measure": tables.measure_name(row["measure"])}
            | tables.with_bounds({"value": row["value"], "value_ci": row["ci"]}, "value")
            | {"p-value": formatting.p_value_text(row["p_value"]), "texts": row["n"], "note": row["reason"] or ""}
            for row in figures
        ],
        schema={"measure": pl.String}
        | {column: pl.Float64 for column in tables.bounded(["value"])}
        | {"p-value": pl.String, "texts": pl.Int64, "note": pl.String},
    ),
    column_config=tables.interval_columns({"value": "value"}, INTERVAL),
    numbers=tuple(tables.bounded(["value"])),
    key="validity_figures",
)
st.caption(f"Signature: {literal(figures[0]['signature'])}" if figures else "")

st.subheader("Mistakes per text, gold and submitted, category by category")
of_split = submissions.filter(split=split)
overlaid = st.multiselect(
    "Submissions shown",
    of_split["submission"].to_list(),
    default=[submission],
    key=f"validity_overlaid-{corpus}-{split}-{submission}",
    help="Several submissions of the split overlaid on the same texts, in colours of their own.",
)
ids = of_split.filter(pl.col("submission").is_in(overlaid))["submission_id"].to_list()
per_text = data.counts_per_text(ids)
scopes = data.scopes(corpus)
st.caption(
    f"One chart per scope, one point per text of the {literal(split)} split "
    f"({per_text['text_id'].n_unique()} texts) and submission. "
    "On the dashed line the submission lists as many mistakes as the gold list has; each chart's axes are equal, "
    "from 0 to its scope's most. Texts with the same counts share a point, as large as how many they are (hover "
    "for how many). Hover over a point for its text; click it to open the text in the document view."
)
if per_text.is_empty():
    st.info("Choose a submission to show.")
    st.stop()
with st.container(key="validity_scatter"):
    event = charts.draw(None, scatters, per_text, scopes, on_select="rerun", key="scatter", width="content")
chosen = [point for index in range(len(scopes)) for point in event.selection.get(scatter_name(index)) or []]
if chosen:
    links.follow("document", text=chosen[0]["text_id"], submission=chosen[0]["submission"])
