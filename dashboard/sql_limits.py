"""The limits of the SQL page's queries: what data.guarded_query passes to the guard, and what the benchmark of
the saved analyses runs them with (this module imports no Streamlit, so that the benchmark measures none)."""

import os

from accuracy_db.defaults import SQL_SECONDS_ENV

SQL_ROW_LIMIT = 5_000  # rows the SQL page shows at most
SQL_TIMEOUT = float(os.environ.get(SQL_SECONDS_ENV) or 10)  # seconds a query may run: `dashboard --sql-seconds`
SQL_MAX_BYTES = 20_000_000  # bytes a result of the SQL page (and a CSV download) may hold: fixed, for every visitor
SQL_QUERIES_AT_ONCE = 4  # queries of the SQL page running at once, all visitors together (each in its own process)
