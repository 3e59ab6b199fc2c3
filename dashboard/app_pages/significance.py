"""Significance: is one submission's figure really higher than another's on the same texts? Every two
submissions of a split compared under a match scheme by the paired permutation test of significance.pairwise (as
`accuracy-db compare --scheme` tests one pair), shown as a matrix of p-values."""

import altair as alt
import polars as pl
import streamlit as st
from accuracy_db.dashboard import data, tables
from accuracy_db.dashboard.literal import literal

from accuracy_db.formatting import p_value_text

RANKED = """
SELECT submission
FROM leaderboard
WHERE corpus = $corpus AND split = $split AND scope = $scope
ORDER BY rank, submission
"""

# p-values in three bands: the colour says at a glance which differences are significant at the usual levels.
BANDS = alt.Scale(type="threshold", domain=[0.01, 0.05], range=["#08519c", "#6baed6", "#eff3ff"])


def matrix(pairs: pl.DataFrame, names: list[str], figure: str) -> alt.LayerChart:
    """One cell per ordered pair (row A, column B), coloured by its p-value and labelled with it as the command
    line writes it (p: "< 0.0001" at the floor of the trials)."""
    label = tables.RATIOS[figure]
    base = alt.Chart(pairs).encode(
        x=alt.X("b:N", sort=names, title="B", axis=alt.Axis(labelAngle=-30)),
        y=alt.Y("a:N", sort=names, title="A"),
        tooltip=[
            "a",
            "b",
            alt.Tooltip("a_value:Q", title=f"{label} of A", format=".3f"),
            alt.Tooltip("b_value:Q", title=f"{label} of B", format=".3f"),
            alt.Tooltip("difference:Q", title="A − B", format=".3f"),
            alt.Tooltip("p:N", title="p"),
        ],
    )
    cells = base.mark_rect().encode(color=alt.Color("p_value:Q", scale=BANDS, title="p-value"))
    text = base.mark_text().encode(
        text=alt.Text("p:N"),
        color=alt.condition(alt.datum.p_value < 0.05, alt.value("white"), alt.value("black")),
    )
    return (cells + text).properties(height=60 * len(names) + 40)


st.title("Significance")
corpus, top = data.corpus_and_columns([1, 1, 1, 1])
splits = data.splits_with_submissions(corpus)
if not splits:
    st.info("No submission is loaded yet: give `accuracy-db build` a folder of submissions.")
    st.stop()

split = top[0].selectbox("Split", splits)
scope = top[1].selectbox(
    "Scope", data.scopes(corpus), help="ALL mistakes, or the mistakes of one category alone.", key=f"scope-{corpus}"
)
scheme = top[2].selectbox(
    "Match scheme",
    data.SCHEMES,
    help=f"{data.SCHEME_DESCRIPTION} The texts' counts under it are what the test swaps.",
    key="significance_scheme",
)
figure = top[3].selectbox("Figure", data.scheme_figures(scheme), format_func=tables.RATIOS.get)
names = data.read_one(RANKED, {"corpus": corpus, "split": split, "scope": scope})["submission"].to_list()
if len(names) < 2:
    st.info(f"The {literal(split)} split has one submission: there is nothing to compare it with.")
    st.stop()

pairs = pl.DataFrame(
    data.pairwise(names, scope, figure, split, corpus, scheme),
    schema={"a": pl.String, "b": pl.String}
    | {c: pl.Float64 for c in ("a_value", "b_value", "difference", "p_value")}
    | {"trials": pl.Int64},
)
pairs = pairs.with_columns(
    p=pl.Series([p_value_text(row["p_value"], row["trials"]) for row in pairs.iter_rows(named=True)], dtype=pl.String)
)
st.caption(
    f"Each cell tests submission A (row) against B (column) on the {literal(split)} split's texts: the "
    f"{tables.RATIOS[figure]} under the {scheme} scheme in scope {scope} of each text's counts, swapped between A and "
    "B at random "
    f"({data.TRIALS:,} trials, seed {data.RESAMPLING.seed}); p is how often a swap made a difference at least as "
    f"large as the observed one, (c + 1) / (trials + 1), written {p_value_text(0, data.TRIALS)} when no swap did. "
    "A dark cell (p < 0.05) is a difference that chance rarely "
    "makes. Submissions in the shared task's rank order; hover over a cell for both figures."
)
with st.container(key="significance_matrix"):
    st.altair_chart(matrix(pairs, names, figure), width="stretch")
with st.expander("The pairs as a table"):
    tables.table(
        pairs.drop("p_value", "trials"),  # p: the p-value as written everywhere
        column_config={
            "a_value": st.column_config.NumberColumn("A", format="%.3f"),
            "b_value": st.column_config.NumberColumn("B", format="%.3f"),
            "difference": st.column_config.NumberColumn("A − B", format="%.3f"),
        },
        key="pairwise",
    )
