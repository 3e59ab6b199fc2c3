"""What every layer may need to know of the package itself: its version, and which database a command, the Python
API and the dashboard open when none is given."""

import os
from pathlib import Path

VERSION = "0.2.0"
DB_ENV = "ACCURACY_DB_PATH"  # the database of every command, connect() and query() when none is given
DEFAULT_DB = "accuracy.duckdb"  # the one definition: the commands' --db, the API and the dashboard take it
SQL_SECONDS_ENV = "ACCURACY_DB_SQL_SECONDS"  # the dashboard's limit on a query of its SQL page, set by `dashboard`
WARM_ENV = "ACCURACY_DB_WARM"  # "0": the dashboard computes no page's first view ahead (`dashboard --no-warm`)


def default_db() -> Path:
    """The database of the Python API and the dashboard when none is given: $ACCURACY_DB_PATH, else
    ./accuracy.duckdb (the commands' --db reads the same, through click)."""
    return Path(os.environ.get(DB_ENV) or DEFAULT_DB)
