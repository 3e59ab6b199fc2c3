"""Agreement: how far the lists of a corpus's split agree, every ordered pair in a matrix (each list scored against
the other as if it were the gold list), and two lists' disagreements on one text, both overlaid on it. The figures
are accuracy_db.stats.agreement's, as `accuracy-db agreement` prints them; the spans of a pair on a text are
pair_evaluations.outcomes'."""

import altair as alt
import polars as pl
import streamlit as st
from accuracy_db.dashboard import charts, choices, data, links, palette, spans, tables
from accuracy_db.dashboard.literal import literal

from accuracy_db import formatting
from accuracy_db.formatting import UNDEFINED, p_value_text

MAX_LISTS = 8  # lists compared at once: every ordered pair is scored

FIGURES = tables.RATIOS | {"kappa": "Cohen's κ"}


def matrix(pairs: pl.DataFrame, names: list[str], figure: str) -> alt.LayerChart:
    """One cell per ordered pair (row: the reference, column: the list scored against it), coloured by the
    figure and labelled with it; an undefined figure is an empty cell that says so."""
    label = FIGURES[figure]
    base = alt.Chart(pairs).encode(
        x=alt.X("compared:N", sort=names, title="scored against the row's list", axis=alt.Axis(labelAngle=-30)),
        y=alt.Y("reference:N", sort=names, title="reference"),
        tooltip=[
            alt.Tooltip("reference:N", title="reference"),
            alt.Tooltip("compared:N", title="scored"),
            alt.Tooltip(f"{figure}:Q", title=label, format=formatting.FIGURE_D3),
            alt.Tooltip("matched:Q", title="matched"),
            alt.Tooltip("reference_total:Q", title="reference's mistakes"),
            alt.Tooltip("compared_total:Q", title="scored list's mistakes"),
            alt.Tooltip("kappa_pairs:Q", title="pairs κ is over"),
        ],
    )
    scale = alt.Scale(domain=[-1 if figure == "kappa" else 0, 1], scheme="blues")
    cells = base.mark_rect().encode(color=alt.Color(f"{figure}:Q", scale=scale, title=label))
    text = base.mark_text().encode(
        text=alt.Text("shown:N"),
        color=alt.condition(f"datum.{figure} > 0.6", alt.value("white"), alt.value("black")),
    )
    return (
        (cells + text)
        .transform_calculate(
            shown=f"datum.{figure} === null ? '{UNDEFINED}' : format(datum.{figure}, '{formatting.FIGURE_D3}')"
        )
        .properties(height=60 * len(names) + 40)
    )


def pair_lanes(outcomes: list[dict], names: tuple[str, str]) -> list[spans.Lane]:
    """The two lists' spans on the text as two lanes: A the reference's, B the scored list's, each span matched
    or not (missed: only A marks it; false alarm: only B)."""
    lanes = []
    for number, (side, name) in enumerate(zip(("gold", "submitted"), names)):
        letter = spans.lane_letter(number)
        own = [row for row in outcomes if row["side"] == side]
        lanes.append(
            spans.Lane(
                name,
                [
                    spans.Span.of_row(row, f"{letter}{count}", side, list_name=name)
                    for count, row in enumerate(own, start=1)
                ],
            )
        )
    return lanes


st.title("Agreement")
corpus, top = data.corpus_and_columns([1, 4])
categories = data.categories(corpus)
lists = data.comparable_lists(corpus)
splits = [split for split, count in lists.group_by("split", maintain_order=True).len().iter_rows() if count >= 2]
if not splits:
    st.info("No split of this corpus has two lists to compare.")
    st.stop()
split = choices.split(top[0], corpus, splits)
of_split = lists.filter(split=split)
names = dict(zip(of_split["set_id"], of_split["list"]))
scored = set(of_split.filter("scored")["set_id"])  # the submissions: the gold list has no errors of its own
chosen = top[1].multiselect(
    "Lists",
    list(names),
    default=list(names)[: choices.FIRST_LISTS],
    format_func=names.get,
    max_selections=MAX_LISTS,
    key=f"agreement_lists-{corpus}-{split}",
    wrap=True,  # every list's name whole (in a column, Streamlit cuts the chips at its width)
    help="The gold list and the submissions of the split; every two are compared both ways.",
)
refused = data.refused_lists(corpus, split)
if refused:
    st.caption(
        f"{refused} list(s) of this split are left out: the shared-task scheme does not score a list whose spans "
        "overlap (see the Refresh status page and the table scheme_refusals)."
    )
if len(chosen) < 2:
    st.info("Choose two lists or more.")
    st.stop()

middle = st.columns([1, 1, 3])
scope = choices.scope(middle[0], corpus)
scheme = links.select(
    middle[1],
    "Match scheme",
    "scheme",
    data.SCHEMES,
    help=f"How the two lists' spans are matched and counted. {data.SCHEME_DESCRIPTION}",
)
shown_figures = [*data.scheme_figures(scheme), "kappa"]  # the token figures are the shared task's alone
figure = middle[2].radio("Figure", shown_figures, format_func=FIGURES.get, horizontal=True, key="agreement_figure")
result = data.agreement_of(chosen, data.scopes(corpus), scheme)
columns = ["reference", "compared", *shown_figures, "matched", "reference_total", "compared_total"]
pairs = pl.DataFrame(
    [row for row in result["pairs"] if row["scope"] == scope],
    schema={"reference": pl.String, "compared": pl.String}
    | {name: pl.Float64 for name in [*tables.RATIOS, "kappa"]}
    | {"matched": pl.Float64 if scheme in data.HALF_COUNT_SCHEMES else pl.Int64}
    | {name: pl.Int64 for name in ["reference_total", "compared_total", "kappa_pairs"]}
    | {"signature": pl.String},
)
order = result["sets"]
st.caption(
    f"Each cell scores the column's list against the row's as if the row's were the gold list, under the match "
    f"scheme {scheme}, in scope {scope}: the column's recall is the row's precision. Cohen's κ is over the "
    "categories of the pairs the shared task's matching makes in the ALL scope (in a category's scope, that "
    "category against the rest), as `accuracy-db agreement` computes it. Hover over a cell for its counts."
)
with st.container(key="agreement_matrix"):
    charts.draw(None, matrix, pairs, order, figure, width="stretch")
with st.expander("The pairs as a table, with their signatures"):
    tables.table(
        pairs.select(*columns, "signature"),
        column_config=tables.score_columns()
        | {
            "reference_total": st.column_config.NumberColumn("reference's", format=formatting.COUNT_PRINTF),
            "compared_total": st.column_config.NumberColumn("scored list's", format=formatting.COUNT_PRINTF),
            "kappa": st.column_config.NumberColumn("κ", format=formatting.FIGURE_PRINTF),
        },
        key="agreement_pairs",
    )

st.subheader("Mistakes per text")
correlations = [row for row in result["correlations"] if row["scope"] == scope]
tables.table(
    pl.DataFrame(
        [
            {
                "a": row["a"],
                "b": row["b"],
                "measure": tables.measure_name(row["measure"]),
                "value": row["value"],
                "p-value": p_value_text(row["p_value"]),
                "texts": row["n"],
                "note": row["reason"],
            }
            for row in correlations
        ],
        schema={
            "a": pl.String,
            "b": pl.String,
            "measure": pl.String,
            "value": pl.Float64,
            "p-value": pl.String,
            "texts": pl.Int64,
            "note": pl.String,
        },  # fmt: skip
    ),
    column_config={"value": st.column_config.NumberColumn("value", format=formatting.FIGURE_PRINTF)},
    numbers=("value",),
    key="agreement_correlations",
)
st.caption(
    "Pearson's r and Spearman's ρ of the two lists' mistakes per text (every text of the split), with scipy's p-values."
)
if result["categories"]:
    st.subheader("Do the lists give the same category to the spans most of them mark?")
    tables.table(
        pl.DataFrame(
            [
                {
                    "measure": tables.measure_name(row["measure"]),
                    "value": row["value"],
                    "spans": row["units"],
                    "marked by at least": row["min_votes"],
                    "note": row["reason"],
                }
                for row in result["categories"]
            ],
            schema={
                "measure": pl.String,
                "value": pl.Float64,
                "spans": pl.Int64,
                "marked by at least": pl.Int64,
                "note": pl.String,
            },  # fmt: skip
        ),
        column_config={
            "marked by at least": st.column_config.NumberColumn(
                "marked by at least", help="A span counts when at least so many of the lists mark it (a majority)"
            ),
            "spans": st.column_config.NumberColumn("spans", help="The spans the measure is over"),
            "value": st.column_config.NumberColumn("value", format=formatting.FIGURE_PRINTF),
        },
        numbers=("value",),
        key="agreement_categories",
    )
    st.caption(
        f"The spans at least {result['categories'][0]['min_votes']} of the {len(chosen)} lists mark: Fleiss' κ over "
        "those every list rates with one category, Krippendorff's α over those two lists or more rate."
    )

st.subheader("Two lists on a text")
pick = st.columns([2, 2, 2])
first = pick[0].selectbox("List A (reference)", chosen, format_func=names.get, key=f"agreement_a-{corpus}-{split}")
others = [set_id for set_id in chosen if set_id != first]
second = pick[1].selectbox(
    "List B (scored against A)",
    others,
    index=len(others) - 1,
    format_func=names.get,
    key=f"agreement_b-{corpus}-{split}",
)
text_ids = data.texts_of(corpus, split)
text_id = pick[2].selectbox("Text", text_ids, key=f"agreement_text-{corpus}-{split}")
outcomes = data.pair_outcomes(first, second, text_id)
tokens = data.tokens_of(text_id)
lanes = pair_lanes(outcomes, (names[first], names[second]))
matched = sum(row["outcome"] == "matched" and row["side"] == "gold" for row in outcomes)
only_a = sum(row["outcome"] == "missed" for row in outcomes)
only_b = sum(row["outcome"] == "false_alarm" for row in outcomes)
st.markdown(
    f"**{literal(text_id)}**: {literal(names[first])} marks {len(lanes[0].spans)}, {literal(names[second])} marks "
    f"{len(lanes[1].spans)}: {matched} matched, **{only_a + only_b} disagreements** ({only_a} only in A, {only_b} "
    "only in B; ALL scope)."
)
# Where else to read the pair on this text: the Document view (with a submission of the pair), and each
# submission's mistakes on it as the scoring against the gold list saw them.
submitted = [names[set_id] for set_id in (second, first) if set_id in scored]
ways = st.columns(1 + len(submitted))
links.link(
    ways[0],
    "document",
    f"{literal(text_id)} in the Document view",
    icon=":material/article:",
    text=text_id,
    submission=submitted[0] if submitted else links.NO_SUBMISSION,
)
for where, name in zip(ways[1:], submitted):
    links.link(
        where,
        "errors",
        f"{literal(name)}'s mistakes on {literal(text_id)} in the Errors browser",
        icon=":material/table_rows:",
        submission=name,
        text=text_id,
        category=None,
        outcome=None,
    )
shown = [
    category for category in categories.names if category in {span.category for lane in lanes for span in lane.spans}
]
st.html(spans.lanes_legend_html(lanes, shown, categories))
with st.container(key="agreement_text"):
    st.html(spans.lanes_html(tokens, lanes, categories))
disagreements = [span for lane in lanes for span in lane.spans if span.outcome != "matched"]
tables.table(
    pl.DataFrame(
        [
            {
                "label": span.label,
                "list": span.list_name,
                "only in": "A" if span.outcome == "missed" else "B",
                "category": span.category,
                "tokens": span.tokens,
                "comment": span.comment,
                "from token": span.start,
                "to token": span.end,
            }
            for span in sorted(disagreements, key=lambda span: span.start)
        ],
        schema={
            "label": pl.String,
            "list": pl.String,
            "only in": pl.String,
            "category": pl.String,
            "tokens": pl.String,
            "comment": pl.String,
            "from token": pl.Int64,
            "to token": pl.Int64,
        },  # fmt: skip
    ),
    key="agreement_disagreements",
)
st.caption(
    f"Dashed: a mistake the other list has no match for. {palette.OUTCOME_SYMBOLS['missed']} marks one only A has, "
    f"{palette.OUTCOME_SYMBOLS['false_alarm']} one only B has (B's false alarm, scored against A)."
)
