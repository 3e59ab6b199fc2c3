"""The Streamlit dashboard of accuracy-db (`accuracy-db dashboard`): app.py is the entry point, app_pages/ holds
one module a page, and data.py is the only place it reads the database."""

from accuracy_db.defaults import DB_ENV  # noqa: F401  the database to show, set by `accuracy-db dashboard --db PATH`
