"""Reading a built database in a test: its rows for a query, on a read-only connection closed at once."""

from __future__ import annotations

from pathlib import Path

from accuracy_db.store import database


def rows(db: Path, sql: str, params=None) -> list:
    con = database.open_existing(db)
    try:
        return con.execute(sql, params).fetchall()
    finally:
        con.close()
