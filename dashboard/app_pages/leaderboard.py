"""Leaderboard: the submissions of a split ranked as the shared task ranked them, each figure with its bootstrap
interval and the significance clusters of the ranking, each one's difference from the best with its interval, each
one's figures per category, and a chart comparing them category by category with intervals, and the ranking under
another match scheme. The ranking, intervals and clusters are ranking.leaderboard's, as `accuracy-db leaderboard
--ci` prints them; the differences from the best are significance.against_best's, as `accuracy-db compare` tests a
pair; the per-category figures come from the scores view, their intervals from intervals.bootstrap_intervals;
another scheme's ranking is ranking.leaderboard's too, as `accuracy-db leaderboard --scheme` prints it. A corpus whose
gold list is read with character labels opens on the mushroom scheme, as the command ranks it by default."""

import altair as alt
import polars as pl
import streamlit as st
from accuracy_db.dashboard import bars, charts, choices, data, links, tables
from accuracy_db.dashboard.literal import literal

from accuracy_db import formatting
from accuracy_db.formatting import p_value_text

INTERVAL = f"{data.RESAMPLING.confidence:.0%} interval"


def board_table(ranked: list[dict], metadata: pl.DataFrame) -> pl.DataFrame:
    """The ranked rows as the table shows them: each figure and its interval's bounds in columns of numbers (sorted
    as numbers, tables.with_bounds), and who submitted it."""
    rows = [
        {"rank": row["rank"], "cluster": row["cluster"], "submission": row["submission"], "kind": row["kind"]}
        | {"texts": row["texts"]}
        | {column: value for figure in tables.RATIOS for column, value in tables.with_bounds(row, figure).items()}
        | {count: row[count] for count in tables.COUNTS}
        for row in ranked
    ]
    who = metadata.select("submission", "team", "approach")
    board = pl.DataFrame(rows, infer_schema_length=None).join(who, on="submission", how="left", maintain_order="left")
    people = [c for c in ("team", "approach") if board[c].is_not_null().any()]  # the rest is in the expander
    figures = tables.bounded(list(tables.RATIOS))
    return board.select("rank", "cluster", "submission", "kind", *people, "texts", *figures, *tables.COUNTS)


def chart_points(ranked: list[dict], figure: str, differences: list[dict]) -> pl.DataFrame:
    """A row a submission, in rank order: its figure with its interval, and its difference from the best (the
    first) with the difference's interval; the best's difference is 0 without an interval."""
    from_best = {row["a"]: row for row in differences}
    return pl.DataFrame(
        [
            {
                "submission": row["submission"],
                "rank": row["rank"],
                "cluster": f"cluster {row['cluster']}",
                "value": row[figure],
                "low": row[f"{figure}_ci"][0],
                "high": row[f"{figure}_ci"][1],
            }
            | (
                {
                    "difference": other["difference"],
                    "difference_low": other["difference_ci"][0],
                    "difference_high": other["difference_ci"][1],
                    "p": p_value_text(other["p_value"], other["trials"]),
                }
                if (other := from_best.get(row["submission"]))
                else {"difference": 0.0 if row[figure] is not None else None, "p": "the best"}
            )
            for row in ranked
        ],
        schema={"submission": pl.String, "rank": pl.Int64, "cluster": pl.String}
        | {name: pl.Float64 for name in ("value", "low", "high", "difference", "difference_low", "difference_high")}
        | {"p": pl.String},
    )


CLICKABLE = ("submission", "from_best")  # the interval chart's selections, on its two charts


def interval_chart(points: pl.DataFrame, figure: str) -> alt.HConcatChart:
    """Two dot-and-whisker charts side by side, a submission a row in rank order down both, coloured by
    significance cluster: its figure with its interval, and (narrower) its difference from the best submission with
    the interval of that difference, a line at no difference. A click on a submission selects it in both."""
    label = tables.RATIOS[figure]
    names = points["submission"].to_list()
    base = alt.Chart(points).encode(
        y=charts.named_rows("submission", names, labelFontSize=12),  # whole names, read across
        color=alt.Color(
            "cluster:N",
            title="significance cluster",
            scale=alt.Scale(scheme="dark2"),  # clusters next to each other in colours far apart
            legend=alt.Legend(orient="top"),
        ),
        tooltip=[
            "submission",
            "rank",
            "cluster",
            alt.Tooltip("value:Q", title=label, format=formatting.FIGURE_D3),
            alt.Tooltip("low:Q", title="interval from", format=formatting.FIGURE_D3),
            alt.Tooltip("high:Q", title="interval to", format=formatting.FIGURE_D3),
            alt.Tooltip("difference:Q", title="difference from the best", format=formatting.DIFFERENCE_D3),
            alt.Tooltip("difference_low:Q", title="its interval from", format=formatting.DIFFERENCE_D3),
            alt.Tooltip("difference_high:Q", title="its interval to", format=formatting.DIFFERENCE_D3),
            alt.Tooltip("p:N", title="p (against the best)"),
        ],
    )
    # A selection a chart (one shared by both is deduplicated with a warning): CLICKABLE names them.
    figure_click, difference_click = (alt.selection_point(name=n, fields=["submission"]) for n in CLICKABLE)
    figures = alt.layer(*charts.dot_and_whisker(base, "value", "low", "high", label, figure_click))
    no_difference = alt.Chart(points).mark_rule(color="#999", strokeDash=[4, 4]).encode(x=alt.datum(0))
    differences = alt.layer(
        no_difference,
        *charts.dot_and_whisker(
            base.encode(y=alt.Y("submission:N", sort=names, axis=None)),
            "difference",
            "difference_low",
            "difference_high",
            f"{label} − the best's",
            difference_click,
        ),
    )
    return alt.hconcat(
        figures.properties(height=alt.Step(30)), differences.properties(height=alt.Step(30), width=220), spacing=8
    ).resolve_scale(y="shared")


def clicked_submissions(key: str) -> list[str]:
    """The submissions clicked in the chart of this key (shift-click for more), from its state of the last run: the
    chart is drawn under the table it filters."""
    selection = (st.session_state.get(key) or {}).get("selection") or {}
    points = [point["submission"] for name in CLICKABLE for point in selection.get(name) or []]
    return list(dict.fromkeys(points))


# The figures' names as the tables write them (token_recall: token recall), on the small charts' axes.
LABEL_EXPRESSION = "replace(datum.label, '_', ' ')"


def category_charts(
    categories: pl.DataFrame, figures: list[str], names: list[str], intervals: pl.DataFrame
) -> alt.FacetChart:
    """A small chart per category (the scores view's rows), its figures side by side, a bar per submission with
    its interval (data.category_intervals) as a whisker; a click on a bar selects its submission, category and
    figure."""
    long = (
        categories.filter(pl.col("scope") != "ALL")
        .unpivot(
            on=figures,
            index=["submission_id", "submission", "scope", "matched", "gold_total", "submitted_total"],
            variable_name="figure",
            value_name="value",
        )
        .join(intervals, on=["submission_id", "scope", "figure"], how="left", maintain_order="left")
        .drop("submission_id")
    )
    bar = alt.selection_point(name="bar", fields=["submission", "scope", "figure"], on="click")
    base = alt.Chart(long).encode(
        x=alt.X("figure:N", sort=figures, title=None, axis=alt.Axis(labelAngle=0, labelExpr=LABEL_EXPRESSION)),
        xOffset=alt.XOffset("submission:N"),
        y=alt.Y("value:Q", title=None, scale=alt.Scale(domain=[0, 1])),
        color=alt.Color("submission:N", title="submission", legend=alt.Legend(orient="top", labelLimit=320)),
        tooltip=[
            "submission",
            "scope",
            "figure",
            alt.Tooltip("value:Q", format=formatting.FIGURE_D3),
            alt.Tooltip("low:Q", title="interval from", format=formatting.FIGURE_D3),
            alt.Tooltip("high:Q", title="interval to", format=formatting.FIGURE_D3),
            alt.Tooltip("matched:Q", title="matched"),
            alt.Tooltip("gold_total:Q", title="gold mistakes"),
            alt.Tooltip("submitted_total:Q", title="submitted mistakes"),
        ],
    )
    whiskers = base.mark_rule(strokeWidth=1.5).encode(y="low:Q", y2="high:Q", color=alt.value("#333"))
    return (
        (bars.figure_bars(base, "value", bar) + whiskers)
        .properties(width=120, height=180)
        .facet(column=alt.Column("scope:N", sort=names, title=None))
    )


def another_scheme(others: list[str], split: str, scope: str, corpus: str) -> None:
    """The ranking under another scheme than the page's, computed when one is chosen (a nervaluate scheme at scale
    1000 takes some 20 s, which every visit of the page would otherwise wait for); why, in one line, when it ranks
    no list of the split. Nothing when no other scheme scores a list of the corpus."""
    if not others:
        return
    st.subheader("Under another match scheme")
    scheme = st.selectbox(
        "Match scheme",
        others,
        index=None,
        placeholder="Choose a scheme",
        help=f"{data.SCHEME_DESCRIPTION} {data.MUSHROOM_DESCRIPTION}",
        key=f"board_scheme-{corpus}",
    )
    if scheme is None:
        return
    scheme_scope = "ALL" if scheme == data.MUSHROOM else scope  # the mushroom scheme reads every label
    under_scheme = pl.DataFrame(data.ranked_under_scheme(split, scheme_scope, scheme, corpus))
    if under_scheme.is_empty():
        st.info(f"Nothing ranked: {literal(data.not_scored(corpus, split, scheme))}.")
        return
    tables.table(
        under_scheme.drop("split", "categories", "signature"),
        column_config=tables.score_columns(),
        key="scheme_leaderboard",
    )
    with st.expander(f"Signatures under the {scheme} scheme"):
        tables.table(under_scheme.select("submission", "signature"), key="scheme_signatures")
    if scheme == data.MUSHROOM:
        st.caption(
            "The lists read with character labels (`accuracy-db import mushroom`), scored as SemEval-2025 Task 3 "
            "(Mu-SHROOM) scores them, in every label whatever the scope above: iou and cor averaged over the texts, "
            "ranked by iou, then cor, as `accuracy-db leaderboard --scheme mushroom` prints them (`--ci` adds their "
            "intervals and clusters). An annotator (kind annotator) is scored on the texts it labelled (texts), and "
            "iou_loo and cor_loo are its human ceiling against the other annotators of its texts."
        )
    else:
        st.caption(
            f"The same submissions in scope {scope}, scored under the {scheme} scheme and ranked by its recall, then "
            f"its precision, as `accuracy-db leaderboard --scheme {scheme}` prints them (`--ci` adds their intervals "
            "and clusters; the Significance page tests any two under the scheme)."
        )


def mushroom_board(split: str, corpus: str) -> None:
    """The lists read with character labels ranked under the mushroom scheme, each mean with its interval and the
    significance clusters, as `accuracy-db leaderboard --ci` ranks a corpus whose gold list is read with character
    labels by default."""
    ranked = data.ranked_with_intervals(split, "ALL", corpus, data.MUSHROOM)
    board = pl.DataFrame(
        [
            {"rank": row["rank"], "cluster": row["cluster"], "submission": row["submission"], "kind": row["kind"]}
            | {column: value for figure in tables.MEANS for column, value in tables.with_bounds(row, figure).items()}
            | {"texts": row["texts"], "iou_loo": row["iou_loo"], "cor_loo": row["cor_loo"]}
            for row in ranked
        ],
        infer_schema_length=None,
    )
    tables.table(
        board,
        column_config=tables.interval_columns(tables.MEANS, f"mean over the texts' {INTERVAL}")
        | {key: st.column_config.NumberColumn(key, format=formatting.FIGURE_PRINTF) for key in ("iou_loo", "cor_loo")},
        numbers=tuple(tables.bounded(list(tables.MEANS))),
        key="mushroom_leaderboard",
    )
    st.caption(
        "The lists read with character labels (`accuracy-db import mushroom`), scored as SemEval-2025 Task 3 "
        f"(Mu-SHROOM) scores them, in every label: iou and cor averaged over the texts, each with its {INTERVAL} "
        f"({data.RESAMPLING.resamples:,} bootstrap resamples of the texts, seed {data.RESAMPLING.seed}), ranked by "
        "iou, then cor; a new **cluster** starts where a list's iou is significantly lower (paired permutation test, "
        f"{data.TRIALS:,} trials, p < 0.05), as `accuracy-db leaderboard --ci` prints them. An annotator (kind "
        "annotator) is scored on the texts it labelled (texts), and has no cluster; iou_loo and cor_loo are its "
        "human ceiling: the same figures against the other annotators of its texts, the mark a system would need to "
        "match a person."
    )
    with st.expander("Signatures (what each figure was computed from and how)"):
        tables.table(
            pl.DataFrame([{k: row[k] for k in ("submission", "signature")} for row in ranked]), key="signatures"
        )


st.title("Leaderboard")
corpus, top = data.corpus_and_columns([1, 1])
# The page opens on the scheme the corpus is ranked under by default, as `accuracy-db leaderboard` does: the
# mushroom scheme for a corpus whose gold list is read with character labels (which may lie inside one token).
scoring = data.scoring_schemes(corpus)
opening = next(iter(scoring), data.SCHEME)
splits = data.splits_with_submissions(corpus, opening)
if not splits:
    st.info(f"Nothing to rank: {literal(data.not_scored(corpus, None, opening))}.")
    st.stop()

SHARED_TASK_SPLITS = "train is the split the data calls dev (S001–S060); test is T001–T030."
split = choices.split(
    top[0], corpus, splits, help=SHARED_TASK_SPLITS if corpus == data.SHARED_TASK else "The corpus's own splits."
)
scope = choices.scope(top[1], corpus)
if opening == data.MUSHROOM:
    mushroom_board(split, corpus)
    if data.SCHEME not in scoring:  # the match schemes score no list of the corpus: why, in one line
        st.caption(f"Not under the match schemes: {literal(data.not_scored(corpus, split, data.SCHEME))}.")
    another_scheme(scoring[1:], split, scope, corpus)
    st.stop()
frames = data.scores_and_metadata(corpus, split)
ranked = data.ranked_with_intervals(split, scope, corpus)
st.caption(
    "Ranked by mistake recall, then precision. Click a column heading to sort by it (figures sort as numbers); an "
    f"empty figure is one with nothing to divide by. Each figure is followed by its {INTERVAL}, low to high: "
    f"{data.RESAMPLING.resamples:,} "
    f"bootstrap resamples of the texts, seed {data.RESAMPLING.seed}. A new **cluster** starts where a "
    f"submission's recall is significantly lower (paired permutation test, {data.TRIALS:,} trials, p < 0.05) "
    "than that of a submission of the cluster above, as `accuracy-db leaderboard --ci` draws them."
)
# One level of figures at a time (each with its interval's bounds), or the mistake level's counts, so that every
# column is in view on a 1440 px screen. The table holds them all (and the CSV download of the grid too).
level = st.radio("Figures", ["mistake level", "token level", "mistake counts"], horizontal=True, key="board_level")
board = board_table(ranked, frames["metadata"])
figures = [f for f in tables.RATIOS if level != "mistake counts" and f.startswith("token_") == (level == "token level")]
every_figure = tables.bounded(list(tables.RATIOS))
shown = [column for column in board.columns if column not in every_figure and column not in tables.COUNTS]
shown += tables.bounded(figures) + (list(tables.COUNTS) if level == "mistake counts" else [])
clicked = clicked_submissions("interval_dots")
if clicked:
    board = board.filter(pl.col("submission").is_in(clicked))
    st.caption(
        f"The rows of the {len(clicked)} submission(s) clicked in the chart below; click its background for every row."
    )
picked = tables.table(
    board,
    column_config=tables.interval_columns(tables.RATIOS, INTERVAL),
    numbers=tuple(every_figure),
    column_order=shown,
    key="leaderboard",
    on_select="rerun",
    selection_mode="single-row",
)
if picked.selection.rows:  # a click on a row: what the submission missed and listed wrongly, in the scope
    links.follow("errors", **links.errors_of(board["submission"][picked.selection.rows[0]], scope))
# The table's chart, under it: each figure with its interval, where the table gives them as text, and each
# submission's difference from the best, tested as `accuracy-db compare` tests a pair.
board_figure = st.radio(
    "Figure in the chart",
    list(tables.RATIOS),
    format_func=tables.RATIOS.get,
    horizontal=True,
    key="board_figure",
)
names = [row["submission"] for row in ranked]
differences = data.against_best(names, scope, board_figure, split, corpus) if len(names) > 1 else []
with st.container(key="interval_chart"):
    charts.draw(
        None,
        interval_chart,
        chart_points(ranked, board_figure, differences),
        board_figure,
        on_select="rerun",
        key="interval_dots",
    )
st.caption(
    f"Left, a dot is a submission's {tables.RATIOS[board_figure]} in scope {scope}, the line through it its "
    f"{INTERVAL}; right, its difference from the best submission ({literal(names[0])}) with the {INTERVAL} of the "
    "difference over the same resampled texts (a line that crosses the dashed 0 is a difference the texts do not "
    "settle; hover for its p, as `accuracy-db compare` gives it). The colour is the significance cluster (a "
    "submission of a lower cluster is significantly below one of the cluster above). The axes span the intervals, "
    "not 0 to 1, so that the differences show; a figure with nothing to divide by says undefined at its start. "
    "Click a dot for its row in the table above; click a row for the submission's mistakes in the Errors browser."
)
with st.expander("Signatures (what each figure was computed from and how)"):
    tables.table(pl.DataFrame([{k: row[k] for k in ("submission", "signature")} for row in ranked]), key="signatures")
links.link(
    None,
    "metrics",
    "Metrics: does each submission's count of mistakes per text track the gold list's, better than BLEU, chrF "
    "or the texts' length?",
    icon=":material/query_stats:",
)

if not frames["metadata"].is_empty():
    with st.expander("What the submitters say about their submissions"):
        tables.table(
            frames["metadata"],
            column_config={"url": st.column_config.LinkColumn("url")},
            key="metadata",
        )

st.subheader("One submission, category by category")
categories = frames["categories"]
submission = links.select(
    None, "Submission", "submission", [row["submission"] for row in ranked], default=data.best_submission(corpus, split)
)
tables.table(
    categories.filter(submission=submission).drop("submission_id", "submission", "position"),
    column_config=tables.score_columns(),
    key="category_scores",
)

st.subheader("Submissions compared per category")
chart_level = st.radio("Level", ["mistake level", "token level"], horizontal=True, key="category_level")
side_by_side = ["token_recall", "token_precision"] if chart_level == "token level" else ["recall", "precision"]
with st.container(key="category_chart"):
    event = charts.draw(
        None,
        category_charts,
        categories,
        side_by_side,
        data.categories(corpus).names,
        data.category_intervals(categories["submission_id"].unique().sort().to_list(), data.scopes(corpus)[1:]),
        on_select="rerun",
        key="category_bars",
    )
st.caption(
    f"One small chart per category, its recall and precision side by side, the line over each bar its {INTERVAL} "
    "(the same as `accuracy-db leaderboard --ci --scope CATEGORY` gives). A thick line on the axis is a 0.000; "
    "undefined marks a figure with nothing to divide by (the precision in a category the submission listed no "
    "mistake of). Click a bar for those mistakes in the Errors browser: the gold mistakes the submission missed "
    "(recall) or its false alarms (precision)."
)
if clicked := event.selection.get("bar"):
    links.follow("errors", **links.errors_of(clicked[0]["submission"], clicked[0]["scope"], clicked[0]["figure"]))

another_scheme(scoring[1:], split, scope, corpus)
