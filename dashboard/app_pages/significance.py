"""Significance: is one submission's figure really higher than another's on the same texts? Every two
submissions of a split compared under a match scheme by the paired permutation test of significance.pairwise (as
`accuracy-db compare --scheme` tests one pair), shown as a matrix of differences with their bootstrap intervals and
p-values; a click on a cell gives the pair as `compare` does, and a link to what both lists count wrong."""

import shlex

import altair as alt
import polars as pl
import streamlit as st
from accuracy_db.dashboard import charts, choices, data, links, tables
from accuracy_db.dashboard.literal import literal

from accuracy_db import formatting
from accuracy_db.formatting import p_value_text

LABELS = tables.RATIOS | tables.MEANS  # the figures' names, the mushroom scheme's too

INTERVAL = f"{data.RESAMPLING.confidence:.0%} interval"
# Who wins, at a glance: the sign of the difference A − B in hue (blue: A, the row, higher; orange: B, the column,
# higher), how sure in shade (dark: p < 0.01; light: p < 0.05), grey where the test does not settle it. The caption
# and the legend name the same bands.
LEVELS = (0.01, 0.05)
NOT_SETTLED = "not significant (p ≥ 0.05)"
VERDICTS = (
    "A higher, p < 0.01",
    "A higher, p < 0.05",
    NOT_SETTLED,
    "B higher, p < 0.05",
    "B higher, p < 0.01",
)
VERDICT_COLOURS = ("#08519c", "#6baed6", "#eeeeee", "#fdae6b", "#d94801")
DARK_VERDICTS = (VERDICTS[0], VERDICTS[-1])  # white text on them


def verdict(difference: float | None, p_value: float | None) -> str:
    """A pair's band: which of A and B is higher, and at which level the test says so (NOT_SETTLED when it does
    not, or when the difference is undefined or 0)."""
    if difference is None or p_value is None or difference == 0 or p_value >= LEVELS[1]:
        return NOT_SETTLED
    level = LEVELS[0] if p_value < LEVELS[0] else LEVELS[1]
    return f"{'A' if difference > 0 else 'B'} higher, p < {level}"


def difference_text(row: dict) -> str:
    """A difference with its interval, as a cell writes it: +0.024 [−0.01, +0.06]; undefined when it is."""
    return formatting.with_interval(row, "difference", signed=True)


def matrix(pairs: pl.DataFrame, names: list[str], figure: str) -> alt.LayerChart:
    """One cell per ordered pair (row A, column B), coloured by who wins and how surely (verdict: the sign of the
    difference in hue, p in shade), and labelled with the difference A − B with its interval, above the p-value as
    the command line writes it (p: "< 0.0001" at the floor of the trials). A click on a cell selects its pair."""
    label = LABELS[figure]
    clicked = alt.selection_point(name="pair", fields=["a", "b"])
    base = alt.Chart(pairs).encode(
        x=alt.X(
            "b:N",
            sort=names,
            title="B: the column's submission",
            axis=alt.Axis(labelAngle=-30, labelLimit=320, orient="top", titleFontSize=13),
        ),
        y=alt.Y("a:N", sort=names, title="A: the row's submission", axis=alt.Axis(labelLimit=320, titleFontSize=13)),
        tooltip=[
            "a",
            "b",
            alt.Tooltip("a_value:Q", title=f"{label} of A", format=formatting.FIGURE_D3),
            alt.Tooltip("b_value:Q", title=f"{label} of B", format=formatting.FIGURE_D3),
            alt.Tooltip("shown_difference:N", title=f"A − B [{INTERVAL}]"),
            alt.Tooltip("p:N", title="p"),
            alt.Tooltip("verdict:N", title="verdict"),
        ],
    )
    cells = (
        base.mark_rect()
        .encode(
            color=alt.Color(
                "verdict:N",
                scale=alt.Scale(domain=list(VERDICTS), range=list(VERDICT_COLOURS)),
                title=f"{label}: who is higher",
                legend=alt.Legend(orient="bottom", direction="horizontal", columns=5, labelLimit=260),
            )
        )
        .add_params(clicked)
    )
    on_cell = alt.condition(
        alt.FieldOneOfPredicate(field="verdict", oneOf=list(DARK_VERDICTS)), alt.value("white"), alt.value("black")
    )
    # Each cell says how large the difference is (A − B, signed, with its interval) above whether it is real (p).
    difference = base.mark_text(dy=-8).encode(text=alt.Text("shown_difference:N"), color=on_cell)
    text = base.mark_text(dy=8).encode(text=alt.Text("p:N"), color=on_cell)
    return (cells + difference + text).properties(height=alt.Step(44))  # room for two lines a cell


st.title("Significance")
corpus, top = data.corpus_and_columns([1, 1, 1, 1])
# The schemes that score some list of the corpus, the one it opens on first (the mushroom scheme for lists read
# with character labels), as `accuracy-db compare` chooses by default.
scoring = data.scoring_schemes(corpus)
opening = next(iter(scoring), data.SCHEME)
splits = data.splits_with_submissions(corpus, opening)
if not splits:
    st.info(f"Nothing to compare: {literal(data.not_scored(corpus, None, opening))}.")
    st.stop()

split = choices.split(top[0], corpus, splits)
scheme = links.select(
    top[2],
    "Match scheme",
    "scheme",
    scoring,
    default=opening,
    help=f"{data.SCHEME_DESCRIPTION} {data.MUSHROOM_DESCRIPTION} The texts' counts (or figures) under it are what "
    "the test swaps.",
)
if data.SCHEME not in scoring:  # the match schemes score no list of the corpus: why, in one line
    st.caption(f"Not offered, the match schemes: {literal(data.not_scored(corpus, None, data.SCHEME))}.")
if scheme == data.MUSHROOM:  # the mushroom scheme reads every label: its one scope is ALL
    scope = top[1].selectbox("Scope", ["ALL"], help="The mushroom scheme scores every label.")
else:
    scope = choices.scope(top[1], corpus)
figure = top[3].selectbox("Figure", data.scheme_figures(scheme), format_func=LABELS.get)
names = data.ranked_submissions(corpus, split, scope, scheme)
if len(names) < 2:
    why = "" if names else f" ({literal(data.not_scored(corpus, split, scheme))})"
    st.info(
        f"The {literal(split)} split has {'one list' if names else 'no list'} scored under the {scheme} scheme{why}: "
        "there is nothing to compare."
    )
    st.stop()

pairs = pl.DataFrame(
    data.pairwise(names, scope, figure, split, corpus, scheme),
    schema={"a": pl.String, "b": pl.String}
    | {c: pl.Float64 for c in ("a_value", "b_value", "difference")}
    | {"difference_ci": pl.List(pl.Float64), "p_value": pl.Float64, "trials": pl.Int64},
)
pairs = pairs.with_columns(
    shown_difference=pl.Series([difference_text(row) for row in pairs.iter_rows(named=True)], dtype=pl.String),
    difference_low=pl.col("difference_ci").list.get(0, null_on_oob=True),
    difference_high=pl.col("difference_ci").list.get(1, null_on_oob=True),
    verdict=pl.Series([verdict(row["difference"], row["p_value"]) for row in pairs.iter_rows(named=True)]),
    p=pl.Series([p_value_text(row["p_value"], row["trials"]) for row in pairs.iter_rows(named=True)], dtype=pl.String),
)
st.caption(
    f"Each cell tests submission A (row) against B (column) on the {literal(split)} split's texts: the "
    f"{LABELS[figure]} under the {scheme} scheme in scope {scope} of each text's counts, swapped between A and "
    "B at random "
    f"({data.TRIALS:,} trials, seed {data.RESAMPLING.seed}); p is how often a swap made a difference at least as "
    f"large as the observed one, (c + 1) / (trials + 1), written {p_value_text(0, data.TRIALS)} when no swap did. "
    f"Each cell gives the difference A − B with its {INTERVAL} (over {data.RESAMPLING.resamples:,} bootstrap "
    "resamples of the texts, the same for A and B) above p. The colour says who is higher: blue, A (the row); "
    "orange, B (the column); dark at p < 0.01, light at p < 0.05, grey where p ≥ 0.05 (a difference chance "
    "often makes). Submissions in the rank order; hover over a cell for both figures, click it for the pair."
)
with st.container(key="significance_matrix"):
    event = charts.draw(None, matrix, pairs, names, figure, width="stretch", on_select="rerun", key="matrix_cells")
if clicked := event.selection.get("pair"):
    pair = pairs.filter(a=clicked[0]["a"], b=clicked[0]["b"]).row(0, named=True)
    with st.container(key="significance_pair", border=True):
        st.markdown(
            f"**{literal(pair['a'])}** against **{literal(pair['b'])}**: {LABELS[figure]} "
            f"{formatting.figure_text(pair['a_value'])} against {formatting.figure_text(pair['b_value'])}, "
            f"A − B {difference_text(pair)}, p {pair['p']}, as the command gives them:"
        )
        options = f"--split {split} --scope {scope} --scheme {scheme} --metric {figure}"
        st.code(
            f"accuracy-db compare {shlex.quote(pair['a'])} {shlex.quote(pair['b'])} {options}",
            language="bash",
            wrap_lines=True,  # whole at any width: the names may be long
        )
        if scheme != data.MUSHROOM:  # the Errors browser shows mistakes: lists read with character labels are not
            links.link(
                None,
                "errors",
                f"What the {LABELS[figure]} of both counts against them, in the Errors browser",
                icon=":material/table_rows:",
                **links.errors_of([pair["a"], pair["b"]], scope, figure),
            )
with st.expander("The pairs as a table"):
    # Sorted by the figure, the largest difference first; numbers sort as numbers, p as written everywhere.
    differences = tables.bounded(["difference"])
    tables.table(
        pairs.select("a", "b", "a_value", "b_value", *differences, "p").sort(
            "difference", descending=True, nulls_last=True, maintain_order=True
        ),
        column_config={
            "a_value": st.column_config.NumberColumn("A", format=formatting.FIGURE_PRINTF),
            "b_value": st.column_config.NumberColumn("B", format=formatting.FIGURE_PRINTF),
        }
        | tables.interval_columns({"difference": "A − B"}, INTERVAL, signed=True),
        numbers=tuple(differences),
        key="pairwise",
    )
