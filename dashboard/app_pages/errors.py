"""Errors browser: the mistakes of a split as the scoring saw them, filtered by submission, category, outcome
(a matched or missed gold mistake, or a false alarm: a submitted mistake no gold mistake took) and text. The
outcomes are those of the mistake_outcomes view, so they add up to the matched, gold and submitted counts of the
scores."""

import altair as alt
import polars as pl
import streamlit as st
from accuracy_db.dashboard import charts, data, links, palette, tables
from accuracy_db.dashboard.literal import literal

PAGE_SIZE = 50
DOWNLOAD_LIMIT = 100_000

COLUMNS = [
    "submission", "text_id", "outcome", "category", "in_context", "marked", "correction", "comment",
    "matched_category", "matched_tokens", "system", "severity", "mistake_id", "counterpart_id",
]  # fmt: skip
ROW_HEIGHT = 35  # st.dataframe's header, in pixels
# A row's height: four lines, so that a cell wraps its text (st.dataframe wraps only in rows taller than 4rem): the
# longest context of the shared task (115 characters) and comment (94) fit whole in their columns at 7 px a
# character.
WRAPPED_ROW_HEIGHT = 84
# The chart's two bars a category: the gold mistakes (matched or missed: together, the gold list's count) and the
# submission's false alarms, which are not gold mistakes and so are a bar of their own, not stacked on them.
BAR_OF_SIDE = {"gold": "gold mistakes", "submitted": "false alarms"}
# Above the panels, its labels whole: at the right of three panels it was cut at the page's edge ("mis", "fals").
LEGEND = alt.Legend(title="outcome", orient="top", direction="horizontal", labelLimit=0)


def page_rows(page: pl.DataFrame) -> pl.DataFrame:
    """A page of rows with their contexts and counterparts, in the table's columns (the download is one page of
    up to DOWNLOAD_LIMIT rows and data.SQL_MAX_BYTES: a corpus of a million mistakes is for `accuracy-db query`,
    not a browser)."""
    counterparts = data.counterparts(page["counterpart_id"].drop_nulls().to_list())
    rows = data.with_context(page).join(counterparts, on="counterpart_id", how="left", maintain_order="left")
    return rows.with_columns(outcome=pl.col("outcome").replace_strict(palette.OUTCOME_LABELS)).select(COLUMNS)


def listed(values: list[str], every: list[str], all_of: str, shown=str) -> str | None:
    """A filter in the summary line: None when it keeps every value, else its values, comma-separated."""
    if not values and every:
        return f"no {all_of}"
    return None if values == every else ", ".join(literal(shown(value)) for value in values)


def filters_line(split, submissions, names, matching, categories, category_names, outcomes, texts, search) -> str:
    """The filters chosen, in one line of words (the multiselects' chips are cut at their widths)."""
    parts = [
        f"split {literal(split)}",
        f"submissions: {listed(submissions, names, 'submission') or 'every one'}",
        f"categories: {listed(categories, category_names, 'category') or 'every one'}",
        f"outcomes: {listed(outcomes, palette.OUTCOMES, 'outcome', palette.OUTCOME_LABELS.get) or 'every one'}",
        f"texts: {listed(texts, [], 'text')}" if texts else "every text",
        f"matched {matching}",
    ]
    if search:
        parts.append(f"containing “{literal(search)}”")
    return " · ".join(parts)


def counts_chart(counts: pl.DataFrame, category_names: list[str]) -> alt.FacetChart:
    """A panel per submission, two bars per category: its gold mistakes (matched and missed) and its false alarms.
    A click on a bar's part selects its submission, category and outcome."""
    shown = counts.with_columns(
        bar=pl.col("side").replace_strict(BAR_OF_SIDE),
        outcome=pl.col("outcome").replace_strict(palette.OUTCOME_LABELS),
        outcome_key=pl.col("outcome"),
    )
    return (
        alt.Chart(shown)
        .mark_bar()
        .add_params(alt.selection_point(name="bar", fields=["submission", "category", "outcome_key"]))
        .encode(
            # every label whole, however thin its bars (Vega-Lite cuts them at 180 px and drops overlapping ones)
            y=alt.Y("category:N", sort=category_names, title=None, axis=alt.Axis(labelLimit=0, labelOverlap=False)),
            yOffset=alt.YOffset("bar:N", sort=list(BAR_OF_SIDE.values())),
            x=alt.X("mistakes:Q", title="mistakes"),
            color=alt.Color("outcome:N", scale=palette.outcome_scale(), legend=LEGEND),
            order=alt.Order("outcome_position:Q"),
            tooltip=["submission", "category", alt.Tooltip("bar:N", title="of"), "outcome", "mistakes"],
        )
        .transform_calculate(outcome_position=f"indexof({list(palette.OUTCOME_LABELS.values())}, datum.outcome)")
        .properties(width=260, height=alt.Step(12))
        .facet(facet=alt.Facet("submission:N", title=None), columns=3)
    )


# The filters by generating system and by severity: label, address parameter, placeholder and help.
BY_TEXT_AND_SPAN = [
    (
        "Generating systems",
        "system",
        "All texts",
        "The mistakes of the texts these systems generated (the texts whose system is known: `text_generators`).",
    ),
    ("Severities", "severity", "Any severity", "The mistakes of these severities (a matched gold mistake by its own)."),
]


st.title("Errors browser")
MATCHINGS = ["within each category", "across categories"]
# The filters live in the address (st.query_params), so a view of the errors can be shared as a link.
corpus, top = data.corpus_and_columns([1, 3, 2])
splits = data.splits_with_submissions(corpus)
if not splits:
    # why, in one line: no submission loaded, or a corpus the match schemes cannot score (mushroom's)
    st.info(f"No errors to browse: {literal(data.not_scored(corpus))}.")
    st.stop()

split = links.select(top[0], "Split", "split", splits)
choices = data.error_choices(corpus, split)
submission_ids = dict(choices["submissions"].iter_rows())
submission_names = list(submission_ids)
text_ids = choices["texts"]["text_id"].to_list()
category_names = data.categories(corpus).names
of_corpus = f"{corpus}-{split}"  # the widgets' keys: another corpus or split has other choices
links.from_address(f"error_submissions-{of_corpus}", "submission", submission_names, submission_names, many=True)
links.from_address("error_matching", "matching", MATCHINGS)
# The scope chosen on another page (kept as the sidebar opens this one): a category starts the filter on it alone.
in_scope = [links.kept("scope")] if links.kept("scope") in category_names else category_names
links.from_address(f"error_categories-{corpus}", "category", category_names, in_scope, many=True)
links.from_address("error_outcomes", "outcome", palette.OUTCOMES, palette.OUTCOMES, many=True)
links.from_address(f"error_texts-{of_corpus}", "text", text_ids, [], many=True)
links.from_address("error_search", "search")
# wrap: every chip whole on lines of their own (in a column, Streamlit keeps them on one line, cut at its width)
submissions = top[1].multiselect("Submissions", submission_names, key=f"error_submissions-{of_corpus}", wrap=True)
matching = top[2].radio(
    "Matching",
    MATCHINGS,
    key="error_matching",
    help="Within each category, as the per-category scores count: a gold NAME mistake is matched only by a "
    "submitted NAME mistake. Across categories, as the ALL scores count: any overlapping mistake matches.",
)
middle = st.columns([3, 2, 2, 3])
categories = middle[0].multiselect("Categories", category_names, key=f"error_categories-{corpus}", wrap=True)
outcomes = middle[1].multiselect(
    "Outcomes", palette.OUTCOMES, format_func=palette.OUTCOME_LABELS.get, key="error_outcomes", wrap=True
)
texts = middle[2].multiselect("Texts", text_ids, placeholder="All texts", key=f"error_texts-{of_corpus}", wrap=True)
search = middle[3].text_input(
    "Search", key="error_search", placeholder="in tokens, corrections and comments", help="Any case; no patterns."
)
# By generating system and severity, where the corpus knows them (an MQM file's systems and severities; the systems
# of the shared task's nlg_systems.csv): none chosen keeps every one.
system_names, severity_names = data.systems_of(corpus, split), data.severities(corpus, split)
more = st.columns([5, 5]) if system_names or severity_names else [None, None]
chosen = []
for where, names, (label, name, placeholder, explained) in zip(more, (system_names, severity_names), BY_TEXT_AND_SPAN):
    key = f"error_{name}-{of_corpus}"
    links.from_address(key, name, names, [], many=True)
    chosen.append(
        where.multiselect(label, names, placeholder=placeholder, key=key, wrap=True, help=explained) if names else []
    )
systems, severities = chosen
if len(submissions) == 1:  # one submission chosen: the other pages show it too
    links.keep("submission", submissions[0])
links.to_address(
    submission=None if submissions == submission_names else submissions,
    matching=matching,
    category=None if categories == category_names else categories,
    outcome=None if outcomes == palette.OUTCOMES else outcomes,
    text=texts or None,
    search=search or None,
    system=systems or None,
    severity=severities or None,
)
with st.container(key="error_filters"):
    st.markdown(
        filters_line(
            split, submissions, submission_names, matching, categories, category_names, outcomes, texts, search
        )
        + "".join(
            f" · {name}: {', '.join(literal(value) for value in chosen)}"
            for name, chosen in (("systems", systems), ("severities", severities))
            if chosen
        )
    )
if len(texts) == 1:  # and back to the text: the document view of it
    links.link(
        None,
        "document",
        f"{literal(texts[0])} in the Document view",  # a label is Markdown: the id is shown as it is
        icon=":material/article:",
        text=texts[0],
        submission=submissions[0] if len(submissions) == 1 else links.NO_SUBMISSION,
    )

params = {
    "split": split,
    "within_category": matching == "within each category",
    "submission_ids": [submission_ids[name] for name in submissions],
    "categories": categories,
    "outcomes": outcomes,
    "texts": texts,
    "search": search,
    "systems": systems,
    "severities": severities,
}
counts = data.error_counts(params)
total = int(counts["mistakes"].sum()) if not counts.is_empty() else 0

st.subheader(f"{total} mistakes")
# The chart first: what the filters leave at a glance, then the rows; a click on a bar's part leaves its rows.
if counts.is_empty():
    st.caption("No mistake is left by these filters.")
else:
    with st.container(key="error_counts"):
        event = charts.draw(None, counts_chart, counts, category_names, on_select="rerun", key="error_bars")
    st.caption(
        "Per category, the gold mistakes (matched and missed: together the gold list's count) and, below them, "
        "the submission's false alarms, which are not gold mistakes and so a bar of their own. Click a part of a "
        "bar for its rows in the table below; click the chart's background for every row."
    )
    if picked := (event.selection.get("bar") or []):
        bar = picked[0]
        params |= {
            "submission_ids": [submission_ids[bar["submission"]]],
            "categories": [bar["category"]],
            "outcomes": [bar["outcome_key"]],
        }
        total = int(
            counts.filter(submission=bar["submission"], category=bar["category"], outcome=bar["outcome_key"])[
                "mistakes"
            ].sum()
        )
        st.markdown(
            f"The rows of the bar clicked: {literal(bar['submission'])} · {literal(bar['category'])} · "
            f"{palette.OUTCOME_LABELS[bar['outcome_key']]} ({total})"
        )

pages = max(1, -(-total // PAGE_SIZE))
controls = st.columns([1, 2])
if st.session_state.get("error_page", 1) > pages:  # fewer rows than before: back to the first page
    st.session_state.error_page = 1
page = controls[0].number_input("Page", min_value=1, max_value=pages, step=1, key="error_page")
controls[1].caption(
    f"of {pages}, {PAGE_SIZE} rows a page; [brackets] mark the tokens of each mistake. Click a row for its detail "
    "just below (the whole of its context and comment, what the box score says about it) and its text in the "
    "document view."
)
# The detail of the row clicked goes here, above the table, where it is seen at once (the table is drawn first, as
# its selection is known only then).
detail = st.container()
rows = page_rows(data.error_page(params, PAGE_SIZE, (page - 1) * PAGE_SIZE))
# The columns shown, in widths that fit a 1440 px screen beside the sidebar (the CSV has every column, the marked
# tokens and what a mistake was matched with too).
SHOWN = {
    "submission": st.column_config.TextColumn("submission", width=100),
    "text_id": st.column_config.TextColumn("text", width=55),
    "outcome": st.column_config.TextColumn("outcome", width=80),
    "category": st.column_config.TextColumn("category", width=95),
    "in_context": st.column_config.TextColumn("in context", width=245),
    "correction": st.column_config.TextColumn("correction", width=95),
    "comment": st.column_config.TextColumn("comment", width=185),
    "matched_category": st.column_config.TextColumn("matched with", width=80, help="The category it was matched with"),
}
# Every row of the page in view: the table is as tall as its rows, so the page scrolls, not a box inside it.
event = tables.table(
    rows,
    column_config=SHOWN,
    column_order=list(SHOWN),
    key="error_rows",
    height=ROW_HEIGHT + WRAPPED_ROW_HEIGHT * len(rows) + 3,
    row_height=WRAPPED_ROW_HEIGHT,
    on_select="rerun",
    selection_mode="single-row",
)
chosen = [number for number in event.selection.rows if number < len(rows)]  # of this page's rows
if chosen:
    row = rows.row(chosen[0], named=True)
    # What the box score says: of a checker list's finding (the row itself, a false alarm, or what a matched gold
    # mistake was matched with), or the value of a gold NUMBER or NAME mistake's claim.
    evidence = data.box_evidence([row["mistake_id"], row["counterpart_id"]])
    with detail, st.container(key="error_detail", border=True):
        st.markdown(
            f"**{literal(row['submission'])}** · {literal(row['text_id'])} · {literal(row['outcome'])} · "
            f"{literal(row['category'])}"
            + (f" (matched with {literal(row['matched_category'])})" if row["matched_category"] else "")
            + "".join(f" · {key} {literal(row[key])}" for key in ("system", "severity") if row[key])
        )
        st.markdown(literal(row["in_context"]))
        for label in ("correction", "comment"):
            if row[label]:
                st.markdown(f"*{label.capitalize()}:* {literal(row[label])}")
        for found in evidence.sort("evidence", descending=True).iter_rows(named=True):
            st.markdown(
                ("*The checker's finding:* " if found["evidence"] == "finding" else "*In the box score:* ")
                + f"{literal(found['entity'] or '–')} · {literal(found['stat'])}: the text says "
                f"{literal(found['claimed'])}, the box score {literal(found['actual'] or '–')} "
                f"(rule: {literal(found['rule'])})"
            )
        links.link(
            None,
            "document",
            f"{literal(row['text_id'])} in the Document view",
            icon=":material/article:",
            text=row["text_id"],
            submission=row["submission"],
        )
st.download_button(
    "Download these rows as CSV",
    data=lambda: data.bounded_csv(page_rows(data.error_page(params, DOWNLOAD_LIMIT, 0)))[0],
    help=f"At most the first {DOWNLOAD_LIMIT:,} rows and {data.megabytes(data.SQL_MAX_BYTES)}, cut after a whole row.",
    file_name=f"errors-{split}.csv",
    mime="text/csv",
    on_click="ignore",
    icon=":material/download:",
)
