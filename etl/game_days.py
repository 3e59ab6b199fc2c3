"""The days of games.csv and shared_task.jsonl: MM_DD_YY."""

from __future__ import annotations

import re
from datetime import date, datetime

DAY = re.compile(r"([0-9]{2})_([0-9]{2})_([0-9]{2})")


def parse_day(text: str) -> date:
    """MM_DD_YY, e.g. 02_03_17 (two-digit years as strptime reads them: 69-99 are 19xx).

    strptime is slow: read the usual shape directly, and leave the others (2_3_17, errors) to strptime.
    """
    match = DAY.fullmatch(text)
    if match is None:
        return datetime.strptime(text, "%m_%d_%y").date()
    month, day, year = map(int, match.groups())
    return date(year + (2000 if year <= 68 else 1900), month, day)  # ValueError for a day that does not exist
