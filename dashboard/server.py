"""The dashboard's server process: Streamlit's `streamlit run`, started once the libraries the pages draw with are
imported whole. Streamlit runs each visitor's page in a thread of its own. A library first imported by one of them
sits in sys.modules half made while another visitor's page runs code that looks it up there instead of importing it
(altair asks sys.modules for pandas to recognise timestamps; polars and narwhals do the same for pandas, pyarrow and
numpy), which then fails with "partially initialized module": ten browsers on a fresh server met it
(tests/test_dashboard_browser.py's crowd)."""

import sys

import altair  # noqa: F401
import numpy  # noqa: F401
import pandas  # noqa: F401
import polars  # noqa: F401
import pyarrow  # noqa: F401
from streamlit.web import cli

if __name__ == "__main__":
    sys.exit(cli.main(prog_name="streamlit"))
