"""The dashboard's colours and labels, the same on every page and chart.

The category colours are the Okabe–Ito palette, which people with the common colour vision deficiencies can
tell apart: NOT_CHECKABLE is its black (a grey background in the document view), far from NAME's blue in every
vision tests/test_dashboard_spans.py simulates, where its sky blue was close. The document view never relies on
colour alone: its labels carry the category's initials (see spans.py)."""

from __future__ import annotations

import altair as alt

CATEGORIES = ["NAME", "NUMBER", "WORD", "CONTEXT", "NOT_CHECKABLE", "OTHER"]
CATEGORY_COLOURS = {
    "NAME": "#0072B2",
    "NUMBER": "#E69F00",
    "WORD": "#009E73",
    "CONTEXT": "#CC79A7",
    "NOT_CHECKABLE": "#000000",
    "OTHER": "#D55E00",
}
# In the document view's labels: NAME, NUMBER and NOT_CHECKABLE share their first letter.
CATEGORY_INITIALS = {"NAME": "Na", "NUMBER": "Nu", "WORD": "W", "CONTEXT": "C", "NOT_CHECKABLE": "NC", "OTHER": "O"}

# The outcome of a mistake when a submission is scored (queries/marts/mistake_outcomes.sql).
OUTCOMES = ["matched", "missed", "false_alarm"]
OUTCOME_LABELS = {"matched": "matched", "missed": "missed", "false_alarm": "false alarm"}
OUTCOME_COLOURS = {"matched": "#009E73", "missed": "#D55E00", "false_alarm": "#F0E442"}
OUTCOME_SYMBOLS = {"matched": "✓", "missed": "✗", "false_alarm": "!"}


def category_scale() -> alt.Scale:
    return alt.Scale(domain=CATEGORIES, range=[CATEGORY_COLOURS[c] for c in CATEGORIES])


def outcome_scale() -> alt.Scale:
    """Outcomes by their labels, as the tables and filters name them."""
    return alt.Scale(domain=[OUTCOME_LABELS[o] for o in OUTCOMES], range=[OUTCOME_COLOURS[o] for o in OUTCOMES])


def tint(colour: str, alpha: float = 0.28) -> str:
    """A colour as a translucent background, for text on it to stay readable."""
    red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgba({red}, {green}, {blue}, {alpha})"
