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

TEXT = """
SELECT texts.text_id, texts.split, texts.source_data, texts.generated_text,
    json_extract_string(texts.source_data, '$.source') AS source,
    list(tokens.token ORDER BY tokens.doc_token) AS tokens
FROM texts
JOIN tokens USING (text_id)
WHERE texts.text_id = $text
GROUP BY ALL
"""

# Numbered in reading order, G for gold and S for submitted: the labels on the text and in the side list.
MISTAKES = """
WITH listed AS (
    SELECT side, mistake_id, outcome, counterpart_id, doc_token_start, doc_token_end, category, tokens,
        correction, comment
    FROM mistake_outcomes
    WHERE submission = $submission AND scope = 'ALL' AND text_id = $text
    UNION ALL
    SELECT 'gold', mistake_id, NULL, NULL, doc_token_start, doc_token_end, category, tokens, correction, comment
    FROM gold_mistakes
    WHERE $submission IS NULL AND text_id = $text
),

labelled AS (
    SELECT
        CASE side WHEN 'gold' THEN 'G' ELSE 'S' END
            || row_number() OVER (PARTITION BY side ORDER BY doc_token_start) AS label,
        *
    FROM listed
)
SELECT labelled.*, counterpart.label AS matched_with
FROM labelled
LEFT JOIN labelled AS counterpart ON counterpart.mistake_id = labelled.counterpart_id
ORDER BY labelled.side, labelled.doc_token_start
"""

GAME = """
SELECT game_date, home_city, home_name, vis_city, vis_name, bref_box_url
FROM games
WHERE text_id = $text
"""

TEAMS = """
SELECT
    team_name AS team,
    team_city AS city,
    side,
    wins || '–' || losses AS record,
    pts_qtr1 AS Q1, pts_qtr2 AS Q2, pts_qtr3 AS Q3, pts_qtr4 AS Q4, pts AS PTS,
    fg_pct AS "FG%", fg3_pct AS "3P%", ft_pct AS "FT%", reb AS REB, ast AS AST, tov AS TOV
FROM team_games
WHERE text_id = $text
ORDER BY side DESC
"""

PLAYERS = """
SELECT
    coalesce(teams.team_name, players.team_city) AS team,
    players.player_name AS player,
    players.second_name AS surname,
    coalesce(players.start_position, '') AS pos,
    CASE WHEN players.did_not_play THEN 'DNP' ELSE players.minutes::VARCHAR END AS MIN,
    players.pts AS PTS,
    players.fgm || '-' || players.fga AS FG,
    players.fg3m || '-' || players.fg3a AS "3P",
    players.ftm || '-' || players.fta AS FT,
    players.reb AS REB, players.ast AS AST, players.stl AS STL, players.blk AS BLK, players.tov AS TOV,
    players.pf AS PF,
    players.side,
    players.player_index
FROM player_games AS players
LEFT JOIN team_games AS teams USING (text_id, side)
WHERE players.text_id = $text
ORDER BY players.side DESC NULLS LAST, players.starter DESC, players.minutes DESC NULLS LAST, players.player_index
"""

# The box-score checker's findings on the text, and the cells of the box score they contradict.
FINDINGS = """
SELECT doc_token_start, tokens, category, entity, stat, claimed, actual, rule
FROM boxscore_findings
WHERE text_id = $text
ORDER BY doc_token_start
"""
FINDING_CELLS = "SELECT * FROM boxscore_finding_cells WHERE text_id = $text"

# The errors raters marked on an MQM text or its source, numbered E1, E2… in reading order, the target first.
RATED = """
SELECT
    'E' || row_number() OVER (ORDER BY side DESC, char_start, char_end, line_number, error_index) AS label,
    side, char_start, char_end, severity, category, rater
FROM rated_error_spans
WHERE text_id = $text
ORDER BY side DESC, char_start, char_end, line_number, error_index
"""

# The lists of the lanes and side-by-side layouts, each span with its outcome when its list is a scored
# submission (matched or a false alarm in the ALL scope, against the gold list).
LISTED = """
SELECT listed.set_id, listed.mistake_id, listed.doc_token_start, listed.doc_token_end, listed.category,
    listed.tokens, listed.correction, listed.comment, outcomes.outcome
FROM mistakes AS listed
LEFT JOIN (
    SELECT mistake_id, outcome FROM mistake_outcomes WHERE text_id = $text AND scope = 'ALL' AND side = 'submitted'
) AS outcomes USING (mistake_id)
WHERE listed.text_id = $text AND list_contains($set_ids, listed.set_id)
ORDER BY listed.set_id, listed.doc_token_start
"""

LISTS = """
SELECT set_id, CASE kind WHEN 'gold' THEN 'gold list' ELSE name END AS list
FROM annotation_sets
WHERE corpus = $corpus AND split = $split
ORDER BY kind <> 'gold', name
"""

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
    found = data.read_one("SELECT corpus FROM texts WHERE text_id = $text", {"text": given_text})
    if not found.is_empty():
        st.query_params["corpus"] = found["corpus"][0]
# The corpus on a row of its own (only when there are several): the row below keeps today's widths.
corpus = data.choose_corpus(st.columns([2, 5])[0] if len(data.corpora()) > 1 else None)
top = st.columns([2, 3, 1, 1], vertical_alignment="bottom")
categories = data.categories(corpus)
choices = data.read(
    texts=("SELECT text_id, split FROM texts WHERE corpus = $corpus ORDER BY split DESC, text_id", {"corpus": corpus}),
    submissions=(
        "SELECT submission, split FROM evaluations WHERE corpus = $corpus ORDER BY submission",
        {"corpus": corpus},
    ),
)
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
frames = data.read(
    text=(TEXT, params),
    mistakes=(MISTAKES, params),
    game=(GAME, params),
    teams=(TEAMS, params),
    players=(PLAYERS, params),
    findings=(FINDINGS, params),
    finding_cells=(FINDING_CELLS, params),
    rated=(RATED, params),
)
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
    lists = data.read_one(LISTS, {"corpus": corpus, "split": split})
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
    rows = data.read_one(LISTED, {"text": text_id, "set_ids": chosen})
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
            st.caption(f"{left_out} more tables: the query `SELECT source_data FROM texts` gives the whole of it.")
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
