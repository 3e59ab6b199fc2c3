"""Document view: one text with the gold mistakes and one submission's mistakes marked on it (how each was
scored, from the mistake_outcomes view), or with any number of lists at once (in lanes under the text, or side by
side); beside it the box score of the game it describes, with the box-score checker's findings and the cells they
contradict, or the source data its corpus gives it. A text rated as an MQM file rates it shows its source beside
it, both with the raters' errors marked by severity (rated_error_spans)."""

import re

import polars as pl
import streamlit as st
from accuracy_db.dashboard import box_score, data, links, palette, severities, spans, tables
from accuracy_db.dashboard.links import NO_SUBMISSION
from accuracy_db.dashboard.literal import literal
from accuracy_db.dashboard.source_data import source_tables

WEB_ADDRESS = re.compile(r"https://[A-Za-z0-9.-]+/[A-Za-z0-9._~/%-]*")  # linked only when it is one

LAYOUTS = ["gold and one submission", "lanes", "side by side"]


def move(text_ids: list[str], step: int) -> None:
    """Go to the previous (-1) or next (+1) text."""
    position = text_ids.index(st.session_state.text) + step
    st.session_state.text = text_ids[position % len(text_ids)]


def lane_spans(rows: pl.DataFrame, set_id: int, letter: str, name: str) -> list[spans.Span]:
    """A list's spans as a lane's, labelled with the lane's letter in reading order."""
    return [
        spans.Span.of_row(row, f"{letter}{number}", "submitted", list_name=name)
        for number, row in enumerate(rows.filter(set_id=set_id).iter_rows(named=True), start=1)
    ]


st.title("Document view")
given_text = st.query_params.get("text")
if given_text and "corpus" not in st.query_params:  # a link names a text alone: show it in its own corpus
    found = data.corpus_of_text(given_text)
    if found is not None:
        st.query_params["corpus"] = found
# The corpus on a row of its own (only when there are several): the row below keeps today's widths.
corpus = data.choose_corpus(st.columns([2, 5])[0] if len(data.corpora()) > 1 else None)
top = st.columns([2, 3, 1, 1], vertical_alignment="bottom")
categories = data.categories(corpus)
choices = data.document_choices(corpus)
text_ids = choices["texts"]["text_id"].to_list()
if not text_ids:
    st.info("The corpus has no texts.")
    st.stop()
if st.session_state.get("text") not in text_ids:  # a link can name the text: /document?text=S001
    st.session_state.text = given_text if given_text in text_ids else text_ids[0]

text_id = top[0].selectbox("Text", text_ids, key="text")
split = choices["texts"].filter(text_id=text_id)["split"][0]
links.keep("split", split)
options = [*choices["submissions"].filter(split=split)["submission"].to_list(), NO_SUBMISSION]
# and the submission: /document?text=S001&submission=submission
first = data.best_submission(corpus, split) or NO_SUBMISSION
submission = links.select(top[1], "Submission", "submission", options, default=first)
top[2].button("Previous", on_click=move, args=(text_ids, -1), icon=":material/arrow_back:", width="stretch")
top[3].button("Next", on_click=move, args=(text_ids, 1), icon=":material/arrow_forward:", width="stretch")
links.from_address("document_layout", "layout", LAYOUTS)  # and the layout and its lists: &layout=lanes&list=…
layout = st.radio(
    "Lists shown",
    LAYOUTS,
    horizontal=True,
    key="document_layout",
    help="The gold list and one submission, with how each mistake was scored; or any lists of the split at once, "
    "each in a lane of its own under the text, or each beside the others.",
)
links.to_address(text=text_id, split=split)  # the address names what is shown

params = {"text": text_id, "submission": None if submission == NO_SUBMISSION else submission}
links.link(
    None,
    "errors",
    f"This text's mistakes in the Errors browser{'' if params['submission'] is None else ', this submission'}",
    icon=":material/manage_search:",
    split=split,
    text=text_id,
    submission=params["submission"],
    matching="across categories",  # as the marks on the text are scored: the ALL scope
)
frames = data.document(text_id, params["submission"])
rated = frames["rated"]
# A text of a corpus with severities (an MQM file's): its target and its source with the raters' errors by
# severity, in the first layout (a text no rater found an error in, plain).
by_severity = bool(data.severities(corpus, split)) and layout == LAYOUTS[0]


def rated_errors(side: str) -> list[severities.RatedError]:
    return [
        severities.RatedError(row["label"], row["char_start"], row["char_end"], row["severity"], row["category"],
                              row["rater"])
        for row in rated.filter(side=side).iter_rows(named=True)
    ]  # fmt: skip


tokens = frames["text"]["tokens"][0].to_list()
mistakes = frames["mistakes"]
marked = {"gold": [], "submitted": []}
for row in mistakes.iter_rows(named=True):
    marked[row["side"]].append(spans.Span.of_row(row, row["label"], row["side"], counterpart=row["matched_with"]))

lanes: list[spans.Lane] = []
if layout != LAYOUTS[0]:
    lists = data.lists_of(corpus, split)
    names = dict(lists.iter_rows())
    by_name = {name: set_id for set_id, name in names.items()}
    given = list(dict.fromkeys(by_name[name] for name in st.query_params.get_all("list") if name in by_name))
    given = given[: spans.MAX_LANES]  # an address may name a list twice, or too many
    default = given or [set_id for set_id, name in names.items() if name in ("gold list", params["submission"])]
    chosen = st.multiselect(
        "Lists",
        list(names),
        default=default,
        format_func=names.get,
        max_selections=spans.MAX_LANES,
        key=f"document_lists-{corpus}-{split}",
        help="Lane A is the first list chosen, nearest the text.",
    )
    rows = data.spans_of_lists(text_id, chosen)
    lanes = [
        spans.Lane(names[set_id], lane_spans(rows, set_id, spans.lane_letter(number), names[set_id]))
        for number, set_id in enumerate(chosen)
    ]
    marked_now = [span for lane in lanes for span in lane.spans]
    st.query_params.update(layout=layout)
    st.query_params["list"] = [names[set_id] for set_id in chosen]
else:
    marked_now = marked["gold"] + marked["submitted"]
    for name in ("layout", "list"):
        st.query_params.pop(name, None)


def show_text() -> None:
    """The text with the lists of the layout chosen."""
    gold_count, submitted_count = len(marked["gold"]), len(marked["submitted"])
    summary = f"**{literal(text_id)}** ({literal(split)}): {gold_count} gold mistakes"
    if layout != LAYOUTS[0]:
        counts = ", ".join(f"{literal(lane.name)} {len(lane.spans)}" for lane in lanes)
        st.markdown(f"{summary}; marked by the lists shown: {counts or 'none chosen'}.")
    elif params["submission"]:
        missed = sum(span.outcome == "missed" for span in marked["gold"])
        alarms = sum(span.outcome == "false_alarm" for span in marked["submitted"])
        summary += (
            f"; {literal(submission)} lists {submitted_count}: {gold_count - missed} gold mistakes matched, "
            f"{missed} missed, {alarms} false alarms (ALL scope)."
        )
        st.markdown(summary)
    else:
        st.markdown(summary)
    used = {span.category for span in marked_now}
    shown = [category for category in categories.names if category in used]
    if by_severity:
        st.html(severities.severity_legend_html(rated["severity"].unique().to_list()))
        with st.container(key="rated_target"):
            st.markdown("**Target**")
            st.html(severities.rated_html(frames["text"]["generated_text"][0], rated_errors("target")))
    elif layout == LAYOUTS[0]:
        st.html(spans.legend_html(shown, with_submission=params["submission"] is not None, categories=categories))
        st.html(spans.text_html(tokens, marked["gold"], marked["submitted"], categories))
    elif layout == "lanes":
        st.html(spans.lanes_legend_html(lanes, shown, categories))
        with st.container(key="lanes_text"):
            st.html(spans.lanes_html(tokens, lanes, categories))
    else:
        st.html(spans.lanes_legend_html(lanes, shown, categories, stacked=False))
        for lane, column in zip(lanes, st.columns(max(1, len(lanes)))):
            with column, st.container(key=f"side_by_side_{spans.lane_letter(lanes.index(lane))}"):
                st.markdown(f"**{literal(lane.name)}**")
                st.html(spans.lanes_html(tokens, [lane], categories))


game = frames["game"]
source = frames["text"]["source_data"][0]
if layout == "side by side":  # the lists take the whole width; the game or data comes below them
    show_text()
    reading, game_column = st.container(), st.container()
else:
    reading, game_column = st.columns([1, 1], gap="large")
    with reading:
        show_text()

with game_column:
    if not game.is_empty():
        game = game.row(0, named=True)
        teams = frames["teams"]
        st.subheader(literal(f"{game['vis_city']} {game['vis_name']} at {game['home_city']} {game['home_name']}"))
        caption = f"{game['game_date']:%A %-d %B %Y}" if game["game_date"] else ""
        if game["bref_box_url"] and WEB_ADDRESS.fullmatch(game["bref_box_url"]):
            caption += f" · [box score on basketball-reference.com]({game['bref_box_url']})"
        st.markdown(caption)
        highlights = box_score.highlight_css(marked_now, teams, frames["players"])
        cells = box_score.finding_cells(frames["finding_cells"], frames["findings"])
        with st.container(key="box_score"):
            st.html(box_score.box_score_html(teams, frames["players"], cells) + highlights)
        st.caption(
            "Point at a marked word, or click it: the players and teams its mistake names light up. A cell in a "
            "thick outline, its figure bold, is one the box-score checker's findings contradict (point at it for "
            "the finding)."
        )
        if not frames["findings"].is_empty():
            st.markdown(f"**The box-score checker's findings** ({len(frames['findings'])})")
            with st.container(key="document_findings"):
                st.html(box_score.findings_html(frames["findings"]))
    elif by_severity:
        st.subheader("Source")
        with st.container(key="rated_source"):
            st.html(severities.rated_html(frames["text"]["source"][0] or "", rated_errors("source")))
    elif source is not None:
        st.subheader("Source data")
        found, left_out = source_tables(source)
        with st.container(key="source_data"):
            for number, (path, rows) in enumerate(found):
                st.caption(literal(path))
                tables.table(pl.DataFrame(rows, infer_schema_length=None), key=f"source_data_{number}")
        if left_out:
            st.caption(f"{left_out} more tables: the column source_data of the table texts gives the whole of it.")
    else:
        st.info("No game data or source data for this text.")

# Below both columns: the whole width keeps every column of the list in view at 1440 px.
st.subheader("Mistakes")
if by_severity:
    # each error's characters (plain Python: a polars function of a column runs on threads of its own, issue 36)
    texts_of = {"target": frames["text"]["generated_text"][0] or "", "source": frames["text"]["source"][0] or ""}
    marked_characters = [
        texts_of[side][begin:end] for side, begin, end in rated.select("side", "char_start", "char_end").iter_rows()
    ]
    tables.table(
        rated.with_columns(marked=pl.Series(marked_characters, dtype=pl.String)).select(
            "label", "side", "severity", "category", "rater", "marked", "char_start", "char_end"
        ),
        column_config={"char_start": "from character", "char_end": "to character"},
        key="document_rated",
    )
elif layout == LAYOUTS[0]:
    tables.table(
        mistakes.select(
            "label",
            "category",
            pl.col("outcome").replace(palette.OUTCOME_LABELS),
            "matched_with",
            "tokens",
            "correction",
            "comment",
            "doc_token_start",
            "doc_token_end",
        ),
        column_config={"doc_token_start": "from token", "doc_token_end": "to token", "matched_with": "matched with"},
        key="document_mistakes",
    )
else:
    tables.table(
        pl.DataFrame(
            [
                {
                    "label": span.label,
                    "list": span.list_name,
                    "category": span.category,
                    "outcome": palette.OUTCOME_LABELS.get(span.outcome),
                    "tokens": span.tokens,
                    "correction": span.correction,
                    "comment": span.comment,
                    "doc_token_start": span.start,
                    "doc_token_end": span.end,
                }
                for span in marked_now
            ],
            schema={
                "label": pl.String,
                "list": pl.String,
                "category": pl.String,
                "outcome": pl.String,
                "tokens": pl.String,
                "correction": pl.String,
                "comment": pl.String,
                "doc_token_start": pl.Int64,
                "doc_token_end": pl.Int64,
            },  # fmt: skip
        ),
        column_config={"doc_token_start": "from token", "doc_token_end": "to token"},
        key="document_mistakes",
    )
