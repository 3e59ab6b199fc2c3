"""The limits of the SQL page's queries: what data.guarded_query passes to the guard, and what the benchmark of
the saved analyses runs them with (this module imports nothing, so that the benchmark measures no Streamlit)."""

SQL_ROW_LIMIT = 5_000  # rows the SQL page shows at most
SQL_TIMEOUT = 10.0  # seconds a query of the SQL page may run
SQL_MAX_BYTES = 20_000_000  # bytes a result of the SQL page (and a CSV download) may hold: fixed, for every visitor
SQL_QUERIES_AT_ONCE = 4  # queries of the SQL page running at once, all visitors together (each in its own process)
