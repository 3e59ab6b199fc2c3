"""The dashboard's entry point, the file `accuracy-db dashboard` hands to `streamlit run`. Streamlit runs it on
every rerun: it lists the pages (one module each in app_pages/; not pages/, which Streamlit would also serve
by itself as an old-style multipage app), says which database is shown, and runs the page the reader chose."""

from pathlib import Path

import streamlit as st
from accuracy_db.dashboard import data
from accuracy_db.dashboard.literal import literal

# The icon is a file of the package: a Material icon here would be fetched from fonts.gstatic.com by every visitor.
st.set_page_config(page_title="accuracy-db", page_icon=str(Path(__file__).with_name("icon.png")), layout="wide")

PAGES = [
    st.Page("app_pages/leaderboard.py", title="Leaderboard", icon=":material/leaderboard:", default=True),
    st.Page("app_pages/significance.py", title="Significance", icon=":material/compare_arrows:"),
    st.Page("app_pages/agreement.py", title="Agreement", icon=":material/handshake:"),
    st.Page("app_pages/validity.py", title="Validity", icon=":material/scatter_plot:"),
    st.Page("app_pages/calibration.py", title="Calibration", icon=":material/tune:"),
    st.Page("app_pages/metrics.py", title="Metrics", icon=":material/query_stats:"),
    st.Page("app_pages/systems.py", title="Systems", icon=":material/format_list_numbered:"),
    st.Page("app_pages/difficulty.py", title="Difficulty", icon=":material/signal_cellular_alt:"),
    st.Page("app_pages/errors.py", title="Errors browser", icon=":material/manage_search:"),
    st.Page("app_pages/document.py", title="Document view", icon=":material/article:"),
    st.Page("app_pages/gold.py", title="Gold explorer", icon=":material/star:"),
    st.Page("app_pages/refresh.py", title="Refresh status", icon=":material/update:"),
    st.Page("app_pages/sql.py", title="SQL", icon=":material/terminal:"),
]

page = st.navigation(PAGES, expanded=True)  # every page named (collapsed past twelve, it hid three)
with st.sidebar:
    st.caption(f"Database: {literal(data.db_path().name)}")  # its name: where it lives is the server's own business
    if (latest := data.latest_publication()) is not None:
        st.caption(f"Published {latest:%Y-%m-%d %H:%M:%S}")
page.run()
