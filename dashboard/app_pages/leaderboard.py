"""Leaderboard: the submissions of a split ranked as the shared task ranked them, each figure with its bootstrap
interval and the significance clusters of the ranking, each one's figures per category, and a chart comparing
them category by category, and the ranking under another match scheme. The ranking, intervals and clusters are
ranking.leaderboard's, as `accuracy-db leaderboard --ci` prints them; the per-category figures come from the scores
view; another scheme's ranking is ranking.leaderboard's too, as `accuracy-db leaderboard --scheme` prints it."""

import altair as alt
import polars as pl
import streamlit as st
from accuracy_db.dashboard import bars, data, tables

from accuracy_db.formatting import with_interval

CATEGORY_SCORES = """
SELECT submission, scope, position, recall, precision, f1, token_recall, token_precision, token_f1,
    matched, gold_total, submitted_total
FROM scores
WHERE corpus = $corpus AND split = $split
ORDER BY submission, position
"""

# A submitter's url is a link only when it is a web address (never javascript: or data:).
METADATA = """
SELECT meta.submission, meta.team, meta.system, meta.approach, meta.description,
    CASE WHEN regexp_matches(meta.url, '^https?://[^\\s]+$') THEN meta.url END AS url
FROM submission_metadata AS meta
WHERE meta.corpus = $corpus
    AND meta.submission IN (SELECT submission FROM evaluations WHERE corpus = $corpus AND split = $split)
ORDER BY meta.submission
"""

INTERVAL = f"{data.RESAMPLING.confidence:.0%} interval"


def board_table(ranked: list[dict], metadata: pl.DataFrame) -> pl.DataFrame:
    """The ranked rows as the table shows them: each figure with its interval, as the command's table prints it
    ("0.288 [0.26, 0.32]": with three decimals, the text sorts as the figure does), and who submitted it."""
    rows = [
        {"rank": row["rank"], "cluster": row["cluster"], "submission": row["submission"]}
        | {figure: with_interval(row, figure) for figure in tables.RATIOS}
        | {count: row[count] for count in tables.COUNTS}
        for row in ranked
    ]
    who = metadata.select("submission", "team", "approach")
    board = pl.DataFrame(rows).join(who, on="submission", how="left", maintain_order="left")
    people = [c for c in ("team", "approach") if board[c].is_not_null().any()]  # the rest is in the expander
    return board.select("rank", "cluster", "submission", *people, *tables.RATIOS, *tables.COUNTS)


def interval_chart(ranked: list[dict], figure: str) -> alt.LayerChart:
    """One bar a submission in rank order with the interval of the figure as an error bar, coloured by cluster."""
    points = pl.DataFrame(
        [
            {
                "submission": row["submission"],
                "rank": row["rank"],
                "cluster": row["cluster"],
                "value": row[figure],
                "low": row[f"{figure}_ci"][0],
                "high": row[f"{figure}_ci"][1],
            }
            for row in ranked
        ],
        schema={"submission": pl.String, "rank": pl.Int64, "cluster": pl.Int64}
        | {name: pl.Float64 for name in ("value", "low", "high")},
    )
    base = alt.Chart(points).encode(x=alt.X("submission:N", sort=[row["submission"] for row in ranked], title=None))
    tooltip = [
        "submission",
        "rank",
        "cluster",
        alt.Tooltip("value:Q", title=tables.RATIOS[figure], format=".3f"),
        alt.Tooltip("low:Q", format=".3f"),
        alt.Tooltip("high:Q", format=".3f"),
    ]
    figures = base.encode(
        y=alt.Y("value:Q", title=tables.RATIOS[figure], scale=alt.Scale(domain=[0, 1])),
        color=alt.Color("cluster:O", title="cluster"),
        tooltip=tooltip,
    )
    errors = base.mark_errorbar(ticks=True, thickness=2).encode(
        y=alt.Y("low:Q", title=tables.RATIOS[figure]), y2="high:Q", tooltip=tooltip
    )
    return bars.figure_bars(figures, "value") + errors


st.title("Leaderboard")
corpus, top = data.corpus_and_columns([1, 1])
splits = data.splits_with_submissions(corpus)
if not splits:
    st.info("No submission is loaded yet: give `accuracy-db build` a folder of submissions.")
    st.stop()

SHARED_TASK_SPLITS = "train is the split the data calls dev (S001–S060); test is T001–T030."
split = top[0].selectbox(
    "Split", splits, help=SHARED_TASK_SPLITS if corpus == data.SHARED_TASK else "The corpus's own splits."
)
scope = top[1].selectbox(
    "Scope", data.scopes(corpus), help="ALL mistakes, or the mistakes of one category alone.", key=f"scope-{corpus}"
)
params = {"corpus": corpus, "split": split}
frames = data.read(categories=(CATEGORY_SCORES, params), metadata=(METADATA, params))
ranked = data.ranked_with_intervals(split, scope, corpus)
st.caption(
    "Ranked by mistake recall, then precision. Click a column heading to sort by it; an empty cell (–) is a figure "
    f"with nothing to divide by. Each figure has its {INTERVAL} in brackets: {data.RESAMPLING.resamples:,} "
    f"bootstrap resamples of the texts, seed {data.RESAMPLING.seed}. A new **cluster** starts where a "
    f"submission's recall is significantly lower (paired permutation test, {data.TRIALS:,} trials, p < 0.05) "
    "than that of a submission of the cluster above, as `accuracy-db leaderboard --ci` draws them."
)
# One level of figures at a time, so that every column is in view on a 1440 px screen; the counts are the
# mistake level's. The table holds both levels (and the CSV download of the grid too).
level = st.radio("Figures", ["mistake level", "token level"], horizontal=True, key="board_level")
board = board_table(ranked, frames["metadata"])
figures = [figure for figure in tables.RATIOS if figure.startswith("token_") == (level == "token level")]
shown = [column for column in board.columns if column not in tables.RATIOS and column not in tables.COUNTS]
shown += figures + (list(tables.COUNTS) if level == "mistake level" else [])
tables.table(board, column_config=tables.interval_columns(INTERVAL), column_order=shown, key="leaderboard")
with st.expander("Signatures (what each figure was computed from and how)"):
    tables.table(pl.DataFrame([{k: row[k] for k in ("submission", "signature")} for row in ranked]), key="signatures")
st.page_link(
    "app_pages/metrics.py",
    label="Metrics: does each submission's count of mistakes per text track the gold list's, better than BLEU, chrF "
    "or the texts' length?",
    icon=":material/query_stats:",
    query_params={"split": split, "scope": scope} | ({} if corpus == data.SHARED_TASK else {"corpus": corpus}),
)

if not frames["metadata"].is_empty():
    with st.expander("What the submitters say about their submissions"):
        tables.table(
            frames["metadata"],
            column_config={"url": st.column_config.LinkColumn("url")},
            key="metadata",
        )

st.subheader(f"The leaderboard with {INTERVAL}s")
board_figure = st.radio(
    "Figure", list(tables.RATIOS), format_func=tables.RATIOS.get, horizontal=True, key="board_figure"
)
with st.container(key="interval_chart"):
    st.altair_chart(interval_chart(ranked, board_figure), width="stretch")
st.caption(
    f"A bar is the figure in scope {scope}, the line across it its {INTERVAL}; a 0.000 is a thick line on the "
    "axis, and a figure with nothing to divide by says undefined (a submission that listed no mistake has no "
    "precision)."
)

st.subheader("One submission, category by category")
categories = frames["categories"]
submission = st.selectbox("Submission", [row["submission"] for row in ranked])
tables.table(
    categories.filter(submission=submission).drop("submission", "position"),
    column_config=tables.score_columns(),
    key="category_scores",
)

st.subheader("Submissions compared per category")
figure = st.radio("Figure", list(tables.RATIOS), format_func=tables.RATIOS.get, horizontal=True, key="category_figure")
per_category = categories.filter(categories["scope"] != "ALL")
chart = bars.figure_bars(
    alt.Chart(per_category).encode(
        x=alt.X("scope:N", sort=data.categories(corpus).names, title=None),
        xOffset=alt.XOffset("submission:N"),
        y=alt.Y(f"{figure}:Q", title=tables.RATIOS[figure], scale=alt.Scale(domain=[0, 1])),
        color=alt.Color("submission:N", title="submission"),
        tooltip=["submission", "scope", alt.Tooltip(f"{figure}:Q", format=".3f"), "matched", "gold_total"],
    ),
    figure,
)
with st.container(key="category_chart"):
    st.altair_chart(chart, width="stretch")
st.caption(
    "A thick line on the axis is a 0.000; undefined marks a figure with nothing to divide by (the precision in a "
    "category the submission listed no mistake of)."
)

st.subheader("Under another match scheme")
scheme = st.selectbox(
    "Match scheme",
    data.ranking_schemes(corpus)[1:],
    index=None,
    placeholder="Choose a scheme",
    help=f"{data.SCHEME_DESCRIPTION} {data.MUSHROOM_DESCRIPTION}",
    key=f"board_scheme-{corpus}",
)
# Computed only when asked for: a nervaluate scheme at scale 1000 takes some 20 s, which every visit of the page
# would otherwise wait for.
if scheme is not None:
    scheme_scope = "ALL" if scheme == data.MUSHROOM else scope  # the mushroom scheme reads every label
    under_scheme = pl.DataFrame(data.ranked_under_scheme(split, scheme_scope, scheme, corpus))
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
            "intervals and clusters)."
        )
    else:
        st.caption(
            f"The same submissions in scope {scope}, scored under the {scheme} scheme and ranked by its recall, then "
            f"its precision, as `accuracy-db leaderboard --scheme {scheme}` prints them (`--ci` adds their intervals "
            "and clusters; the Significance page tests any two under the scheme)."
        )
