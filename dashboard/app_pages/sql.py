"""SQL: any reading query of your own on the database, through the guard of accuracy_db.guard, the same as
`accuracy-db query` runs: one query at a time, nothing that writes or reaches files, a time and a row limit."""

import re

import streamlit as st
from accuracy_db.dashboard import data, tables

from accuracy_db.analyses import saved_analyses
from accuracy_db.errors import AccuracyDbError
from accuracy_db.guard import QueryRefused

EXAMPLE = """SELECT rank, submission, split, recall, precision, f1
FROM leaderboard
WHERE scope = 'ALL'
ORDER BY split, rank, submission"""
DIALECTS = ["duckdb", "postgres", "sqlite", "mysql", "bigquery", "snowflake", "tsql"]

RELATIONS = """
SELECT table_name AS name, 'table' AS kind, comment AS description FROM duckdb_tables() WHERE schema_name = 'main'
UNION ALL
SELECT view_name, 'view', comment FROM duckdb_views() WHERE schema_name = 'main' AND NOT internal
ORDER BY kind, name
"""


def start_from(analyses: dict[str, str]) -> None:
    """Put the chosen saved analysis in the query box."""
    chosen = st.session_state.analysis
    if chosen in analyses:
        st.session_state.sql = analyses[chosen]
        st.session_state.dialect = "duckdb"


st.title("SQL")
st.caption(
    "One query at a time, read-only, checked by the same guard as `accuracy-db query`; at most "
    f"{data.SQL_ROW_LIMIT} rows and {data.SQL_TIMEOUT:g} s. `$name` in the query asks for a value."
)
analyses = {analysis.name: analysis.sql for analysis in saved_analyses()}
st.session_state.setdefault("sql", EXAMPLE)
st.selectbox(
    "Start from a saved analysis",
    list(analyses),
    index=None,
    placeholder="a question queries/analysis/ answers…",
    key="analysis",
    on_change=start_from,
    args=(analyses,),
)
sql = st.text_area("Query", key="sql", height=220)
dialect = st.selectbox("Written in the SQL of", DIALECTS, key="dialect")
names = list(dict.fromkeys(re.findall(r"\$([A-Za-z_]\w*)", re.sub(r"--[^\n]*|'[^']*'", " ", sql))))
params = {name: st.text_input(f"${name}", key=f"param-{name}") for name in names}
if st.button("Run", type="primary", icon=":material/play_arrow:"):
    st.session_state.ran = (sql, params, dialect)

if "ran" in st.session_state:
    sql, params, dialect = st.session_state.ran
    try:
        result = data.guarded_query(sql, params, None if dialect == "duckdb" else dialect)
    except QueryRefused as refusal:
        st.error(f"Refused: {refusal}")
    except AccuracyDbError as error:
        st.error(f"The query failed: {error}")
    else:
        rows = len(result.frame)
        st.markdown(f"**{rows}** rows" + (f" (the first {rows}; there are more)" if result.truncated else ""))
        tables.table(result.frame, key="sql_result")
        if dialect != "duckdb":
            st.caption("Ran as DuckDB SQL:")
            st.code(result.sql, language="sql")
        st.download_button(
            "Download as CSV",
            data=result.frame.write_csv(),
            file_name="query.csv",
            mime="text/csv",
            on_click="ignore",
            icon=":material/download:",
        )

with st.expander("Tables and views"):
    tables.table(data.read_one(RELATIONS), key="relations")
    st.caption("`accuracy-db schema` lists their columns too.")
