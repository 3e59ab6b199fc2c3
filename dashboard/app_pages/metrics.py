"""Metrics: is my metric valid? Every metric of a split (imported scores, the built-ins bleu, chrf and length, and each
submission's count of mistakes) set against the gold list's mistakes per text, as metric_validity.table.metric_table
measures it for `accuracy-db metrics`; then one metric's scores against the gold counts, text by text, and its ROC
curve of finding the texts with a gold mistake of the scope. The per-text points and the curve are
data.metric_points_and_roc's SQL over scoped_metric_scores and metric_targets."""

import altair as alt
import polars as pl
import streamlit as st
from accuracy_db.dashboard import charts, choices, data, links, palette, tables
from accuracy_db.dashboard.literal import literal

from accuracy_db import formatting
from accuracy_db.formatting import with_interval

LEVELS = {"text": "Text level: each text's score against its gold count", "system": "System level: the systems' means"}
INTERVAL = f"{data.METRIC_SETTINGS.resampling.confidence:.0%} interval"
CHART_HEIGHT = 360  # the scatter and the ROC curve side by side, the same height
NOT_KNOWN = "#BBBBBB"  # the texts whose system is not known, behind the others' colours


def measure_table(rows: list[dict]) -> pl.DataFrame:
    """The rows of one level in the command's columns, sorted by their figure: measure by measure (in the command's
    order), the highest value first (an undefined one last): the value and its interval's bounds as numbers, the
    cluster, the threshold a measure chose, and why a value is undefined."""
    measures = list(dict.fromkeys(row["measure"] for row in rows))
    return pl.DataFrame(
        [
            {"metric": row["metric"], "measure": row["measure"]}
            | tables.with_bounds({"value": row["value"], "value_ci": row["ci"]}, "value")
            | {"rank": row["rank"], "threshold": row["threshold"], "n": row["n"], "note": row["reason"]}
            for row in rows
        ],
        schema={"metric": pl.String, "measure": pl.String}
        | {column: pl.Float64 for column in tables.bounded(["value"])}
        | {"rank": pl.Int64, "threshold": pl.Float64, "n": pl.Int64, "note": pl.String},
    ).sort(
        pl.col("measure").replace_strict(measures, list(range(len(measures)))),
        pl.col("value"),
        descending=[False, True],
        nulls_last=True,
        maintain_order=True,
    )


# Narrow columns for the figures, so that a note (why a value is undefined) is read whole at 1440 px: the
# widths add up to the page's 960 px there.
MEASURE_COLUMNS = {
    "metric": st.column_config.TextColumn("metric", width=170),
    "measure": st.column_config.TextColumn("measure", width=140),
    **{
        column: setting
        for column, setting in tables.interval_columns({"value": "value"}, INTERVAL).items()
        if column not in tables.COUNTS
    },
    "rank": st.column_config.NumberColumn(
        "rank", format=formatting.COUNT_PRINTF, width=50, help="The significance cluster, 1 the best"
    ),
    "threshold": st.column_config.NumberColumn("threshold", format=formatting.FIGURE_PRINTF, width=80),
    "n": st.column_config.NumberColumn(
        "n", format=formatting.COUNT_PRINTF, width=45, help="Texts (text level) or systems (system level)"
    ),
    "note": st.column_config.TextColumn("note", width=310, help="Why the value is undefined"),
}


def scatter(points: pl.DataFrame, metric: str) -> alt.Chart:
    """One point a text: the gold mistakes of the scope across, the metric's score up, coloured by system."""
    systems = sorted(set(points["system"].to_list()) - {"not known"})
    spare = palette.SPARE_COLOURS
    colours = alt.Scale(
        domain=[*systems, "not known"], range=[*(spare[i % len(spare)] for i in range(len(systems))), NOT_KNOWN]
    )
    dots = (
        alt.Chart(points)
        .mark_circle(opacity=0.7)
        .encode(
            x=alt.X("gold:Q", title="gold mistakes in the text", axis=charts.count_axis()),
            y=alt.Y("score:Q", title=f"{metric}'s score", scale=alt.Scale(zero=False)),
            color=alt.Color("system:N", scale=colours, title="system"),
            tooltip=[
                "text_id",
                alt.Tooltip("gold:Q", title="gold mistakes"),
                alt.Tooltip("score:Q", format=".4g"),
                "system",
                alt.Tooltip("texts_here:Q", title="texts at this point"),
            ],
        )
        .properties(height=CHART_HEIGHT)
    )
    return charts.sized_by_count(dots, ["gold", "score", "system"])


BASELINE = "length"  # the built-in metric every other must beat to add anything


def opening_metric(rows: list[dict], names: list[str]) -> str:
    """The metric the text-by-text chart opens on: the best-ranked one that is not a copy of the gold list (a
    submission listing the gold mistakes: every measure 1 at the text level, a trivial diagonal), else the first."""
    defined = [row for row in rows if row["level"] == "text" and row["value"] is not None]
    values = {name: [row["value"] for row in defined if row["metric"] == name] for name in names}
    copies = {name for name, of in values.items() if of and min(of) >= 1 - 1e-9}
    return next((name for name in names if name not in copies), names[0])


def forest_points(rows: list[dict], measure: str) -> pl.DataFrame:
    """The text level's rows of one measure, a metric a row, the highest value first (an undefined one left out):
    its value, its interval's bounds, its significance cluster (rank) and whether it is the baseline."""
    return pl.DataFrame(
        [
            {"metric": row["metric"], "value": row["value"], "low": (row["ci"] or [None])[0]}
            | {"high": (row["ci"] or [None, None])[1], "cluster": f"cluster {row['rank']}"}
            | {"baseline": row["metric"] == BASELINE}
            for row in rows
            if row["level"] == "text" and row["measure"] == measure and row["value"] is not None
        ],
        schema={"metric": pl.String, "value": pl.Float64, "low": pl.Float64, "high": pl.Float64}
        | {"cluster": pl.String, "baseline": pl.Boolean},
    ).sort("value", descending=True, maintain_order=True)


def forest(points: pl.DataFrame, measure: str) -> alt.LayerChart:
    """A forest plot: a metric a row, the highest value on top, a dot at its value and a line through its
    interval, coloured by significance cluster; the baseline (length) marked by a dashed line at its value and its
    name in bold."""
    names = points["metric"].to_list()
    base = alt.Chart(points).encode(
        y=charts.named_rows(
            "metric", names, labelFontWeight=alt.ExprRef(f"datum.value === '{BASELINE}' ? 'bold' : 'normal'")
        ),
        color=alt.Color("cluster:N", title="significance cluster", scale=alt.Scale(scheme="dark2")),
        tooltip=[
            "metric",
            "cluster",
            alt.Tooltip("value:Q", title=measure, format=formatting.FIGURE_D3),
            alt.Tooltip("low:Q", title="interval from", format=formatting.FIGURE_D3),
            alt.Tooltip("high:Q", title="interval to", format=formatting.FIGURE_D3),
        ],
    )
    baseline = (
        alt.Chart(points)
        .transform_filter(alt.datum.baseline)
        .mark_rule(color="#555", strokeDash=[4, 4])
        .encode(
            x="value:Q",
            tooltip=[alt.Tooltip("value:Q", title=f"{BASELINE} (the baseline)", format=formatting.FIGURE_D3)],
        )
    )
    return alt.layer(baseline, *charts.dot_and_whisker(base, "value", "low", "high", measure)).properties(
        height=alt.Step(24)
    )


def roc_chart(curve: pl.DataFrame) -> alt.LayerChart:
    """The ROC curve through its points (a slope where texts tie on a score), with the diagonal of chance."""
    chance = (
        alt.Chart(alt.Data(values=[{"x": 0, "y": 0}, {"x": 1, "y": 1}]))
        .mark_line(color="grey", strokeDash=[4, 4])
        .encode(x="x:Q", y="y:Q")
    )
    steps = (
        alt.Chart(curve)
        .mark_line(point=True)
        .encode(
            x=alt.X("false_positive_rate:Q", title="false positive rate"),
            y=alt.Y("true_positive_rate:Q", title="true positive rate"),
            order="position:Q",
            tooltip=[
                alt.Tooltip("threshold:Q", format=".4g"),
                alt.Tooltip("true_positive_rate:Q", format=formatting.FIGURE_D3),
                alt.Tooltip("false_positive_rate:Q", format=formatting.FIGURE_D3),
            ],
        )
    )
    return (chance + steps).properties(height=CHART_HEIGHT)


st.title("Metrics")
corpus, top = data.corpus_and_columns([1, 1])
splits = data.metric_splits(corpus)
if not splits:
    st.info("This corpus has no gold list to measure metrics against.")
    st.stop()

# The choices live in the address (st.query_params), so a view of the metrics can be shared as a link.
split = choices.split(top[0], corpus, splits)
scope = choices.scope(top[1], corpus, data.metric_scopes(corpus))
settings = data.METRIC_SETTINGS
with st.spinner("Measuring the metrics: some seconds, the first time a split and scope are asked for"):
    rows = data.metric_table(split, scope, corpus)
names = list(dict.fromkeys(row["metric"] for row in rows))  # in the order of the first measure's ranking
if not names:
    st.info(f"No metric scores the {literal(split)} split: import scores, or build with references or submissions.")
    st.stop()

st.caption(
    f"How well each metric's scores per text track the gold list's mistakes of scope {scope} on the "
    f"{literal(split)} split, as `accuracy-db metrics` prints them for that split and "
    "scope. A metric is taken as error-like (a higher-is-better one, such as BLEU, negated), "
    "so one that tracks the gold scores towards +1 whatever its direction. Each value has its "
    f"{INTERVAL} ({settings.resampling.resamples:,} bootstrap resamples of the texts, seed "
    f"{settings.resampling.seed}); **rank** is the significance cluster at the text level, by PERM-BOTH with "
    f"{settings.trials:,} trials. **length** is the "
    "baseline: a metric that does no better than the texts' lengths adds nothing."
)
st.subheader("Each metric with its interval")
measures = list(dict.fromkeys(row["measure"] for row in rows if row["level"] == "text" and row["value"] is not None))
if measures:
    measure = st.radio("Measure", measures, horizontal=True, key=f"forest_measure-{corpus}-{split}")
    with st.container(key="metric_forest"):
        charts.draw(None, forest, forest_points(rows, measure), measure, width="stretch")
    st.caption(
        f"Each metric's {measure} at the text level, the line through it its {INTERVAL}, the highest on top; the "
        "colour is its significance cluster (the rank in the tables below). The dashed line is **length**, the "
        "baseline: a metric left of it does worse than counting words."
    )
for level, title in LEVELS.items():
    st.subheader(title)
    of_level = [row for row in rows if row["level"] == level]
    reasons = {row["reason"] for row in of_level}
    if len(reasons) == 1 and None not in reasons:  # one reason for every figure: said once
        st.info(f"Nothing to measure at the {level} level: {reasons.pop()}.")
        continue
    tables.table(
        measure_table(of_level),
        column_config=MEASURE_COLUMNS,
        numbers=tuple(tables.bounded(["value"])),
        key=f"metrics_{level}",
    )
with st.expander("Signatures (what each figure was computed from and how)"):
    signatures = pl.DataFrame(rows).select("metric", "level", "signature").unique(maintain_order=True)
    tables.table(signatures, key="metric_signatures")

st.subheader("One metric, text by text")
links.from_address(f"metric_choice-{corpus}-{split}", "metric", names, default=opening_metric(rows, names))
metric = st.columns(2)[0].selectbox("Metric", names, key=f"metric_choice-{corpus}-{split}")
links.to_address(metric=metric)
frames = data.metric_points_and_roc(corpus, split, scope, metric)
points = frames["points"]
direction = "higher" if points["higher_is_better"][0] else "lower"
shown, curve = st.columns([3, 2])
with shown:
    st.caption(
        f"One point per text of the {literal(split)} split that {literal(metric)} scores ({len(points)} texts): "
        f"the gold list's mistakes of scope {scope} across, the metric's score up ({direction} is better). "
        "Coloured by the system that generated the text, where that is known. Hover over a point for its text."
    )
    with st.container(key="metric_scatter"):
        charts.draw(None, scatter, points, metric, width="stretch")
with curve:
    [roc] = [row for row in rows if row["level"] == "text" and row["measure"] == "roc_auc" and row["metric"] == metric]
    if roc["reason"] is not None:
        st.info(f"No ROC curve in scope {scope}: {roc['reason']}.")
    else:
        st.caption(
            f"Finding the texts with a gold mistake of scope {scope}: a text is flagged when its score is "
            f"{'at most' if direction == 'higher' else 'at least'} the threshold: up, the share of those texts "
            "flagged (true positive rate); across, the share of the others flagged (false positive rate). ROC AUC "
            f"{with_interval({'value': roc['value'], 'value_ci': roc['ci']}, 'value')}; the dashed line is chance."
        )
        with st.container(key="metric_roc"):
            charts.draw(None, roc_chart, frames["curve"], width="stretch")
