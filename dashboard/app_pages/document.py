"""Document view: one text with the gold mistakes and one submission's mistakes marked on it (how each was
scored, from the mistake_outcomes view), and beside it the box score of the game it describes."""

import re

import polars as pl
import streamlit as st
from accuracy_db.dashboard import box_score, data, palette, spans, tables
from accuracy_db.dashboard.links import NO_SUBMISSION
from accuracy_db.dashboard.literal import literal

WEB_ADDRESS = re.compile(r"https://[A-Za-z0-9.-]+/[A-Za-z0-9._~/%-]*")  # linked only when it is one

TEXT = """
SELECT texts.text_id, texts.split, list(tokens.token ORDER BY tokens.doc_token) AS tokens
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
    players.pf AS PF
FROM player_games AS players
LEFT JOIN team_games AS teams USING (text_id, side)
WHERE players.text_id = $text
ORDER BY players.side DESC NULLS LAST, players.starter DESC, players.minutes DESC NULLS LAST, players.player_index
"""


def move(text_ids: list[str], step: int) -> None:
    """Go to the previous (-1) or next (+1) text."""
    position = text_ids.index(st.session_state.text) + step
    st.session_state.text = text_ids[position % len(text_ids)]


st.title("Document view")
choices = data.read(
    texts="SELECT text_id, split FROM texts ORDER BY split DESC, text_id",
    submissions="SELECT submission, split FROM evaluations ORDER BY submission",
)
text_ids = choices["texts"]["text_id"].to_list()
if not text_ids:
    st.info("The database has no texts.")
    st.stop()
if "text" not in st.session_state:  # a link can name the text: /document?text=S001
    st.session_state.text = st.query_params.get("text") if st.query_params.get("text") in text_ids else text_ids[0]

top = st.columns([2, 3, 1, 1], vertical_alignment="bottom")
text_id = top[0].selectbox("Text", text_ids, key="text")
split = choices["texts"].filter(text_id=text_id)["split"][0]
options = [*choices["submissions"].filter(split=split)["submission"].to_list(), NO_SUBMISSION]
wanted = st.query_params.get("submission")  # and the submission: /document?text=S001&submission=submission
submission = top[1].selectbox(
    "Submission", options, index=options.index(wanted) if wanted in options else 0, key=f"submission-{split}"
)
top[2].button("Previous", on_click=move, args=(text_ids, -1), icon=":material/arrow_back:", width="stretch")
top[3].button("Next", on_click=move, args=(text_ids, 1), icon=":material/arrow_forward:", width="stretch")
st.query_params.update(text=text_id, submission=submission)  # the address names what is shown

params = {"text": text_id, "submission": None if submission == NO_SUBMISSION else submission}
frames = data.read(
    text=(TEXT, params),
    mistakes=(MISTAKES, params),
    game=(GAME, params),
    teams=(TEAMS, params),
    players=(PLAYERS, params),
)
mistakes = frames["mistakes"]
marked = {"gold": [], "submitted": []}
for row in mistakes.iter_rows(named=True):
    marked[row["side"]].append(
        spans.Span(
            label=row["label"],
            side=row["side"],
            start=row["doc_token_start"],
            end=row["doc_token_end"],
            category=row["category"],
            outcome=row["outcome"],
            tokens=row["tokens"],
            correction=row["correction"],
            comment=row["comment"],
            counterpart=row["matched_with"],
        )
    )

reading, game_column = st.columns([1, 1], gap="large")
with reading:
    gold_count, submitted_count = len(marked["gold"]), len(marked["submitted"])
    summary = f"**{literal(text_id)}** ({literal(split)}): {gold_count} gold mistakes"
    if params["submission"]:
        missed = sum(span.outcome == "missed" for span in marked["gold"])
        alarms = sum(span.outcome == "false_alarm" for span in marked["submitted"])
        summary += (
            f"; {literal(submission)} lists {submitted_count}: {gold_count - missed} gold mistakes matched, "
            f"{missed} missed, {alarms} false alarms (ALL scope)."
        )
    st.markdown(summary)
    used = {span.category for span in marked["gold"] + marked["submitted"]}
    shown = [category for category in palette.CATEGORIES if category in used]
    st.html(spans.legend_html(shown, with_submission=params["submission"] is not None))
    st.html(spans.text_html(frames["text"]["tokens"][0].to_list(), marked["gold"], marked["submitted"]))

with game_column:
    game = frames["game"]
    if game.is_empty():
        st.info("No game data for this text.")
    else:
        game = game.row(0, named=True)
        teams = frames["teams"]
        st.subheader(literal(f"{game['vis_city']} {game['vis_name']} at {game['home_city']} {game['home_name']}"))
        caption = f"{game['game_date']:%A %-d %B %Y}" if game["game_date"] else ""
        if game["bref_box_url"] and WEB_ADDRESS.fullmatch(game["bref_box_url"]):
            caption += f" · [box score on basketball-reference.com]({game['bref_box_url']})"
        st.markdown(caption)
        highlights = box_score.highlight_css(marked["gold"] + marked["submitted"], teams, frames["players"])
        with st.container(key="box_score"):
            st.html(box_score.box_score_html(teams, frames["players"]) + highlights)
        st.caption("Point at a marked word, or click it: the players and teams its mistake names light up.")

# Below both columns: the whole width keeps every column of the list in view at 1440 px.
st.subheader("Mistakes")
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
