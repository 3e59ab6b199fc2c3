"""One module a page of the dashboard; app.py lists them. Streamlit runs a page as a script on every rerun."""
