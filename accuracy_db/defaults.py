"""What every layer may need to know of the package itself: its version, and which database a command, the Python
API and the dashboard open when none is given."""

VERSION = "0.2.0"
DB_ENV = "ACCURACY_DB_PATH"  # the database of every command, connect() and query() when none is given
DEFAULT_DB = "accuracy.duckdb"
SQL_SECONDS_ENV = "ACCURACY_DB_SQL_SECONDS"  # the dashboard's limit on a query of its SQL page, set by `dashboard`
