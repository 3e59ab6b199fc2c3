"""A text's source data (texts.source_data: the JSON a corpus gives each text, what it was generated from) as
tables, for the document view of a corpus without box scores: an object's plain fields as one table of fields and
values, a list of objects as a table with a row each, and every nested object or list as a table of its own, named
by its path (data.players, data.players[0].stats)."""

from __future__ import annotations

import json

MAX_TABLES = 30  # a source shows at most so many tables (the SQL page gives the rest)


def _cell(value) -> str | None:
    """A plain value as text (a column of a table holds one type); None stays None (shown as –)."""
    if value is None:
        return None
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _nested(value) -> bool:
    return isinstance(value, (dict, list))


def tables_of(value, path: str = "data") -> list[tuple[str, list[dict]]]:
    """The tables of a JSON value: (path, rows) in document order."""
    if isinstance(value, dict):
        plain = [{"field": key, "value": _cell(item)} for key, item in value.items() if not _nested(item)]
        found = [(path, plain)] if plain else []
        for key, item in value.items():
            if _nested(item):
                found += tables_of(item, f"{path}.{key}")
        return found
    if isinstance(value, list):
        if value and all(isinstance(item, dict) for item in value):
            columns = list(dict.fromkeys(key for item in value for key, v in item.items() if not _nested(v)))
            found = [(path, [{column: _cell(item.get(column)) for column in columns} for item in value])]
            found = found if columns else []
            for number, item in enumerate(value):
                for key, nested in item.items():
                    if _nested(nested):
                        found += tables_of(nested, f"{path}[{number}].{key}")
            return found
        if not any(_nested(item) for item in value):
            return [(path, [{"value": _cell(item)} for item in value])]
        found = []
        for number, item in enumerate(value):
            found += (
                tables_of(item, f"{path}[{number}]")
                if _nested(item)
                else [(f"{path}[{number}]", [{"value": _cell(item)}])]
            )
        return found
    return [(path, [{"field": path, "value": _cell(value)}])]


def source_tables(source: str) -> tuple[list[tuple[str, list[dict]]], int]:
    """The tables of a text's source data (JSON text) and how many were left out beyond MAX_TABLES; a text that is
    not JSON is one table of one value."""
    try:
        value = json.loads(source)
    except ValueError:
        return [("data", [{"field": "data", "value": source}])], 0
    found = tables_of(value)
    return found[:MAX_TABLES], max(0, len(found) - MAX_TABLES)
