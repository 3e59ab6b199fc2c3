"""SQL: any reading query of your own on the database, through the guard of accuracy_db.sqlbox.guard, the same as
`accuracy-db query` runs: one query at a time, nothing that writes or reaches files, in a process of its own with
a time, a memory, a row and a byte limit. A running query can be cancelled; the result stays until the next run."""

import re

import streamlit as st
from accuracy_db.dashboard import data, links, tables
from accuracy_db.dashboard.literal import literal

from accuracy_db.errors import AccuracyDbError

EXAMPLE = """SELECT rank, submission, split, recall, precision, f1
FROM leaderboard
WHERE scope = 'ALL'
ORDER BY split, rank, submission"""
DIALECTS = ["duckdb", "postgres", "sqlite", "mysql", "bigquery", "snowflake", "tsql"]


def start_from(analyses: dict[str, str]) -> None:
    """Put the chosen saved analysis in the query box."""
    chosen = st.session_state.analysis
    if chosen in analyses:
        st.session_state.sql = analyses[chosen]
        st.session_state.dialect = "duckdb"


def cancel() -> None:
    """The Cancel button's: the click stops the running script (and so its query's process), then this runs."""
    st.session_state.sql_pending = None
    st.session_state.sql_outcome = ("cancelled", "the query was cancelled", None)


def run(request: tuple) -> tuple[str, object]:
    """Run a query with a Cancel button and a clock beside it: ("result", QueryResult), or (kind, message)."""
    sql, params, dialect = request
    running = st.empty()
    with running.container():
        st.button("Cancel", key="sql_cancel", on_click=cancel, icon=":material/stop:")
        clock = st.empty()
    shown = [None]

    def tick(seconds: float) -> None:  # each update lets Streamlit stop the script: a click on Cancel, a left page
        half_seconds = int(seconds * 2) / 2
        if half_seconds != shown[0]:
            shown[0] = half_seconds
            clock.caption(f"Running… {half_seconds:.1f} s")

    try:
        result = data.guarded_query(sql, dict(params), None if dialect == "duckdb" else dialect, tick)
    except data.QueryRefused as refusal:
        return "refused", str(refusal)
    except AccuracyDbError as error:
        return "failed", str(error)
    finally:
        running.empty()
    return "result", result


def show(kind: str, value, dialect: str | None) -> None:
    """What a run came to: its rows (long values cut), or why there are none."""
    if kind == "cancelled":
        st.warning(value.capitalize() + ".")
        return
    if kind == "refused":
        st.error(f"Refused: {literal(value)}")
        return
    if kind == "failed":
        st.error(f"The query failed: {literal(value)}")
        return
    rows = len(value.frame)
    st.markdown(f"**{rows}** rows" + (f" (the first {rows}; there are more)" if value.truncated else ""))
    frame, cut = tables.cut_long_values(value.frame)
    if cut:
        st.caption(
            f"{cut:,} values longer than {tables.DISPLAY_CHARS:,} characters (or items) are cut here (…); "
            "the CSV gives them whole."
        )
    tables.table(frame, key="sql_result")
    if dialect != "duckdb":
        st.caption("Ran as DuckDB SQL:")
        st.code(value.sql, language="sql")
    st.download_button(
        "Download as CSV",
        data=lambda: data.bounded_csv(value.frame)[0],
        file_name="query.csv",
        mime="text/csv",
        on_click="ignore",
        icon=":material/download:",
    )


st.title("SQL")
st.caption(
    "One query at a time, read-only, checked by the same guard as `accuracy-db query` and run in a process of its "
    f"own: at most {data.SQL_ROW_LIMIT:,} rows, {data.megabytes(data.SQL_MAX_BYTES)} and {data.SQL_TIMEOUT:g} s. "
    "`$name` in the query asks for a value."
)
analyses = {analysis.name: analysis.sql for analysis in data.saved_analyses()}
# The query and its dialect live in the address, so a query can be shared as a link; it runs only on Run.
links.from_address("sql", "sql", default=EXAMPLE)
links.from_address("dialect", "dialect", DIALECTS)
questions = {analysis.name: analysis.question for analysis in data.saved_analyses()}
st.selectbox(
    "Start from a question a saved analysis answers",
    list(analyses),
    index=None,
    format_func=lambda name: questions[name] or name,
    placeholder="Which gold mistakes did every submission miss? How well did a submission do on each text? …",
    help="The saved analyses of queries/analysis/, by the question each answers (`accuracy-db query --list` "
    "names them).",
    key="analysis",
    on_change=start_from,
    args=(analyses,),
)
sql = st.text_area("Query", key="sql", height=220)
dialect = st.selectbox("Written in the SQL of", DIALECTS, key="dialect")
links.to_address(sql=None if sql == EXAMPLE else sql, dialect=None if dialect == "duckdb" else dialect)
names = list(dict.fromkeys(re.findall(r"\$([A-Za-z_]\w*)", re.sub(r"--[^\n]*|'[^']*'", " ", sql))))
params = {name: st.text_input(literal(f"${name}"), key=f"param-{name}") for name in names}
if st.button("Run", type="primary", icon=":material/play_arrow:"):
    st.session_state.sql_pending = (sql, tuple(params.items()), dialect)

pending = st.session_state.get("sql_pending")
if pending is not None:
    st.session_state.sql_outcome = (*run(pending), pending[2])
    st.session_state.sql_pending = None
if "sql_outcome" in st.session_state:
    show(*st.session_state.sql_outcome)

with st.expander("Tables and views"):
    tables.table(data.relations(), key="relations")
    st.caption("`accuracy-db schema` lists their columns too.")
